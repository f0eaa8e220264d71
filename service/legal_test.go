package service_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/service"
)

func play(cs string, as string) table.Action {
	return table.Action{Type: "play", Cards: cards.MustParse(cs), As: as}
}

func bid(n int) table.Action { return table.Action{Type: "bid", Bid: &n} }

// actionKey names an action up to the order of its cards.
func actionKey(a table.Action) string {
	cs := slices.Clone(a.Cards)
	cards.SortCanonical(cs)
	b := ""
	if a.Bid != nil {
		b = fmt.Sprint(*a.Bid)
	}
	return a.Type + "|" + b + "|" + cards.Format(cs) + "|" + a.As
}

func keys(as []table.Action) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = actionKey(a)
	}
	slices.Sort(out)
	return out
}

func TestBoundLegal(t *testing.T) {
	legal := []table.Action{
		{Type: "pass"},
		play("S3", ""),
		play("H3", ""),
		play("S3 H3", ""),
		play("S3 S4 S5 S6 S7", "straight"),
		play("S3 S3 H3 H3", "pairs"),
		play("S3 S3 H3 H3", "bomb"),
		bid(2),
	}
	hand := cards.MustParse("S7 S6 S5 S4 S3 S3 H3 H3")
	small := service.Bounds{MaxActions: 3, MaxBytes: 1 << 10}
	cases := []struct {
		name     string
		selected string
		b        service.Bounds
		complete bool
		actions  []table.Action
		extend   string
	}{
		{"everything fits", "", service.DefaultBounds, true, legal, "S7 S6 S5 S4 S3 H3"},
		{"narrowed to S3", "S3", service.DefaultBounds, true,
			[]table.Action{{Type: "pass"}, play("S3", ""), play("S3 H3", ""), play("S3 S4 S5 S6 S7", "straight"), play("S3 S3 H3 H3", "pairs"), play("S3 S3 H3 H3", "bomb"), bid(2)},
			"S7 S6 S5 S4 S3 H3"},
		{"too many: card-less only", "", small, false, []table.Action{{Type: "pass"}, bid(2)}, "S7 S6 S5 S4 S3 H3"},
		{"too many: the exact play", "H3", small, false, []table.Action{{Type: "pass"}, play("H3", ""), bid(2)}, "S3 H3"},
		{"every reading of the exact cards", "H3 S3 H3 S3", service.Bounds{MaxActions: 4, MaxBytes: 1 << 10}, true,
			[]table.Action{{Type: "pass"}, play("S3 S3 H3 H3", "pairs"), play("S3 S3 H3 H3", "bomb"), bid(2)}, ""},
		{"too many bytes", "S3", service.Bounds{MaxActions: 500, MaxBytes: 200}, false, []table.Action{{Type: "pass"}, play("S3", ""), bid(2)}, "S7 S6 S5 S4 S3 H3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			page, err := service.BoundLegal(legal, cards.MustParse(c.selected), hand, c.b)
			if err != nil {
				t.Fatal(err)
			}
			if page.Complete != c.complete || !slices.Equal(keys(page.Actions), keys(c.actions)) {
				t.Fatalf("selected %q: complete %v actions %v, want %v %v", c.selected, page.Complete, keys(page.Actions), c.complete, keys(c.actions))
			}
			if got := cards.Format(page.Extend); got != c.extend {
				t.Fatalf("selected %q: extend %q, want %q (in the hand's order)", c.selected, got, c.extend)
			}
			if page.Extend == nil || page.Selected == nil || page.Actions == nil {
				t.Fatal("a nil list encodes as null, not []")
			}
			enc, _ := json.Marshal(page)
			if len(page.Actions) > c.b.MaxActions || len(enc) > c.b.MaxBytes {
				t.Fatalf("%d actions, %d bytes: over %+v", len(page.Actions), len(enc), c.b)
			}
		})
	}
	t.Run("selection in the hand's order", func(t *testing.T) {
		page, err := service.BoundLegal(legal, cards.MustParse("H3 S5"), hand, service.DefaultBounds)
		if err == nil {
			t.Fatalf("H3 S5 is in no legal play, got %v", page)
		}
		page, err = service.BoundLegal(legal, cards.MustParse("S4 S7"), hand, service.DefaultBounds)
		if err != nil || cards.Format(page.Selected) != "S7 S4" {
			t.Fatalf("selected S4 S7: %v %v, want S7 S4", page.Selected, err)
		}
	})
	for _, bad := range []string{"D9", "S3 S3 S3", "S3 S4 S5 S6 S7 S8", "H3 S4"} {
		t.Run("not legal "+bad, func(t *testing.T) {
			_, err := service.BoundLegal(legal, cards.MustParse(bad), hand, service.DefaultBounds)
			if !errors.Is(err, service.ErrSelectionNotLegal) {
				t.Fatalf("selected %s: %v, want selection_not_legal", bad, err)
			}
			var te *table.Error
			if !errors.As(err, &te) || strings.Contains(te.Msg, "D9") || strings.Contains(te.Msg, "S3") {
				t.Fatalf("the refusal names cards: %v", err)
			}
		})
	}
	t.Run("nothing to do", func(t *testing.T) {
		page, err := service.BoundLegal(nil, nil, nil, service.DefaultBounds)
		if err != nil || !page.Complete || len(page.Actions) != 0 || len(page.Extend) != 0 {
			t.Fatalf("no legal actions: %+v %v", page, err)
		}
		if _, err := service.BoundLegal(nil, cards.MustParse("S3"), nil, service.DefaultBounds); !errors.Is(err, service.ErrSelectionNotLegal) {
			t.Fatalf("a selection with nothing legal: %v", err)
		}
	})
}

