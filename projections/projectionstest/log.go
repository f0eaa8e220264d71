// Package projectionstest is the conformance suite of a projection store
// (projections/sqlite, projections/postgres): the behaviour every store
// keeps, with the event logs it is checked on and a snapshot of every read
// the API makes, so that two stores fed the same log can be compared
// answer for answer.
package projectionstest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"paiju/domain/table"
	"paiju/eventstore"
)

// Log is an event log built in memory: a projections.Source.
type Log struct {
	Events []eventstore.Event
	at     time.Time
	// versions of each stream
	versions map[string]int
}

// NewLog starts an empty log whose events are recorded from start on.
func NewLog(start time.Time) *Log { return &Log{at: start, versions: map[string]int{}} }

// Add appends p to stream, recorded step after the previous event.
func (l *Log) Add(stream string, step time.Duration, p table.Payload) {
	data, err := json.Marshal(p)
	if err != nil {
		panic(err)
	}
	l.AddRaw(stream, step, p.EventType(), data)
}

// AddRaw appends an event of any type, as a game's own events are.
func (l *Log) AddRaw(stream string, step time.Duration, typ string, data []byte) {
	l.at = l.at.Add(step)
	l.versions[stream]++
	pos := int64(len(l.Events) + 1)
	l.Events = append(l.Events, eventstore.Event{
		Position: pos, Stream: stream, Version: l.versions[stream], Type: typ, Data: data,
		RecordedAt: l.at, Hash: fmt.Sprintf("h%d-%s-%d", pos, stream, l.versions[stream]),
	})
}

// Now is an hour after the last event: the clock a store reads the log's
// leaderboards at.
func (l *Log) Now() time.Time { return l.at.Add(time.Hour) }

// Head is the position and hash of the last event.
func (l *Log) Head(context.Context) (int64, string, error) {
	if len(l.Events) == 0 {
		return 0, "", nil
	}
	last := l.Events[len(l.Events)-1]
	return last.Position, last.Hash, nil
}

// ReadAll returns up to limit events after position from.
func (l *Log) ReadAll(_ context.Context, from int64, limit int) ([]eventstore.Event, error) {
	if from >= int64(len(l.Events)) {
		return nil, nil
	}
	return l.Events[from:min(int64(len(l.Events)), from+int64(limit))], nil
}

// Kinds of table the random log opens: game, variant, seats.
var randomKinds = []struct {
	game, variant string
	seats         int
}{
	{"shengji", "tractor", 4}, {"shengji", "zhaopengyou", 5}, {"doudizhu", "classic", 3}, {"guandan", "standard", 4},
}

// Players of the random log: more than any table holds, so players move
// between tables.
var randomPlayers = []string{"P01", "P02", "P03", "P04", "P05", "P06", "P07", "P08", "P09", "P10", "P11", "P12", "P13"}

// Names of random players: some change their name, which the leaderboards
// follow.
func randomName(r *rand.Rand, id string) string {
	if r.IntN(8) == 0 {
		return "新" + id
	}
	return "name-" + id
}

// randomTable is a table of the random log as it is being played.
type randomTable struct {
	id, stream string
	seats      []string // player per seat, "" when empty
	hand       int
	inHand     bool
	deal       int
	closed     bool
	maxHands   int
}

// RandomLog is a log of tables (of several games and variants, with
// options, clocks and turn limits) played at random from seed: players sit,
// leave and escape, hands are dealt, re-dealt, played and settled, tables
// close, and streams that are not tables interleave. Events are recorded
// over some weeks from 2026-11-02 (UTC), so that every leaderboard period
// holds some of them at Now.
func RandomLog(seed uint64, tables, events int) *Log { return randomLog(seed, tables, events, 12) }

// Events is how many events a test's random log holds: full, or a fifth
// of it with -short (make test's race pass). The tests that size their log
// with it compare two ways of applying one log in one goroutine; the race
// detector finds nothing more in a longer log, and the pass without -race
// plays the full one.
func Events(full int) int {
	if testing.Short() {
		return full / 5
	}
	return full
}

