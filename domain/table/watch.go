package table

// Watchers (看牌): a seated player lets a named player look over its
// shoulder. The watcher sees exactly that seat's view and never acts; the
// player may take the permission back. Both are events of the table, so the
// log says who could see which hand when. A watcher stops watching when the
// seat changes hands (its player leaves or escapes) or when it takes a seat
// of its own.

// WatcherAdded: the player of Seat lets PlayerID watch the seat.
type WatcherAdded struct {
	Seat     int    `json:"seat"`
	PlayerID string `json:"player_id"`
}

// WatcherRemoved: the player of Seat takes PlayerID's watching back.
type WatcherRemoved struct {
	Seat     int    `json:"seat"`
	PlayerID string `json:"player_id"`
}

func (WatcherAdded) EventType() string   { return "WatcherAdded" }
func (WatcherRemoved) EventType() string { return "WatcherRemoved" }

var (
	// ErrWatcherSeated: a player seated at the table (or, the service
	// adds, at another table of the same duplicate tournament round) sees
	// its own seat, never another's.
	ErrWatcherSeated = &Error{Kind: KindForbidden, Code: "watcher_seated"}
	// ErrAlreadyWatching: the player watches a seat of the table already.
	ErrAlreadyWatching = &Error{Kind: KindConflict, Code: "already_watching"}
	// ErrNotWatching: the player does not watch the caller's seat.
	ErrNotWatching = &Error{Kind: KindNotFound, Code: "not_watching"}
)

// Watching returns the seat player watches, if any.
func (s *State) Watching(player string) (seat int, ok bool) {
	seat, ok = s.watchers[player]
	return seat, ok
}

// AddWatcher lets watcher watch seat, whose player asks it.
func AddWatcher(s *State, seat int, watcher string) ([]Payload, error) {
	switch {
	case s.Closed:
		return nil, ErrTableClosed.With("the table is closed")
	case seat < 0 || seat >= len(s.Players) || s.Players[seat] == "" || s.Bots[seat]:
		return nil, ErrNotSeated.With("only a seated player lets others watch its seat")
	case watcher == "":
		return nil, ErrBadAction.With("name the player who may watch")
	case s.SeatOf(watcher) >= 0:
		return nil, ErrWatcherSeated.With("%s holds a seat at this table: it sees its own", watcher)
	}
	if w, ok := s.watchers[watcher]; ok {
		return nil, ErrAlreadyWatching.With("%s watches seat %d already", watcher, w)
	}
	return []Payload{WatcherAdded{Seat: seat, PlayerID: watcher}}, nil
}

// RemoveWatcher takes watcher's watching of seat back, whose player asks it.
func RemoveWatcher(s *State, seat int, watcher string) ([]Payload, error) {
	if seat < 0 || seat >= len(s.Players) || s.Players[seat] == "" {
		return nil, ErrNotSeated.With("only a seated player manages who watches its seat")
	}
	if w, ok := s.watchers[watcher]; !ok || w != seat {
		return nil, ErrNotWatching.With("%s does not watch seat %d", watcher, seat)
	}
	return []Payload{WatcherRemoved{Seat: seat, PlayerID: watcher}}, nil
}

// applyWatch keeps the watchers: who watches which seat.
func (s *State) applyWatch(p Payload) {
	switch e := p.(type) {
	case WatcherAdded:
		if s.watchers == nil {
			s.watchers = map[string]int{}
		}
		s.watchers[e.PlayerID] = e.Seat
	case WatcherRemoved:
		delete(s.watchers, e.PlayerID)
	case PlayerSeated:
		delete(s.watchers, e.PlayerID)
		s.dropWatchersOf(e.Seat)
	case PlayerLeft:
		s.dropWatchersOf(e.Seat)
	case PlayerEscaped:
		s.dropWatchersOf(e.Seat)
	}
}

func (s *State) dropWatchersOf(seat int) {
	for w, ws := range s.watchers {
		if ws == seat {
			delete(s.watchers, w)
		}
	}
}
