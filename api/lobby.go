package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"paiju/projections"
	"paiju/service"
)

// TableDirectory serves the table directory: the lobby and a player's
// tables. Its errors match projections.ErrBadCursor, ErrBadQuery and
// ErrLagging where they apply.
type TableDirectory interface {
	// Tables lists the lobby, newest first.
	Tables(ctx context.Context, q projections.TableQuery) (projections.TablePage, error)
	// PlayerTables lists the tables where playerID holds a seat: running
	// first, then open, then closed, newest first within each.
	PlayerTables(ctx context.Context, playerID string, statuses []string, cursor string, limit int) (projections.TablePage, error)
	// DirectoryCaughtUp returns once the directory has applied every event
	// the log held when it was called, or an error matching
	// projections.ErrLagging after timeout.
	DirectoryCaughtUp(ctx context.Context, timeout time.Duration) error
	// WaitFor returns once every projection has applied pos, or an error
	// matching projections.ErrLagging after timeout.
	WaitFor(ctx context.Context, pos int64, timeout time.Duration) error
}

// lobbyRoutes adds the lobby, the caller's own resources and quick play to
// the authenticated group; openQuota is POST /v1/tables's quota, which a
// quick play spends too, since it may open a table.
func (s *server) lobbyRoutes(r chi.Router, openQuota func(http.Handler) http.Handler) {
	r.Get("/tables", s.readModel(s.Directory, s.listTables))
	r.With(openQuota).Post("/tables/quick", s.quickPlay)
	r.Get("/me", s.me)
	r.Get("/me/tables", s.readModel(s.Directory, s.myTables))
}

// me is the caller's player, never its token.
type me struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
}

var errNotAPlayer = problem(http.StatusForbidden, "not_a_player", "the auditor token belongs to no player; /v1/me answers for a player's token")

func (s *server) me(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r.Context())
	if c.auditor {
		s.writeError(w, r, errNotAPlayer)
		return
	}
	writeJSON(w, http.StatusOK, me{ID: c.playerID, Name: c.name, CreatedAt: c.created.UTC()})
}

