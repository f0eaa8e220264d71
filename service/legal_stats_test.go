package service_test

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/service"
)

// apiBounds are the bounds the API gives BoundLegal: 64 KiB less what its
// envelope (version, deadline) may take (api/handlers.go, legalEnvelope).
var apiBounds = service.Bounds{MaxActions: 500, MaxBytes: 64<<10 - 96}

// legalBody is /legal's body as the API writes it.
type legalBody struct {
	Version int `json:"version"`
	service.LegalPage
	Deadline *time.Time `json:"deadline,omitempty"`
}

// bodySize is the size of /legal's answer carrying page, with a deadline
// (the longest envelope) and the encoder's newline.
func bodySize(t testing.TB, version int, page service.LegalPage) int {
	dl := time.Date(2026, 12, 31, 23, 59, 59, 999e6, time.UTC)
	b, err := json.Marshal(legalBody{Version: version, LegalPage: page, Deadline: &dl})
	if err != nil {
		t.Fatal(err)
	}
	return len(b) + 1
}

// legalStats is the measurement of one variant.
type legalStats struct {
	hands, positions, fullMax, incomplete int
	// emptyN, emptyB: the most actions and bytes of an answer to the empty
	// selection; oneN, oneB: to a selection of one card (any card of its
	// extend).
	emptyN, emptyB, oneN, oneB int
	took                       time.Duration
}

// TestLegalStats measures how big /legal gets: over 2,000 random hands of
// every variant (fixed seeds), at every position of every seat that may act,
// the most actions and bytes of the answer to the empty selection and to
// every one-card selection. It prints a Markdown table (README.md, How big
// /legal gets). It takes minutes, so it runs only when PAIJU_LEGAL_STATS is
// set; PAIJU_LEGAL_STATS=50 plays 50 hands a variant instead of 2,000.
func TestLegalStats(t *testing.T) {
	env := os.Getenv("PAIJU_LEGAL_STATS")
	if env == "" {
		t.Skip("set PAIJU_LEGAL_STATS=1 to measure (minutes)")
	}
	hands := 2000
	if n, err := fmt.Sscan(env, &hands); n != 1 || err != nil || hands < 2 {
		hands = 2000
	}
	var out strings.Builder
	out.WriteString("| game/variant | hands | positions | largest full list | answers to `selected=` that are incomplete | most actions, `selected=` | most bytes, `selected=` | most actions, one card selected | most bytes, one card selected |\n")
	out.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, gv := range allVariants() {
		s := measure(t, gv, hands)
		fmt.Fprintf(&out, "| %s/%s | %d | %d | %d | %d (%.1f%%) | %d | %d | %d | %d |\n", gv.game, gv.variant, s.hands, s.positions, s.fullMax,
			s.incomplete, 100*float64(s.incomplete)/float64(max(s.positions, 1)), s.emptyN, s.emptyB, s.oneN, s.oneB)
		t.Logf("%s/%s measured in %v", gv.game, gv.variant, s.took.Round(time.Millisecond))
	}
	t.Log("\n" + out.String())
}

func measure(t *testing.T, gv variantCase, hands int) legalStats {
	start := time.Now()
	var s legalStats
	for seed := uint64(1); s.hands < hands; seed++ {
		rt := newRandomTable(t, gv, seed)
		// A table plays on hand after hand; a fresh one every few hands
		// keeps the seeds' spread.
		for rt.hands < 10 && s.hands+rt.hands < hands {
			rt.step(func(p position) {
				order := p.st.Rules.View(p.st.G, p.seat).Hand
				s.positions++
				s.fullMax = max(s.fullMax, len(p.legal))
				page, err := service.BoundLegal(p.legal, nil, order, apiBounds)
				if err != nil {
					t.Fatal(err)
				}
				if !page.Complete {
					s.incomplete++
				}
				s.emptyN = max(s.emptyN, len(page.Actions))
				s.emptyB = max(s.emptyB, bodySize(t, p.st.Version, page))
				// BoundLegal checks the one-pass answers at a sample of
				// the positions whose lists are short enough to check fast.
				check := len(p.legal) <= 3000 && s.positions%25 == 0
				for _, one := range oneCardPages(t, p.legal, order, check) {
					s.oneN = max(s.oneN, len(one.Actions))
					s.oneB = max(s.oneB, bodySize(t, p.st.Version, one))
				}
			})
		}
		s.hands += rt.hands
	}
	s.took = time.Since(start)
	return s
}

