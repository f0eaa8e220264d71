package eventstoretest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"paiju/eventstore"
)

// FullStore is what a store keeps beside the log for the service, the API
// and the relay: idempotency keys, players, consumer checkpoints, the list
// of streams. Both stores implement it.
type FullStore interface {
	eventstore.Store
	AppendIdempotent(ctx context.Context, stream string, expectedVersion int, events []eventstore.NewEvent, key eventstore.IdempotencyKey) (eventstore.AppendResult, error)
	LookupIdempotency(ctx context.Context, scope, key string) (eventstore.IdempotencyRecord, bool, error)
	CreatePlayer(ctx context.Context, p eventstore.Player, first eventstore.Token) error
	PlayerByID(ctx context.Context, id string) (eventstore.Player, error)
	RenamePlayer(ctx context.Context, id, name string) error
	CreateToken(ctx context.Context, t eventstore.Token) error
	TokenByHash(ctx context.Context, hash string) (eventstore.Player, eventstore.Token, error)
	TokenByID(ctx context.Context, id string) (eventstore.Token, error)
	Tokens(ctx context.Context, playerID string) ([]eventstore.Token, error)
	RevokeToken(ctx context.Context, playerID, id string, at time.Time) (eventstore.Token, error)
	TouchToken(ctx context.Context, id string, at time.Time) error
	CreateRoom(ctx context.Context, code, tableID string, at time.Time) error
	TakeOverRoom(ctx context.Context, code, oldTable, newTable string, at time.Time) error
	ReleaseRoom(ctx context.Context, code, tableID string) error
	RoomByCode(ctx context.Context, code string) (eventstore.Room, error)
	RoomOfTable(ctx context.Context, tableID string) (eventstore.Room, error)
	Checkpoint(ctx context.Context, name string) (int64, error)
	SetCheckpoint(ctx context.Context, name string, pos int64) error
	Streams(ctx context.Context) ([]string, error)
}

// RunFull runs Run and the tests of what FullStore adds. open must return a
// new, empty store for each call; RunFull closes it when the subtest ends.
func RunFull(t *testing.T, open func(t *testing.T) FullStore) {
	Run(t, func(t *testing.T) eventstore.Store { return open(t) })
	tests := []struct {
		name string
		fn   func(t *testing.T, s FullStore)
	}{
		{"DataKeptByteForByte", testDataKeptByteForByte},
		{"AppendRejectsInvalidInput", testAppendRejectsInvalidInput},
		{"AppendIdempotent", testAppendIdempotent},
		{"ConcurrentSameKey", testConcurrentSameKey},
		{"Players", testPlayers},
		{"Tokens", testTokens},
		{"Rooms", testRooms},
		{"Checkpoints", testCheckpoints},
		{"Streams", testStreams},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			tt.fn(t, s)
		})
	}
}

func testDataKeptByteForByte(t *testing.T, s FullStore) {
	datas := []string{
		"{\"s\":\"\\u0000 牌局\"}",
		" [1, 2.50, 1e3] ",
		"{\"b\":1,\"a\":{\"x\":[]},\"b\":2}", // a repeated key, kept as written
		"\"\"",
		"null",
	}
	for i, d := range datas {
		mustAppend(t, s, "table-a", i, ev("E", d))
	}
	for i, e := range mustLoad(t, s, "table-a", 0) {
		if string(e.Data) != datas[i] {
			t.Errorf("version %d data = %q, want %q (eventstore.go, Event.Data: exactly as appended)", e.Version, e.Data, datas[i])
		}
	}
	mustVerify(t, s)
}

