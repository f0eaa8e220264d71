package api

import (
	"context"
	"net/http"

	"paiju/service"
)

// The visibility policy of docs/AUDIT.md, "Who may read what", in one place:
// a table's ended deals (in /events, /stream, /export and its hand records)
// are readable by the auditor and by anyone who ever sat at the table; a
// player's hand history by that player and the auditor. Everyone else sees a
// table's public events only, as a spectator of a running deal would.

// readsEndedDeals reports whether c may read the ended deals of the table l.
func readsEndedDeals(l *service.Loaded, c caller) bool {
	return c.auditor || l.EverSeated(c.playerID)
}

// viewer is what decides which events of a table a caller is shown, and
// how: the seat whose view it gets (service.ViewerSeat) and whether it may
// read ended deals. Two callers with the same viewer at the same version
// are shown the same bytes, which is what lets the live streams of a table
// share their frames (stream.go).
type viewer struct {
	seat  int
	reads bool
}

// viewerOf is c's viewer of the table l as it stands: besides those who
// read ended deals anyway, anyone reads them at a table whose spectator
// policy is after_deal. Nobody but a seat (and its watchers) ever reads a
// hidden card of the running deal.
func viewerOf(l *service.Loaded, c caller) viewer {
	reads := readsEndedDeals(l, c) || service.SpectatorReadsEndedDeals(l.State)
	return viewer{seat: service.ViewerSeat(l.State, c.playerID, c.auditor), reads: reads}
}

// visibleEvents is the events past after that c may see of l.
func visibleEvents(l *service.Loaded, c caller, after int) []service.Recorded {
	return viewerOf(l, c).events(l, after)
}

// events is the events of l past after that v sees.
func (v viewer) events(l *service.Loaded, after int) []service.Recorded {
	return service.VisibleEventsTo(l, v.seat, after, v.reads)
}

// mayReadTableHands checks that the caller may read the hand records of
// tableID: 403 history_not_seated if not, the table's load error if any.
func (s *server) mayReadTableHands(ctx context.Context, tableID string) error {
	l, err := s.Tables.Load(ctx, tableID)
	if err != nil {
		return err // an unknown table is 404 for the auditor too
	}
	if !readsEndedDeals(l, callerOf(ctx)) {
		return problem(http.StatusForbidden, "history_not_seated", "only the auditor and players who sat at this table may read its hands")
	}
	return nil
}

// mayReadPlayerHands checks that the caller may read playerID's hand history.
func mayReadPlayerHands(ctx context.Context, playerID string) error {
	c := callerOf(ctx)
	if c.auditor || c.playerID == playerID {
		return nil
	}
	return problem(http.StatusForbidden, "history_not_yours", "a player's hand history is readable by that player and the auditor only")
}
