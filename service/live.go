package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"paiju/domain/table"
)

// Live tables: the server acts on a table when a turn clock runs out and when
// a bot (or a delegated seat) is to play. Everything it does is an ordinary
// command with an expected version, so two services racing on one store
// append it once; and what is due is derived from the table's events, so a
// restart rebuilds it (Resume).

// maxStepsPerRun bounds one RunDue, so that a fault cannot spin it for ever.
const maxStepsPerRun = 100_000

// server is the author of the commands the service decides itself.
var server = Player{ID: "server", Name: "server"}

// opening is the batch that opens a table: TableOpened with its clock, and
// the bots' seats (the highest ones), with the first deal when they fill the
// table.
func (s *Service) opening(rules table.Rules, id string, p Player, req OpenRequest) ([]table.Payload, error) {
	clock := req.Clock
	if clock == nil {
		if _, ok := rules.(table.Autoplay); ok {
			c := table.DefaultClock()
			clock = &c
		}
	}
	evs, err := table.OpenWith(rules, table.Opening{
		ID: id, Game: req.Game, Variant: req.Variant, Stake: req.Stake, OpenedBy: p.ID,
		Clock: clock, MaxHands: req.MaxHands, Private: req.Private, Spectators: req.Spectators,
		WaitBetweenHands: req.WaitBetweenHands,
	})
	if err != nil {
		return nil, err
	}
	if req.Bots < 0 || req.Bots > rules.Seats() {
		return nil, table.ErrBadOption.With("bots must be 0..%d (the seats of %s/%s), got %d", rules.Seats(), req.Game, req.Variant, req.Bots)
	}
	if req.Bots == rules.Seats() && req.MaxHands == 0 {
		// Nobody could ever stop a table of bots only.
		return nil, table.ErrBadOption.With("a table of bots only needs max_hands (1..%d)", table.MaxMaxHands)
	}
	st := table.New(rules)
	for _, e := range evs {
		table.Apply(st, e)
	}
	for i := 0; i < req.Bots; i++ {
		seat := rules.Seats() - 1 - i
		more, err := table.SeatBot(st, BotID(id, seat), fmt.Sprintf("Bot %d", seat+1), seat, s.dealInputs())
		if err != nil {
			return nil, err
		}
		for _, e := range more {
			table.Apply(st, e)
		}
		evs = append(evs, more...)
	}
	if req.Sit {
		more, err := table.Join(st, p.ID, p.Name, -1, s.dealInputs())
		if err != nil {
			return nil, err
		}
		evs = append(evs, more...)
	}
	return evs, nil
}

// BotID is the player id of the bot in seat of table tableID.
func BotID(tableID string, seat int) string { return fmt.Sprintf("bot-%s-%d", tableID, seat) }

// IsBot reports whether a player id is a server bot's.
func IsBot(playerID string) bool { return strings.HasPrefix(playerID, "bot-") }

// schedule holds, per table, when the service next has something to do on it.
type schedule struct {
	think time.Duration
	mu    sync.Mutex
	due   map[string]time.Time
	wake  chan struct{}
	// resumeMu serializes Resume; resumed is the last store position it read.
	resumeMu sync.Mutex
	resumed  int64
}

func (sc *schedule) forget(id string) {
	sc.mu.Lock()
	delete(sc.due, id)
	sc.mu.Unlock()
}

func newSchedule(think time.Duration) *schedule {
	return &schedule{think: think, due: map[string]time.Time{}, wake: make(chan struct{}, 1)}
}

// note records when st next needs the server, from its events alone.
func (sc *schedule) note(id string, st *table.State) {
	at, ok := sc.dueAt(st)
	sc.mu.Lock()
	if ok {
		sc.due[id] = at
	} else {
		delete(sc.due, id)
	}
	sc.mu.Unlock()
	if ok {
		select {
		case sc.wake <- struct{}{}:
		default:
		}
	}
}