func testAppendRejectsInvalidInput(t *testing.T, s FullStore) {
	tests := []struct {
		name     string
		stream   string
		expected int
		events   []eventstore.NewEvent
	}{
		{"empty stream id", "", 0, []eventstore.NewEvent{ev("E", `{}`)}},
		{"negative expected version", "table-a", -1, []eventstore.NewEvent{ev("E", `{}`)}},
		{"no events", "table-a", 0, nil},
		{"empty type", "table-a", 0, []eventstore.NewEvent{ev("", `{}`)}},
		{"data not JSON", "table-a", 0, []eventstore.NewEvent{ev("E", `{"a":`)}},
		{"nil data", "table-a", 0, []eventstore.NewEvent{{Type: "E"}}},
	}
	for _, tt := range tests {
		if _, err := s.Append(t.Context(), tt.stream, tt.expected, tt.events); err == nil || errors.Is(err, eventstore.ErrConflict) {
			t.Errorf("%s: Append: %v, want a validation error", tt.name, err)
		}
	}
	if pos, _, _ := s.Head(t.Context()); pos != 0 {
		t.Errorf("invalid appends stored events: head at %d", pos)
	}
	if _, err := s.ReadAll(t.Context(), 0, 0); err == nil {
		t.Error("ReadAll with limit 0: nil error, want one")
	}
}

func testAppendIdempotent(t *testing.T, s FullStore) {
	ctx := t.Context()
	key := eventstore.IdempotencyKey{Scope: "player-1", Key: "k-1", RequestHash: "req-a"}

	mustAppend(t, s, "table-a", 0, ev("TableOpened", `{}`))
	res, err := s.AppendIdempotent(ctx, "table-a", 1, []eventstore.NewEvent{ev("Bid", `{"n":1}`), ev("Bid", `{"n":2}`)}, key)
	if err != nil || res.Version != 3 {
		t.Fatalf("AppendIdempotent: %+v %v, want version 3", res, err)
	}
	rec, found, err := s.LookupIdempotency(ctx, "player-1", "k-1")
	if err != nil || !found {
		t.Fatalf("LookupIdempotency after the append: %+v %v %v, want found", rec, found, err)
	}
	if rec.Stream != "table-a" || rec.FirstVersion != 2 || rec.LastVersion != 3 || rec.RequestHash != "req-a" || rec.CreatedAt.IsZero() {
		t.Errorf("idempotency record = %+v, want table-a versions 2..3 with request hash req-a", rec)
	}

	// A retry (at the old expected version) and a reuse of the key for another
	// request both store nothing and report the first use.
	for _, retry := range []struct {
		stream   string
		expected int
		hash     string
	}{
		{"table-a", 1, "req-a"},
		{"table-a", 3, "req-b"},
		{"table-z", 0, "req-c"},
	} {
		k := key
		k.RequestHash = retry.hash
		_, err := s.AppendIdempotent(ctx, retry.stream, retry.expected, []eventstore.NewEvent{ev("Bid", `{"n":9}`)}, k)
		var de *eventstore.DuplicateKeyError
		if !errors.As(err, &de) || !errors.Is(err, eventstore.ErrDuplicateKey) {
			t.Fatalf("AppendIdempotent with a used key on %s: %v, want *DuplicateKeyError (idempotency.go)", retry.stream, err)
		}
		if de.Record != rec {
			t.Errorf("DuplicateKeyError.Record = %+v, want the first use %+v", de.Record, rec)
		}
	}
	if pos, _, _ := s.Head(ctx); pos != 3 {
		t.Errorf("head at %d after duplicate keys, want 3: a duplicate key stores nothing", pos)
	}

	// The same key of another player is another key.
	other := eventstore.IdempotencyKey{Scope: "player-2", Key: "k-1", RequestHash: "req-a"}
	if _, err := s.AppendIdempotent(ctx, "table-a", 3, []eventstore.NewEvent{ev("Bid", `{}`)}, other); err != nil {
		t.Errorf("AppendIdempotent with player-2's k-1: %v, want success: keys are scoped by player", err)
	}

	// A conflicting append records no key: the retry must be able to land.
	k2 := eventstore.IdempotencyKey{Scope: "player-1", Key: "k-2", RequestHash: "req-d"}
	if _, err := s.AppendIdempotent(ctx, "table-a", 1, []eventstore.NewEvent{ev("Bid", `{}`)}, k2); !errors.Is(err, eventstore.ErrConflict) {
		t.Fatalf("AppendIdempotent at a stale version: %v, want a conflict", err)
	}
	if _, found, err := s.LookupIdempotency(ctx, "player-1", "k-2"); found || err != nil {
		t.Errorf("LookupIdempotency after a conflicting append: found %v, %v; want not found: the key is stored only with its events", found, err)
	}
	if _, err := s.AppendIdempotent(ctx, "table-a", 4, []eventstore.NewEvent{ev("Bid", `{}`)}, k2); err != nil {
		t.Errorf("AppendIdempotent retried at the right version: %v", err)
	}
	if _, err := s.AppendIdempotent(ctx, "table-a", 5, []eventstore.NewEvent{ev("Bid", `{}`)}, eventstore.IdempotencyKey{Scope: "player-1"}); err == nil {
		t.Error("AppendIdempotent with an empty key: nil error, want one")
	}
}

