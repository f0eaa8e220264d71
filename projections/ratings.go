package projections

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"paiju/domain/table"
	"paiju/eventstore"
	"paiju/ratings"
)

// Ratings is the name of the ratings projection: each human's skill rating
// per game and variant, and its history.
const Ratings = "ratings"

// Contests says who played against whom in a settled hand of a table
// opened as o: the game's table.Rated. ok is false when the game rates no
// hand (no rules for it, or rules that are not table.Rated): the hand then
// rates nobody.
type Contests func(o table.TableOpened, hs table.HandSettled) (cs []table.Contest, ok bool)

// RegistryContests is Contests from the rules of reg, at the rules version
// each table was opened under.
func RegistryContests(reg table.Registry) Contests {
	return func(o table.TableOpened, hs table.HandSettled) ([]table.Contest, bool) {
		r, err := reg.Rules(o)
		if err != nil {
			return nil, false
		}
		rated, ok := table.Adapted(r).(table.Rated)
		if !ok {
			return nil, false
		}
		return rated.Contests(hs), true
	}
}

// Rater is what the ratings projection rates a hand with.
type Rater struct {
	Model    ratings.Model
	Contests Contests // nil: no hand is rated
}

// RatedSeat is who holds a seat, as the ratings see it. Bot is a server bot
// or, in a hand's seats, a seat the bot played for the whole hand (handed to
// it before the deal and never resumed).
type RatedSeat struct {
	Player string `json:"player"`
	Name   string `json:"name"`
	Bot    bool   `json:"bot,omitempty"`
}

// RatedTable is what the ratings projection keeps of a table stream.
type RatedTable struct {
	Game         string            `json:"game"`
	Variant      string            `json:"variant"`
	Options      json.RawMessage   `json:"options,omitempty"`
	RulesVersion string            `json:"rules_version"`
	Seats        map[int]RatedSeat `json:"seats"`
	Delegated    map[int]bool      `json:"delegated,omitempty"`
	// Hand is the running hand (0 between hands) and HandSeats who held
	// each seat at its first deal.
	Hand      int               `json:"hand"`
	HandSeats map[int]RatedSeat `json:"hand_seats,omitempty"`
}

func (t *RatedTable) opened() table.TableOpened {
	return table.TableOpened{Game: t.Game, Variant: t.Variant, Options: t.Options, RulesVersion: t.RulesVersion}
}

// RatingKey names a player's rating: per game and variant.
type RatingKey struct{ Game, Variant, Player string }

// PlayerRating is a player's current rating in one game and variant.
type PlayerRating struct {
	RatingKey
	Name   string
	Rating ratings.Rating
	Hands  int
	LastAt int64 // unix ns of the last rated hand's settlement
}

// RatingChange is one rated hand of one player: the rating as it stood,
// the whole days idle before the hand, and the rating after it.
type RatingChange struct {
	Player    string         `json:"-"`
	Game      string         `json:"game"`
	Variant   string         `json:"variant"`
	HandID    string         `json:"hand_id"`
	Seat      int            `json:"seat"`
	Position  int64          `json:"position"`
	Before    ratings.Rating `json:"-"`
	IdleDays  int            `json:"idle_days"`
	After     ratings.Rating `json:"-"`
	SettledAt int64          `json:"-"`
}

// RatingsFold applies table events to the ratings projection's rows. Both
// stores load the rows an event needs through LoadTable and LoadRating,
// fold the batch's events in memory and write back what it changed, so
// that they keep the same rows: every number is computed here, in Go, and
// stored as the float64 it is.
type RatingsFold struct {
	Rater Rater
	// LoadTable reads a table's row (nil, nil for none); LoadRating a
	// player's rating (nil, nil for none).
	LoadTable  func(stream string) (*RatedTable, error)
	LoadRating func(k RatingKey) (*PlayerRating, error)

	tables  map[string]*RatedTable // nil value: known to have no row
	ratings map[RatingKey]*PlayerRating
	// Changed since the fold began: tables (by stream, first changed
	// first), ratings, and the history rows added.
	TablesChanged  []string
	RatingsChanged []RatingKey
	History        []RatingChange
	tChanged       map[string]bool
	rChanged       map[RatingKey]bool
}