// walkLimit bounds the selections one position's walk visits; a position
// with more is checked action by action instead (checkPaths).
const walkLimit = 4000

// walk visits every selection reachable from the empty one by adding cards
// of extend, and returns the union of the actions listed on the way; ok is
// false when there are more than walkLimit selections.
func walk(t *testing.T, legal []table.Action, order []cards.Card, b service.Bounds) (listed map[string]bool, ok bool) {
	t.Helper()
	listed = map[string]bool{}
	seen := map[cards.Multiset]bool{}
	var visit func(sel []cards.Card, subset []table.Action) bool
	visit = func(sel []cards.Card, subset []table.Action) bool {
		if len(seen) > walkLimit {
			return false
		}
		page, err := service.BoundLegal(subset, sel, order, b)
		if err != nil {
			t.Fatalf("selection %s reached through extend: %v", cards.Format(sel), err)
		}
		for _, a := range page.Actions {
			listed[actionKey(a)] = true
		}
		for _, c := range page.Extend {
			next := append(slices.Clone(sel), c)
			m := cards.Of(next)
			if seen[m] {
				continue
			}
			seen[m] = true
			var sub []table.Action
			for _, a := range subset {
				if am := cards.Of(a.Cards); len(a.Cards) == 0 || am.Contains(next) {
					sub = append(sub, a)
				}
			}
			if !visit(next, sub) {
				return false
			}
		}
		return true
	}
	return listed, visit(nil, legal)
}

