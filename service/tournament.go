package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"paiju/domain/table"
	"paiju/domain/tournament"
	"paiju/eventstore"
)

// Tournaments: the service opens a tournament's stream, registers players,
// and, whenever one of its tables closes, records the table's result and
// opens the next round's tables. Everything it does follows from the
// streams (reconcileTournament), so a restart carries every running
// tournament on (Resume).

// TournamentStreamID is the event stream of a tournament.
func TournamentStreamID(id string) string { return "tournament-" + id }

// ErrTournamentNotFound: no such tournament.
var ErrTournamentNotFound = &table.Error{Kind: table.KindNotFound, Code: "tournament_not_found", Msg: "no such tournament"}

// TournamentRequest opens a tournament.
type TournamentRequest struct {
	Game, Variant, Format string
	Players               int
	HandsPerTable         int
	Stake                 int
}

// LoadedTournament is a tournament folded from its stream, with the stream.
type LoadedTournament struct {
	State  *tournament.State
	Events []Recorded
}

// OpenTournament opens a tournament; the caller is its opener, not a player
// (they join like anyone).
func (s *Service) OpenTournament(ctx context.Context, p Player, req TournamentRequest) (*LoadedTournament, error) {
	rules, err := s.tournamentRules(req.Game, req.Variant, req.Format, req.HandsPerTable)
	if err != nil {
		return nil, err
	}
	seed, err := s.cfg.Seeds.NewSeed()
	if err != nil {
		return nil, fmt.Errorf("draw the tournament's seed: %w", err)
	}
	id := s.cfg.IDs.NewID()
	evs, err := tournament.Open(tournament.Opening{
		ID: id, Game: req.Game, Variant: req.Variant, Format: req.Format,
		Players: req.Players, HandsPerTable: req.HandsPerTable, Stake: req.Stake, OpenedBy: p.ID,
		Seats: rules.Seats(), Partnerships: rules.Seats() == tournament.PartnershipSeats,
	}, seed)
	if err != nil {
		return nil, err
	}
	return s.appendTournament(ctx, id, &LoadedTournament{State: tournament.New()}, evs)
}

// tournamentRules are the rules a tournament's tables are opened under: a
// three-seat game the server can play (bots and the clock keep a
// tournament moving) whose matches of N hands end by themselves, or, for a
// duplicate, a four-seat partnership game that can play every hand as a
// first hand (option "duplicate": 升级).
//
// An elimination table plays the game's match of N hands (option "hands",
// which breaks a tie for first with extra hands); a duplicate table plays
// exactly N hands (max_hands), every table the same deals.
func (s *Service) tournamentRules(game, variant, format string, hands int) (table.Rules, error) {
	g, ok := s.cfg.Games[game]
	if !ok {
		return nil, table.ErrUnknownGame.With("unknown game %q (known: %s)", game, strings.Join(s.GameNames(), ", "))
	}
	if hands < 1 || hands > tournament.MaxHandsPerTable {
		return nil, table.ErrBadOption.With("hands_per_table must be 1..%d, got %d", tournament.MaxHandsPerTable, hands)
	}
	opts := json.RawMessage(fmt.Sprintf(`{"hands":%d}`, hands))
	if format == tournament.FormatDuplicate {
		opts = nil
	}
	r, err := g.Rules(variant, opts)
	if err == nil && format != tournament.FormatDuplicate {
		// A game that ignored the option would never end its match.
		var o struct {
			Hands int `json:"hands"`
		}
		if json.Unmarshal(r.Options(), &o) != nil || o.Hands != hands {
			err = errors.New("no matches of N hands")
		}
	}
	if err != nil {
		return nil, table.ErrBadOption.With("%s/%s does not play matches of N hands, which a tournament needs", game, variant)
	}
	if format == tournament.FormatDuplicate && r.Seats() == tournament.PartnershipSeats {
		// A partnership game's deals are comparable between tables only
		// if no table's earlier hands (levels, the next dealer) change how
		// a later one is played.
		if r, err = g.Rules(variant, json.RawMessage(`{"duplicate":true}`)); err != nil {
			return nil, table.ErrBadOption.With("%s/%s cannot be a duplicate: its hands depend on the hands before them", game, variant)
		}
	} else if r.Seats() != tournament.SeatsPerTable {
		return nil, table.ErrBadOption.With("%s/%s cannot be a tournament: it needs %d seats (or %d partners for a duplicate) and a bot", game, variant, tournament.SeatsPerTable, tournament.PartnershipSeats)
	}
	if _, ok := r.(table.Autoplay); !ok {
		return nil, table.ErrBadOption.With("%s/%s cannot be a tournament: it needs a bot", game, variant)
	}
	return r, nil
}