// NewRatingsFold returns an empty fold over the loaders.
func NewRatingsFold(r Rater, loadTable func(string) (*RatedTable, error), loadRating func(RatingKey) (*PlayerRating, error)) *RatingsFold {
	return &RatingsFold{Rater: r, LoadTable: loadTable, LoadRating: loadRating,
		tables: map[string]*RatedTable{}, ratings: map[RatingKey]*PlayerRating{}, tChanged: map[string]bool{}, rChanged: map[RatingKey]bool{}}
}

// Table is stream's row as the fold has it (nil for none).
func (f *RatingsFold) Table(stream string) *RatedTable { return f.tables[stream] }

// Rating is k's rating as the fold has it (nil when not loaded or none).
func (f *RatingsFold) Rating(k RatingKey) *PlayerRating { return f.ratings[k] }

func (f *RatingsFold) table(stream string) (*RatedTable, error) {
	if t, ok := f.tables[stream]; ok {
		return t, nil
	}
	t, err := f.LoadTable(stream)
	if err != nil {
		return nil, fmt.Errorf("load table %s: %w", stream, err)
	}
	f.tables[stream] = t
	return t, nil
}

func (f *RatingsFold) rating(k RatingKey) (*PlayerRating, error) {
	if r, ok := f.ratings[k]; ok {
		return r, nil
	}
	r, err := f.LoadRating(k)
	if err != nil {
		return nil, fmt.Errorf("load rating of %s in %s/%s: %w", k.Player, k.Game, k.Variant, err)
	}
	f.ratings[k] = r
	return r, nil
}

func (f *RatingsFold) tableChanged(stream string) {
	if !f.tChanged[stream] {
		f.tChanged[stream] = true
		f.TablesChanged = append(f.TablesChanged, stream)
	}
}

// Preload reads, before a batch's events after position after, the rows
// they will need, in two reads instead of one a row: loadTables the table
// rows of the streams whose events the fold reads a table for (it returns
// those it has; the others have none), then loadRatings the ratings, in
// each table's game and variant, of the humans seated there, at its
// running hand's deal or by the batch's PlayerSeated, for the tables the
// batch settles a hand of (it returns those it has; the others have none). A row an event needs that
// Preload did not read is read then, by LoadTable or LoadRating. What the
// fold computes does not depend on how its rows were read.
func (f *RatingsFold) Preload(events []eventstore.Event, after int64,
	loadTables func(streams []string) (map[string]*RatedTable, error),
	loadRatings func(keys []RatingKey) (map[RatingKey]*PlayerRating, error)) error {
	var streams []string
	settles := map[string]bool{}
	seen := map[string]bool{}
	opened := map[string]eventstore.Event{}
	seated := map[string][]eventstore.Event{}
	for _, ev := range events {
		if ev.Position <= after {
			continue
		}
		switch ev.Type {
		case "TableOpened":
			opened[ev.Stream] = ev
			continue
		case "PlayerSeated", "PlayerLeft", "PlayerEscaped", "SeatDelegated", "SeatResumed", "HandDealt", "HandSettled":
		default:
			continue
		}
		if _, ok := TableID(ev.Stream); !ok {
			continue
		}
		switch ev.Type {
		case "HandSettled":
			settles[ev.Stream] = true
		case "PlayerSeated":
			seated[ev.Stream] = append(seated[ev.Stream], ev)
		}
		if _, known := f.tables[ev.Stream]; !known && !seen[ev.Stream] {
			seen[ev.Stream] = true
			streams = append(streams, ev.Stream)
		}
	}
	if len(streams) == 0 {
		return nil
	}
	got, err := loadTables(streams)
	if err != nil {
		return fmt.Errorf("load tables: %w", err)
	}
	var keys []RatingKey
	wanted := map[RatingKey]bool{}
	want := func(game, variant string, seat RatedSeat) {
		k := RatingKey{game, variant, seat.Player}
		if _, known := f.ratings[k]; seat.Bot || known || wanted[k] {
			return
		}
		wanted[k] = true
		keys = append(keys, k)
	}
	for _, s := range streams {
		t := got[s]
		f.tables[s] = t
		if !settles[s] {
			continue
		}
		var game, variant string
		if ev, ok := opened[s]; ok {
			// Opened in the batch: the seats are all the batch's.
			o, err := decodeRated[table.TableOpened](ev)
			if err != nil {
				return err
			}
			game, variant = o.Game, o.Variant
		} else if t != nil {
			game, variant = t.Game, t.Variant
			for _, seats := range []map[int]RatedSeat{t.Seats, t.HandSeats} {
				for _, seat := range seats {
					want(game, variant, seat)
				}
			}
		} else {
			continue
		}
		for _, ev := range seated[s] {
			p, err := decodeRated[table.PlayerSeated](ev)
			if err != nil {
				return err
			}
			want(game, variant, RatedSeat{Player: p.PlayerID, Bot: p.Bot})
		}
	}
	if len(keys) == 0 {
		return nil
	}
	rs, err := loadRatings(keys)
	if err != nil {
		return fmt.Errorf("load ratings: %w", err)
	}
	for _, k := range keys {
		f.ratings[k] = rs[k]
	}
	return nil
}

