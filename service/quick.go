package service

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"paiju/domain/table"
)

// TableKind is what quick play matches tables by: game, variant and stake,
// the normalized options asked for (compact JSON, {} for the defaults), the
// turn clock and rules version such a table records ("" for no clock), and
// the spectator policy
// asked for (table.SpectatorsPublic unless the player asks for another):
// nobody is seated at a table whose spectators see more than they chose.
// A table opened with another clock or a max_hands limit is never of a
// quick kind.
type TableKind struct {
	Game, Variant string
	Stake         int
	Options       string
	Clock         string // table.Pace: the clock, and whether the table waits between hands
	RulesVersion  string
	Spectators    string
}

// OpenSeats is where quick play looks for tables with a free seat: the
// table directory, a read model that may be behind the store. What it
// lists is only a candidate; the seat is taken by an ordinary join.
type OpenSeats interface {
	// OpenTables lists up to limit open tables of kind at which playerID
	// holds no seat, in the order quick play should try them: the fullest
	// first, then, among tables as full, the closest in mean rating to
	// playerID's (docs/AUDIT.md, Ratings), then the oldest.
	OpenTables(ctx context.Context, kind TableKind, playerID string, limit int) ([]string, error)
}

// QuickRequest asks for a seat at any open table of a kind.
type QuickRequest struct {
	Game    string
	Variant string
	Stake   int
	// Spectators is the spectator policy of the tables the player accepts
	// ("": table.SpectatorsPublic).
	Spectators string
	// Options are the game's table options the player asks for (house
	// rules); absent keys are the defaults. Tables match by the
	// normalized options, so {} and {"cap":null}-free equivalents meet.
	Options json.RawMessage
	// WaitBetweenHands: the tables the player accepts wait for their seats
	// between hands (OpenRequest.WaitBetweenHands); tables match by it.
	WaitBetweenHands bool
}

// quickCandidates bounds the tables one quick play tries before it opens
// one: each try that fails lost a race for the table's last seat.
const quickCandidates = 8

// recentPerKind bounds the tables quick play remembers opening per kind.
const recentPerKind = 16

// lobby serializes quick play per kind within this process and remembers
// the tables it opened, which the directory may not list yet.
type lobby struct {
	mu    sync.Mutex
	kinds map[TableKind]*kindState
}

type kindState struct {
	turn   chan struct{} // holds one token: whoever takes it plays this kind
	users  int           // callers holding or waiting for turn
	recent []string      // tables quick play opened here, oldest first, that may have a free seat
}

// enter waits for k's turn; leave must follow.
func (l *lobby) enter(ctx context.Context, k TableKind) (*kindState, error) {
	l.mu.Lock()
	if l.kinds == nil {
		l.kinds = map[TableKind]*kindState{}
	}
	ks := l.kinds[k]
	if ks == nil {
		ks = &kindState{turn: make(chan struct{}, 1)}
		l.kinds[k] = ks
	}
	ks.users++
	l.mu.Unlock()
	select {
	case ks.turn <- struct{}{}:
		return ks, nil
	case <-ctx.Done():
		l.release(k, ks)
		return nil, ctx.Err()
	}
}

func (l *lobby) leave(k TableKind, ks *kindState) {
	<-ks.turn
	l.release(k, ks)
}

func (l *lobby) release(k TableKind, ks *kindState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ks.users--
	if ks.users == 0 && len(ks.recent) == 0 {
		delete(l.kinds, k)
	}
}

// quickKind is the quick kind of game, variant and stake, or the error opening
// such a table would meet (unknown_game, unknown_variant, invalid_option).
func (s *Service) quickKind(req QuickRequest) (TableKind, error) {
	game, variant, stake := req.Game, req.Variant, req.Stake
	rules, err := s.rulesOf(game, variant)
	if err != nil {
		return TableKind{}, err
	}
	if len(bytes.TrimSpace(req.Options)) > 0 {
		g := s.cfg.Games[game]
		if err := table.CheckOrdinaryOptions(g, req.Options); err != nil {
			return TableKind{}, err
		}
		if rules, err = g.Rules(variant, req.Options); err != nil {
			return TableKind{}, err
		}
	}
	if stake < 1 || stake > table.MaxStake {
		return TableKind{}, table.ErrBadOption.With("stake must be an integer from 1 to %d, got %d", table.MaxStake, stake)
	}
	spectators := cmp.Or(req.Spectators, table.SpectatorsPublic)
	if spectators != table.SpectatorsPublic && spectators != table.SpectatorsAfterDeal {
		return TableKind{}, table.ErrBadOption.With("spectators must be %q or %q, got %q", table.SpectatorsPublic, table.SpectatorsAfterDeal, req.Spectators)
	}
	var opts bytes.Buffer
	if raw := rules.Options(); len(bytes.TrimSpace(raw)) > 0 && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Compact(&opts, raw); err != nil {
			return TableKind{}, fmt.Errorf("%s/%s: options: %w", game, variant, err)
		}
	} else {
		opts.WriteString("{}")
	}
	k := TableKind{Game: game, Variant: variant, Stake: stake, Options: opts.String(), RulesVersion: rules.Version(), Spectators: spectators}
	var clock *table.Clock
	if _, ok := rules.(table.Autoplay); ok {
		c := table.DefaultClock()
		clock = &c
	}
	k.Clock = table.Pace(clock, req.WaitBetweenHands)
	return k, nil
}