// checkPaths follows, for up to n legal actions with cards, the path that
// adds the action's cards one at a time in a random order: each card must be
// in extend, and the action listed at the end.
func checkPaths(t *testing.T, rt *randomTable, legal []table.Action, order []cards.Card, b service.Bounds, n int) {
	t.Helper()
	var withCards []table.Action
	for _, a := range legal {
		if len(a.Cards) > 0 {
			withCards = append(withCards, a)
		}
	}
	for range min(n, len(withCards)) {
		a := withCards[rt.rng.IntN(len(withCards))]
		cs := slices.Clone(a.Cards)
		rt.rng.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
		var sel []cards.Card
		for _, c := range cs {
			page, err := service.BoundLegal(legal, sel, order, b)
			if err != nil {
				t.Fatalf("on the way to %v, selection %s: %v", a, cards.Format(sel), err)
			}
			if !slices.Contains(page.Extend, c) {
				t.Fatalf("on the way to %v, selection %s: extend %s lacks %s", a, cards.Format(sel), cards.Format(page.Extend), c)
			}
			sel = append(sel, c)
		}
		page, err := service.BoundLegal(legal, sel, order, b)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(page.Actions, func(x table.Action) bool { return actionKey(x) == actionKey(a) }) {
			t.Fatalf("selection %s equals the cards of %v, which is not listed: %v", cards.Format(sel), a, page.Actions)
		}
	}
}

