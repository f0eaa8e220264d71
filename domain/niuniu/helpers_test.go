package niuniu

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// clockStart is where the tests' clocks start.
var clockStart = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// datedSeq is a seedSeq that dates its deals by a clock the test moves
// (table.DealClock), as the service's source does.
type datedSeq struct {
	gametest.SeedSeq
	now *time.Time
}

func (q *datedSeq) DealTime() time.Time { return *q.now }

func rulesWith(t testing.TB, options string) *Rules {
	t.Helper()
	r, err := New().Rules("classic", json.RawMessage(options))
	if err != nil {
		t.Fatal(err)
	}
	return table.Adapted(r).(*Rules)
}

// openTable opens a table at stake and seats players p0.. in order; the
// first deal follows the last join.
func openTable(t testing.TB, r *Rules, stake int, seeds table.SeedSource) *table.State {
	t.Helper()
	st := table.New(r.untyped())
	evs, err := table.Open(r.untyped(), "t", "niuniu", "classic", stake, "p0")
	if err != nil {
		t.Fatal(err)
	}
	gametest.ApplyAll(st, evs)
	for i := range r.Seats() {
		evs, err := table.Join(st, fmt.Sprintf("p%d", i), fmt.Sprintf("Player %d", i), -1, seeds)
		if err != nil {
			t.Fatal(err)
		}
		gametest.ApplyAll(st, evs)
	}
	return st
}

// position builds a table dealt the given hands (one per seat, in notation),
// at stake; the seats arrange next.
func position(t testing.TB, r *Rules, stake int, hands ...string) *table.State {
	t.Helper()
	return positionAt(t, r, stake, r.Banker(), hands...)
}

// positionAt is position with the hand's banker named, as a table whose
// banker moves (banker_mode rotate or random) deals it.
func positionAt(t testing.TB, r *Rules, stake, banker int, hands ...string) *table.State {
	t.Helper()
	if len(hands) != r.Seats() {
		t.Fatalf("position of %d hands for %d seats", len(hands), r.Seats())
	}
	st := table.New(r.untyped())
	table.Apply(st, table.TableOpened{TableID: "pos", Game: "niuniu", Variant: "classic",
		Options: r.Options(), Stake: stake, Seats: r.Seats(), RulesVersion: r.Version()})
	for i := range r.Seats() {
		table.Apply(st, table.PlayerSeated{Seat: i, PlayerID: fmt.Sprintf("p%d", i)})
	}
	seed := cards.Seed{1, 2, 3}
	d := table.HandDealt{Hand: 1, Deal: 1, Commitment: seed.Commitment(), FirstSeat: banker}
	for _, h := range hands {
		cs := cards.MustParse(h)
		if len(cs) != HandSize {
			t.Fatalf("hand %q has %d cards", h, len(cs))
		}
		Sort(cs)
		d.Hands = append(d.Hands, cs)
	}
	table.Apply(st, d)
	table.Apply(st, table.DealSecret{Hand: 1, Deal: 1, Seed: seed.String()})
	return st
}

func arrangeA(cs string) table.Action {
	return table.Action{Type: ActionArrange, Cards: cards.MustParse(cs)}
}
func noBullA() table.Action { return table.Action{Type: ActionNoBull} }

// arrangeBest has seat arrange its first bull, or declare no bull.
func arrangeBest(t testing.TB, st *table.State, seat int) []table.Payload {
	t.Helper()
	legal := st.Rules.Legal(st.G, seat)
	return gametest.MustAct(t, st, seat, legal[0])
}