// oneCardPages is BoundLegal's answer to every selection of one card, in
// one pass over legal instead of one per card (a fourplayer lead has a
// hundred thousand plays and thirty cards to select). check compares each
// with BoundLegal's own answer.
func oneCardPages(t *testing.T, legal []table.Action, order []cards.Card, check bool) []service.LegalPage {
	t.Helper()
	var (
		cardless []int
		listed   [cards.DeckSize][]int // the first MaxActions+1 actions holding the card
		exact    [cards.DeckSize][]int // the one-card actions of the card
		extend   [cards.DeckSize]uint64
	)
	for i, a := range legal {
		if len(a.Cards) == 0 {
			cardless = append(cardless, i)
			continue
		}
		var set, twice uint64
		for _, c := range a.Cards {
			bit := uint64(1) << c.Index()
			twice |= set & bit
			set |= bit
		}
		for rest := set; rest != 0; rest &= rest - 1 {
			k := bits.TrailingZeros64(rest)
			if len(listed[k]) <= apiBounds.MaxActions {
				listed[k] = append(listed[k], i)
			}
			// Selecting a card leaves the other cards of a play, and the
			// card itself when the play holds it twice.
			extend[k] |= set&^(1<<k) | twice&(1<<k)
			if len(a.Cards) == 1 {
				exact[k] = append(exact[k], i)
			}
		}
	}
	sizes := make([]int, len(legal)) // encoded sizes, 0 until needed
	var out []service.LegalPage
	for k := range cards.DeckSize {
		if len(listed[k]) == 0 {
			continue
		}
		c := cards.FromIndex(k)
		page := service.LegalPage{Selected: []cards.Card{c}, Extend: []cards.Card{}}
		for rest := extend[k]; rest != 0; rest &= rest - 1 {
			page.Extend = append(page.Extend, cards.FromIndex(bits.TrailingZeros64(rest)))
		}
		sortLike(page.Extend, order)
		page.Actions, page.Complete = pickSorted(legal, cardless, listed[k]), true
		if len(page.Actions) > apiBounds.MaxActions || pageSize(t, page, sizes, legal, cardless, listed[k]) > apiBounds.MaxBytes {
			page.Actions, page.Complete = pickSorted(legal, cardless, exact[k]), false
		}
		if check {
			want, err := service.BoundLegal(legal, page.Selected, order, apiBounds)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(page)
			w, _ := json.Marshal(want)
			if string(got) != string(w) {
				t.Fatalf("selected %s: the one-pass answer\n%s\ndiffers from BoundLegal's\n%s", c, got, w)
			}
		}
		out = append(out, page)
	}
	return out
}

// pageSize is the size of page's encoding, whose actions are those of legal
// at a and b, from the sizes of its actions (encoded once, into sizes).
func pageSize(t *testing.T, page service.LegalPage, sizes []int, legal []table.Action, a, b []int) int {
	t.Helper()
	empty := page
	empty.Actions = []table.Action{}
	base, err := json.Marshal(empty)
	if err != nil {
		t.Fatal(err)
	}
	n := len(base) + max(len(a)+len(b)-1, 0) // the commas
	for _, idx := range [][]int{a, b} {
		for _, i := range idx {
			if sizes[i] == 0 {
				enc, err := json.Marshal(legal[i])
				if err != nil {
					t.Fatal(err)
				}
				sizes[i] = len(enc)
			}
			n += sizes[i]
		}
	}
	return n
}

// pickSorted is the actions of legal at the indices of a and b, in legal's order.
func pickSorted(legal []table.Action, a, b []int) []table.Action {
	idx := append(slices.Clone(a), b...)
	slices.Sort(idx)
	out := make([]table.Action, len(idx))
	for n, i := range idx {
		out[n] = legal[i]
	}
	return out
}

// sortLike sorts cs by their first position in order, as BoundLegal does.
func sortLike(cs, order []cards.Card) {
	page, err := service.BoundLegal([]table.Action{{Type: "play", Cards: cs}}, nil, order, service.DefaultBounds)
	if err == nil {
		copy(cs, page.Extend)
	}
}
