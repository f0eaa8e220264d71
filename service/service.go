// Package service runs commands against tables: it loads a table's stream from
// the event store, lets the Table aggregate and its game decide, and appends
// the resulting events with an expected version. It is the one place where the
// domain meets storage; the HTTP layer and the CLI call it.
package service

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oklog/ulid/v2"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/domain/tournament"
	"paiju/eventstore"
)

// Store is what the service needs of the event store.
type Store interface {
	Append(ctx context.Context, stream string, expectedVersion int, events []eventstore.NewEvent) (eventstore.AppendResult, error)
	AppendIdempotent(ctx context.Context, stream string, expectedVersion int, events []eventstore.NewEvent, key eventstore.IdempotencyKey) (eventstore.AppendResult, error)
	LookupIdempotency(ctx context.Context, scope, key string) (eventstore.IdempotencyRecord, bool, error)
	Load(ctx context.Context, stream string, fromVersion int) ([]eventstore.Event, error)
	ReadAll(ctx context.Context, fromPosition int64, limit int) ([]eventstore.Event, error)
}

// IDs generates table ids.
type IDs interface{ NewID() string }

// ULIDs generates ULIDs: sortable by creation time, safe in URLs and NATS
// subjects.
type ULIDs struct{}

// NewID returns a new ULID.
func (ULIDs) NewID() string { return ulid.Make().String() }

// CryptoSeeds draws deal seeds from crypto/rand.
type CryptoSeeds struct{}

// NewSeed returns 32 bytes from crypto/rand.
func (CryptoSeeds) NewSeed() (cards.Seed, error) {
	var s cards.Seed
	if _, err := rand.Read(s[:]); err != nil {
		return s, fmt.Errorf("crypto/rand: %w", err)
	}
	return s, nil
}

// Clock tells the time. Commands are stamped with it (table.Action.At) and
// deals dated by it (table.HandDealt.At), so deadlines are decided by the
// service's clock and replayed from the record.
type Clock interface {
	Now() time.Time
}

// SystemClock is the machine's clock.
type SystemClock struct{}

// Now returns the current time in UTC, to the millisecond (what the record
// keeps; finer readings would not survive a round trip through JSON the same
// on every platform).
func (SystemClock) Now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// Config holds the service's dependencies.
type Config struct {
	Store Store
	Games table.Registry
	Seeds table.SeedSource
	// Clock stamps commands and dates deals (SystemClock when nil).
	Clock  Clock
	IDs    IDs
	Logger *slog.Logger
	// Committed, if set, is called after every successful append (to wake the
	// NATS relay).
	Committed func()
	// CacheSize bounds how many tables are kept folded in memory
	// (DefaultCacheSize when 0).
	CacheSize int
	// ThinkDelay is how long a bot (or a delegated seat) waits before it
	// plays, so that tables of bots do not monopolise the CPU.
	ThinkDelay time.Duration
	// SharedStore says other processes append to the store too (several API
	// nodes on one database): every read then catches up from the store.
	// The embedded SQLite store has one writer, so it is false there.
	SharedStore bool
	// Observer is told of commands and cache lookups (for metrics); nil
	// observes nothing.
	Observer Observer
	// Tracer, if set, traces each command with spans for its decision and
	// its append; nil traces nothing at no cost.
	Tracer trace.Tracer
	// OpenSeats, if set, lists the open tables quick play may seat a player
	// at; without it quick play knows only the tables it opened itself.
	OpenSeats OpenSeats
}

// Service handles table commands and queries. It keeps recently used tables
// folded in memory (see cached); the store stays the only source of truth.
type Service struct {
	cfg   Config
	cache *tableCache
	sched *schedule
	// inflight holds the idempotent commands running now (see inflight).
	inflight inflight
	// lobby serializes quick play per kind (see Quick).
	lobby lobby
	// tourMu serializes this process's tournament commands; the expected
	// version of each append guards against other processes.
	tourMu sync.Mutex
}

// eventstoreEvent is a stored event, named for brevity in this package.
type eventstoreEvent = eventstore.Event

