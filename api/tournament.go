package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/go-chi/chi/v5"

	"paiju/domain/tournament"
	"paiju/projections"
	"paiju/service"
)

// Tournaments is what the API needs of the tournament service. The table
// service implements it; a Tables that does not serves no tournament
// routes.
type Tournaments interface {
	OpenTournament(ctx context.Context, p service.Player, req service.TournamentRequest) (*service.LoadedTournament, error)
	JoinTournament(ctx context.Context, p service.Player, id string) (*service.LoadedTournament, error)
	LeaveTournament(ctx context.Context, p service.Player, id string) (*service.LoadedTournament, error)
	LoadTournament(ctx context.Context, id string) (*service.LoadedTournament, error)
}

var _ Tournaments = (*service.Service)(nil)

// TournamentBoard serves the tournaments projection: the list of
// tournaments and each one's standings. The Projections a server is given
// serve it when they implement it; its errors match projections.ErrNotFound,
// ErrBadCursor and ErrBadQuery where they apply.
type TournamentBoard interface {
	TournamentStandings(ctx context.Context, id string) (projections.TournamentStandings, error)
	TournamentList(ctx context.Context, q projections.TournamentQuery) (projections.TournamentPage, error)
	WaitFor(ctx context.Context, pos int64, timeout time.Duration) error
}

// tournamentPoll is how often a tournament's live stream looks for new
// events: a tournament appends a few events per table, not per move, so a
// look a second costs little and needs no feed of its own.
const tournamentPoll = time.Second

// tournamentRoutes serves the tournaments; opening one counts against
// openQuota, the quota of opening tables.
func (s *server) tournamentRoutes(r chi.Router, openQuota func(http.Handler) http.Handler) {
	t, ok := s.Tables.(Tournaments)
	if !ok {
		return
	}
	r.With(openQuota).Post("/tournaments", func(w http.ResponseWriter, r *http.Request) { s.openTournament(t, w, r) })
	r.Get("/tournaments/{id}", func(w http.ResponseWriter, r *http.Request) { s.getTournament(t, w, r) })
	// The list and the standings are read from the tournaments projection.
	var board TournamentBoard
	var m waiter
	if b, ok := s.Projections.(TournamentBoard); ok {
		board, m = b, b
	}
	r.Get("/tournaments", s.readModel(m, func(w http.ResponseWriter, r *http.Request) error { return listTournaments(board, w, r) }))
	r.Get("/tournaments/{id}/standings", s.readModel(m, func(w http.ResponseWriter, r *http.Request) error {
		st, err := board.TournamentStandings(r.Context(), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, st)
		return nil
	}))
	r.Post("/tournaments/{id}/join", func(w http.ResponseWriter, r *http.Request) { s.joinTournament(t, w, r) })
	r.Post("/tournaments/{id}/leave", func(w http.ResponseWriter, r *http.Request) { s.leaveTournament(t, w, r) })
	r.Get("/tournaments/{id}/stream", func(w http.ResponseWriter, r *http.Request) { s.streamTournament(t, w, r) })
}

type openTournamentRequest struct {
	Game          string `json:"game"`
	Variant       string `json:"variant"`
	Format        string `json:"format"`
	Players       int    `json:"players"`
	HandsPerTable *int   `json:"hands_per_table"`
	Stake         *int   `json:"stake"`
}

