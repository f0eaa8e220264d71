package service_test

import (
	"errors"
	"os"
	"reflect"
	"testing"
	"time"

	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/service"
)

// TestBoundLegalSeqEqualsList plays a random hand of every variant and
// checks, at every position of every seat that may act, that narrowing the
// stream of the seat's actions, pruned by the selection (what LegalPage
// does), answers exactly what narrowing their list does: the same page or the same refusal, for the
// empty selection, a card of extend, a legal action's cards, part of them,
// and a card no action holds, at the default bounds and tiny ones.
func TestBoundLegalSeqEqualsList(t *testing.T) {
	bounds := []service.Bounds{service.DefaultBounds, {MaxActions: 6, MaxBytes: 600}}
	for _, gv := range allVariants() {
		t.Run(gv.game+"/"+gv.variant, func(t *testing.T) {
			t.Parallel()
			rt := newRandomTable(t, gv, 3)
			for rt.hands < 1 {
				rt.step(func(p position) {
					list := table.PlayerLegal(p.st, p.seat, time.Time{})
					order := p.st.Rules.View(p.st.G, p.seat).Hand
					sels := [][]cards.Card{nil, cards.MustParse("RJ RJ RJ")}
					var withCards []table.Action
					for _, a := range list {
						if len(a.Cards) > 0 {
							withCards = append(withCards, a)
						}
					}
					if len(withCards) > 0 {
						a := withCards[rt.rng.IntN(len(withCards))]
						sels = append(sels, a.Cards, a.Cards[:1+rt.rng.IntN(len(a.Cards))])
					}
					for _, sel := range sels {
						for _, b := range bounds {
							want, wantErr := service.BoundLegal(list, sel, order, b)
							got, err := service.BoundLegalSeq(table.PlayerLegalHolding(p.st, p.seat, time.Time{}, cards.Of(sel)), sel, order, b)
							if !errors.Is(err, wantErr) || !reflect.DeepEqual(got, want) {
								t.Fatalf("seat %d at version %d, selection %s, %+v: the stream answers %+v %v, the list %+v %v",
									p.seat, p.st.Version, cards.Format(sel), b, got, err, want, wantErr)
							}
						}
					}
				})
			}
		})
	}
}

// TestBoundLegalSeqCopiesCards: BoundLegalSeq keeps copies of the cards it
// lists, so a stream that reuses one buffer for every action, as
// table.Streamer allows, gives the same page as a list.
func TestBoundLegalSeqCopiesCards(t *testing.T) {
	legal := []table.Action{{Type: "pass"}, play("S3", ""), play("H3", ""), play("S3 H3", ""), play("S3 H3", "other")}
	reusing := func(yield func(table.Action) bool) {
		buf := make([]cards.Card, 0, 8)
		for _, a := range legal {
			if len(a.Cards) > 0 {
				a.Cards = append(buf[:0], a.Cards...)
			}
			if !yield(a) {
				return
			}
			clear(buf[:cap(buf)])
		}
	}
	hand := cards.MustParse("S3 H3")
	for _, sel := range []string{"", "S3", "S3 H3"} {
		for _, b := range []service.Bounds{service.DefaultBounds, {MaxActions: 2, MaxBytes: 1 << 10}} {
			want, _ := service.BoundLegal(legal, cards.MustParse(sel), hand, b)
			got, err := service.BoundLegalSeq(reusing, cards.MustParse(sel), hand, b)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("selection %q, %+v: a reusing stream gives %+v %v, the list %+v", sel, b, got, err, want)
			}
		}
	}
}

// hugeLead is a 斗地主 fourplayer position of over a million legal actions:
// the random table of seed, after steps steps, at seat. TestFindHugeLead
// found it.
var hugeLead = struct {
	seed        uint64
	steps, seat int
}{77, 731, 2} // 1,165,513 actions

// TestFindHugeLead searches the random fourplayer tables (seeds 1, 2, …, ten
// hands each, as TestLegalStats plays them) for the first position of over a
// million legal actions and logs where it is, for hugeLead. It takes
// minutes and hundreds of MB, so it runs only when PAIJU_FIND_HUGE is set.
func TestFindHugeLead(t *testing.T) {
	if os.Getenv("PAIJU_FIND_HUGE") == "" {
		t.Skip("set PAIJU_FIND_HUGE=1 to search (minutes)")
	}
	gv := variantCase{"doudizhu", "fourplayer", 4}
	for seed := uint64(1); seed <= 1000; seed++ {
		rt := newRandomTable(t, gv, seed)
		for steps := 0; rt.hands < 10; steps++ {
			found := false
			rt.step(func(p position) {
				if len(p.legal) > 1_000_000 && !found {
					found = true
					t.Logf("seed %d, steps %d, seat %d: %d legal actions", seed, steps, p.seat, len(p.legal))
				}
			})
			if found {
				return
			}
		}
	}
	t.Fatal("no position of over a million legal actions in 1,000 tables")
}

// TestBoundLegalStateEqualsList: the answer LegalPage gives
// (BoundLegalState, from a game's summary where it has one) is exactly
// what narrowing the list of the seat's actions answers, at every position
// of a random hand of every variant, for the empty selection, cards of the
// hand, a legal action's cards and part of them, and cards no action holds,
// at bounds from tiny to large.
func TestBoundLegalStateEqualsList(t *testing.T) {
	bounds := []service.Bounds{service.DefaultBounds, {MaxActions: 6, MaxBytes: 600}, {MaxActions: 1, MaxBytes: 1 << 20}, {MaxActions: 60, MaxBytes: 1 << 20}}
	for _, gv := range allVariants() {
		t.Run(gv.game+"/"+gv.variant, func(t *testing.T) {
			t.Parallel()
			rt := newRandomTable(t, gv, 5)
			for rt.hands < 1 {
				rt.step(func(p position) {
					list := table.PlayerLegal(p.st, p.seat, time.Time{})
					order := p.st.Rules.View(p.st.G, p.seat).Hand
					sels := [][]cards.Card{nil, cards.MustParse("RJ RJ RJ")}
					if len(order) > 0 {
						sels = append(sels, order[:1], order[len(order)-1:], order[:min(2, len(order))])
					}
					var withCards []table.Action
					for _, a := range list {
						if len(a.Cards) > 0 {
							withCards = append(withCards, a)
						}
					}
					for range 2 {
						if len(withCards) > 0 {
							a := withCards[rt.rng.IntN(len(withCards))]
							sels = append(sels, a.Cards, a.Cards[:1+rt.rng.IntN(len(a.Cards))])
						}
					}
					for _, sel := range sels {
						for _, b := range bounds {
							want, wantErr := service.BoundLegal(list, sel, order, b)
							got, err := service.BoundLegalState(p.st, p.seat, time.Time{}, sel, b)
							if !errors.Is(err, wantErr) || !reflect.DeepEqual(got, want) {
								t.Fatalf("seat %d at version %d, selection %s, %+v: BoundLegalState answers %+v %v, the list %+v %v",
									p.seat, p.st.Version, cards.Format(sel), b, got, err, want, wantErr)
							}
						}
					}
				})
			}
		})
	}
}