// New returns a Service.
func New(cfg Config) *Service {
	if cfg.Seeds == nil {
		cfg.Seeds = CryptoSeeds{}
	}
	if cfg.IDs == nil {
		cfg.IDs = ULIDs{}
	}
	if cfg.Clock == nil {
		cfg.Clock = SystemClock{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Committed == nil {
		cfg.Committed = func() {}
	}
	if cfg.Observer == nil {
		cfg.Observer = noObserver{}
	}
	return &Service{cfg: cfg, cache: newTableCache(cfg.CacheSize), sched: newSchedule(cfg.ThinkDelay)}
}

// StreamID is the event stream of a table.
func StreamID(tableID string) string { return "table-" + tableID }

// Player is the authenticated caller of a command.
type Player struct {
	ID   string
	Name string
}

// Cond makes a command conditional and idempotent.
type Cond struct {
	// IfMatch, when ≥ 0, is the version the caller last saw; the command fails
	// with ErrStale unless the table is still at it.
	IfMatch int
	// IdempotencyKey, when set, makes a retry with the same key and the same
	// request return the first answer and append nothing.
	IdempotencyKey string
	// RequestHash identifies the request made under the key: a retry with
	// the key must carry the same hash (the API hashes the method, the path
	// and the body).
	RequestHash string
}

// NoCond is an unconditional, non-idempotent command.
var NoCond = Cond{IfMatch: -1}

// Errors of the service itself (the domain's are *table.Error).
var (
	ErrTableNotFound = &table.Error{Kind: table.KindNotFound, Code: "table_not_found", Msg: "no such table"}
	// ErrUnreplayable: the table's stored stream cannot be folded by its
	// rules (it fails to decode, or the rules panic on it). Every command
	// and read of the table is refused until an operator repairs the store
	// (`paiju verify` names the fault).
	ErrUnreplayable = &table.Error{Kind: table.KindConflict, Code: "table_unreplayable", Msg: "the table's recorded history cannot be replayed; it is refused and reported to the operators"}
	// ErrStale: If-Match named a version the table has moved past.
	ErrStale = errors.New("service: table changed since the version named in If-Match")
	// ErrKeyReused: an Idempotency-Key was reused with a different request.
	ErrKeyReused = errors.New("service: Idempotency-Key already used with a different request")
)

// Loaded is a table folded from its stream, with the stream itself.
type Loaded struct {
	State  *table.State
	Events []Recorded
	// memo keeps values derived from this snapshot (Memo).
	memo atomic.Pointer[memo]
}

// Recorded is one decoded event of a table stream.
type Recorded struct {
	Version    int
	Position   int64
	Type       string
	RecordedAt time.Time
	Payload    table.Payload
}

// Result is the outcome of a command: the table after it and the events it
// appended (or, for an idempotent replay, the events the first call appended).
type Result struct {
	Table    *Loaded
	Appended []Recorded
	Replayed bool
}

// Load returns the table as its stream now stands. The result is shared and
// must not be modified.
func (s *Service) Load(ctx context.Context, tableID string) (*Loaded, error) {
	return s.LoadAtLeast(ctx, tableID, 0)
}

// LoadAtLeast is Load for a caller that knows the table has reached version
// (from the event feed): the result is at that version or later.
func (s *Service) LoadAtLeast(ctx context.Context, tableID string, version int) (*Loaded, error) {
	if !validID(tableID) {
		return nil, ErrTableNotFound
	}
	e := s.cache.acquire(tableID)
	defer s.cache.release(tableID, e)
	return s.current(ctx, tableID, e, version)
}

func (s *Service) fold(tableID string, evs []eventstore.Event) (*Loaded, error) {
	if evs[0].Type != "TableOpened" {
		return nil, fmt.Errorf("table %s: stream starts with %s, not TableOpened", tableID, evs[0].Type)
	}
	var opened table.TableOpened
	if err := json.Unmarshal(evs[0].Data, &opened); err != nil {
		return nil, fmt.Errorf("table %s: decode TableOpened: %w", tableID, err)
	}
	rules, err := s.rulesFor(opened)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", tableID, err)
	}
	l := &Loaded{State: table.New(rules), Events: make([]Recorded, 0, len(evs))}
	for _, e := range evs {
		p, err := table.Decode(rules, e.Type, e.Data)
		if err != nil {
			return nil, fmt.Errorf("table %s version %d: %w", tableID, e.Version, err)
		}
		table.ApplyAt(l.State, p, e.RecordedAt)
		l.Events = append(l.Events, Recorded{Version: e.Version, Position: e.Position, Type: e.Type, RecordedAt: e.RecordedAt, Payload: p})
	}
	return l, nil
}

// rulesFor returns the rules a table was opened under.
func (s *Service) rulesFor(o table.TableOpened) (table.Rules, error) {
	return s.cfg.Games.Rules(o)
}

// OpenRequest opens a table.
type OpenRequest struct {
	Game    string
	Variant string
	Stake   int
	Options json.RawMessage
	// Clock is the turn clock; nil takes table.DefaultClock for a game that
	// can play a seat itself, and no clock for one that cannot.
	Clock *table.Clock
	// Bots is how many seats server bots take at once (the highest seats).
	Bots int
	// MaxHands closes the table after that many settled hands (0: the game
	// decides when it ends). A table of bots only needs it.
	MaxHands int
	// Sit seats the opener at the lowest free seat in the same append as
	// the opening, so that no one sees the table without them.
	Sit bool
	// Private opens a table joined by room code only (the API keeps the
	// code); it is never listed nor offered by quick play.
	Private bool
	// Spectators is the spectator policy (table.SpectatorsPublic, the
	// default, or table.SpectatorsAfterDeal).
	Spectators string
	// WaitBetweenHands: after each hand the next deal waits until every
	// seat is ready (table.Opening.WaitBetweenHands).
	WaitBetweenHands bool
}

// Open opens a new table.
func (s *Service) Open(ctx context.Context, p Player, req OpenRequest, cond Cond) (res *Result, err error) {
	start := time.Now()
	game := req.Game
	if _, ok := s.cfg.Games[game]; !ok {
		game = "unknown" // the caller's string must not become a label
	}
	ctx, end := s.span(ctx, "paiju.command", attribute.String("paiju.game", game), attribute.String("paiju.command", KindOpen))
	defer func() {
		end(err)
		s.cfg.Observer.Command(game, KindOpen, Outcome(err), time.Since(start))
	}()
	g, ok := s.cfg.Games[req.Game]
	if !ok {
		return nil, table.ErrUnknownGame.With("unknown game %q (known: %s)", req.Game, strings.Join(s.GameNames(), ", "))
	}
	if err := table.CheckOrdinaryOptions(g, req.Options); err != nil {
		return nil, err
	}
	rules, err := g.Rules(req.Variant, req.Options)
	if err != nil {
		return nil, err
	}
	return s.inflight.do(ctx, inflightKey(p, cond), func() (*Result, error) {
		return s.open(ctx, p, rules, req, cond)
	})
}

// ShownOptions is a table's recorded options as the lobby and the table
// view show them, defaults filled in (rules README, Table options); the
// recorded options as they are when the game no longer plays the version.
func (s *Service) ShownOptions(game, variant, version string, recorded json.RawMessage) json.RawMessage {
	g, ok := s.cfg.Games[game]
	if !ok {
		return recorded
	}
	var rules table.Rules
	var err error
	if vg, ok := g.(table.Versioned); ok && version != "" {
		rules, err = vg.RulesAt(version, variant, recorded)
	} else {
		rules, err = g.Rules(variant, recorded)
	}
	if err != nil {
		return recorded
	}
	return table.ShownOptions(rules)
}

// open is Open once no other call with its Idempotency-Key is running here.
func (s *Service) open(ctx context.Context, p Player, rules table.Rules, req OpenRequest, cond Cond) (*Result, error) {
	if replay, err := s.replay(ctx, p, cond); replay != nil || err != nil {
		return replay, err
	}
	id := s.cfg.IDs.NewID()
	evs, err := s.opening(rules, id, p, req)
	if err != nil {
		return nil, err
	}
	res, err := s.commit(ctx, p, id, &Loaded{State: table.New(rules)}, evs, cond)
	if err == nil && !res.Replayed {
		e := s.cache.acquire(id)
		e.snap.Store(res.Table)
		s.cache.release(id, e)
		s.cfg.Committed()
		s.sched.note(id, res.Table.State)
	}
	return res, err
}

// Join seats the caller; seat < 0 takes the lowest free seat.
func (s *Service) Join(ctx context.Context, p Player, tableID string, seat int, cond Cond) (*Result, error) {
	return s.join(ctx, p, tableID, seat, cond, false)
}

// JoinRoom is Join for a caller who gave a private table's room code, which
// the API has checked: only it seats anyone at a private table, so that no
// other path (quick play) can.
func (s *Service) JoinRoom(ctx context.Context, p Player, tableID string, seat int, cond Cond) (*Result, error) {
	return s.join(ctx, p, tableID, seat, cond, true)
}

func (s *Service) join(ctx context.Context, p Player, tableID string, seat int, cond Cond, roomChecked bool) (*Result, error) {
	return s.command(ctx, p, tableID, KindJoin, cond, func(st *table.State) ([]table.Payload, error) {
		if st.Private && !roomChecked {
			return nil, table.ErrRoomCodeRequired.With("table %s is private: join it with its room code (\"room_code\" in the body)", st.ID)
		}
		return table.Join(st, p.ID, p.Name, seat, s.dealInputs())
	})
}

// AddWatcher lets watcherID watch the caller's seat (table.AddWatcher).
func (s *Service) AddWatcher(ctx context.Context, p Player, tableID, watcherID string, cond Cond) (*Result, error) {
	if err := s.playsSameDeals(ctx, tableID, watcherID); err != nil {
		return nil, err
	}
	return s.command(ctx, p, tableID, KindWatch, cond, func(st *table.State) ([]table.Payload, error) {
		return table.AddWatcher(st, st.SeatOf(p.ID), watcherID)
	})
}

// playsSameDeals refuses watcherID as a watcher at a table of a duplicate
// tournament when it sits at another table of the same round: those
// tables deal the same cards, so watching one shows the hands of the
// other (table.ErrWatcherSeated). A table's round never changes once the
// tournament has opened it.
func (s *Service) playsSameDeals(ctx context.Context, tableID, watcherID string) error {
	l, err := s.Load(ctx, tableID)
	if err != nil {
		return err
	}
	st := l.State
	if st.Tournament == "" || st.FixedDeals == "" {
		return nil
	}
	tl, err := s.LoadTournament(ctx, st.Tournament)
	if err != nil {
		return fmt.Errorf("tournament of table %s: %w", tableID, err)
	}
	for _, rd := range tl.State.Rounds {
		if !slices.ContainsFunc(rd.Tables, func(tb tournament.Table) bool { return tb.TableID == tableID }) {
			continue
		}
		for _, tb := range rd.Tables {
			if tb.TableID != tableID && slices.Contains(tb.Players, watcherID) {
				return table.ErrWatcherSeated.With("%s sits at table %s of the same duplicate round, which deals the same cards", watcherID, tb.TableID)
			}
		}
	}
	return nil
}

// RemoveWatcher takes watcherID's watching of the caller's seat back.
func (s *Service) RemoveWatcher(ctx context.Context, p Player, tableID, watcherID string, cond Cond) (*Result, error) {
	return s.command(ctx, p, tableID, KindWatch, cond, func(st *table.State) ([]table.Payload, error) {
		return table.RemoveWatcher(st, st.SeatOf(p.ID), watcherID)
	})
}

// dealInputs is the seed source the domain draws a deal from: the service's
// seeds, dated by its clock.
func (s *Service) dealInputs() datedSeeds { return datedSeeds{s.cfg.Seeds, s.cfg.Clock} }

type datedSeeds struct {
	table.SeedSource
	clock Clock
}

// DealTime dates a deal (table.DealClock).
func (d datedSeeds) DealTime() time.Time { return d.clock.Now() }

// Legal lists the actions seat may take now, by the service's clock.
func (s *Service) Legal(st *table.State, seat int) []table.Action {
	return table.PlayerLegal(st, seat, s.cfg.Clock.Now())
}

// Act performs an action of the caller's seat. While the bot plays a
// delegated seat, its player may only resume or escape.
func (s *Service) Act(ctx context.Context, p Player, tableID string, a table.Action, cond Cond) (*Result, error) {
	return s.command(ctx, p, tableID, KindAct, cond, s.decideAct(p, a, s.dealInputs()))
}

// decideAct is Act's decision, drawing the next deal (if the action ends a
// hand) from seeds.
func (s *Service) decideAct(p Player, a table.Action, seeds table.SeedSource) func(*table.State) ([]table.Payload, error) {
	return func(st *table.State) ([]table.Payload, error) {
		seat := st.SeatOf(p.ID)
		if seat >= 0 && st.Delegated[seat] && a.Type != table.ActionResume && a.Type != table.ActionEscape && a.Type != table.ActionLeave {
			return nil, table.ErrSeatDelegated.With("the bot plays seat %d (托管): post {\"type\":\"resume\"} first", seat)
		}
		a.At = s.cfg.Clock.Now()
		return table.Act(st, seat, a, seeds)
	}
}

// maxAttempts bounds retries of a command that lost an append race.
const maxAttempts = 8

// command loads the table, decides and appends, retrying lost append races.
// kind names the command for the Observer; "" leaves the report to the
// caller (the scheduler, which knows only while deciding whether it timed a
// seat out or played it).
func (s *Service) command(ctx context.Context, p Player, tableID, kind string, cond Cond, decide func(*table.State) ([]table.Payload, error)) (res *Result, err error) {
	start := time.Now()
	game := "unknown"
	spanKind := kind
	if spanKind == "" {
		spanKind = "server" // a timeout or a bot move: decided below
	}
	ctx, end := s.span(ctx, "paiju.command", attribute.String("paiju.table", tableID), attribute.String("paiju.command", spanKind))
	defer func() {
		end(err)
		if kind != "" {
			s.cfg.Observer.Command(game, kind, Outcome(err), time.Since(start))
		}
	}()
	res, err = s.inflight.do(ctx, inflightKey(p, cond), func() (*Result, error) {
		r, g, err := s.decideAndCommit(ctx, p, tableID, cond, decide)
		game = g
		return r, err
	})
	if err == nil && res != nil && !res.Replayed && res.Table.State.Closed {
		s.tableClosed(ctx, res.Table.State)
	}
	return res, err
}

// decideAndCommit is command once no other call with its Idempotency-Key is
// running here. It returns the table's game once the table is loaded ("" if
// it was not), for the command's metrics.
//
// A key is not looked up first: a new key, the common case, would cost a
// store read for nothing. A retry whose first call committed is found
// where it matters: the store refuses the key again in the append
// (eventstore.DuplicateKeyError, checked before the expected version), and
// a command refused on the table its first call changed looks for the key
// before answering.
func (s *Service) decideAndCommit(ctx context.Context, p Player, tableID string, cond Cond, decide func(*table.State) ([]table.Payload, error)) (*Result, string, error) {
	res, game, err := s.decideAndCommitNew(ctx, p, tableID, cond, decide)
	if err != nil && cond.IdempotencyKey != "" && !errors.Is(err, ErrKeyReused) {
		// The first call with this key may have committed (here, or in
		// another process): its answer, not the verdict on the table it
		// changed, is this retry's.
		if replay, rerr := s.replay(ctx, p, cond); replay != nil || rerr != nil {
			return replay, game, rerr
		}
	}
	return res, game, err
}

// decideAndCommitNew decides and commits as if cond's key were new; it
// returns the table's game as decideAndCommit does.
func (s *Service) decideAndCommitNew(ctx context.Context, p Player, tableID string, cond Cond, decide func(*table.State) ([]table.Payload, error)) (_ *Result, game string, _ error) {
	if !validID(tableID) {
		return nil, "", ErrTableNotFound
	}
	e := s.cache.acquire(tableID)
	defer s.cache.release(tableID, e)
	e.mu.Lock()
	defer e.mu.Unlock()
	for attempt := 1; ; attempt++ {
		l, err := s.currentLocked(ctx, tableID, e, 0)
		if err != nil {
			return nil, game, err
		}
		game = l.State.Game
		if cond.IfMatch >= 0 && cond.IfMatch != l.State.Version {
			return nil, game, fmt.Errorf("%w: it is at version %d, you named %d", ErrStale, l.State.Version, cond.IfMatch)
		}
		_, endDecide := s.span(ctx, "paiju.decide", attribute.String("paiju.game", game))
		evs, err := decide(l.State)
		endDecide(err)
		if err != nil {
			return nil, game, err
		}
		res, err := s.commit(ctx, p, tableID, l, evs, cond)
		if err == nil && !res.Replayed {
			// The snapshot first, then the wake-up: whoever the relay wakes
			// must find the new events in the cache.
			e.snap.Store(res.Table)
			s.cfg.Committed()
			s.sched.note(tableID, res.Table.State)
		}
		if errors.Is(err, eventstore.ErrConflict) {
			e.stale.Store(true)
		}
		if errors.Is(err, eventstore.ErrConflict) && cond.IfMatch < 0 && attempt < maxAttempts {
			// Another process appended first: catch up and decide again.
			continue
		}
		if errors.Is(err, eventstore.ErrConflict) && cond.IfMatch >= 0 {
			return nil, game, fmt.Errorf("%w: %w", ErrStale, err)
		}
		return res, game, err
	}
}

// commit appends evs to the table l and returns the table after them; l itself
// is left as it was.
func (s *Service) commit(ctx context.Context, p Player, tableID string, l *Loaded, evs []table.Payload, cond Cond) (_ *Result, err error) {
	ctx, end := s.span(ctx, "paiju.append", attribute.String("paiju.table", tableID), attribute.Int("paiju.events", len(evs)))
	defer func() { end(err) }()
	if len(evs) == 0 {
		return nil, errors.New("service: a command decided no events")
	}
	news := make([]eventstore.NewEvent, len(evs))
	for i, e := range evs {
		data, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", e.EventType(), err)
		}
		news[i] = eventstore.NewEvent{Type: e.EventType(), Data: data}
	}
	expected := l.State.Version
	var res eventstore.AppendResult
	if cond.IdempotencyKey != "" {
		key := eventstore.IdempotencyKey{Scope: p.ID, Key: cond.IdempotencyKey, RequestHash: cond.RequestHash}
		res, err = s.cfg.Store.AppendIdempotent(ctx, StreamID(tableID), expected, news, key)
		var dup *eventstore.DuplicateKeyError
		if errors.As(err, &dup) {
			return s.replay(ctx, p, cond)
		}
	} else {
		res, err = s.cfg.Store.Append(ctx, StreamID(tableID), expected, news)
	}
	if err != nil {
		return nil, fmt.Errorf("append to table %s: %w", tableID, err)
	}
	next := l.next()
	for i, e := range evs {
		table.ApplyAt(next.State, e, res.RecordedAt)
		next.Events = append(next.Events, Recorded{Version: expected + i + 1, Position: res.Positions[i], Type: e.EventType(), RecordedAt: res.RecordedAt, Payload: e})
	}
	return &Result{Table: next, Appended: next.Events[len(l.Events):]}, nil
}