func (s *server) openTournament(t Tournaments, w http.ResponseWriter, r *http.Request) {
	var req openTournamentRequest
	p, cond, err := s.commandInput(w, r, false, &req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if cond.IfMatch >= 0 || cond.IdempotencyKey != "" {
		s.writeError(w, r, problem(http.StatusBadRequest, "invalid_condition", "opening a tournament takes neither If-Match nor Idempotency-Key"))
		return
	}
	hands, stake := 5, 1
	if req.HandsPerTable != nil {
		hands = *req.HandsPerTable
	}
	if req.Stake != nil {
		stake = *req.Stake
	}
	l, err := t.OpenTournament(r.Context(), p, service.TournamentRequest{
		Game: req.Game, Variant: req.Variant, Format: req.Format, Players: req.Players, HandsPerTable: hands, Stake: stake,
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Location", "/v1/tournaments/"+l.State.TournamentID)
	setETag(w, l.State.Version)
	writeJSON(w, http.StatusCreated, tournamentViewOf(l.State, callerOf(r.Context()).playerID))
}

func (s *server) joinTournament(t Tournaments, w http.ResponseWriter, r *http.Request) {
	s.registration(w, r, t.JoinTournament, "joining a tournament takes neither If-Match nor Idempotency-Key: a second join is already_registered")
}

// leaveTournament withdraws the caller's registration while the
// tournament registers.
func (s *server) leaveTournament(t Tournaments, w http.ResponseWriter, r *http.Request) {
	s.registration(w, r, t.LeaveTournament, "leaving a tournament takes neither If-Match nor Idempotency-Key: a second leave is not_registered")
}

// registration answers a join or a leave: an empty body, no condition (a
// repeat is refused by the tournament itself, with its own code), the
// tournament after it.
func (s *server) registration(w http.ResponseWriter, r *http.Request, do func(context.Context, service.Player, string) (*service.LoadedTournament, error), noCondition string) {
	var req struct{}
	p, cond, err := s.commandInput(w, r, true, &req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if cond.IfMatch >= 0 || cond.IdempotencyKey != "" {
		s.writeError(w, r, problem(http.StatusBadRequest, "invalid_condition", noCondition))
		return
	}
	l, err := do(r.Context(), p, chi.URLParam(r, "id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	setETag(w, l.State.Version)
	writeJSON(w, http.StatusOK, tournamentViewOf(l.State, p.ID))
}

func (s *server) getTournament(t Tournaments, w http.ResponseWriter, r *http.Request) {
	l, err := t.LoadTournament(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// The body names the caller's own table: the ETag is per version, and
	// Vary keeps a shared cache from handing one caller's body to another.
	w.Header().Set("Vary", "Authorization")
	if notModified(w, r, l.State.Version) {
		return
	}
	setETag(w, l.State.Version)
	writeJSON(w, http.StatusOK, tournamentViewOf(l.State, callerOf(r.Context()).playerID))
}

// mayRead refuses a table of a duplicate tournament (fixed deals) to
// everyone but its players and the auditor until the tournament has ended:
// watching it would show the cards of deals that other tables of the set
// have not played yet.
func (s *server) mayRead(ctx context.Context, l *service.Loaded) error {
	if l.State.FixedDeals == "" || l.State.Tournament == "" {
		return nil
	}
	c := callerOf(ctx)
	if c.auditor || l.EverSeated(c.playerID) {
		return nil
	}
	if t, ok := s.Tables.(Tournaments); ok {
		tl, err := t.LoadTournament(ctx, l.State.Tournament)
		if err != nil {
			return err
		}
		if tl.State.Status == tournament.StatusEnded {
			return nil
		}
	}
	return problem(http.StatusForbidden, "table_sealed", "this table plays a duplicate tournament's deals: only its players and the auditor may read it until the tournament ends")
}

// tournamentView is the Tournament schema.
type tournamentView struct {
	ID            string `json:"id"`
	Version       int    `json:"version"`
	Game          string `json:"game"`
	Variant       string `json:"variant"`
	Format        string `json:"format"`
	Players       int    `json:"players"`
	HandsPerTable int    `json:"hands_per_table"`
	// SeatsPerTable and Partnerships: 3 and false but for a 升级 duplicate
	// (4, seats 0 and 2 against 1 and 3, compared side by side).
	SeatsPerTable int                  `json:"seats_per_table"`
	Partnerships  bool                 `json:"partnerships"`
	Stake         int                  `json:"stake"`
	Status        string               `json:"status"`
	Commitment    string               `json:"commitment"`
	Seed          *string              `json:"seed"`
	Winner        *string              `json:"winner"`
	Entrants      []tournament.Entrant `json:"entrants"`
	Rounds        []tournamentRound    `json:"rounds"`
	Standings     []tournamentStanding `json:"standings"`
	YourTable     *string              `json:"your_table"`
	YourStatus    *string              `json:"your_status"`
	// Scores: a duplicate tournament\'s ranking once every table has ended.
	Scores []tournament.Score `json:"scores"`
}

type tournamentRound struct {
	Number   int                  `json:"number"`
	Field    []string             `json:"field"`
	Tables   []tournamentTable    `json:"tables"`
	Advanced *tournament.Advanced `json:"advanced"`
}

type tournamentTable struct {
	TableID string                 `json:"table_id"`
	Players []string               `json:"players"`
	Ended   bool                   `json:"ended"`
	Result  *tournamentTableResult `json:"result"`
	// Hands: a duplicate table's settlements hand by hand, shown once the
	// tournament has ended (before, they would tell the players of another
	// table how deals they have yet to play went).
	Hands []tournament.HandScore `json:"hands"`
}

type tournamentTableResult struct {
	Hands     int                   `json:"hands"`
	Standings []tournament.Standing `json:"standings"`
}

// tournamentStanding is one entrant's place in the tournament: how far they
// got, their points in the last round they played, and where they play now.
type tournamentStanding struct {
	PlayerID string `json:"player_id"`
	Name     string `json:"name"`
	// Status: registered, playing (at TableID), waiting (their table has
	// ended, others of the round have not), eliminated, winner.
	Status  string  `json:"status"`
	Round   int     `json:"round"`
	Points  int     `json:"points"`
	TableID *string `json:"table_id"`
}

// tournamentViewOf is the tournament as anyone sees it (nothing of it is
// secret but the seed, which it shows only once revealed), with the
// caller's own table and status.
func tournamentViewOf(st *tournament.State, caller string) tournamentView {
	v := tournamentView{
		ID: st.TournamentID, Version: st.Version, Game: st.Game, Variant: st.Variant, Format: st.Format,
		Players: st.Players, HandsPerTable: st.HandsPerTable, SeatsPerTable: st.TableSeats(), Partnerships: st.Partnerships,
		Stake: st.Stake, Status: st.Status,
		Commitment: st.Commitment, Entrants: slices.Clone(st.Entrants), Rounds: []tournamentRound{}, Standings: []tournamentStanding{},
	}
	if v.Entrants == nil {
		v.Entrants = []tournament.Entrant{}
	}
	if st.Seed != "" {
		seed := st.Seed
		v.Seed = &seed
	}
	if st.Winner != "" {
		w := st.Winner
		v.Winner = &w
	}
	type where struct {
		round, points int
		table         string
		done          bool
	}
	at := map[string]where{}
	for _, rd := range st.Rounds {
		out := tournamentRound{Number: rd.Number, Field: rd.Field, Tables: []tournamentTable{}, Advanced: rd.Advanced}
		for _, tb := range rd.Tables {
			tv := tournamentTable{TableID: tb.TableID, Players: tb.Players, Ended: tb.Done()}
			for _, p := range tb.Players {
				at[p] = where{round: rd.Number, table: tb.TableID, done: tb.Done()}
			}
			if tb.Duplicate != nil && st.Status == tournament.StatusEnded {
				tv.Hands = tb.Duplicate.Hands
			}
			if tb.Result != nil {
				tv.Result = &tournamentTableResult{Hands: tb.Result.Hands, Standings: tb.Result.Standings}
				for _, x := range tb.Result.Standings {
					w := at[x.PlayerID]
					w.points = x.Total
					at[x.PlayerID] = w
				}
			}
			out.Tables = append(out.Tables, tv)
		}
		v.Rounds = append(v.Rounds, out)
	}
	for _, e := range st.Entrants {
		w := at[e.PlayerID]
		x := tournamentStanding{PlayerID: e.PlayerID, Name: e.Name, Round: w.round, Points: w.points}
		switch {
		case st.Winner == e.PlayerID:
			x.Status = "winner"
		case st.Eliminated[e.PlayerID] > 0:
			x.Status = "eliminated"
		case st.Status == tournament.StatusEnded:
			x.Status = "finished"
		case st.Status == tournament.StatusRegistering:
			x.Status = "registered"
		case w.done:
			x.Status = "waiting"
		default:
			x.Status = "playing"
			id := w.table
			x.TableID = &id
		}
		v.Standings = append(v.Standings, x)
	}
	rank := func(x tournamentStanding) int {
		switch x.Status {
		case "winner":
			return 0
		case "eliminated":
			return 2
		}
		return 1
	}
	slices.SortStableFunc(v.Standings, func(a, b tournamentStanding) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		if a.Round != b.Round {
			return b.Round - a.Round
		}
		return b.Points - a.Points
	})
	if st.Scores != nil {
		// A duplicate tournament ranks by its scores.
		v.Scores = st.Scores
		pos := map[string]int{}
		for i, sc := range st.Scores {
			pos[sc.PlayerID] = i
		}
		for i := range v.Standings {
			v.Standings[i].Points = st.Scores[pos[v.Standings[i].PlayerID]].Points
		}
		slices.SortStableFunc(v.Standings, func(a, b tournamentStanding) int { return pos[a.PlayerID] - pos[b.PlayerID] })
	}
	for _, x := range v.Standings {
		if x.PlayerID == caller {
			status := x.Status
			v.YourStatus = &status
			v.YourTable = x.TableID
		}
	}
	return v
}

// tournamentEvent is one event of a tournament's stream as the live stream
// sends it.
type tournamentEvent struct {
	Version    int       `json:"version"`
	Type       string    `json:"type"`
	RecordedAt time.Time `json:"recorded_at"`
	Data       any       `json:"data"`
}

// streamTournament answers GET /v1/tournaments/{id}/stream with Server-Sent
// Events: every public event of the tournament (all but its secret seed,
// which TournamentEnded reveals), the version as the SSE id, resuming after
// Last-Event-ID (or ?after=). It looks for new events every
// tournamentPoll; the stream ends after TournamentEnded.
func (s *server) streamTournament(t Tournaments, w http.ResponseWriter, r *http.Request) {
	after, ok := s.resumeAfter(w, r)
	if !ok {
		return
	}
	id := chi.URLParam(r, "id")
	if _, err := t.LoadTournament(r.Context(), id); err != nil {
		s.writeError(w, r, err)
		return
	}
	key, _ := keyByCaller(r)
	release, ok := s.streams.acquire(key)
	if !ok {
		s.rateLimited(w, r, 5*time.Second, fmt.Sprintf("at most %d open streams per caller; close one or retry after the time in Retry-After", s.Quotas.StreamsPerPlayer))
		return
	}
	defer release()
	// Revoking the token that opened the stream ends it, as a table's
	// stream does (stream.go).
	c := callerOf(r.Context())
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	if c.tokenID != "" {
		defer s.tokenStreams.add(c.tokenID, cancel)()
	}
	rc := startEventStream(w)
	s.Observer.StreamOpened()
	defer s.Observer.StreamClosed()
	if _, err := fmt.Fprint(w, ": paiju tournament stream\n\n"); err != nil {
		return
	}
	sent := after
	send := func() (bool, error) {
		l, err := t.LoadTournament(ctx, id)
		if err != nil {
			return false, err
		}
		ended := l.State.Status == tournament.StatusEnded
		for _, e := range l.Events {
			p := tournament.Redact(e.Payload, ended)
			if e.Version <= sent || p == nil {
				continue
			}
			data, err := json.Marshal(tournamentEvent{Version: e.Version, Type: e.Type, RecordedAt: e.RecordedAt, Data: p})
			if err != nil {
				return false, err
			}
			if _, err := fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", e.Version, e.Type, data); err != nil {
				return false, err
			}
		}
		sent = max(sent, l.State.Version)
		return l.State.Status == tournament.StatusEnded, rc.Flush()
	}
	poll := time.NewTicker(tournamentPoll)
	defer poll.Stop()
	beat := time.NewTicker(s.heartbeat)
	defer beat.Stop()
	for {
		ended, err := send()
		if err != nil {
			s.endStream(ctx, r, err)
			return
		}
		if ended {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-s.stopped:
			return
		case <-poll.C:
		case <-beat.C:
			if _, err := fmt.Fprint(w, ": heartbeat\n\n"); err != nil {
				return
			}
		}
	}
}

// listTournaments lists the tournaments, newest first, of ?status if given.
func listTournaments(b TournamentBoard, w http.ResponseWriter, r *http.Request) error {
	limit, err := limitParam(r)
	if err != nil {
		return err
	}
	q := projections.TournamentQuery{Status: r.URL.Query().Get("status"), Cursor: r.URL.Query().Get("cursor"), Limit: limit}
	if err := projections.CheckTournamentQuery(q); err != nil {
		return problem(http.StatusBadRequest, "invalid_query", "status must be registering, running or ended")
	}
	p, err := b.TournamentList(r.Context(), q)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, p)
	return nil
}
