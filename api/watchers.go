package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
)

// A seated player lets named players watch its seat (看牌): they get that
// seat's view everywhere a view is served (the table, /events, /stream,
// /legal), never more, and cannot act. Watching is recorded in the table's
// log (WatcherAdded, WatcherRemoved), so that an audit says who could see
// which hand when.

type watcherRequest struct {
	PlayerID string `json:"player_id"`
}

func (s *server) addWatcher(w http.ResponseWriter, r *http.Request) {
	var req watcherRequest
	p, cond, err := s.commandInput(w, r, false, &req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if strings.TrimSpace(req.PlayerID) == "" {
		s.writeError(w, r, problem(http.StatusBadRequest, "malformed_json", `name the watcher: {"player_id": "…"}`))
		return
	}
	if _, err := s.Players.PlayerByID(r.Context(), req.PlayerID); err != nil {
		if errors.Is(err, ErrNoPlayer) {
			s.writeError(w, r, problem(http.StatusNotFound, "player_not_found", "no player was registered with that id"))
			return
		}
		s.writeError(w, r, fmt.Errorf("watcher %s: %w", req.PlayerID, err))
		return
	}
	res, err := s.Tables.AddWatcher(r.Context(), p, chi.URLParam(r, "id"), req.PlayerID, cond)
	s.writeCommand(w, r, res, err)
}

func (s *server) removeWatcher(w http.ResponseWriter, r *http.Request) {
	var none struct{}
	p, cond, err := s.commandInput(w, r, true, &none)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := s.Tables.RemoveWatcher(r.Context(), p, chi.URLParam(r, "id"), chi.URLParam(r, "playerID"), cond)
	s.writeCommand(w, r, res, err)
}