// testConcurrentSameKey: appends racing with one key, each to a stream of
// its own (so that no version conflict decides): exactly one lands, the
// others report it as the key's first use, whether or not they shared its
// group commit.
func testConcurrentSameKey(t *testing.T, s FullStore) {
	const writers = 8
	for round := range 4 {
		key := eventstore.IdempotencyKey{Scope: "player-1", Key: fmt.Sprintf("k-%d", round), RequestHash: "req"}
		errs := make([]error, writers)
		start(writers, func(i int) {
			_, errs[i] = s.AppendIdempotent(context.Background(), fmt.Sprintf("table-%d-%d", round, i), 0, []eventstore.NewEvent{ev("E", `{}`)}, key)
		})
		won := -1
		for i, err := range errs {
			switch {
			case err == nil && won >= 0:
				t.Fatalf("round %d: appends %d and %d both stored with key %s, want one (idempotency.go)", round, won, i, key.Key)
			case err == nil:
				won = i
			case !errors.Is(err, eventstore.ErrDuplicateKey):
				t.Fatalf("round %d: append %d: %v, want nil or a duplicate key", round, i, err)
			}
		}
		if won < 0 {
			t.Fatalf("round %d: no append stored with key %s: %v", round, key.Key, errs)
		}
		winner := fmt.Sprintf("table-%d-%d", round, won)
		for i, err := range errs {
			var de *eventstore.DuplicateKeyError
			if errors.As(err, &de) && (de.Record.Stream != winner || de.Record.FirstVersion != 1) {
				t.Errorf("round %d: append %d reports the key's first use as %+v, want %s version 1", round, i, de.Record, winner)
			}
		}
	}
	if all := readAll(t, s, 100); len(all) != 4 {
		t.Errorf("%d events stored, want 4: one per key", len(all))
	}
	mustVerify(t, s)
}

