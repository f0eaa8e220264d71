package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"paiju/projections"
	"paiju/service"
)

// HandHistory serves finished hands. Its errors match projections.ErrNotFound,
// ErrHandInProgress, ErrBadCursor and ErrBadQuery where they apply.
type HandHistory interface {
	Hand(ctx context.Context, handID string) (projections.Hand, error)
	TableHands(ctx context.Context, tableID, cursor string, limit int) (projections.HandPage, error)
	PlayerHands(ctx context.Context, playerID, cursor string, limit int) (projections.HandPage, error)
}

// Leaderboards serves rankings and player totals.
type Leaderboards interface {
	Leaderboard(ctx context.Context, q projections.LeaderboardQuery) (projections.Leaderboard, error)
	Player(ctx context.Context, playerID string) (projections.PlayerStats, error)
}

// ProjectionProgress says how far the projections have applied the log.
type ProjectionProgress interface {
	Status(ctx context.Context) (projections.Status, error)
	// WaitFor returns once every projection has applied pos, or an error
	// matching projections.ErrLagging after timeout.
	WaitFor(ctx context.Context, pos int64, timeout time.Duration) error
}

// Projections is what the API reads of the projections: the read model of
// package projections (its types and errors, no storage), served by
// whichever store keeps it.
type Projections interface {
	HandHistory
	Leaderboards
	ProjectionProgress
}

// maxProjectionWait bounds a read's wait for ?min_position.
const maxProjectionWait = 5 * time.Second

// projectionRoutes adds the read-model routes to the authenticated group.
// Finished hands follow the visibility policy (visibility.go): a table's
// hands are read by its players, past and present, and the auditor; a
// player's history by that player and the auditor.
func (s *server) projectionRoutes(r chi.Router) {
	r.Get("/hands/{handID}", s.projected(func(w http.ResponseWriter, r *http.Request) error {
		id := chi.URLParam(r, "handID")
		h, err := s.Projections.Hand(r.Context(), id)
		if errors.Is(err, projections.ErrNotFound) {
			return s.handNotProjected(r.Context(), id)
		}
		if err != nil {
			return err
		}
		if err := s.mayReadTableHands(r.Context(), h.TableID); err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, h)
		return nil
	}))
	r.Get("/tables/{id}/hands", s.projected(func(w http.ResponseWriter, r *http.Request) error {
		limit, err := limitParam(r)
		if err != nil {
			return err
		}
		if err := s.mayReadTableHands(r.Context(), chi.URLParam(r, "id")); err != nil {
			return err
		}
		p, err := s.Projections.TableHands(r.Context(), chi.URLParam(r, "id"), r.URL.Query().Get("cursor"), limit)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, p)
		return nil
	}))
	r.Get("/players/{id}/hands", s.projected(func(w http.ResponseWriter, r *http.Request) error {
		limit, err := limitParam(r)
		if err != nil {
			return err
		}
		if err := mayReadPlayerHands(r.Context(), chi.URLParam(r, "id")); err != nil {
			return err
		}
		if _, err := s.registered(r.Context(), chi.URLParam(r, "id")); err != nil {
			return err
		}
		p, err := s.Projections.PlayerHands(r.Context(), chi.URLParam(r, "id"), r.URL.Query().Get("cursor"), limit)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, p)
		return nil
	}))
	r.Get("/players/{id}", s.projected(func(w http.ResponseWriter, r *http.Request) error {
		rec, err := s.registered(r.Context(), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		p, err := s.Projections.Player(r.Context(), rec.ID)
		if errors.Is(err, projections.ErrNotFound) {
			// Registered but never settled a hand (or not projected yet):
			// a player with no totals, not an unknown one.
			p, err = projections.PlayerStats{PlayerID: rec.ID, Name: rec.Name, Games: []projections.GameStats{}}, nil
		}
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, p)
		return nil
	}))
	r.Get("/leaderboards/{game}", s.projected(func(w http.ResponseWriter, r *http.Request) error {
		limit, err := limitParam(r)
		if err != nil {
			return err
		}
		q := r.URL.Query()
		switch q.Get("by") {
		case "", "points":
		case "rating":
			return s.ratingBoard(w, r, limit)
		default:
			return problem(http.StatusBadRequest, "invalid_query", "by must be points or rating")
		}
		if game := chi.URLParam(r, "game"); !slices.Contains(s.Tables.GameNames(), game) {
			return problem(http.StatusNotFound, "game_not_found", fmt.Sprintf("no game %q (known: %s)", game, strings.Join(s.Tables.GameNames(), ", ")))
		}
		lb, err := s.Projections.Leaderboard(r.Context(), projections.LeaderboardQuery{
			Game:    chi.URLParam(r, "game"),
			Variant: q.Get("variant"),
			Period:  q.Get("period"),
			Cursor:  q.Get("cursor"),
			Limit:   limit,
			Around:  q.Get("around"),
		})
		if err != nil {
			return err
		}
		lb.By = "points"
		writeJSON(w, http.StatusOK, lb)
		return nil
	}))
	r.Get("/projections", s.projected(func(w http.ResponseWriter, r *http.Request) error {
		st, err := s.Projections.Status(r.Context())
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, st)
		return nil
	}))
}