// IdleDays is the whole days from the settlement at last to the one at at
// (unix ns): the days a rating's deviation grows by before a hand.
func IdleDays(last, at int64) int {
	if last == 0 || at <= last {
		return 0
	}
	return int((at - last) / int64(24*time.Hour))
}

// Apply folds one event into the rows.
func (f *RatingsFold) Apply(ev eventstore.Event) error {
	if _, ok := TableID(ev.Stream); !ok {
		return nil
	}
	switch ev.Type {
	case "TableOpened":
		o, err := decodeRated[table.TableOpened](ev)
		if err != nil {
			return err
		}
		f.tables[ev.Stream] = &RatedTable{Game: o.Game, Variant: o.Variant, Options: o.Options, RulesVersion: o.RulesVersion, Seats: map[int]RatedSeat{}}
		f.tableChanged(ev.Stream)
		return nil
	case "PlayerSeated", "PlayerLeft", "PlayerEscaped", "SeatDelegated", "SeatResumed", "HandDealt", "HandSettled":
	default:
		return nil
	}
	t, err := f.table(ev.Stream)
	if err != nil || t == nil {
		return err
	}
	// The table's row is written again only when an event changes it.
	switch ev.Type {
	case "PlayerSeated":
		p, err := decodeRated[table.PlayerSeated](ev)
		if err != nil {
			return err
		}
		s := RatedSeat{Player: p.PlayerID, Name: p.Name, Bot: p.Bot}
		if cur, ok := t.Seats[p.Seat]; !ok || cur != s || t.Delegated[p.Seat] {
			t.Seats[p.Seat] = s
			delete(t.Delegated, p.Seat)
			f.tableChanged(ev.Stream)
		}
	case "PlayerLeft":
		p, err := decodeRated[table.PlayerLeft](ev)
		if err != nil {
			return err
		}
		f.unseat(ev.Stream, t, p.Seat)
	case "PlayerEscaped":
		// The escaper answers for the hand they left: they stay in its
		// seats (the game's contests make it their side's loss).
		p, err := decodeRated[table.PlayerEscaped](ev)
		if err != nil {
			return err
		}
		f.unseat(ev.Stream, t, p.Seat)
	case "SeatDelegated":
		p, err := decodeRated[table.SeatDelegated](ev)
		if err != nil {
			return err
		}
		if !t.Delegated[p.Seat] {
			if t.Delegated == nil {
				t.Delegated = map[int]bool{}
			}
			t.Delegated[p.Seat] = true
			f.tableChanged(ev.Stream)
		}
	case "SeatResumed":
		// The player played part of the running hand: it is theirs.
		p, err := decodeRated[table.SeatResumed](ev)
		if err != nil {
			return err
		}
		if _, ok := t.Delegated[p.Seat]; ok {
			delete(t.Delegated, p.Seat)
			f.tableChanged(ev.Stream)
		}
		if s, ok := t.HandSeats[p.Seat]; ok && s.Bot {
			if cur, ok := t.Seats[p.Seat]; ok && cur.Player == s.Player && s.Bot != cur.Bot {
				s.Bot = cur.Bot
				t.HandSeats[p.Seat] = s
				f.tableChanged(ev.Stream)
			}
		}
	case "HandDealt":
		n, err := HandNumber(ev.Data)
		if err != nil {
			return err
		}
		if n != t.Hand {
			t.Hand = n
			t.HandSeats = map[int]RatedSeat{}
			for seat, s := range t.Seats {
				s.Bot = s.Bot || t.Delegated[seat]
				t.HandSeats[seat] = s
			}
			f.tableChanged(ev.Stream)
		}
	case "HandSettled":
		if t.Hand != 0 || t.HandSeats != nil {
			f.tableChanged(ev.Stream)
		}
		return f.settle(ev, t)
	}
	return nil
}