func testPlayers(t *testing.T, s FullStore) {
	ctx := t.Context()
	// Microseconds: PostgreSQL's precision, which every store keeps.
	at := time.Date(2025, 1, 2, 3, 4, 5, 6000, time.FixedZone("CST", 8*3600))
	alice := eventstore.Player{ID: "p-alice", Name: "阿丽", CreatedAt: at}
	if err := s.CreatePlayer(ctx, alice, eventstore.Token{ID: "tk-alice", Label: "registration", Hash: "th-alice"}); err != nil {
		t.Fatalf("CreatePlayer: %v", err)
	}
	if err := s.CreatePlayer(ctx, eventstore.Player{ID: "p-bob", Name: "Bob"}, eventstore.Token{ID: "tk-bob", Hash: "th-bob"}); err != nil {
		t.Fatalf("CreatePlayer: %v", err)
	}
	want := alice
	want.CreatedAt = at.UTC()
	if got, err := s.PlayerByID(ctx, "p-alice"); err != nil || got != want {
		t.Errorf("player by id = %+v, %v; want %+v", got, err, want)
	}
	got, tok, err := s.TokenByHash(ctx, "th-alice")
	wantTok := eventstore.Token{ID: "tk-alice", PlayerID: "p-alice", Label: "registration", Hash: "th-alice", CreatedAt: at.UTC()}
	if err != nil || got != want || tok != wantTok {
		t.Errorf("token by hash = %+v %+v, %v; want %+v %+v: the first token is created with the player, at its time", got, tok, err, want, wantTok)
	}
	bob, err := s.PlayerByID(ctx, "p-bob")
	if err != nil || bob.CreatedAt.IsZero() || bob.CreatedAt.Location() != time.UTC {
		t.Errorf("player created without a time: %+v %v, want CreatedAt set to now in UTC", bob, err)
	}

	if _, err := s.PlayerByID(ctx, "p-nobody"); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("PlayerByID of an unknown id: %v, want ErrNotFound", err)
	}
	if _, _, err := s.TokenByHash(ctx, "th-nobody"); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("TokenByHash of an unknown hash: %v, want ErrNotFound", err)
	}
	for _, dup := range []struct {
		p   eventstore.Player
		tok eventstore.Token
	}{
		{eventstore.Player{ID: "p-alice", Name: "x"}, eventstore.Token{ID: "tk-new", Hash: "th-new"}},
		{eventstore.Player{ID: "p-new", Name: "x"}, eventstore.Token{ID: "tk-new", Hash: "th-bob"}},
		{eventstore.Player{ID: "p-new", Name: "x"}, eventstore.Token{ID: "tk-bob", Hash: "th-new"}},
	} {
		if err := s.CreatePlayer(ctx, dup.p, dup.tok); !errors.Is(err, eventstore.ErrExists) {
			t.Errorf("CreatePlayer(%+v, %+v) reusing an id or token hash: %v, want ErrExists", dup.p, dup.tok, err)
		}
	}
	// A refused creation leaves nothing behind: not the player, whose
	// token was the duplicate.
	if _, err := s.PlayerByID(ctx, "p-new"); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("player of a refused creation: %v, want ErrNotFound", err)
	}

	if err := s.RenamePlayer(ctx, "p-bob", "Robert"); err != nil {
		t.Fatalf("RenamePlayer: %v", err)
	}
	if got, err := s.PlayerByID(ctx, "p-bob"); err != nil || got.Name != "Robert" {
		t.Errorf("renamed player = %+v %v, want the name Robert", got, err)
	}
	if got, _, err := s.TokenByHash(ctx, "th-bob"); err != nil || got.Name != "Robert" {
		t.Errorf("renamed player by token = %+v %v, want the name Robert", got, err)
	}
	if err := s.RenamePlayer(ctx, "p-nobody", "x"); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("RenamePlayer of an unknown id: %v, want ErrNotFound", err)
	}
}

