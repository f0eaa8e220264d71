package service

import "paiju/domain/table"

// ViewerSeat is the seat whose view a caller gets: the player's seat, the
// auditor, or a spectator.
func ViewerSeat(st *table.State, playerID string, auditor bool) int {
	if auditor {
		return table.Auditor
	}
	if seat := st.SeatOf(playerID); seat >= 0 {
		return seat
	}
	return table.Spectator
}

// VisibleEvents returns the events with version > after as seat may see them.
// An event that seat may not see at all is left out; its version is skipped.
func VisibleEvents(l *Loaded, seat int, after int) []Recorded {
	ended := dealEnds(l.Events)
	var out []Recorded
	for i, r := range l.Events {
		if r.Version <= after {
			continue
		}
		p := table.Redact(l.State.Rules, r.Payload, seat, ended[i])
		if p == nil {
			continue
		}
		r.Payload = p
		out = append(out, r)
	}
	return out
}

// RedactAppended returns the appended events of a result as seat may see them.
func RedactAppended(res *Result, seat int) []Recorded {
	ended := dealEnds(res.Table.Events)
	var out []Recorded
	for _, r := range res.Appended {
		p := table.Redact(res.Table.State.Rules, r.Payload, seat, ended[r.Version-1])
		if p == nil {
			continue
		}
		r.Payload = p
		out = append(out, r)
	}
	return out
}

// dealEnds reports, for each event, whether the deal it belongs to has ended
// by the end of the stream: everything from a HandDealt up to the event that
// ends that deal belongs to the deal.
func dealEnds(evs []Recorded) []bool {
	ended := make([]bool, len(evs))
	over := false // whether the deal that the events being scanned belong to has ended
	for i := len(evs) - 1; i >= 0; i-- {
		if table.DealEnded(evs[i].Payload) {
			over = true
		}
		ended[i] = over
		if _, ok := evs[i].Payload.(table.HandDealt); ok {
			// Events before this deal belong to the previous deal, which ended
			// before this one began.
			over = true
		}
	}
	return ended
}
