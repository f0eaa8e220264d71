package table

import (
	"iter"
	"slices"
	"time"

	"paiju/domain/cards"
)

// Streamer is Rules that can walk a seat's legal actions one at a time
// instead of building the whole list: a 斗地主 fourplayer lead allows over a
// million plays, and a caller that keeps a page of them should not pay for
// the million. Every Rules from Adapt is a Streamer (see StreamDecider).
type Streamer interface {
	// LegalSeq yields exactly Legal(s, seat), in the same order, and stops
	// as soon as yield returns false. A yielded action's Cards may be
	// overwritten once yield returns (the stream may reuse one buffer): a
	// consumer that keeps an action past its yield keeps a copy of its
	// Cards. Its other fields may be kept as they are.
	LegalSeq(s GameState, seat int) iter.Seq[Action]
	// LegalSeqHolding is LegalSeq for a caller that looks only at the
	// actions whose cards contain sel (as a multiset) and at those that
	// carry no cards: it may leave out any other action, and yields the
	// rest in LegalSeq's order, so that a game can skip whole families of
	// plays that cannot hold the selection.
	LegalSeqHolding(s GameState, seat int, sel cards.Multiset) iter.Seq[Action]
}

// StreamDecider is Streamer over the game's own state: a game whose legal
// lists can grow large implements it next to Legal, under Streamer's
// contract.
type StreamDecider[S GameState] interface {
	LegalSeq(s S, seat int) iter.Seq[Action]
}

// HoldingDecider is Streamer's LegalSeqHolding over the game's own state,
// for a game that can prune its stream by a selection.
type HoldingDecider[S GameState] interface {
	LegalSeqHolding(s S, seat int, sel cards.Multiset) iter.Seq[Action]
}

// LegalSeq walks the game's StreamDecider when it has one, and its Legal
// list otherwise.
func (a adapter[S]) LegalSeq(gs GameState, seat int) iter.Seq[Action] {
	if a.q != nil {
		return a.q.LegalSeq(a.mustState(gs), seat)
	}
	return slices.Values(a.d.Legal(a.mustState(gs), seat))
}

// LegalSeqHolding prunes with the game's HoldingDecider when it has one,
// and is LegalSeq otherwise.
func (a adapter[S]) LegalSeqHolding(gs GameState, seat int, sel cards.Multiset) iter.Seq[Action] {
	if a.h != nil {
		return a.h.LegalSeqHolding(a.mustState(gs), seat, sel)
	}
	return a.LegalSeq(gs, seat)
}

// gameLegalSeq is gameLegal one action at a time. Timed rules past a
// deadline answer with their LegalAt list: their lists are short.
func gameLegalSeq(s *State, seat int, now time.Time, sel cards.Multiset) iter.Seq[Action] {
	if t, ok := s.Rules.(Timed); ok && !now.IsZero() {
		return slices.Values(t.LegalAt(s.G, seat, now))
	}
	if st, ok := s.Rules.(Streamer); ok {
		return st.LegalSeqHolding(s.G, seat, sel)
	}
	return slices.Values(s.Rules.Legal(s.G, seat))
}

// PlayerLegalSeq yields PlayerLegal(s, seat, now) one action at a time,
// under Streamer's contract: an action's Cards may be overwritten once yield
// returns. The game's actions are generated as they are consumed, so a
// consumer that keeps a bounded part of them uses bounded memory however
// many there are.
func PlayerLegalSeq(s *State, seat int, now time.Time) iter.Seq[Action] {
	return PlayerLegalHolding(s, seat, now, cards.Multiset{})
}

// PlayerLegalHolding is PlayerLegalSeq for a caller that looks only at the
// actions whose cards contain sel and at the card-less ones: it may leave
// out any other action (Streamer.LegalSeqHolding).
func PlayerLegalHolding(s *State, seat int, now time.Time, sel cards.Multiset) iter.Seq[Action] {
	return func(yield func(Action) bool) {
		if s.Closed || seat < 0 || seat >= len(s.Players) || s.Players[seat] == "" {
			return
		}
		_, auto := s.Rules.(Autoplay)
		live := auto && !s.Bots[seat] // the player may hand the seat to the bot
		last := Action{Type: ActionEscape}
		if !s.InDeal {
			last = Action{Type: ActionLeave}
		}
		if live && s.Delegated[seat] {
			if yield(Action{Type: ActionResume}) {
				yield(last)
			}
			return
		}
		if s.WaitsFor(seat) && !yield(Action{Type: ActionContinue}) {
			return
		}
		if s.InDeal {
			for a := range gameLegalSeq(s, seat, now, sel) {
				if !yield(a) {
					return
				}
			}
			if live && !yield(Action{Type: ActionDelegate}) {
				return
			}
		}
		yield(last)
	}
}

// HoldingSummary is what a bounded answer of the legal actions needs of the
// actions whose cards contain a selection sel, when they are too many to
// list: how many there are, which cards extend the selection, and the few
// actions it lists anyway.
type HoldingSummary struct {
	// Matching counts the actions with cards that contain sel (as a
	// multiset), each reading ("as") apart, as LegalSeq yields them.
	Matching int
	// Extend has 1 at every card c such that sel plus c is contained in
	// the cards of some action.
	Extend cards.Multiset
	// Short are, in LegalSeq's order, the actions whose cards are sel
	// exactly and the actions that carry no cards. Their Cards are the
	// summary's own.
	Short []Action
}

// SummaryDecider is a game that can summarize its legal actions holding a
// selection (HoldingSummary) without generating them all, as a 斗地主 lead
// of a million plays can from its rank patterns. ok is false where it does
// not (another phase of the game): the caller then walks LegalSeqHolding.
type SummaryDecider[S GameState] interface {
	LegalSummary(s S, seat int, sel cards.Multiset) (sum HoldingSummary, ok bool)
}

// legalSummary is the game's SummaryDecider when it has one.
func (a adapter[S]) legalSummary(gs GameState, seat int, sel cards.Multiset) (HoldingSummary, bool) {
	if a.m == nil {
		return HoldingSummary{}, false
	}
	return a.m.LegalSummary(a.mustState(gs), seat, sel)
}

// PlayerLegalSummary is the HoldingSummary of PlayerLegalHolding(s, seat,
// now, sel): the game's, with the table's own card-less actions after it in
// PlayerLegalHolding's order. ok is false when the game gives none; the
// caller then walks PlayerLegalHolding.
func PlayerLegalSummary(s *State, seat int, now time.Time, sel cards.Multiset) (HoldingSummary, bool) {
	if s.Closed || seat < 0 || seat >= len(s.Players) || s.Players[seat] == "" || !s.InDeal {
		return HoldingSummary{}, false
	}
	if _, timed := s.Rules.(Timed); timed && !now.IsZero() {
		return HoldingSummary{}, false
	}
	g, ok := s.Rules.(interface {
		legalSummary(GameState, int, cards.Multiset) (HoldingSummary, bool)
	})
	if !ok {
		return HoldingSummary{}, false
	}
	_, auto := s.Rules.(Autoplay)
	live := auto && !s.Bots[seat]
	if live && s.Delegated[seat] {
		return HoldingSummary{}, false // resume and escape only: a short list
	}
	sum, ok := g.legalSummary(s.G, seat, sel)
	if !ok {
		return HoldingSummary{}, false
	}
	if live {
		sum.Short = append(sum.Short, Action{Type: ActionDelegate})
	}
	sum.Short = append(sum.Short, Action{Type: ActionEscape})
	return sum, true
}
