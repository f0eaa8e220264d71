package doudizhu

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/internal/gametest"
	"paiju/domain/table"
)

// seatPlayer is the id openTable gives the player of seat.
func seatPlayer(seat int) string { return "p" + string(rune('0'+seat)) }

// escapeHand ends the running hand by an escape of seat during the bidding
// (a farmer at ×1: 8 × stake, shared) and seats a new player in its place.
func escapeHand(t *testing.T, st *table.State, seat int, newPlayer string, seeds table.SeedSource) []table.Payload {
	t.Helper()
	evs := gametest.MustAct(t, st, seat, table.Action{Type: table.ActionEscape})
	if !st.Closed {
		gametest.ApplyAll(st, mustJoin(t, st, newPlayer, seeds))
	}
	return evs
}

func TestMatch(t *testing.T) {
	const rule = "doudizhu.md, Tournament (002: N hands, totals per player, a tie for first plays extra hands)"
	for _, variant := range []string{"classic", "hubei", "fourplayer"} {
		t.Run(variant, func(t *testing.T) {
			r := rulesOf(t, variant, `{"hands":2}`)
			n := r.v.seats
			seeds := &gametest.SeedSeq{ID: 21}
			st := openTable(t, r, 1, seeds)
			if v := r.View(st.G.(*State), 0).Game.(GameView); v.Match == nil || v.Match.Hands != 2 || v.Match.Played != 0 || v.Match.Over || len(v.Match.Standings) != n {
				t.Fatalf("the view's match %+v, want 2 hands, none played (%s)", v.Match, rule)
			}
			// Hand 1: seat 0 escapes (-8, the others share +8).
			evs := escapeHand(t, st, 0, "q0", seeds)
			if slices.Contains(gametest.EventTypes(evs), "MatchEnded") {
				t.Fatalf("the match ends after hand 1 of 2: %v", gametest.EventTypes(evs))
			}
			// Hand 2: another seat escapes, and one seat leads alone: with
			// three seats seat 1 escapes and seat 2 leads (+4 +4 = 8); with
			// four (remainders to the lowest seat) seat 3 escapes and seat 1
			// leads (+4 +2 = 6).
			escaper, leader := 1, 2
			if n == 4 {
				escaper, leader = 3, 1
			}
			evs = escapeHand(t, st, escaper, "q1", seeds)
			if got := gametest.EventTypes(evs); !slices.Equal(got, []string{"PlayerEscaped", "HandSettled", "MatchEnded", "TableClosed"}) {
				t.Fatalf("the last hand emits %v, want PlayerEscaped, HandSettled, MatchEnded, TableClosed (%s)", got, rule)
			}
			me := evs[2].(MatchEnded)
			tc := evs[3].(table.TableClosed)
			if me.Hands != 2 || tc.Reason != "match_over" || !slices.Equal(tc.Totals, st.Totals) {
				t.Fatalf("%+v %+v, totals %v (%s)", me, tc, st.Totals, rule)
			}
			top := me.Standings[0]
			if top.Seat != leader || top.Place != 1 || top.Total != st.Totals[leader] || top.PlayerID != seatPlayer(leader) || me.Standings[1].Place == 1 {
				t.Errorf("standings %+v, want seat %d alone first with %d (%s)", me.Standings, leader, st.Totals[leader], rule)
			}
			for _, s := range me.Standings {
				if s.Seat == 0 && !slices.Equal(s.Players, []string{"p0", "q0"}) {
					t.Errorf("seat 0's standing %+v, want players p0 then q0: standings are per seat", s)
				}
			}
			if !st.Closed || gametest.Game[State](st).NeedsDeal() || st.InDeal {
				t.Errorf("after the match: closed %v, needs deal %v; want a closed table that deals no more", st.Closed, gametest.Game[State](st).NeedsDeal())
			}
			if _, err := table.Join(st, "z", "z", -1, seeds); !errors.Is(err, table.ErrTableClosed) {
				t.Errorf("joining after the match: %v, want table_closed", err)
			}
			v := r.View(st.G.(*State), table.Spectator).Game.(GameView)
			if v.Match == nil || !v.Match.Over || v.Match.Played != 2 || !reflect.DeepEqual(v.Match.Standings, me.Standings) {
				t.Errorf("the view's match %+v, want over with the final standings", v.Match)
			}
		})
	}
	t.Run("a tie for first plays extra hands", func(t *testing.T) {
		r := rulesOf(t, "classic", `{"hands":1}`)
		seeds := &gametest.SeedSeq{ID: 22}
		st := openTable(t, r, 1, seeds)
		evs := escapeHand(t, st, 0, "q0", seeds) // seats 1 and 2 tie at +4
		if slices.Contains(gametest.EventTypes(evs), "MatchEnded") || !st.InDeal || st.Hand != 2 {
			t.Fatalf("after a tie for first: %v, hand %d in deal %v; want an extra hand dealt (%s)", gametest.EventTypes(evs), st.Hand, st.InDeal, rule)
		}
		evs = escapeHand(t, st, 1, "q1", seeds) // seat 2 +4 +4, seat 1 +4 -8, seat 0 -8 +4
		me, ok := evs[2].(MatchEnded)
		if !ok || me.Hands != 2 || me.Standings[0].Seat != 2 || me.Standings[0].Total != 8 {
			t.Fatalf("after the extra hand: %v %+v, want the match ended after 2 hands with seat 2 first at 8 (%s)", gametest.EventTypes(evs), me, rule)
		}
		if me.Standings[1].Place != 2 || me.Standings[2].Place != 2 || me.Standings[1].Seat != 0 {
			t.Errorf("standings %+v: the two totals of -4 share place 2, in seat order", me.Standings)
		}
	})
	t.Run("equal totals share a place", func(t *testing.T) {
		got := standings([]int{5, -5, 0, 0}, &[maxSeats][]string{{"a"}, {"b"}, {"c"}, {"d"}})
		places := []int{}
		for _, s := range got {
			places = append(places, s.Place)
		}
		if !slices.Equal(places, []int{1, 2, 2, 4}) || got[1].Seat != 2 || got[2].Seat != 3 {
			t.Errorf("standings %+v, want places 1 2 2 4 in seat order", got)
		}
	})
}

// TestMatchCloneIsDeep: a clone's settlements and seat changes never reach
// the original (the match state is copied on write).
func TestMatchCloneIsDeep(t *testing.T) {
	r := rulesOf(t, "hubei", `{"hands":3}`)
	st := openTable(t, r, 1, &gametest.SeedSeq{ID: 5})
	before := gametest.Game[State](st)
	c := before.Clone().(*State)
	r.Evolve(c, table.HandSettled{Hand: 1, Deltas: []int{-8, 4, 4}})
	r.Evolve(c, table.PlayerSeated{Seat: 0, PlayerID: "zz"})
	r.Evolve(c, table.HandDealt{Hand: 2, Deal: 1, Hands: make([][]cards.Card, 3)})
	r.Evolve(c, MatchEnded{})
	if before.match.totals != [maxSeats]int{} || len(before.match.seatPlayers[0]) != 1 || before.match.over || c.match.totals[0] != -8 || len(c.match.seatPlayers[0]) != 2 {
		t.Fatalf("evolving a clone changed the original's match %+v (clone %+v)", before.match, c.match)
	}
}