// unseat empties seat of t: who left it, or escaped from it.
func (f *RatingsFold) unseat(stream string, t *RatedTable, seat int) {
	_, seated := t.Seats[seat]
	_, delegated := t.Delegated[seat]
	if seated || delegated {
		delete(t.Seats, seat)
		delete(t.Delegated, seat)
		f.tableChanged(stream)
	}
}

// settle rates a settled hand: the order of operations is docs/AUDIT.md's
// (Ratings).
func (f *RatingsFold) settle(ev eventstore.Event, t *RatedTable) error {
	hs, err := HandSettledOf(ev.Data)
	if err != nil {
		return err
	}
	held := t.HandSeats
	if t.Hand != hs.Hand {
		held = t.Seats // a settlement without a deal: the seats as they are
	}
	t.Hand, t.HandSeats = 0, nil
	if f.Rater.Contests == nil {
		return nil
	}
	contests, ok := f.Rater.Contests(t.opened(), hs)
	if !ok || len(contests) == 0 {
		return nil
	}
	m := f.Rater.Model
	at := ev.RecordedAt.UTC().UnixNano()
	seats := make([]ratings.Seat, len(hs.Deltas))
	before := map[string]ratings.Rating{}
	stored := map[string]*PlayerRating{}
	idle := map[string]int{}
	for _, n := range slices.Sorted(maps.Keys(held)) {
		s := held[n]
		if n < 0 || n >= len(seats) {
			continue
		}
		seats[n] = ratings.Seat{Player: s.Player, Bot: s.Bot}
		if s.Bot {
			continue
		}
		k := RatingKey{t.Game, t.Variant, s.Player}
		r, err := f.rating(k)
		if err != nil {
			return err
		}
		if r == nil {
			r = &PlayerRating{RatingKey: k, Rating: m.New()}
		}
		stored[s.Player] = r
		idle[s.Player] = IdleDays(r.LastAt, at)
		before[s.Player] = m.Idle(r.Rating, idle[s.Player])
	}
	// Bot seats with no player (every seat is held in a rated hand) are
	// rated at the bot's rating by the model.
	for n := range seats {
		if seats[n].Player == "" {
			seats[n].Bot = true
		}
	}
	after := m.Hand(contests, seats, before)
	tid, _ := TableID(ev.Stream)
	hid := HandID(tid, hs.Hand)
	for n, s := range seats {
		a, ok := after[s.Player]
		if s.Bot || !ok {
			continue // a bot, or a seat the rules voided the hand for
		}
		r := stored[s.Player]
		f.History = append(f.History, RatingChange{Player: s.Player, Game: t.Game, Variant: t.Variant, HandID: hid, Seat: n,
			Position: ev.Position, Before: r.Rating, IdleDays: idle[s.Player], After: a, SettledAt: at})
		r.Rating, r.Hands, r.LastAt, r.Name = a, r.Hands+1, at, held[n].Name
		f.ratings[r.RatingKey] = r
		if !f.rChanged[r.RatingKey] {
			f.rChanged[r.RatingKey] = true
			f.RatingsChanged = append(f.RatingsChanged, r.RatingKey)
		}
	}
	return nil
}