// LoadTournament returns a tournament as its stream stands.
func (s *Service) LoadTournament(ctx context.Context, id string) (*LoadedTournament, error) {
	if !validID(id) {
		return nil, ErrTournamentNotFound
	}
	evs, err := s.cfg.Store.Load(ctx, TournamentStreamID(id), 0)
	if err != nil {
		return nil, fmt.Errorf("load tournament %s: %w", id, err)
	}
	if len(evs) == 0 {
		return nil, ErrTournamentNotFound
	}
	l := &LoadedTournament{State: tournament.New()}
	for _, e := range evs {
		p, err := tournament.Decode(e.Type, e.Data)
		if err != nil {
			return nil, fmt.Errorf("tournament %s version %d: %w", id, e.Version, err)
		}
		tournament.Apply(l.State, p)
		l.Events = append(l.Events, Recorded{Version: e.Version, Position: e.Position, Type: e.Type, RecordedAt: e.RecordedAt, Payload: p})
	}
	return l, nil
}

// JoinTournament registers the caller; the registration that fills the
// field starts the first round and opens its tables.
func (s *Service) JoinTournament(ctx context.Context, p Player, id string) (*LoadedTournament, error) {
	s.tourMu.Lock()
	defer s.tourMu.Unlock()
	for attempt := 1; ; attempt++ {
		l, err := s.LoadTournament(ctx, id)
		if err != nil {
			return nil, err
		}
		evs, err := tournament.Register(l.State, p.ID, p.Name, s.cfg.IDs)
		if err != nil {
			return nil, err
		}
		next, err := s.appendTournament(ctx, id, l, evs)
		if errors.Is(err, eventstore.ErrConflict) && attempt < maxAttempts {
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := s.openRoundTables(ctx, next.State); err != nil {
			return nil, err
		}
		return next, nil
	}
}

// LeaveTournament withdraws the caller's registration while the tournament
// registers (tournament.Withdraw).
func (s *Service) LeaveTournament(ctx context.Context, p Player, id string) (*LoadedTournament, error) {
	s.tourMu.Lock()
	defer s.tourMu.Unlock()
	for attempt := 1; ; attempt++ {
		l, err := s.LoadTournament(ctx, id)
		if err != nil {
			return nil, err
		}
		evs, err := tournament.Withdraw(l.State, p.ID)
		if err != nil {
			return nil, err
		}
		next, err := s.appendTournament(ctx, id, l, evs)
		if errors.Is(err, eventstore.ErrConflict) && attempt < maxAttempts {
			continue
		}
		return next, err
	}
}

// appendTournament appends evs to the tournament l and returns it after them.
func (s *Service) appendTournament(ctx context.Context, id string, l *LoadedTournament, evs []table.Payload) (*LoadedTournament, error) {
	news := make([]eventstore.NewEvent, len(evs))
	for i, e := range evs {
		data, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", e.EventType(), err)
		}
		news[i] = eventstore.NewEvent{Type: e.EventType(), Data: data}
	}
	expected := l.State.Version
	res, err := s.cfg.Store.Append(ctx, TournamentStreamID(id), expected, news)
	if err != nil {
		return nil, fmt.Errorf("append to tournament %s: %w", id, err)
	}
	s.cfg.Committed()
	next := &LoadedTournament{State: tournament.New(), Events: slices.Clone(l.Events)}
	for _, r := range next.Events {
		tournament.Apply(next.State, r.Payload)
	}
	for i, e := range evs {
		tournament.Apply(next.State, e)
		next.Events = append(next.Events, Recorded{Version: expected + i + 1, Position: res.Positions[i], Type: e.EventType(), RecordedAt: res.RecordedAt, Payload: e})
	}
	return next, nil
}

