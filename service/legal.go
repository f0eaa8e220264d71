package service

import (
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"time"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// Bounds cap one answer of the legal actions. A phone cannot use the tens of
// thousands of plays a 斗地主 fourplayer lead or a 刮风 discard allows, so
// the answer lists them whole only while they fit, and otherwise lets the
// client narrow them down card by card (BoundLegal).
type Bounds struct {
	// MaxActions is the most entries in LegalPage.Actions.
	MaxActions int
	// MaxBytes is the most bytes of LegalPage's JSON encoding.
	MaxBytes int
}

// DefaultBounds are the bounds of /legal: at most 500 actions and 64 KiB.
// The API keeps a little of the bytes for the fields it adds (version,
// deadline).
var DefaultBounds = Bounds{MaxActions: 500, MaxBytes: 64 << 10}

// LegalPage is the legal actions of one seat narrowed to a selection of
// cards, within Bounds.
type LegalPage struct {
	// Actions are postable as they are. When Complete they are every legal
	// action whose cards contain Selected (as a multiset) plus every action
	// that carries no cards; otherwise only the card-less ones and those
	// whose cards are Selected exactly (each reading of them).
	Actions  []table.Action `json:"actions"`
	Complete bool           `json:"complete"`
	// Selected is the selection, in the order of the seat's hand.
	Selected []cards.Card `json:"selected"`
	// Extend is every distinct card c such that Selected plus c is
	// contained in the cards of some legal action, in the order of the
	// seat's hand: from the empty selection, adding cards of Extend one at
	// a time reaches every legal action.
	Extend []cards.Card `json:"extend"`
}

// ErrSelectionNotLegal: the selection is not part of any legal action's
// cards. The answer is the same whether a card is held by another seat, in
// the kitty, or nowhere, so that it tells nothing about hidden cards.
var ErrSelectionNotLegal = &table.Error{Kind: table.KindRule, Code: "selection_not_legal",
	Msg: "no legal action of yours holds the selected cards; start again from a smaller selection"}

// BoundLegal narrows legal, a seat's legal actions in the rules' order, to
// those that contain selected, within b: BoundLegalSeq over the list.
func BoundLegal(legal []table.Action, selected []cards.Card, order []cards.Card, b Bounds) (LegalPage, error) {
	return BoundLegalSeq(slices.Values(legal), selected, order, b)
}

// BoundLegalSeq narrows legal, a seat's legal actions in the rules' order, to
// those that contain selected, within b. order is the seat's hand as the game
// sorts it (View.Hand): Selected and Extend follow it, and cards it does not
// name come last in canonical order. A selection that is not a sub-multiset
// of any legal action's cards is ErrSelectionNotLegal.
//
// Card-less actions (pass, bids, escape…) and the actions whose cards equal
// the selection are always listed, so that following Extend from the empty
// selection reaches every legal action.
//
// legal is walked once, under table.Streamer's contract (an action's Cards
// may be overwritten once it has been yielded), and only the actions the page
// may list are kept: at most MaxActions+1 of those containing the selection,
// with the card-less ones and the selection's readings. So a stream of a
// million plays costs the memory of one page.
func BoundLegalSeq(legal iter.Seq[table.Action], selected []cards.Card, order []cards.Card, b Bounds) (LegalPage, error) {
	sel := cards.Of(selected)
	var distinct []int // the indices sel counts
	for k, n := range sel {
		if n > 0 {
			distinct = append(distinct, k)
		}
	}
	var (
		matching []table.Action // the actions listed when the page is complete (up to MaxActions+1)
		short    []table.Action // those listed when it is not
		ext      cards.Multiset
		found    bool
		// count is the multiset of one action's cards, kept zero between
		// actions by undoing only what the action added: a lead can have
		// a hundred thousand plays, so no action pays for all 54 counts.
		count cards.Multiset
		// backing holds the cards of the actions kept.
		backing []cards.Card
	)
	for a := range legal {
		if len(a.Cards) == 0 {
			// Past MaxActions the complete list cannot be the answer:
			// matching stops growing there.
			if len(matching) <= b.MaxActions {
				matching = append(matching, a)
			}
			short = append(short, a)
			continue
		}
		for _, c := range a.Cards {
			count[c.Index()]++
		}
		contains := true
		for _, k := range distinct {
			if count[k] < sel[k] {
				contains = false
				break
			}
		}
		if contains {
			found = true
			exact := len(a.Cards) == len(selected)
			if len(matching) <= b.MaxActions || exact {
				// The stream may reuse a.Cards: copy them, into one
				// backing array rather than one allocation each (the
				// slices into an array append has outgrown stay valid).
				kept := a
				at := len(backing)
				backing = append(backing, a.Cards...)
				kept.Cards = backing[at:len(backing):len(backing)]
				if len(matching) <= b.MaxActions {
					matching = append(matching, kept)
				}
				if exact {
					short = append(short, kept)
				}
			}
			for _, c := range a.Cards {
				if k := c.Index(); count[k] > sel[k] {
					ext[k] = 1
				}
			}
		}
		for _, c := range a.Cards {
			count[c.Index()] = 0
		}
	}
	if len(selected) > 0 && !found {
		return LegalPage{}, ErrSelectionNotLegal
	}
	page := LegalPage{Selected: append([]cards.Card{}, selected...), Extend: ext.Cards()}
	sortByHand(page.Selected, order)
	sortByHand(page.Extend, order)
	full, err := fit(page, matching, b)
	if err != nil {
		return LegalPage{}, err
	}
	if full {
		page.Actions, page.Complete = nonNil(matching), true
		return page, nil
	}
	page.Actions = nonNil(short)
	return page, nil
}

// fit reports whether page with actions stays within b. It encodes at most
// b.MaxActions actions.
func fit(page LegalPage, actions []table.Action, b Bounds) (bool, error) {
	if len(actions) > b.MaxActions {
		return false, nil
	}
	page.Actions = []table.Action{}
	// Only the sizes are wanted: an encoder into a counter writes each
	// action into its own reused buffer, where Marshal would allocate one
	// an action. Encode writes what Marshal does and a newline.
	var n byteCounter
	enc := json.NewEncoder(&n)
	if err := enc.Encode(&page); err != nil {
		return false, fmt.Errorf("encode legal page: %w", err)
	}
	size := int(n) - 1
	// Each action is measured with the appender the answers are written
	// with; encoding/json measures only what the appender declines.
	buf := make([]byte, 0, 256)
	for i := range actions {
		if out, ok := table.AppendActionJSON(buf[:0], &actions[i]); ok {
			size += len(out)
			buf = out
		} else {
			n = 0
			if err := enc.Encode(&actions[i]); err != nil {
				return false, fmt.Errorf("encode legal action %s: %w", actions[i].Type, err)
			}
			size += int(n) - 1
		}
		if i > 0 {
			size++ // the comma
		}
		if size > b.MaxBytes {
			return false, nil
		}
	}
	return true, nil
}

// byteCounter is a writer that counts what is written to it.
type byteCounter int

func (c *byteCounter) Write(p []byte) (int, error) {
	*c += byteCounter(len(p))
	return len(p), nil
}

// nonNil returns as, or an empty list for nil: a nil list encodes as null.
func nonNil(as []table.Action) []table.Action {
	if as == nil {
		return []table.Action{}
	}
	return as
}

// sortByHand sorts cs by the position of their first copy in order; cards
// order does not name follow in canonical order.
func sortByHand(cs []cards.Card, order []cards.Card) {
	if len(cs) < 2 {
		return
	}
	// The positions by card index, on the stack: a map made an allocation
	// for every page. pos holds a position plus one, 0 for a card order
	// does not name.
	var pos [cards.DeckSize]int
	for i, c := range order {
		if k := c.Index(); k >= 0 && pos[k] == 0 {
			pos[k] = i + 1
		} else if k < 0 {
			sortByHandMap(cs, order) // an invalid card: not in the array
			return
		}
	}
	rank := func(c cards.Card) int {
		if k := c.Index(); k >= 0 && pos[k] > 0 {
			return pos[k] - 1
		}
		return len(order) + c.Index()
	}
	slices.SortStableFunc(cs, func(a, b cards.Card) int { return rank(a) - rank(b) })
}

// sortByHandMap is sortByHand for an order holding an invalid card.
func sortByHandMap(cs []cards.Card, order []cards.Card) {
	pos := make(map[cards.Card]int, len(order))
	for i, c := range order {
		if _, ok := pos[c]; !ok {
			pos[c] = i
		}
	}
	rank := func(c cards.Card) int {
		if p, ok := pos[c]; ok {
			return p
		}
		return len(order) + c.Index()
	}
	slices.SortStableFunc(cs, func(a, b cards.Card) int { return rank(a) - rank(b) })
}

// LegalPage is seat's legal actions now (Legal) narrowed to selected within
// b, ordered by the seat's hand as the game shows it: BoundLegalState at the
// service's clock.
func (s *Service) LegalPage(st *table.State, seat int, selected []cards.Card, b Bounds) (LegalPage, error) {
	return BoundLegalState(st, seat, s.cfg.Clock.Now(), selected, b)
}

// BoundLegalState is BoundLegalSeq over seat's legal actions at now,
// ordered by the seat's hand as the game shows it. The actions are
// generated as BoundLegalSeq consumes them (table.PlayerLegalHolding), so
// the memory of one answer is bounded however many actions the position
// allows, and a game may skip the plays that cannot hold the selection:
// BoundLegalSeq leaves those out anyway.
//
// A game that summarizes its actions (table.SummaryDecider: 斗地主 from its
// rank patterns) is asked first: when more actions hold the selection than
// the page may list, the answer is made from the summary, and no action is
// generated but those it lists. It is the same answer.
func BoundLegalState(st *table.State, seat int, now time.Time, selected []cards.Card, b Bounds) (LegalPage, error) {
	var order []cards.Card
	if seat >= 0 && st.G != nil && st.InDeal {
		order = st.Rules.View(st.G, seat).Hand
	}
	sel := cards.Of(selected)
	if sum, ok := table.PlayerLegalSummary(st, seat, now, sel); ok {
		if page, ok := summaryPage(sum, selected, order, b); ok {
			return page, nil
		}
		if len(selected) > 0 && sum.Matching == 0 {
			return LegalPage{}, ErrSelectionNotLegal
		}
	}
	return BoundLegalSeq(table.PlayerLegalHolding(st, seat, now, sel), selected, order, b)
}

// summaryPage is BoundLegalSeq's answer from a summary of the same actions
// when the page cannot be complete: more actions hold the selection, with
// the card-less ones, than b.MaxActions, so that BoundLegalSeq would list
// only the short list. false otherwise (the actions must then be walked).
func summaryPage(sum table.HoldingSummary, selected []cards.Card, order []cards.Card, b Bounds) (LegalPage, bool) {
	matching := sum.Matching
	for _, a := range sum.Short {
		if len(a.Cards) == 0 {
			matching++
		}
	}
	if matching <= b.MaxActions || len(selected) > 0 && sum.Matching == 0 {
		return LegalPage{}, false
	}
	page := LegalPage{Selected: append([]cards.Card{}, selected...), Extend: sum.Extend.Cards(), Actions: nonNil(sum.Short)}
	sortByHand(page.Selected, order)
	sortByHand(page.Extend, order)
	return page, true
}

// Hint is the game's bot's choice for seat now (table.BotMove), offered to
// the seat's player as a hint: it is decided from the seat's own view and
// legal actions only, never from the state, so it tells the seat nothing it
// may not see. False when the game has no bot, the table is closed or
// between deals, or the game does not await the seat.
func (s *Service) Hint(st *table.State, seat int) (table.Action, bool) {
	if seat < 0 || st.Closed || st.G == nil || !st.InDeal {
		return table.Action{}, false
	}
	a, ok := table.BotMove(st, seat, s.cfg.Clock.Now())
	a.At = time.Time{}
	return a, ok
}