func testTokens(t *testing.T, s FullStore) {
	ctx := t.Context()
	at := time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)
	if err := s.CreatePlayer(ctx, eventstore.Player{ID: "p-1", Name: "One", CreatedAt: at}, eventstore.Token{ID: "tk-1a", Label: "registration", Hash: "h-1a"}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreatePlayer(ctx, eventstore.Player{ID: "p-2", Name: "Two", CreatedAt: at}, eventstore.Token{ID: "tk-2a", Label: "registration", Hash: "h-2a"}); err != nil {
		t.Fatal(err)
	}
	phone := eventstore.Token{ID: "tk-1b", PlayerID: "p-1", Label: "手机", Hash: "h-1b", CreatedAt: at.Add(time.Hour), ExpiresAt: at.Add(48 * time.Hour)}
	if err := s.CreateToken(ctx, phone); err != nil {
		t.Fatalf("CreateToken: %v", err)
	}
	if err := s.CreateToken(ctx, eventstore.Token{ID: "tk-1c", PlayerID: "p-1", Label: "laptop", Hash: "h-1c"}); err != nil {
		t.Fatalf("CreateToken without a time: %v", err)
	}
	for _, bad := range []struct {
		tok  eventstore.Token
		want error
	}{
		{eventstore.Token{ID: "tk-1b", PlayerID: "p-1", Label: "x", Hash: "h-new"}, eventstore.ErrExists},
		{eventstore.Token{ID: "tk-new", PlayerID: "p-2", Label: "x", Hash: "h-1a"}, eventstore.ErrExists},
		{eventstore.Token{ID: "tk-new", PlayerID: "p-nobody", Label: "x", Hash: "h-new"}, eventstore.ErrNotFound},
	} {
		if err := s.CreateToken(ctx, bad.tok); !errors.Is(err, bad.want) {
			t.Errorf("CreateToken(%+v) = %v, want %v", bad.tok, err, bad.want)
		}
	}

	list, err := s.Tokens(ctx, "p-1")
	if err != nil || len(list) != 3 {
		t.Fatalf("Tokens(p-1) = %+v %v, want 3", list, err)
	}
	if list[0].ID != "tk-1a" || list[1] != phone || list[2].ID != "tk-1c" || list[2].CreatedAt.IsZero() || list[2].CreatedAt.Location() != time.UTC {
		t.Errorf("Tokens(p-1) = %+v, want tk-1a, %+v, then tk-1c with a UTC time: oldest first, each as created", list, phone)
	}
	if none, err := s.Tokens(ctx, "p-nobody"); err != nil || none == nil || len(none) != 0 {
		t.Errorf("Tokens of an unknown player = %#v %v, want an empty slice", none, err)
	}

	// Last use only moves forward.
	used := at.Add(2 * time.Hour)
	if err := s.TouchToken(ctx, "tk-1b", used); err != nil {
		t.Fatalf("TouchToken: %v", err)
	}
	if err := s.TouchToken(ctx, "tk-1b", used.Add(-time.Minute)); err != nil {
		t.Fatalf("TouchToken earlier: %v", err)
	}
	if _, tok, err := s.TokenByHash(ctx, "h-1b"); err != nil || !tok.LastUsedAt.Equal(used) || tok.LastUsedAt.Location() != time.UTC {
		t.Errorf("LastUsedAt after two touches = %v %v, want %v", tok.LastUsedAt, err, used)
	}

	// A player revokes only its own tokens; a revocation stands, at its
	// first time, and the record stays (listed, found by hash: the caller
	// refuses it by Live).
	if _, err := s.RevokeToken(ctx, "p-2", "tk-1b", at); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("RevokeToken of another player's token: %v, want ErrNotFound", err)
	}
	if _, err := s.RevokeToken(ctx, "p-1", "tk-nobody", at); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("RevokeToken of an unknown token: %v, want ErrNotFound", err)
	}
	revoked := at.Add(3 * time.Hour)
	got, err := s.RevokeToken(ctx, "p-1", "tk-1b", revoked)
	if err != nil || !got.RevokedAt.Equal(revoked) || got.ID != "tk-1b" {
		t.Fatalf("RevokeToken = %+v %v, want revoked at %v", got, err, revoked)
	}
	if again, err := s.RevokeToken(ctx, "p-1", "tk-1b", revoked.Add(time.Hour)); err != nil || !again.RevokedAt.Equal(revoked) {
		t.Errorf("RevokeToken again = %+v %v, want the first revocation time kept", again, err)
	}
	_, tok, err := s.TokenByHash(ctx, "h-1b")
	if err != nil || tok.Live(revoked) || !tok.RevokedAt.Equal(revoked) {
		t.Errorf("revoked token by hash = %+v %v, want it found, revoked", tok, err)
	}
	if byID, err := s.TokenByID(ctx, "tk-1b"); err != nil || byID != tok {
		t.Errorf("TokenByID = %+v %v, want %+v", byID, err, tok)
	}
	if _, err := s.TokenByID(ctx, "tk-nobody"); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("TokenByID of an unknown id: %v, want ErrNotFound", err)
	}
	if _, first, err := s.TokenByHash(ctx, "h-1a"); err != nil || !first.Live(revoked) {
		t.Errorf("the player's other token = %+v %v, want it still live", first, err)
	}
	if _, other, err := s.TokenByHash(ctx, "h-2a"); err != nil || !other.Live(revoked) {
		t.Errorf("another player's token = %+v %v, want it still live", other, err)
	}
}