// openRoundTables opens every table of the running round that has no
// stream yet: its players sit in the seats the draw gave them, in the
// opening batch, and only they may sit there (table.Opening.Reserved).
func (s *Service) openRoundTables(ctx context.Context, st *tournament.State) error {
	rd := st.Current()
	if rd == nil || st.Status != tournament.StatusRunning {
		return nil
	}
	rules, err := s.tournamentRules(st.Game, st.Variant, st.Format, st.HandsPerTable)
	if err != nil {
		return err
	}
	for _, tb := range rd.Tables {
		if tb.Done() {
			continue
		}
		if err := s.openTournamentTable(ctx, st, rules, tb); err != nil {
			return err
		}
	}
	return nil
}

func (s *Service) openTournamentTable(ctx context.Context, st *tournament.State, rules table.Rules, tb tournament.Table) error {
	clock := table.DefaultClock()
	o := table.Opening{
		ID: tb.TableID, Game: st.Game, Variant: st.Variant, Stake: st.Stake,
		OpenedBy: server.ID, Clock: &clock, Tournament: st.TournamentID, Reserved: tb.Players,
	}
	if secret, ok := st.DealsSecret(); ok {
		o.FixedDeals, o.MaxHands = &secret, st.HandsPerTable
	}
	evs, err := table.OpenWith(rules, o)
	if err != nil {
		return err
	}
	ts := table.New(rules)
	for _, e := range evs {
		table.Apply(ts, e)
	}
	for seat, pid := range tb.Players {
		name := ""
		if i := st.Registration(pid); i >= 0 {
			name = st.Entrants[i].Name
		}
		more, err := table.Join(ts, pid, name, seat, s.dealInputs())
		if err != nil {
			return fmt.Errorf("seat %s at tournament table %s: %w", pid, tb.TableID, err)
		}
		for _, e := range more {
			table.Apply(ts, e)
		}
		evs = append(evs, more...)
	}
	res, err := s.commit(ctx, server, tb.TableID, &Loaded{State: table.New(rules)}, evs, NoCond)
	if errors.Is(err, eventstore.ErrConflict) {
		return nil // opened already (before a restart, or by another node)
	}
	if err != nil {
		return err
	}
	e := s.cache.acquire(tb.TableID)
	e.snap.Store(res.Table)
	s.cache.release(tb.TableID, e)
	s.cfg.Committed()
	s.sched.note(tb.TableID, res.Table.State)
	return nil
}

// tableClosed is called after a command closed a table: a tournament's
// table moves its tournament on.
func (s *Service) tableClosed(ctx context.Context, st *table.State) {
	if st.Tournament == "" || !st.Closed {
		return
	}
	// The player whose move ended the match may hang up: the tournament
	// moves on regardless.
	ctx = context.WithoutCancel(ctx)
	if err := s.ReconcileTournament(ctx, st.Tournament); err != nil {
		s.cfg.Logger.ErrorContext(ctx, "move a tournament on", "tournament", st.Tournament, "table", st.ID, "err", err)
	}
}