func decodeRated[T any](ev eventstore.Event) (T, error) {
	var v T
	if err := json.Unmarshal(ev.Data, &v); err != nil {
		return v, fmt.Errorf("decode %s: %w", ev.Type, err)
	}
	return v, nil
}

// RatingQuery selects a page of a rating leaderboard.
type RatingQuery struct {
	Game    string
	Variant string // empty: every variant, a row a player and variant
	Period  string // all (default), day, week, month: players rated in it
	Cursor  string
	Limit   int
	Around  string // as in LeaderboardQuery
}

// RatingRow is a player's line of a rating leaderboard: their current
// rating (mu) and deviation (sigma) in the row's variant.
type RatingRow struct {
	Rank        int     `json:"rank"`
	PlayerID    string  `json:"player_id"`
	Name        string  `json:"name"`
	Variant     string  `json:"variant"`
	Rating      float64 `json:"rating"`
	Deviation   float64 `json:"deviation"`
	Provisional bool    `json:"provisional"`
	Hands       int     `json:"hands"`
}

// RatingBoard is a page of a rating leaderboard.
type RatingBoard struct {
	Game     string      `json:"game"`
	Variant  string      `json:"variant,omitempty"`
	By       string      `json:"by"`
	Period   string      `json:"period"`
	From     time.Time   `json:"from,omitzero"`
	To       time.Time   `json:"to,omitzero"`
	TimeZone string      `json:"time_zone"`
	Rows     []RatingRow `json:"rows"`
	Next     string      `json:"next_cursor,omitempty"`
}