// LongHandsLog is RandomLog with hands of some thirty plays, as the games'
// hands are (a 斗地主 hand plays 20 to 50 times): most events are then
// plays, which change no row but the hand's record.
func LongHandsLog(seed uint64, tables, events int) *Log { return randomLog(seed, tables, events, 64) }

// randomLog plays, at a table in a hand, one event of choices: a re-deal,
// an escape, a settlement for two, a play for the others.
func randomLog(seed uint64, tables, events, choices int) *Log {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	l := NewLog(time.Date(2026, 11, 2, 3, 0, 0, 0, time.UTC))
	// About five weeks in all.
	avg := max(35*24*60/events, 1)
	step := func() time.Duration { return time.Duration(1+r.IntN(2*avg)) * time.Minute }
	var ts, live []*randomTable
	for len(l.Events) < events {
		// The tables not closed, in the order they opened; kept from one
		// step to the next, since scanning every table ever opened made a
		// long log's making quadratic.
		live = slices.DeleteFunc(live, func(t *randomTable) bool { return t.closed })
		// Past the number of tables asked for only when all are closed.
		if len(live) == 0 || len(ts) < tables && r.IntN(6) == 0 {
			k := randomKinds[r.IntN(len(randomKinds))]
			t := &randomTable{id: fmt.Sprintf("T%02d", len(ts)+1), seats: make([]string, k.seats)}
			t.stream = "table-" + t.id
			o := table.TableOpened{TableID: t.id, Game: k.game, Variant: k.variant, Seats: k.seats, Stake: 1 + r.IntN(2), RulesVersion: "1", OpenedBy: "P01"}
			switch r.IntN(5) {
			case 0:
				o.Options = json.RawMessage(`{ "level" : 2 }`)
			case 1:
				o.Clock = &table.Clock{TurnSeconds: 30, DelegateAfter: 2}
			case 2:
				o.MaxHands = 3
				t.maxHands = 3
			}
			l.Add(t.stream, step(), o)
			ts = append(ts, t)
			live = append(live, t)
			continue
		}
		if r.IntN(15) == 0 {
			l.AddRaw("player-"+randomPlayers[r.IntN(len(randomPlayers))], step(), "PlayerRenamed", []byte(`{"name":"x"}`))
			continue
		}
		randomStep(r, l, live[r.IntN(len(live))], step, choices)
	}
	return l
}

// randomStep plays one event (or a few) of t.
func randomStep(r *rand.Rand, l *Log, t *randomTable, step func() time.Duration, choices int) {
	free, seated := -1, 0
	for s, p := range t.seats {
		if p == "" && free < 0 {
			free = s
		}
		if p != "" {
			seated++
		}
	}
	at := func(p table.Payload) { l.Add(t.stream, step(), p) }
	if !t.inHand {
		switch {
		case free >= 0 && r.IntN(4) > 0:
			p := randomPlayers[r.IntN(len(randomPlayers))]
			for _, q := range t.seats {
				if q == p {
					return
				}
			}
			t.seats[free] = p
			at(table.PlayerSeated{Seat: free, PlayerID: p, Name: randomName(r, p), Bot: r.IntN(5) == 0})
		case seated > 0 && r.IntN(6) == 0:
			s := r.IntN(len(t.seats))
			if t.seats[s] == "" {
				return
			}
			at(table.PlayerLeft{Seat: s, PlayerID: t.seats[s]})
			t.seats[s] = ""
		case seated > 0 && r.IntN(25) == 0:
			at(table.TableClosed{Reason: "players left", Totals: make([]int, len(t.seats))})
			t.closed = true
		case free < 0:
			t.hand++
			t.inHand, t.deal = true, 1
			deal(r, l, t, step)
		}
		return
	}
	switch n := r.IntN(choices); {
	case n == 0 && t.deal < 3:
		at(table.DealVoided{Hand: t.hand, Deal: t.deal, Reason: "all passed", Seed: fmt.Sprintf("%064x", t.hand*10+t.deal)})
		t.deal++
		deal(r, l, t, step)
	case n == 1:
		s := r.IntN(len(t.seats))
		at(table.PlayerEscaped{Seat: s, PlayerID: t.seats[s], Hand: t.hand})
		t.seats[s] = ""
		settle(r, l, t, step, s)
	case n < 4:
		settle(r, l, t, step, -1)
	default:
		l.AddRaw(t.stream, step(), "CardsPlayed", fmt.Appendf(nil, `{"seat":%d,"cards":["S%d","H%d"]}`, r.IntN(len(t.seats)), 2+r.IntN(9), 2+r.IntN(9)))
	}
}