// ReconcileTournament brings a tournament up to date with its tables: it
// opens the running round's tables that have no stream yet and records the
// result of every one that has closed (which may end the round, open the
// next or end the tournament). It is idempotent.
func (s *Service) ReconcileTournament(ctx context.Context, id string) error {
	s.tourMu.Lock()
	defer s.tourMu.Unlock()
	for attempt := 1; attempt < 10_000; attempt++ {
		l, err := s.LoadTournament(ctx, id)
		if err != nil {
			return err
		}
		if l.State.Status != tournament.StatusRunning {
			return nil
		}
		if err := s.openRoundTables(ctx, l.State); err != nil {
			return err
		}
		evs, err := s.closedTableResult(ctx, l.State)
		if err != nil || evs == nil {
			return err
		}
		next, err := s.appendTournament(ctx, id, l, evs)
		if errors.Is(err, eventstore.ErrConflict) {
			continue
		}
		if err != nil {
			return err
		}
		if err := s.openRoundTables(ctx, next.State); err != nil {
			return err
		}
	}
	return fmt.Errorf("tournament %s: reconciling did not settle", id)
}

// closedTableResult decides the result of the first table of the running
// round that has closed without its result recorded; nil when there is none.
func (s *Service) closedTableResult(ctx context.Context, st *tournament.State) ([]table.Payload, error) {
	for _, tb := range st.Current().Tables {
		if tb.Done() {
			continue
		}
		l, err := s.Load(ctx, tb.TableID)
		if errors.Is(err, ErrTableNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if !l.State.Closed {
			continue
		}
		if st.Format == tournament.FormatDuplicate {
			return tournament.RecordDuplicate(st, tb.TableID, handScores(l))
		}
		hands, standings, err := matchResult(l, tb.Players)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", tb.TableID, err)
		}
		return tournament.Record(st, tb.TableID, hands, standings, s.cfg.IDs)
	}
	return nil, nil
}

// matchResult reads a closed match's standings (the game's MatchEnded, by
// seat) for the players drawn to its seats, with the hands each seat lost.
func matchResult(l *Loaded, players []string) (int, []tournament.Standing, error) {
	lost := make([]int, len(players))
	var ended *struct {
		Hands     int `json:"hands"`
		Standings []struct {
			Place int `json:"place"`
			Seat  int `json:"seat"`
			Total int `json:"total"`
		} `json:"standings"`
	}
	for _, r := range l.Events {
		switch p := r.Payload.(type) {
		case table.HandSettled:
			for seat, d := range p.Deltas {
				if d < 0 && seat < len(lost) {
					lost[seat]++
				}
			}
		}
		if r.Type == "MatchEnded" {
			data, err := json.Marshal(r.Payload)
			if err != nil {
				return 0, nil, err
			}
			if err := json.Unmarshal(data, &ended); err != nil {
				return 0, nil, fmt.Errorf("decode MatchEnded: %w", err)
			}
		}
	}
	if ended == nil {
		return 0, nil, errors.New("the table closed without ending its match")
	}
	out := make([]tournament.Standing, 0, len(ended.Standings))
	for _, x := range ended.Standings {
		if x.Seat < 0 || x.Seat >= len(players) {
			return 0, nil, fmt.Errorf("MatchEnded names seat %d", x.Seat)
		}
		out = append(out, tournament.Standing{Seat: x.Seat, PlayerID: players[x.Seat], Place: x.Place, Total: x.Total, HandsLost: lost[x.Seat]})
	}
	return ended.Hands, out, nil
}

// handScores lists a closed table's settled hands with the deal each ended
// on.
func handScores(l *Loaded) []tournament.HandScore {
	var out []tournament.HandScore
	deal := 0
	for _, r := range l.Events {
		switch p := r.Payload.(type) {
		case table.HandDealt:
			deal = p.Deal
		case table.HandSettled:
			out = append(out, tournament.HandScore{Hand: p.Hand, Deal: deal, Deltas: slices.Clone(p.Deltas)})
		}
	}
	return out
}

// resumeTournaments carries on every running tournament among ids (after a
// restart, or what other nodes appended).
func (s *Service) resumeTournaments(ctx context.Context, ids []string) {
	for _, id := range ids {
		if err := s.ReconcileTournament(ctx, id); err != nil {
			s.cfg.Logger.WarnContext(ctx, "resume a tournament", "tournament", id, "err", err)
		}
	}
}
