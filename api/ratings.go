package api

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"paiju/projections"
	"paiju/service"
)

// Ratings serves skill ratings: the rating leaderboards, a player's
// ratings and history, and the current ratings of a table's players. Its
// errors match projections.ErrNotFound, ErrBadCursor and ErrBadQuery where
// they apply.
type Ratings interface {
	RatingBoard(ctx context.Context, q projections.RatingQuery) (projections.RatingBoard, error)
	PlayerRatings(ctx context.Context, playerID string, history bool, cursor string, limit int) (projections.PlayerRatings, error)
	CurrentRatings(ctx context.Context, game, variant string, players []string) (map[string]projections.CurrentRating, error)
}

// seatRating is a seated human's current rating in the table's variant.
type seatRating struct {
	Rating      float64 `json:"rating"`
	Deviation   float64 `json:"deviation"`
	Provisional bool    `json:"provisional"`
	Hands       int     `json:"hands"`
}

// ratingWait bounds how long a table view waits for the ratings of the
// table's last settled hand: the projections apply a settlement within
// milliseconds when they run; when they do not (an external projector
// stopped), every view of a settled table pays this once more.
const ratingWait = 250 * time.Millisecond

// rateSeats fills in the current rating of each seated human of v in its
// variant, once the projections have applied the table's last settlement
// (l's), so that a view of one version shows the ratings after it whoever
// asks: the ratings can then change only with another table's hand. It is
// best effort: the view is served without ratings (null) when they cannot
// be read in time, as for a server without the projections.
func (s *server) rateSeats(ctx context.Context, l *service.Loaded, v *tableView) {
	if s.Ratings == nil {
		return
	}
	for i := len(l.Events) - 1; i >= 0; i-- {
		if l.Events[i].Type != "HandSettled" {
			continue
		}
		if s.Projections == nil || s.Projections.WaitFor(ctx, l.Events[i].Position, ratingWait) != nil {
			return
		}
		break
	}
	var players []string
	for _, sv := range v.Seats {
		if sv.PlayerID != nil && !sv.Bot {
			players = append(players, *sv.PlayerID)
		}
	}
	if len(players) == 0 {
		return
	}
	rs, err := s.Ratings.CurrentRatings(ctx, v.Game, v.Variant, players)
	if err != nil {
		return
	}
	for i, sv := range v.Seats {
		if sv.PlayerID == nil || sv.Bot {
			continue
		}
		if r, ok := rs[*sv.PlayerID]; ok {
			v.Seats[i].Rating = &seatRating{Rating: r.Rating, Deviation: r.Deviation, Provisional: r.Provisional, Hands: r.Hands}
		}
	}
}

// ratingRoutes adds the ratings' routes to the authenticated group.
func (s *server) ratingRoutes(r chi.Router) {
	r.Get("/players/{id}/ratings", s.projected(func(w http.ResponseWriter, r *http.Request) error {
		if s.Ratings == nil {
			return problem(http.StatusServiceUnavailable, "projections_unavailable", "this server does not serve ratings")
		}
		limit, err := limitParam(r)
		if err != nil {
			return err
		}
		q := r.URL.Query()
		history, err := boolQuery(r, "history")
		if err != nil {
			return err
		}
		rec, err := s.registered(r.Context(), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		p, err := s.Ratings.PlayerRatings(r.Context(), rec.ID, history, q.Get("cursor"), limit)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, p)
		return nil
	}))
}

// ratingBoard serves GET /v1/leaderboards/{game}?by=rating.
func (s *server) ratingBoard(w http.ResponseWriter, r *http.Request, limit int) error {
	if s.Ratings == nil {
		return problem(http.StatusServiceUnavailable, "projections_unavailable", "this server does not serve ratings")
	}
	q := r.URL.Query()
	game := chi.URLParam(r, "game")
	if !slices.Contains(s.Tables.GameNames(), game) {
		return problem(http.StatusNotFound, "game_not_found", fmt.Sprintf("no game %q (known: %s)", game, strings.Join(s.Tables.GameNames(), ", ")))
	}
	b, err := s.Ratings.RatingBoard(r.Context(), projections.RatingQuery{
		Game: game, Variant: q.Get("variant"), Period: q.Get("period"), Cursor: q.Get("cursor"), Limit: limit, Around: q.Get("around"),
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, b)
	return nil
}