// projected serves h once the projections are there and have applied the
// request's min_position, mapping the projections' errors to problems.
func (s *server) projected(h func(http.ResponseWriter, *http.Request) error) http.HandlerFunc {
	var m waiter
	if s.Projections != nil {
		m = s.Projections
	}
	return s.readModel(m, h)
}

// waitPosition waits for m to apply the position v, a min_position query
// value, for at most maxProjectionWait.
func (s *server) waitPosition(ctx context.Context, m waiter, v string) error {
	pos, err := strconv.ParseInt(v, 10, 64)
	if err != nil || pos < 0 {
		return problem(http.StatusBadRequest, "invalid_query", "min_position must be a non-negative integer")
	}
	return m.WaitFor(ctx, pos, maxProjectionWait)
}

func projectionProblem(err error) error {
	switch {
	case errors.Is(err, projections.ErrNotFound):
		return problem(http.StatusNotFound, "not_found", "no such resource in the projections")
	case errors.Is(err, projections.ErrHandInProgress):
		return problem(http.StatusConflict, "hand_in_progress", "the hand is not over; its record is served once it is settled")
	case errors.Is(err, projections.ErrBadCursor):
		return problem(http.StatusBadRequest, "invalid_cursor", "the cursor is not one this server issued")
	case errors.Is(err, projections.ErrLagging):
		return problem(http.StatusServiceUnavailable, "projection_lagging", "the read model has not caught up with the event log yet (a settled hand not yet in the hand history, or the table directory behind the log); retry later")
	case errors.Is(err, projections.ErrBadQuery):
		return problem(http.StatusBadRequest, "invalid_query", err.Error())
	}
	return err
}

// registered returns the registered player id: 404 player_not_found for an
// id nobody registered, so that an unknown player and a player who has not
// played yet answer differently.
func (s *server) registered(ctx context.Context, id string) (PlayerRecord, error) {
	p, err := s.Players.PlayerByID(ctx, id)
	if errors.Is(err, ErrNoPlayer) {
		return p, problem(http.StatusNotFound, "player_not_found", "no player has that id")
	}
	if err != nil {
		return p, fmt.Errorf("look up player %s: %w", id, err)
	}
	return p, nil
}

// handNotProjected answers for a hand id the hand history does not hold,
// from the table itself (the store is the source of truth and the
// projections trail it): the running hand is 409 hand_in_progress, a
// settled hand the projections have not reached yet is 503
// projection_lagging, anything else 404.
func (s *server) handNotProjected(ctx context.Context, handID string) error {
	notFound := problem(http.StatusNotFound, "not_found", "no such hand")
	i := strings.LastIndexByte(handID, '-')
	if i < 0 {
		return notFound
	}
	n, err := strconv.Atoi(handID[i+1:])
	if err != nil || n < 1 {
		return notFound
	}
	l, err := s.Tables.Load(ctx, handID[:i])
	if errors.Is(err, service.ErrTableNotFound) {
		return notFound
	}
	if err != nil {
		return err
	}
	if !readsEndedDeals(l, callerOf(ctx)) {
		return problem(http.StatusForbidden, "history_not_seated", "only the auditor and players who sat at this table may read its hands")
	}
	st := l.State
	settled := st.Last != nil && st.Last.Hand >= n
	switch {
	case n == st.Hand && !settled:
		return projections.ErrHandInProgress
	case n <= st.Hand:
		return projections.ErrLagging
	}
	return notFound
}

func limitParam(r *http.Request) (int, error) {
	v := r.URL.Query().Get("limit")
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > projections.MaxLimit {
		return 0, problem(http.StatusBadRequest, "invalid_query", "limit must be an integer from 1 to "+strconv.Itoa(projections.MaxLimit))
	}
	return n, nil
}