// TestLegalPageProperties plays random hands of every variant and checks, at
// every position of every seat that may act, the bounded answer: within its
// bounds, sound (everything listed is legal, every card of extend is the
// seat's own), and complete (walking extend from the empty selection lists
// exactly the legal actions). Tiny bounds force the narrowing path.
func TestLegalPageProperties(t *testing.T) {
	tiny := service.Bounds{MaxActions: 6, MaxBytes: 600}
	for _, gv := range allVariants() {
		t.Run(gv.game+"/"+gv.variant, func(t *testing.T) {
			t.Parallel()
			walked, pathsOnly := 0, 0
			for _, seed := range []uint64{1, 2} {
				rt := newRandomTable(t, gv, seed)
				for rt.hands < 1 {
					rt.step(func(p position) {
						order := p.st.Rules.View(p.st.G, p.seat).Hand
						checkPage(t, p, order)
						if n := len(p.legal); n <= 2*walkLimit {
							listed, ok := walk(t, p.legal, order, tiny)
							if ok {
								walked++
								if got, want := sortedKeys(listed), keys(p.legal); !slices.Equal(got, want) {
									t.Fatalf("seat %d at version %d: walking extend lists %d actions, Legal has %d", p.seat, p.st.Version, len(got), len(want))
								}
								return
							}
						}
						pathsOnly++
						checkPaths(t, rt, p.legal, order, tiny, 20)
						checkPaths(t, rt, p.legal, order, service.DefaultBounds, 5)
					})
				}
			}
			t.Logf("%d positions walked whole, %d checked path by path", walked, pathsOnly)
		})
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// checkPage checks the empty selection's answer at the default bounds.
func checkPage(t *testing.T, p position, order []cards.Card) {
	t.Helper()
	page, err := service.BoundLegal(p.legal, nil, order, service.DefaultBounds)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := json.Marshal(page)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Actions) > service.DefaultBounds.MaxActions || len(enc) > service.DefaultBounds.MaxBytes {
		t.Fatalf("seat %d at version %d: %d actions in %d bytes, over the bounds", p.seat, p.st.Version, len(page.Actions), len(enc))
	}
	legal := map[string]bool{}
	for _, a := range p.legal {
		legal[actionKey(a)] = true
	}
	for _, a := range page.Actions {
		if !legal[actionKey(a)] {
			t.Fatalf("seat %d at version %d lists %v, which Legal does not", p.seat, p.st.Version, a)
		}
	}
	if page.Complete && len(page.Actions) != len(p.legal) {
		t.Fatalf("seat %d at version %d: complete with %d of %d actions", p.seat, p.st.Version, len(page.Actions), len(p.legal))
	}
	hand := cards.Of(order)
	for _, c := range page.Extend {
		if hand.Count(c) == 0 {
			t.Fatalf("seat %d at version %d: extend names %s, which its hand %s does not hold", p.seat, p.st.Version, c, cards.Format(order))
		}
	}
}

// BenchmarkLegalPage measures a /legal answer at the largest position of the
// first 20 random 斗地主 fourplayer hands (169,315 actions): the rules' full
// list (Legal), narrowing it to the empty selection and to one card
// (BoundLegal), and the whole answer both ways: narrowing the built list
// (list/…, what LegalPage did before it streamed), narrowing the stream
// pruned by the selection (stream/…, what it did next) and the answer as
// LegalPage makes it now (state/…: from the rank patterns' summary when the
// page cannot list every action).
func BenchmarkLegalPage(b *testing.B) {
	gv := variantCase{"doudizhu", "fourplayer", 4}
	var (
		worst *table.State
		seat  int
		size  int
	)
	rt := newRandomTable(b, gv, 1)
	for rt.hands < 20 {
		rt.step(func(p position) {
			if len(p.legal) > size {
				worst, seat, size = p.st.Clone(), p.seat, len(p.legal)
			}
		})
	}
	benchLegalPage(b, worst, seat)
}

// BenchmarkLegalPageHuge is BenchmarkLegalPage at a position of over a
// million actions (hugeLead).
func BenchmarkLegalPageHuge(b *testing.B) {
	rt := newRandomTable(b, variantCase{"doudizhu", "fourplayer", 4}, hugeLead.seed)
	for range hugeLead.steps {
		rt.step(nil)
	}
	if n := len(table.Legal(rt.st, hugeLead.seat)); n < 1_000_000 {
		b.Fatalf("hugeLead has %d legal actions, not over a million: the random tables changed, search again (TestFindHugeLead)", n)
	}
	benchLegalPage(b, rt.st, hugeLead.seat)
}

func benchLegalPage(b *testing.B, st *table.State, seat int) {
	legal := table.Legal(st, seat)
	order := st.Rules.View(st.G, seat).Hand
	b.Logf("%d legal actions", len(legal))
	b.Run("Legal", func(b *testing.B) {
		for b.Loop() {
			table.Legal(st, seat)
		}
	})
	b.Run("BoundLegal/empty", func(b *testing.B) {
		for b.Loop() {
			if _, err := service.BoundLegal(legal, nil, order, service.DefaultBounds); err != nil {
				b.Fatal(err)
			}
		}
	})
	one := []cards.Card{order[0]}
	b.Run("BoundLegal/one", func(b *testing.B) {
		for b.Loop() {
			if _, err := service.BoundLegal(legal, one, order, service.DefaultBounds); err != nil {
				b.Fatal(err)
			}
		}
	})
	legal = nil // let the list go before the pages are measured
	for _, sel := range []struct {
		name string
		sel  []cards.Card
	}{{"empty", nil}, {"one", one}} {
		b.Run("list/"+sel.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := service.BoundLegal(table.PlayerLegal(st, seat, time.Time{}), sel.sel, order, service.DefaultBounds); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("stream/"+sel.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := service.BoundLegalSeq(table.PlayerLegalHolding(st, seat, time.Time{}, cards.Of(sel.sel)), sel.sel, order, service.DefaultBounds); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("state/"+sel.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := service.BoundLegalState(st, seat, time.Time{}, sel.sel, service.DefaultBounds); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLegalPageClassic measures the answer a seat's stream pushes it
// (BoundLegalState, empty selection) at each of the first 400 positions of
// random 斗地主 classic tables, where the page lists every action: the
// common case of a live table. An op is one position.
func BenchmarkLegalPageClassic(b *testing.B) {
	type at struct {
		st   *table.State
		seat int
	}
	var set []at
	rt := newRandomTable(b, variantCase{"doudizhu", "classic", 3}, 1)
	for len(set) < 400 {
		rt.step(func(p position) {
			if len(set) < 400 {
				set = append(set, at{p.st.Clone(), p.seat})
			}
		})
	}
	now := time.Now()
	i := 0
	for b.Loop() {
		p := set[i%len(set)]
		if _, err := service.BoundLegalState(p.st, p.seat, now, nil, service.DefaultBounds); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
