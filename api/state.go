package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// tableAt answers GET /v1/tables/{id}/state?at=N: the table as the caller
// could see it right after event N. The caller's seat is the one they held
// then, and the view is exactly what that seat was shown then: cards that
// were hidden at N stay hidden even if their deal has ended since (the
// export, or /events, shows an ended deal in full). The auditor sees
// everything. Without at, it is the table now.
func (s *server) tableAt(w http.ResponseWriter, r *http.Request) {
	at := -1
	if q := r.URL.Query().Get("at"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil {
			s.writeError(w, r, problem(http.StatusBadRequest, "invalid_query", "at must be an integer"))
			return
		}
		if n < 1 {
			s.writeError(w, r, problem(http.StatusUnprocessableEntity, "at_out_of_range", "at must be ≥ 1: event 1 opens the table"))
			return
		}
		at = n
	}
	l, err := s.load(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if at > l.State.Version {
		s.writeError(w, r, problem(http.StatusNotFound, "version_not_found", fmt.Sprintf("the table has %d events; there is no event %d yet", l.State.Version, at)))
		return
	}
	if at > 0 {
		l = l.At(at)
	}
	// Encoded before the status is written: a view that cannot be encoded
	// is a logged 500, never a 200 with an empty body.
	body, err := json.Marshal(viewOf(l, callerOf(r.Context())))
	if err != nil {
		s.writeError(w, r, fmt.Errorf("encode the view of table %s at version %d: %w", l.State.ID, l.State.Version, err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(append(body, '\n'))
}