// dueAt is the earliest moment the server must act on st: a server-played
// seat's think delay after its wait began, or a seat's deadline.
func (sc *schedule) dueAt(st *table.State) (time.Time, bool) {
	var best time.Time
	found := false
	consider := func(t time.Time) {
		if !found || t.Before(best) {
			best, found = t, true
		}
	}
	if st.Closed || !st.InDeal && !st.BetweenHands() {
		return best, false
	}
	for seat := range st.Players {
		if !st.Awaited(seat) {
			continue
		}
		if st.ServerPlays(seat) {
			consider(st.Since[seat].Add(sc.think))
		}
		if dl, ok := st.Deadline(seat); ok {
			consider(dl)
		}
	}
	return best, found
}

// take removes and returns the tables due at now.
func (sc *schedule) take(now time.Time) []string {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	var ids []string
	for id, at := range sc.due {
		if !at.After(now) {
			ids = append(ids, id)
			delete(sc.due, id)
		}
	}
	return ids
}

// next is the earliest due time of any table.
func (sc *schedule) next() (time.Time, bool) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	var best time.Time
	found := false
	for _, at := range sc.due {
		if !found || at.Before(best) {
			best, found = at, true
		}
	}
	return best, found
}

// Due returns when the service next acts on a table, if it has anything to do
// there (for tests and diagnostics).
func (s *Service) Due(tableID string) (time.Time, bool) {
	s.sched.mu.Lock()
	defer s.sched.mu.Unlock()
	at, ok := s.sched.due[tableID]
	return at, ok
}

// Resume brings the schedule up to date with the store: every table with
// events past the last position Resume read, and not closed, is loaded and
// what is due on it noted. The first call reads the whole log (a restart);
// later ones only what was appended since, which is how a service learns of
// tables that other services sharing the store opened or moved.
func (s *Service) Resume(ctx context.Context) error {
	const page = 1000
	s.sched.resumeMu.Lock()
	defer s.sched.resumeMu.Unlock()
	open := map[string]bool{}
	var order, tours []string
	tourOpen := map[string]bool{}
	for {
		evs, err := s.cfg.Store.ReadAll(ctx, s.sched.resumed, page)
		if err != nil {
			return fmt.Errorf("resume the turn clocks: read events after %d: %w", s.sched.resumed, err)
		}
		for _, e := range evs {
			if id, ok := strings.CutPrefix(e.Stream, "tournament-"); ok {
				if _, known := tourOpen[id]; !known {
					tours = append(tours, id)
				}
				tourOpen[id] = e.Type != "TournamentEnded"
				continue
			}
			id, ok := strings.CutPrefix(e.Stream, "table-")
			if !ok {
				continue
			}
			if _, known := open[id]; !known {
				order = append(order, id)
			}
			open[id] = e.Type != "TableClosed"
		}
		if len(evs) > 0 {
			s.sched.resumed = evs[len(evs)-1].Position
		}
		if len(evs) < page {
			break
		}
	}
	for _, id := range order {
		if !open[id] {
			s.sched.forget(id)
			continue
		}
		l, err := s.Load(ctx, id)
		if err != nil {
			s.cfg.Logger.WarnContext(ctx, "resume the turn clock of a table", "table", id, "err", err)
			continue
		}
		s.sched.note(id, l.State)
	}
	// A running tournament may have a table that closed, or a round whose
	// tables were not all opened, before a restart: reconciling finishes
	// what the last process began.
	tours = slices.DeleteFunc(tours, func(id string) bool { return !tourOpen[id] })
	s.resumeTournaments(ctx, tours)
	return nil
}

// resumeEvery is how often Run catches up with a store other services
// append to too.
const resumeEvery = 5 * time.Second

// Run acts on tables when they are due until ctx ends: first Resume, then
// RunDue whenever the earliest due time comes or a command changes it. With
// a shared store it also resumes every few seconds, so that the tables
// other services opened or left are carried on here too.
func (s *Service) Run(ctx context.Context) error {
	if err := s.Resume(ctx); err != nil {
		return err
	}
	lastResume := time.Now()
	for {
		if s.cfg.SharedStore && time.Since(lastResume) >= resumeEvery {
			if err := s.Resume(ctx); err != nil {
				s.cfg.Logger.WarnContext(ctx, "resume the turn clocks", "err", err)
			}
			lastResume = time.Now()
		}
		s.RunDue(ctx)
		wait := time.Hour
		if next, ok := s.sched.next(); ok {
			wait = max(next.Sub(s.cfg.Clock.Now()), 0)
		}
		if s.cfg.SharedStore {
			wait = min(wait, resumeEvery)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-s.sched.wake:
			t.Stop()
		case <-t.C:
		}
	}
}

