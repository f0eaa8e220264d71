package service

import (
	"context"
	"fmt"
	"slices"
	"time"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// DryAct answers what Act would with the same arguments, stores nothing: the
// events the action would append, with the versions they would get, or the
// error Act would return. No event is appended or published, no
// Idempotency-Key is recorded, the scheduler and the cached table are left
// as they were. A key that is already recorded answers with its first
// result, as Act would.
//
// The events stop before a deal: when the action ends a hand and the next
// deal would follow, that deal is left out, because it is drawn from a seed
// that only a stored action draws (a dry run never consumes one). Their
// positions are 0 (the store assigns them) and their time the service's
// clock now.
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
	seeds := &noDeal{clock: s.cfg.Clock}
	evs, err := s.decideAct(p, a, seeds)(l.State)
	if err != nil {
		return nil, err
	}
	if seeds.drawn {
		// The deal is the batch's tail from its HandDealt on (table.Act
		// appends it last).
		for i := len(evs) - 1; i >= 0; i-- {
			if _, ok := evs[i].(table.HandDealt); ok {
				evs = evs[:i]
				break
			}
		}
	}
	now := s.cfg.Clock.Now()
	// The events' backing array is shared with the cached snapshot, whose
	// holder may append past its end: clipped, an append here copies.
	next := &Loaded{State: l.State.Clone(), Events: slices.Clip(l.Events)}
	expected := l.State.Version
	for i, e := range evs {
		table.ApplyAt(next.State, e, now)
		next.Events = append(next.Events, Recorded{Version: expected + i + 1, Type: e.EventType(), RecordedAt: now, Payload: e})
	}
	return &Result{Table: next, Appended: next.Events[len(l.Events):]}, nil
}

// noDeal is the seed source of a dry run: it notes that a deal was asked
// for and hands out a seed nobody will see, so that the service's own
// source is not consumed.
type noDeal struct {
	clock Clock
	drawn bool
}

func (n *noDeal) NewSeed() (cards.Seed, error) {
	n.drawn = true
	return cards.Seed{}, nil
}

// DealTime dates the unseen deal (table.DealClock).
func (n *noDeal) DealTime() time.Time { return n.clock.Now() }
