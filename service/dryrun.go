package service

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// DryAct answers what Act would with the same arguments and stores nothing:
// Act's error, or the events the action would append with the versions they
// would get. No event is appended or published, no Idempotency-Key is
// recorded, no seed is drawn, and the scheduler and the cached table are
// left as they were. A key that is already recorded answers with its first
// result, as Act would.
//
// A dry run must not show the seat what only the stored action would reveal
// (a seat could otherwise peek and then act otherwise): the events stop
// before the first one that ends the deal (its seed and hidden cards), that
// deals anew, or after which the seat would see a card that neither it sees
// now nor the action carries (a card drawn, a kitty shown). Result.Table is
// the table after the events shown. Their positions are 0 (the store
// assigns them) and their time the service's clock now.
func (s *Service) DryAct(ctx context.Context, p Player, tableID string, a table.Action, cond Cond) (*Result, error) {
	if replay, err := s.replay(ctx, p, cond); replay != nil || err != nil {
		return replay, err
	}
	l, err := s.Load(ctx, tableID)
	if err != nil {
		return nil, err
	}
	if cond.IfMatch >= 0 && cond.IfMatch != l.State.Version {
		return nil, fmt.Errorf("%w: it is at version %d, you named %d", ErrStale, l.State.Version, cond.IfMatch)
	}
	evs, err := s.decideAct(p, a, &noDeal{clock: s.cfg.Clock})(l.State)
	if err != nil {
		return nil, err
	}
	shown, err := quietPrefix(l.State, l.State.SeatOf(p.ID), a, evs)
	if err != nil {
		return nil, err
	}
	now := s.cfg.Clock.Now()
	// The events' backing array is shared with the cached snapshot, whose
	// holder may append past its end: clipped, an append here copies.
	next := &Loaded{State: l.State.Clone(), Events: slices.Clip(l.Events)}
	expected := l.State.Version
	for i, e := range evs[:shown] {
		table.ApplyAt(next.State, e, now)
		next.Events = append(next.Events, Recorded{Version: expected + i + 1, Type: e.EventType(), RecordedAt: now, Payload: e})
	}
	return &Result{Table: next, Appended: next.Events[len(l.Events):]}, nil
}

// quietPrefix is how many of evs, the events of seat's action a at st, a dry
// run may show seat: those before the first that ends the deal or deals,
// that adds a card to seat's hand, or that shows seat (in the event as
// redacted for it, or in its view after the event) a card it does not see
// now and a does not carry.
func quietPrefix(st *table.State, seat int, a table.Action, evs []table.Payload) (int, error) {
	view := st.Rules.View(st.G, seat)
	known, err := cardsShown(view)
	if err != nil {
		return 0, err
	}
	// Counted, so that a second copy of a card (two decks) joining the hand
	// is caught too.
	hand := cards.Of(view.Hand)
	for _, c := range a.Cards {
		known[c] = true
	}
	next := st.Clone()
	for i, e := range evs {
		if _, deals := e.(table.HandDealt); deals || table.DealEnded(e) {
			return i, nil
		}
		if r := table.Redact(st.Rules, e, seat, false); r != nil {
			if ok, err := onlyKnown(r, known); err != nil || !ok {
				return i, err
			}
		}
		table.Apply(next, e)
		if next.G == nil {
			continue
		}
		after := next.Rules.View(next.G, seat)
		if !hand.Contains(after.Hand) {
			return i, nil
		}
		if ok, err := onlyKnown(after, known); err != nil || !ok {
			return i, err
		}
	}
	return len(evs), nil
}

// onlyKnown reports whether every card v's JSON names is in known.
func onlyKnown(v any, known map[cards.Card]bool) (bool, error) {
	shown, err := cardsShown(v)
	if err != nil {
		return false, err
	}
	for c := range shown {
		if !known[c] {
			return false, nil
		}
	}
	return true, nil
}

// cardsShown is the set of cards v's JSON encoding names: every string in
// it that is a card in canonical notation. Reading the encoding rather than
// the types keeps it right for every game's events and views; a string
// that only looks like a card makes a dry run show less, never more.
func cardsShown(v any) (map[cards.Card]bool, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode for a dry run: %w", err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("decode for a dry run: %w", err)
	}
	out := map[cards.Card]bool{}
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case string:
			if c, err := cards.ParseCard(x); err == nil && c.String() == x {
				out[c] = true
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		case map[string]any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(doc)
	return out, nil
}

// noDeal is the seed source of a dry run: the service's own source is not
// drawn from, and the deal it would seed is never shown (quietPrefix).
type noDeal struct{ clock Clock }

func (n *noDeal) NewSeed() (cards.Seed, error) { return cards.Seed{}, nil }

// DealTime dates the unseen deal (table.DealClock).
func (n *noDeal) DealTime() time.Time { return n.clock.Now() }