// replay answers a retried idempotent command from what its first call
// appended. It returns nil, nil when the key is new.
func (s *Service) replay(ctx context.Context, p Player, cond Cond) (*Result, error) {
	if cond.IdempotencyKey == "" {
		return nil, nil
	}
	rec, ok, err := s.cfg.Store.LookupIdempotency(ctx, p.ID, cond.IdempotencyKey)
	if err != nil {
		return nil, fmt.Errorf("look up idempotency key: %w", err)
	}
	if !ok {
		return nil, nil
	}
	if rec.RequestHash != cond.RequestHash {
		return nil, ErrKeyReused
	}
	tableID := strings.TrimPrefix(rec.Stream, "table-")
	evs, err := s.cfg.Store.Load(ctx, rec.Stream, 0)
	if err != nil {
		return nil, fmt.Errorf("load table %s: %w", tableID, err)
	}
	if len(evs) < rec.LastVersion {
		return nil, fmt.Errorf("table %s: idempotency record names version %d past the stream's end", tableID, rec.LastVersion)
	}
	l, err := s.fold(tableID, evs[:rec.LastVersion])
	if err != nil {
		return nil, err
	}
	return &Result{Table: l, Appended: l.Events[rec.FirstVersion-1:], Replayed: true}, nil
}

// GameNames lists the registered games.
func (s *Service) GameNames() []string {
	names := make([]string, 0, len(s.cfg.Games))
	for n := range s.cfg.Games {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// validID accepts the ids this service hands out (ULIDs), and keeps anything
// else — slashes, dots, wildcards — out of stream names and NATS subjects.
func validID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
