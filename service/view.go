package service

import (
	"bytes"
	"encoding/json"
	"sort"

	"paiju/domain/table"
)

// ViewerSeat is the seat whose view a caller gets: the player's seat, the
// auditor, the seat the player watches (table.WatcherAdded), or a
// spectator.
func ViewerSeat(st *table.State, playerID string, auditor bool) int {
	if auditor {
		return table.Auditor
	}
	if seat := st.SeatOf(playerID); seat >= 0 {
		return seat
	}
	if seat, ok := st.Watching(playerID); ok {
		return seat
	}
	return table.Spectator
}

// VisibleEvents returns the events with version > after as seat may see them.
// An event that seat may not see at all is left out; its version is skipped.
func VisibleEvents(l *Loaded, seat int, after int) []Recorded {
	return VisibleEventsTo(l, seat, after, true)
}

// VisibleEventsTo is VisibleEvents for a viewer who may or may not read ended
// deals: with revealEnded false every deal is shown as if it were running
// (docs/AUDIT.md, Who may read what: a spectator who never sat at the table
// sees public events only).
func VisibleEventsTo(l *Loaded, seat int, after int, revealEnded bool) []Recorded {
	// Whether an event's deal has ended depends only on the events from it
	// on (dealEnds), so a reader of the last few events (a live stream at
	// each move) looks at those alone, however long the table.
	evs := l.Events[eventsAfter(l.Events, after):]
	ended := make([]bool, len(evs))
	if revealEnded {
		ended = dealEnds(evs)
	}
	var out []Recorded
	for i, r := range evs {
		p := table.Redact(l.State.Rules, r.Payload, seat, ended[i])
		if p == nil {
			continue
		}
		if !revealEnded {
			p = WithoutSeed(p)
		}
		r.Payload = p
		out = append(out, r)
	}
	return out
}

// eventsAfter is the index of the first of evs (in version order) past
// version after.
func eventsAfter(evs []Recorded, after int) int {
	return sort.Search(len(evs), func(i int) bool { return evs[i].Version > after })
}

// SpectatorReadsEndedDeals reports whether a spectator of st (neither a
// seat nor a seat's watcher) is shown each ended deal in full: only under
// the policy table.SpectatorsAfterDeal. No policy shows anyone a hidden card
// of a running deal; a table that recorded a broadcast_delay is served as
// public (table.TableOpened.BroadcastDelay).
func SpectatorReadsEndedDeals(st *table.State) bool {
	return st.Spectators == table.SpectatorsAfterDeal
}

// WithoutSeed is p with the deal seed that HandSettled and DealVoided
// publish left out: the seed deals every hand again, so a viewer who may not
// read ended deals may not have it either.
func WithoutSeed(p table.Payload) table.Payload {
	switch e := p.(type) {
	case table.HandSettled:
		e.Seed = ""
		return e
	case table.DealVoided:
		e.Seed = ""
		return e
	}
	return p
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

// Revealed returns the events up to version before that seat was shown
// differently (or not at all) when the table stood at before, and may see in
// full now because their deal has ended since: a live stream that sent
// events up to before sends these again so that it ends up showing what
// /events shows (a DealSecret, say, is withheld until its deal ends).
func Revealed(l *Loaded, seat int, before int) []Recorded {
	before = min(before, len(l.Events))
	now := dealEnds(l.Events)
	then := dealEnds(l.Events[:before])
	var out []Recorded
	// The two encodings are compared in buffers reused from event to
	// event: Marshal would make two copies an event of the ended deal, for
	// every stream.
	var a, b bytes.Buffer
	encA, encB := json.NewEncoder(&a), json.NewEncoder(&b)
	for i := range before {
		if !now[i] || then[i] {
			continue
		}
		r := l.Events[i]
		shown := table.Redact(l.State.Rules, r.Payload, seat, true)
		if shown == nil {
			continue
		}
		was := table.Redact(l.State.Rules, r.Payload, seat, false)
		if was != nil {
			a.Reset()
			b.Reset()
			errA, errB := encA.Encode(shown), encB.Encode(was)
			if errA == nil && errB == nil && bytes.Equal(a.Bytes(), b.Bytes()) {
				continue
			}
		}
		r.Payload = shown
		out = append(out, r)
	}
	return out
}