func deal(r *rand.Rand, l *Log, t *randomTable, step func() time.Duration) {
	hands := make([][]string, len(t.seats))
	for s := range hands {
		hands[s] = []string{fmt.Sprintf("S%d", 2+r.IntN(9)), "HJ"}
	}
	data, _ := json.Marshal(map[string]any{"hand": t.hand, "deal": t.deal, "commitment": fmt.Sprintf("c%d.%d", t.hand, t.deal),
		"hands": hands, "kitty": []string{"D3"}, "first_seat": r.IntN(len(t.seats))})
	l.AddRaw(t.stream, step(), "HandDealt", data)
	l.Add(t.stream, step(), table.DealSecret{Hand: t.hand, Deal: t.deal, Seed: fmt.Sprintf("%064x", t.hand*10+t.deal)})
}

// settle ends t's hand with deltas that sum to zero (the escaper, if any,
// pays the others and the house).
func settle(r *rand.Rand, l *Log, t *randomTable, step func() time.Duration, escaper int) {
	deltas := make([]int, len(t.seats))
	house := 0
	sum := 0
	for s := range deltas {
		deltas[s] = r.IntN(41) - 20
		sum += deltas[s]
	}
	if escaper >= 0 {
		deltas[escaper] = -60
		house = -sum + 60
	} else {
		deltas[0] -= sum
	}
	l.Add(t.stream, step(), table.HandSettled{Hand: t.hand, Deltas: deltas, House: house,
		Result: json.RawMessage(fmt.Sprintf(`{"winner":%d}`, r.IntN(len(t.seats)))), Seed: fmt.Sprintf("%064x", t.hand*10+t.deal)})
	t.inHand = false
	if t.maxHands > 0 && t.hand >= t.maxHands {
		l.Add(t.stream, step(), table.TableClosed{Reason: "max_hands", Totals: deltas})
		t.closed = true
	}
}

// RedealtLog: hand 1 of T1 is dealt and settled, C's seat changes hands,
// and hand 1 is dealt and settled again. The hand's record keeps the
// seats of its first deal (as INSERT OR IGNORE kept them) and takes the
// last settlement; each settlement credits the seats of the record.
func RedealtLog() *Log {
	l := NewLog(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	const s = "table-T1"
	l.Add(s, time.Second, table.TableOpened{TableID: "T1", Game: "g", Variant: "v", Seats: 3, Stake: 1})
	for seat, id := range []string{"A", "B", "C"} {
		l.Add(s, time.Second, table.PlayerSeated{Seat: seat, PlayerID: id, Name: "name" + id})
	}
	l.Add(s, time.Second, table.HandDealt{Hand: 1, Deal: 1, Commitment: "c"})
	l.Add(s, time.Second, table.HandSettled{Hand: 1, Deltas: []int{1, -1, 0}, Seed: "s"})
	l.Add(s, time.Second, table.PlayerLeft{Seat: 2, PlayerID: "C"})
	l.Add(s, time.Second, table.PlayerSeated{Seat: 2, PlayerID: "D", Name: "nameD"})
	l.Add(s, time.Second, table.HandDealt{Hand: 1, Deal: 1, Commitment: "c2"})
	l.Add(s, time.Second, table.HandSettled{Hand: 1, Deltas: []int{2, 0, -2}, Seed: "s2"})
	l.Add(s, time.Second, table.HandDealt{Hand: 2, Deal: 1, Commitment: "c3"})
	l.Add(s, time.Second, table.HandSettled{Hand: 2, Deltas: []int{3, -3, 0}, Seed: "s3"})
	return l
}