func testRooms(t *testing.T, s FullStore) {
	ctx := t.Context()
	at := time.Date(2025, 6, 1, 20, 0, 0, 0, time.FixedZone("CST", 8*3600))
	if err := s.CreateRoom(ctx, "123456", "T1", at); err != nil {
		t.Fatalf("CreateRoom: %v", err)
	}
	want := eventstore.Room{Code: "123456", TableID: "T1", CreatedAt: at.UTC()}
	if r, err := s.RoomByCode(ctx, "123456"); err != nil || r != want {
		t.Errorf("RoomByCode = %+v %v, want %+v", r, err, want)
	}
	if r, err := s.RoomOfTable(ctx, "T1"); err != nil || r != want {
		t.Errorf("RoomOfTable = %+v %v, want %+v", r, err, want)
	}
	for _, dup := range [][2]string{{"123456", "T2"}, {"654321", "T1"}} {
		if err := s.CreateRoom(ctx, dup[0], dup[1], at); !errors.Is(err, eventstore.ErrExists) {
			t.Errorf("CreateRoom(%s, %s) reusing a code or a table: %v, want ErrExists", dup[0], dup[1], err)
		}
	}
	if _, err := s.RoomByCode(ctx, "000000"); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("RoomByCode of an unknown code: %v, want ErrNotFound", err)
	}
	if _, err := s.RoomOfTable(ctx, "T9"); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("RoomOfTable of a table without a room: %v, want ErrNotFound", err)
	}

	// T1 closed: T2 takes its code over, once; a second taker finds it gone.
	later := at.Add(time.Hour)
	if err := s.TakeOverRoom(ctx, "123456", "T1", "T2", later); err != nil {
		t.Fatalf("TakeOverRoom: %v", err)
	}
	if err := s.TakeOverRoom(ctx, "123456", "T1", "T3", later); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("a second TakeOverRoom from the old table: %v, want ErrNotFound", err)
	}
	if r, err := s.RoomByCode(ctx, "123456"); err != nil || r.TableID != "T2" || !r.CreatedAt.Equal(later) {
		t.Errorf("room after the take-over = %+v %v, want T2's since %v", r, err, later)
	}
	if _, err := s.RoomOfTable(ctx, "T1"); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("the old table's room after the take-over: %v, want ErrNotFound", err)
	}

	// Release only by the table that holds the code.
	if err := s.ReleaseRoom(ctx, "123456", "T1"); err != nil {
		t.Fatalf("ReleaseRoom by a table that lost the code: %v", err)
	}
	if _, err := s.RoomByCode(ctx, "123456"); err != nil {
		t.Errorf("a release by another table removed the room: %v", err)
	}
	if err := s.ReleaseRoom(ctx, "123456", "T2"); err != nil {
		t.Fatalf("ReleaseRoom: %v", err)
	}
	if _, err := s.RoomByCode(ctx, "123456"); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("RoomByCode after the release: %v, want ErrNotFound", err)
	}
	if err := s.CreateRoom(ctx, "123456", "T4", later); err != nil {
		t.Errorf("CreateRoom of a released code: %v", err)
	}
}

func testCheckpoints(t *testing.T, s FullStore) {
	ctx := t.Context()
	if pos, err := s.Checkpoint(ctx, "nats-relay"); err != nil || pos != 0 {
		t.Fatalf("Checkpoint never set = %d %v, want 0", pos, err)
	}
	for _, pos := range []int64{5, 42, 0} {
		if err := s.SetCheckpoint(ctx, "nats-relay", pos); err != nil {
			t.Fatalf("SetCheckpoint(%d): %v", pos, err)
		}
		if got, err := s.Checkpoint(ctx, "nats-relay"); err != nil || got != pos {
			t.Errorf("Checkpoint after SetCheckpoint(%d) = %d %v", pos, got, err)
		}
	}
	if err := s.SetCheckpoint(ctx, "hand-history", 7); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Checkpoint(ctx, "nats-relay"); got != 0 {
		t.Errorf("checkpoints of different names share a value: nats-relay = %d, want 0", got)
	}
	if err := s.SetCheckpoint(ctx, "x", -1); err == nil {
		t.Error("SetCheckpoint(-1): nil error, want one")
	}
}

func testStreams(t *testing.T, s FullStore) {
	got, err := s.Streams(t.Context())
	if err != nil || got == nil || len(got) != 0 {
		t.Fatalf("Streams of an empty store = %#v %v, want an empty slice", got, err)
	}
	mustAppend(t, s, "table-a", 0, ev("E", `{}`), ev("E", `{}`))
	mustAppend(t, s, "table-b", 0, ev("E", `{}`))
	mustAppend(t, s, "table-a", 2, ev("E", `{}`))
	mustAppend(t, s, "table-0", 0, ev("E", `{}`))
	mustAppend(t, s, "Table-Z", 0, ev("E", `{}`)) // byte order puts upper case first
	got, err = s.Streams(t.Context())
	if err != nil || fmt.Sprint(got) != "[Table-Z table-0 table-a table-b]" {
		t.Errorf("Streams = %v %v, want [Table-Z table-0 table-a table-b]: each once, in byte order", got, err)
	}
}