// RankRatings ranks all, a rating board's unranked rows, by the
// conservative rating mu − 3·sigma (a provisional rating ranks low until
// its deviation shrinks), ties broken by more hands, then player id, then
// variant; it marks each row provisional by m, and returns a page as
// RankPage does.
func RankRatings(m ratings.Model, all []RatingRow, around string, after int64, limit int) (page []RatingRow, next string, err error) {
	slices.SortFunc(all, func(a, b RatingRow) int {
		ca, cb := a.Rating-3*a.Deviation, b.Rating-3*b.Deviation
		switch {
		case ca != cb:
			if ca > cb {
				return -1
			}
			return 1
		case a.Hands != b.Hands:
			return b.Hands - a.Hands
		case a.PlayerID != b.PlayerID:
			if a.PlayerID < b.PlayerID {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Variant, b.Variant)
	})
	for i := range all {
		all[i].Rank = i + 1
		all[i].Provisional = m.Provisional(ratings.Rating{Mu: all[i].Rating, Sigma: all[i].Deviation})
	}
	start := int(min(after, int64(len(all))))
	if around != "" {
		idx := slices.IndexFunc(all, func(r RatingRow) bool { return r.PlayerID == around })
		if idx < 0 {
			return nil, "", ErrNotFound
		}
		start = max(0, min(idx-limit/2, len(all)-limit))
	}
	end := min(start+limit, len(all))
	if end < len(all) {
		next = EncodeCursor(int64(end))
	}
	return all[start:end], next, nil
}

// RatingBoardBounds checks q and returns the board's frame with the
// period's bounds (unix ns, [from, to)), the page size and the cursor's
// position.
func RatingBoardBounds(q RatingQuery, now time.Time, loc *time.Location) (b RatingBoard, from, to int64, limit int, after int64, err error) {
	if q.Period == "" {
		q.Period = PeriodAll
	}
	if from, to, err = PeriodBounds(q.Period, now, loc); err != nil {
		return
	}
	if limit, err = ClampLimit(q.Limit); err != nil {
		return
	}
	if after, err = DecodeCursor(q.Cursor); err != nil {
		return
	}
	b = RatingBoard{Game: q.Game, Variant: q.Variant, By: "rating", Period: q.Period, TimeZone: loc.String(), Rows: []RatingRow{}}
	if q.Period != PeriodAll {
		b.From, b.To = time.Unix(0, from).In(loc), time.Unix(0, to).In(loc)
	}
	return
}

// CurrentRating is a player's current rating in one game and variant.
type CurrentRating struct {
	Game        string    `json:"game"`
	Variant     string    `json:"variant"`
	Rating      float64   `json:"rating"`
	Deviation   float64   `json:"deviation"`
	Provisional bool      `json:"provisional"`
	Hands       int       `json:"hands"`
	LastPlayed  time.Time `json:"last_played"`
}

// RatingValue is a rating with its deviation.
type RatingValue struct {
	Rating    float64 `json:"rating"`
	Deviation float64 `json:"deviation"`
}

// RatingHistoryRow is one rated hand of a player: the rating as it stood
// after their previous hand, the whole days idle before this one (the
// deviation grew by them first), and the rating after it.
type RatingHistoryRow struct {
	Game      string      `json:"game"`
	Variant   string      `json:"variant"`
	HandID    string      `json:"hand_id"`
	Seat      int         `json:"seat"`
	Position  int64       `json:"position"`
	SettledAt time.Time   `json:"settled_at"`
	IdleDays  int         `json:"idle_days"`
	Before    RatingValue `json:"before"`
	After     RatingValue `json:"after"`
}

// PlayerRatings are a player's current ratings per game and variant and,
// when asked, a page of their rating history, oldest first.
type PlayerRatings struct {
	PlayerID string             `json:"player_id"`
	Ratings  []CurrentRating    `json:"ratings"`
	History  []RatingHistoryRow `json:"history,omitempty"`
	Next     string             `json:"next_cursor,omitempty"`
}

// HistoryRow is the row of a RatingChange.
func (c RatingChange) HistoryRow() RatingHistoryRow {
	return RatingHistoryRow{Game: c.Game, Variant: c.Variant, HandID: c.HandID, Seat: c.Seat, Position: c.Position,
		SettledAt: time.Unix(0, c.SettledAt).UTC(), IdleDays: c.IdleDays,
		Before: RatingValue{c.Before.Mu, c.Before.Sigma}, After: RatingValue{c.After.Mu, c.After.Sigma}}
}

// RecomputeRatings rates every settled hand of src from position 0 in
// memory, as the ratings projection does: the ratings and the history it
// gives are the projection's, bit for bit (paiju verify compares them).
func RecomputeRatings(ctx context.Context, src Source, r Rater) (*RatingsFold, error) {
	f := NewRatingsFold(r,
		func(string) (*RatedTable, error) { return nil, nil },
		func(RatingKey) (*PlayerRating, error) { return nil, nil })
	var after int64
	for {
		page, err := src.ReadAll(ctx, after, readPage)
		if err != nil {
			return nil, fmt.Errorf("ratings: read log after %d: %w", after, err)
		}
		if len(page) == 0 {
			return f, nil
		}
		for _, ev := range page {
			if err := f.Apply(ev); err != nil {
				return nil, fmt.Errorf("ratings: event %d (%s %s:%d): %w", ev.Position, ev.Type, ev.Stream, ev.Version, err)
			}
			after = ev.Position
		}
	}
}

// PlayerHistory is player's rating history in the fold, in log order.
func (f *RatingsFold) PlayerHistory(player string) []RatingHistoryRow {
	out := []RatingHistoryRow{}
	for _, h := range f.History {
		if h.Player == player {
			out = append(out, h.HistoryRow())
		}
	}
	return out
}

// DecodeRatedTable reads a table's state as both stores keep it: the JSON
// of RatedTable.
func DecodeRatedTable(state string) (*RatedTable, error) {
	var t RatedTable
	if err := json.Unmarshal([]byte(state), &t); err != nil {
		return nil, err
	}
	if t.Seats == nil {
		t.Seats = map[int]RatedSeat{}
	}
	return &t, nil
}
