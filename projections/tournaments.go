package projections

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"paiju/domain/tournament"
	"paiju/eventstore"
)

// Tournaments is the projection of the tournament streams: a row per
// tournament and per registered player, for the standings and the list of
// tournaments. It takes what the events record (registrations, seatings,
// table results, who advanced, the scores, the winner) and never decides
// anything the aggregate decides.
const Tournaments = "tournaments"

// Tournament statuses, as the aggregate names them.
const (
	TournamentRegistering = tournament.StatusRegistering
	TournamentRunning     = tournament.StatusRunning
	TournamentEnded       = tournament.StatusEnded
)

// Player statuses in the standings (as GET /v1/tournaments/{id} gives them).
const (
	StandingRegistered = "registered"
	StandingPlaying    = "playing"
	StandingWaiting    = "waiting"
	StandingEliminated = "eliminated"
	StandingFinished   = "finished"
	StandingWinner     = "winner"
)

// TournamentID is the tournament of a tournament stream ("tournament-<id>").
func TournamentID(stream string) (string, bool) {
	id, ok := strings.CutPrefix(stream, "tournament-")
	return id, ok && id != ""
}

// TournamentEntry is a tournament as the projection keeps it.
type TournamentEntry struct {
	ID            string `json:"id"`
	Game          string `json:"game"`
	Variant       string `json:"variant"`
	Format        string `json:"format"`
	Players       int    `json:"players"`
	Registered    int    `json:"registered"`
	HandsPerTable int    `json:"hands_per_table"`
	Stake         int    `json:"stake"`
	Status        string `json:"status"`
	// Round is the round being played (the last one, once ended); 0 before
	// the start.
	Round     int       `json:"round"`
	Winner    *string   `json:"winner"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// OpenedPosition is the global position of TournamentOpened: the
	// list's order and its cursor.
	OpenedPosition int64 `json:"-"`
}

// TournamentPlayer is a registered player's row: where they are and the
// facts of the last table they were seated at.
type TournamentPlayer struct {
	PlayerID string
	Name     string
	Seq      int // registration order, from 0
	Round    int // the round of their last table; 0 before any
	TableID  string
	// TableDone: their last table's result is recorded.
	TableDone bool
	// Points, HandsLost and Place are their last table's result (0 until
	// it is recorded); in a duplicate tournament Points is the total the
	// scores give.
	Points, HandsLost, Place int
	EliminatedRound          int // 0: not eliminated
	Matchpoints              float64
	ScoreRank                int // place in a duplicate tournament's scores, from 1; 0 before scoring
}

// TournamentFold applies a tournament stream's events to the rows of one
// tournament. Both stores load the rows, fold the events and write back
// what Changed names, so they keep the same rows.
type TournamentFold struct {
	T       *TournamentEntry // nil: a stream without TournamentOpened yet
	Players map[string]*TournamentPlayer
	// Written since the fold was loaded.
	TChanged bool
	Changed  map[string]bool // player ids
	// Removed: player ids whose rows are to be deleted (they withdrew);
	// never also in Changed.
	Removed map[string]bool
	// Reset: TournamentOpened was applied, every earlier row of the
	// tournament is gone.
	Reset bool
	// Lookup, if set, reads a player's row that Players lacks (nil, nil
	// for none), and LoadAll every row into Players: a store that loads
	// only the rows an event names. Without them Players holds every row.
	Lookup  func(id string) (*TournamentPlayer, error)
	LoadAll func() error
	loaded  bool
}

// NewTournamentFold returns a fold of the rows loaded (t nil for none).
func NewTournamentFold(t *TournamentEntry, players []TournamentPlayer) *TournamentFold {
	f := &TournamentFold{T: t, Players: make(map[string]*TournamentPlayer, len(players)), Changed: map[string]bool{}, Removed: map[string]bool{}}
	for i := range players {
		p := players[i]
		f.Players[p.PlayerID] = &p
	}
	return f
}

func decodeTournament[T any](ev eventstore.Event) (T, error) {
	var v T
	if err := json.Unmarshal(ev.Data, &v); err != nil {
		return v, fmt.Errorf("decode %s: %w", ev.Type, err)
	}
	return v, nil
}

// player returns id's row, marked changed, or nil if id is not
// registered.
func (f *TournamentFold) player(id string) (*TournamentPlayer, error) {
	p, err := f.find(id)
	if p != nil {
		f.Changed[id] = true
	}
	return p, err
}

func (f *TournamentFold) find(id string) (*TournamentPlayer, error) {
	if p := f.Players[id]; p != nil || f.Lookup == nil || f.loaded || f.Removed[id] {
		return p, nil
	}
	p, err := f.Lookup(id)
	if err != nil || p == nil {
		return nil, err
	}
	f.Players[id] = p
	return p, nil
}

// all makes Players hold every row.
func (f *TournamentFold) all() error {
	if f.LoadAll == nil || f.loaded {
		return nil
	}
	f.loaded = true
	return f.LoadAll()
}

// Apply folds one event of the tournament's stream.
func (f *TournamentFold) Apply(ev eventstore.Event) error {
	at := ev.RecordedAt.UTC()
	if ev.Type == (tournament.Opened{}).EventType() {
		o, err := decodeTournament[tournament.Opened](ev)
		if err != nil {
			return err
		}
		id, _ := TournamentID(ev.Stream)
		f.T = &TournamentEntry{ID: id, Game: o.Game, Variant: o.Variant, Format: o.Format, Players: o.Players,
			HandsPerTable: o.HandsPerTable, Stake: o.Stake, Status: TournamentRegistering,
			CreatedAt: at, UpdatedAt: at, OpenedPosition: ev.Position}
		f.TChanged, f.Reset = true, true
		clear(f.Players)
		clear(f.Changed)
		clear(f.Removed)
		f.loaded = true // a new tournament: no row of it is stored
		return nil
	}
	if f.T == nil {
		return nil // not a tournament this projection knows
	}
	t := f.T
	switch ev.Type {
	case (tournament.Registered{}).EventType():
		r, err := decodeTournament[tournament.Registered](ev)
		if err != nil {
			return err
		}
		p, err := f.find(r.PlayerID)
		if err != nil {
			return err
		}
		if p == nil {
			f.Players[r.PlayerID] = &TournamentPlayer{PlayerID: r.PlayerID, Name: r.Name, Seq: t.Registered}
			f.Changed[r.PlayerID] = true
			delete(f.Removed, r.PlayerID)
			t.Registered++
		}
	case (tournament.Withdrew{}).EventType():
		// The row goes, and those registered after it move up one place,
		// as the aggregate's entrants do: Seq stays 0 … Registered−1.
		w, err := decodeTournament[tournament.Withdrew](ev)
		if err != nil {
			return err
		}
		if err := f.all(); err != nil {
			return err
		}
		gone := f.Players[w.PlayerID]
		if gone == nil {
			return nil
		}
		for id, p := range f.Players {
			if p.Seq > gone.Seq {
				p.Seq--
				f.Changed[id] = true
			}
		}
		delete(f.Players, w.PlayerID)
		delete(f.Changed, w.PlayerID)
		f.Removed[w.PlayerID] = true
		t.Registered--
	case (tournament.Started{}).EventType():
		t.Status = TournamentRunning
	case (tournament.RoundStarted{}).EventType():
		r, err := decodeTournament[tournament.RoundStarted](ev)
		if err != nil {
			return err
		}
		t.Round = r.Round
	case (tournament.TableAssigned{}).EventType():
		a, err := decodeTournament[tournament.TableAssigned](ev)
		if err != nil {
			return err
		}
		for _, id := range a.Players {
			p, err := f.player(id)
			if err != nil {
				return err
			}
			if p != nil {
				p.Round, p.TableID, p.TableDone = a.Round, a.TableID, false
				p.Points, p.HandsLost, p.Place = 0, 0, 0
			}
		}
	case (tournament.ResultRecorded{}).EventType():
		r, err := decodeTournament[tournament.ResultRecorded](ev)
		if err != nil {
			return err
		}
		for _, s := range r.Standings {
			p, err := f.player(s.PlayerID)
			if err != nil {
				return err
			}
			if p != nil {
				p.TableDone, p.Points, p.HandsLost, p.Place = true, s.Total, s.HandsLost, s.Place
			}
		}
	case (tournament.DuplicateResult{}).EventType():
		// Only that the table ended: its hands stay out of the standings
		// until the scores, as the tournament's own answer keeps them.
		r, err := decodeTournament[tournament.DuplicateResult](ev)
		if err != nil {
			return err
		}
		if err := f.all(); err != nil {
			return err
		}
		for id, p := range f.Players {
			if p.TableID == r.TableID && p.Round == r.Round {
				p.TableDone = true
				f.Changed[id] = true
			}
		}
	case (tournament.Advanced{}).EventType():
		a, err := decodeTournament[tournament.Advanced](ev)
		if err != nil {
			return err
		}
		for _, id := range a.Eliminated {
			p, err := f.player(id)
			if err != nil {
				return err
			}
			if p != nil {
				p.EliminatedRound = a.Round
			}
		}
	case (tournament.Scored{}).EventType():
		s, err := decodeTournament[tournament.Scored](ev)
		if err != nil {
			return err
		}
		for i, sc := range s.Scores {
			p, err := f.player(sc.PlayerID)
			if err != nil {
				return err
			}
			if p != nil {
				p.Matchpoints, p.Points, p.ScoreRank = sc.Matchpoints, sc.Points, i+1
			}
		}
	case (tournament.Ended{}).EventType():
		e, err := decodeTournament[tournament.Ended](ev)
		if err != nil {
			return err
		}
		t.Status = TournamentEnded
		w := e.Winner
		t.Winner = &w
	default:
		return nil
	}
	t.UpdatedAt = at
	f.TChanged = true
	return nil
}

// Standing is one player's place in a tournament's standings.
type Standing struct {
	PlayerID string `json:"player_id"`
	Name     string `json:"name"`
	// Status: registered, playing (at TableID), waiting (their table has
	// ended, others of the round have not), eliminated, finished, winner.
	Status string `json:"status"`
	Round  int    `json:"round"`
	Points int    `json:"points"`
	// TableID is the table they play at now, while playing.
	TableID *string `json:"table_id"`
	// HandsLost and Place are the result of their last table, once
	// recorded.
	HandsLost *int `json:"hands_lost"`
	Place     *int `json:"place"`
	// EliminatedInRound is the round that eliminated them.
	EliminatedInRound *int `json:"eliminated_in_round"`
	// Matchpoints is a duplicate tournament's score, once scored.
	Matchpoints *float64 `json:"matchpoints"`
}

// TournamentStandings is a tournament with its standings, best first.
type TournamentStandings struct {
	Tournament TournamentEntry `json:"tournament"`
	Standings  []Standing      `json:"standings"`
	// Position is a log position the projection had applied when read:
	// the standings hold every event up to it.
	Position int64 `json:"position"`
}

// StandingsOf orders a tournament's players as GET /v1/tournaments/{id}
// does: the winner, then those still in (or finished), then the
// eliminated; within each, the furthest round first, then the most points,
// then registration order. A scored duplicate tournament is ordered by its
// scores.
func StandingsOf(t TournamentEntry, players []TournamentPlayer) []Standing {
	ps := slices.Clone(players)
	slices.SortFunc(ps, func(a, b TournamentPlayer) int { return a.Seq - b.Seq })
	out := make([]Standing, 0, len(ps))
	for _, p := range ps {
		x := Standing{PlayerID: p.PlayerID, Name: p.Name, Round: p.Round, Points: p.Points}
		switch {
		case t.Winner != nil && *t.Winner == p.PlayerID:
			x.Status = StandingWinner
		case p.EliminatedRound > 0:
			x.Status = StandingEliminated
		case t.Status == TournamentEnded:
			x.Status = StandingFinished
		case t.Status == TournamentRegistering:
			x.Status = StandingRegistered
		case p.TableDone:
			x.Status = StandingWaiting
		default:
			x.Status = StandingPlaying
			id := p.TableID
			x.TableID = &id
		}
		if p.TableDone && p.Place > 0 {
			lost, place := p.HandsLost, p.Place
			x.HandsLost, x.Place = &lost, &place
		}
		if p.EliminatedRound > 0 {
			r := p.EliminatedRound
			x.EliminatedInRound = &r
		}
		if p.ScoreRank > 0 {
			mp := p.Matchpoints
			x.Matchpoints = &mp
		}
		out = append(out, x)
	}
	rank := func(x Standing) int {
		switch x.Status {
		case StandingWinner:
			return 0
		case StandingEliminated:
			return 2
		}
		return 1
	}
	slices.SortStableFunc(out, func(a, b Standing) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		if a.Round != b.Round {
			return b.Round - a.Round
		}
		return b.Points - a.Points
	})
	scoreRank := make(map[string]int, len(ps))
	scored := false
	for _, p := range ps {
		scoreRank[p.PlayerID] = p.ScoreRank
		scored = scored || p.ScoreRank > 0
	}
	if scored {
		slices.SortStableFunc(out, func(a, b Standing) int { return scoreRank[a.PlayerID] - scoreRank[b.PlayerID] })
	}
	return out
}

// TournamentPage is a page of tournaments, newest first; Next is the
// cursor of the next page, empty after the last.
type TournamentPage struct {
	Tournaments []TournamentEntry `json:"tournaments"`
	Next        string            `json:"next_cursor,omitempty"`
}

// TournamentQuery selects a page of tournaments.
type TournamentQuery struct {
	Status string // registering, running, ended; empty: every one
	Cursor string
	Limit  int
}

// CheckTournamentQuery refuses a status that is not a tournament's.
func CheckTournamentQuery(q TournamentQuery) error {
	switch q.Status {
	case "", TournamentRegistering, TournamentRunning, TournamentEnded:
		return nil
	}
	return fmt.Errorf("%w: status must be %s, %s or %s", ErrBadQuery, TournamentRegistering, TournamentRunning, TournamentEnded)
}