// listTables is the lobby: open and running tables (or those of ?status),
// of ?game and ?variant when given.
func (s *server) listTables(w http.ResponseWriter, r *http.Request) error {
	limit, err := limitParam(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	tq := projections.TableQuery{Game: q.Get("game"), Variant: q.Get("variant"), Cursor: q.Get("cursor"), Limit: limit}
	switch st := q.Get("status"); st {
	case "":
	case projections.StatusOpen, projections.StatusRunning:
		tq.Statuses = []string{st}
	default:
		return problem(http.StatusBadRequest, "invalid_query", "status must be open or running")
	}
	switch {
	case tq.Variant != "" && tq.Game == "":
		return problem(http.StatusBadRequest, "invalid_query", "variant needs game")
	case tq.Game != "":
		// An unknown game or variant is refused as opening it would be,
		// rather than listed as empty: a typo should not look like a
		// quiet lobby.
		if err := s.Tables.CheckKind(tq.Game, tq.Variant); err != nil {
			return err
		}
	}
	p, err := s.Directory.Tables(r.Context(), tq)
	if err != nil {
		return err
	}
	s.showOptions(p)
	writeJSON(w, http.StatusOK, p)
	return nil
}

// myTables lists the caller's tables. It first waits for the directory to
// apply what the log held when the request came, so that a client that
// lost its state finds every seat it took before asking.
func (s *server) myTables(w http.ResponseWriter, r *http.Request) error {
	c := callerOf(r.Context())
	if c.auditor {
		return errNotAPlayer
	}
	limit, err := limitParam(r)
	if err != nil {
		return err
	}
	var statuses []string
	switch st := r.URL.Query().Get("status"); st {
	case "":
	case projections.StatusOpen, projections.StatusRunning, projections.StatusClosed:
		statuses = []string{st}
	default:
		return problem(http.StatusBadRequest, "invalid_query", "status must be open, running or closed")
	}
	if err := s.Directory.DirectoryCaughtUp(r.Context(), maxProjectionWait); err != nil {
		return err
	}
	p, err := s.Directory.PlayerTables(r.Context(), c.playerID, statuses, r.URL.Query().Get("cursor"), limit)
	if err != nil {
		return err
	}
	s.showOptions(p)
	writeJSON(w, http.StatusOK, p)
	return nil
}

// showOptions fills the defaults into the recorded options of a page of
// the directory, as the table view shows them.
func (s *server) showOptions(p projections.TablePage) {
	for i := range p.Tables {
		t := &p.Tables[i]
		t.Options = s.Tables.ShownOptions(t.Game, t.Variant, t.RulesVersion, t.Options)
	}
}

type quickRequest struct {
	Game    string `json:"game"`
	Variant string `json:"variant"`
	Stake   *int   `json:"stake"`
	// Spectators is the spectator policy of the tables the caller accepts
	// (absent: public only).
	Spectators string `json:"spectators"`
	// Options are the table options asked for (absent: the defaults).
	Options json.RawMessage `json:"options"`
	// WaitBetweenHands: the caller accepts (and opens) only tables that
	// wait for their seats between hands; absent: only tables that do not.
	WaitBetweenHands bool `json:"wait_between_hands"`
}

// quickPlay seats the caller at an open table of the kind asked for, or
// opens one: 201 with the new table, 200 with the table joined.
func (s *server) quickPlay(w http.ResponseWriter, r *http.Request) {
	var req quickRequest
	p, cond, err := s.commandInput(w, r, false, &req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if cond.IfMatch >= 0 {
		s.writeError(w, r, problem(http.StatusBadRequest, "invalid_if_match", "If-Match makes no sense for quick play: the table is not chosen yet"))
		return
	}
	if strings.TrimSpace(req.Game) == "" || strings.TrimSpace(req.Variant) == "" {
		s.writeError(w, r, problem(http.StatusBadRequest, "malformed_json", `quick play needs a "game" and a "variant"`))
		return
	}
	stake := 1
	if req.Stake != nil {
		stake = *req.Stake
	}
	res, opened, err := s.Tables.Quick(r.Context(), p, service.QuickRequest{Game: req.Game, Variant: req.Variant, Stake: stake, Spectators: req.Spectators, Options: nullOptions(req.Options), WaitBetweenHands: req.WaitBetweenHands}, cond)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if res.Replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	v := viewOf(res.Table, callerOf(r.Context()))
	w.Header().Set("Location", "/v1/tables/"+v.ID)
	setETag(w, v.Version)
	status := http.StatusOK
	if opened {
		status = http.StatusCreated
	}
	writeJSON(w, status, v)
}

// waiter is a read model that can wait for a position of the log.
type waiter interface {
	WaitFor(ctx context.Context, pos int64, timeout time.Duration) error
}

// readModel serves h once the read model m is there and has applied the
// request's min_position, mapping the projections' errors to problems.
func (s *server) readModel(m waiter, h func(http.ResponseWriter, *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if m == nil {
			s.writeError(w, r, problem(http.StatusServiceUnavailable, "projections_unavailable", "this server does not serve projections"))
			return
		}
		if v := r.URL.Query().Get("min_position"); v != "" {
			if err := s.waitPosition(r.Context(), m, v); err != nil {
				s.writeError(w, r, lagProblem(w, err, "the projections have not reached position "+v+" yet; retry later"))
				return
			}
		}
		if err := h(w, r); err != nil {
			if errors.Is(err, projections.ErrLagging) {
				w.Header().Set("Retry-After", "1")
			}
			s.writeError(w, r, projectionProblem(err))
		}
	}
}

// lagProblem is projection_lagging, with Retry-After, for an error matching
// ErrLagging; err otherwise.
func lagProblem(w http.ResponseWriter, err error, detail string) error {
	if !errors.Is(err, projections.ErrLagging) {
		return err
	}
	w.Header().Set("Retry-After", "1")
	return problem(http.StatusServiceUnavailable, "projection_lagging", detail)
}