// CheckKind returns the error opening a table of game and variant would
// meet; an empty variant checks the game only.
func (s *Service) CheckKind(game, variant string) error {
	if variant == "" {
		if _, ok := s.cfg.Games[game]; !ok {
			return table.ErrUnknownGame.With("unknown game %q (known: %s)", game, strings.Join(s.GameNames(), ", "))
		}
		return nil
	}
	_, err := s.rulesOf(game, variant)
	return err
}

func (s *Service) rulesOf(game, variant string) (table.Rules, error) {
	g, ok := s.cfg.Games[game]
	if !ok {
		return nil, table.ErrUnknownGame.With("unknown game %q (known: %s)", game, strings.Join(s.GameNames(), ", "))
	}
	return g.Rules(variant, nil)
}

// Quick seats p at an open table of the requested kind where p holds no
// seat, or opens one and seats p at it in the same append; opened says
// which. Quick plays of one kind run one at a time in this process, so two
// players arriving together share a table instead of each opening one; a
// seat taken meanwhile (by a join, or by a quick play on another node)
// sends it on to the next table.
//
// Tables this process opened are tried first: the directory may not list
// them yet. With an Idempotency-Key, a retry answers what the first call
// did, whichever table that was.
func (s *Service) Quick(ctx context.Context, p Player, req QuickRequest, cond Cond) (res *Result, opened bool, err error) {
	kind, err := s.quickKind(req)
	if err != nil {
		return nil, false, err
	}
	ks, err := s.lobby.enter(ctx, kind)
	if err != nil {
		return nil, false, err
	}
	defer s.lobby.leave(kind, ks)
	if replay, err := s.replay(ctx, p, cond); replay != nil || err != nil {
		return replay, err == nil && len(replay.Appended) > 0 && replay.Appended[0].Type == "TableOpened", err
	}
	candidates := slices.Clone(ks.recent)
	if s.cfg.OpenSeats != nil {
		listed, err := s.cfg.OpenSeats.OpenTables(ctx, kind, p.ID, quickCandidates)
		if err != nil {
			return nil, false, fmt.Errorf("quick play: %w", err)
		}
		for _, id := range listed {
			if !slices.Contains(candidates, id) {
				candidates = append(candidates, id)
			}
		}
	}
	for _, id := range candidates[:min(len(candidates), quickCandidates)] {
		res, err := s.Join(ctx, p, id, -1, cond)
		switch {
		case err == nil:
			if res.Table.State.Closed || !hasFreeSeat(res.Table.State) {
				s.forget(ks, id)
			}
			return res, false, nil
		case errors.Is(err, table.ErrTableFull), errors.Is(err, table.ErrTableClosed):
			s.forget(ks, id)
		case errors.Is(err, table.ErrAlreadySeated), errors.Is(err, table.ErrSeatTaken), errors.Is(err, table.ErrWrongPhase):
			// Still a table for others: try the next one.
		default:
			return nil, false, err
		}
	}
	res, err = s.Open(ctx, p, OpenRequest{Game: req.Game, Variant: req.Variant, Stake: req.Stake, Options: json.RawMessage(kind.Options), Spectators: kind.Spectators, WaitBetweenHands: req.WaitBetweenHands, Sit: true}, cond)
	if err != nil {
		return nil, false, err
	}
	if !res.Replayed && hasFreeSeat(res.Table.State) {
		s.lobby.mu.Lock()
		ks.recent = append(ks.recent, res.Table.State.ID)
		if len(ks.recent) > recentPerKind {
			ks.recent = ks.recent[len(ks.recent)-recentPerKind:]
		}
		s.lobby.mu.Unlock()
	}
	return res, !res.Replayed || res.Appended[0].Type == "TableOpened", nil
}

// forget drops id from the tables quick play remembers for a kind.
func (s *Service) forget(ks *kindState, id string) {
	s.lobby.mu.Lock()
	defer s.lobby.mu.Unlock()
	ks.recent = slices.DeleteFunc(ks.recent, func(r string) bool { return r == id })
}

func hasFreeSeat(st *table.State) bool {
	return slices.Contains(st.Players, "")
}