// RunDue does everything due by the service's clock now — timeouts, bot and
// delegated moves — until nothing more is due, and returns how many commands
// it appended. Tables are worked on concurrently (up to serverWorkers at a
// time), so that their appends share the store's group commits; each table's
// moves stay in order.
func (s *Service) RunDue(ctx context.Context) int {
	var (
		n     atomic.Int64
		steps int
	)
	for steps < maxStepsPerRun && ctx.Err() == nil {
		ids := s.sched.take(s.cfg.Clock.Now())
		if len(ids) == 0 {
			break
		}
		steps += len(ids)
		var wg sync.WaitGroup
		sem := make(chan struct{}, serverWorkers)
		for _, id := range ids {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				acted, err := s.step(ctx, id)
				if err != nil {
					// Try again a little later rather than spin on a failing table.
					s.cfg.Logger.ErrorContext(ctx, "server move failed", "table", id, "err", err)
					s.sched.mu.Lock()
					s.sched.due[id] = s.cfg.Clock.Now().Add(time.Second)
					s.sched.mu.Unlock()
					return
				}
				if acted {
					n.Add(1)
				}
			})
		}
		wg.Wait()
	}
	return int(n.Load())
}

// serverWorkers bounds the tables RunDue works on at once.
const serverWorkers = 16

// step takes the one server action due on a table, if any is still due.
func (s *Service) step(ctx context.Context, tableID string) (bool, error) {
	l, err := s.Load(ctx, tableID)
	if err != nil {
		return false, err
	}
	seat, ok := s.dueSeat(l.State, s.cfg.Clock.Now())
	if !ok {
		s.sched.note(tableID, l.State)
		return false, nil
	}
	start := time.Now()
	kind := KindTimeout
	_, err = s.command(ctx, server, tableID, "", NoCond, func(st *table.State) ([]table.Payload, error) {
		now := s.cfg.Clock.Now()
		kind = KindTimeout
		if !st.Awaited(seat) {
			return nil, errNothingDue
		}
		if st.ServerPlays(seat) && !now.Before(st.Since[seat].Add(s.sched.think)) {
			kind = KindBot
			a, ok := table.BotMove(st, seat, now)
			if !ok {
				return nil, errNothingDue
			}
			return table.Act(st, seat, a, s.dealInputs())
		}
		return table.Timeout(st, seat, now, s.dealInputs())
	})
	if !errors.Is(err, errNothingDue) {
		// A move nobody needed any more is not a command: only report
		// the ones that were due when decided.
		s.cfg.Observer.Command(l.State.Game, kind, Outcome(err), time.Since(start))
	}
	if errors.Is(err, errNothingDue) || isLateTimeout(err) {
		// Someone acted first (another node, or the player at the last moment).
		if l, err := s.Load(ctx, tableID); err == nil {
			s.sched.note(tableID, l.State)
		}
		return false, nil
	}
	return err == nil, err
}

var errNothingDue = errors.New("service: nothing due")

func isLateTimeout(err error) bool {
	var e *table.Error
	return err != nil && errors.As(err, &e) && (e.Code == table.ErrNoDeadline.Code || e.Code == table.ErrDeadlineNotReached.Code)
}

// dueSeat picks the seat the server acts for now: server-played seats first,
// then the first seat whose deadline has passed.
func (s *Service) dueSeat(st *table.State, now time.Time) (int, bool) {
	if st.Closed || !st.InDeal && !st.BetweenHands() {
		return 0, false
	}
	for seat := range st.Players {
		if st.Awaited(seat) && st.ServerPlays(seat) && !now.Before(st.Since[seat].Add(s.sched.think)) {
			return seat, true
		}
	}
	for seat := range st.Players {
		if dl, ok := st.Deadline(seat); ok && !now.Before(dl) {
			return seat, true
		}
	}
	return 0, false
}
