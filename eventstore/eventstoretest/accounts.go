package eventstoretest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"paiju/eventstore"
)

func testPlayers(t *testing.T, s accountsStore) {
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

	if err := s.RenamePlayer(ctx, "p-bob", "Robert", "robert"); err != nil {
		t.Fatalf("RenamePlayer: %v", err)
	}
	if got, err := s.PlayerByID(ctx, "p-bob"); err != nil || got.Name != "Robert" {
		t.Errorf("renamed player = %+v %v, want the name Robert", got, err)
	}
	if got, _, err := s.TokenByHash(ctx, "th-bob"); err != nil || got.Name != "Robert" {
		t.Errorf("renamed player by token = %+v %v, want the name Robert", got, err)
	}
	if err := s.RenamePlayer(ctx, "p-nobody", "x", "x"); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("RenamePlayer of an unknown id: %v, want ErrNotFound", err)
	}
}

// testNameKeys: no two players hold one name key, whether they register or
// rename, one after the other or at once; players without a key (those
// registered before keys were kept) are not kept apart.
func testNameKeys(t *testing.T, s accountsStore) {
	ctx := t.Context()
	create := func(id, name, key string) error {
		return s.CreatePlayer(ctx, eventstore.Player{ID: id, Name: name, NameKey: key}, eventstore.Token{ID: "tk-" + id, Hash: "th-" + id})
	}
	if err := create("p-1", "玩家1", "玩家1"); err != nil {
		t.Fatalf("CreatePlayer: %v", err)
	}
	if got, err := s.PlayerByID(ctx, "p-1"); err != nil || got.NameKey != "玩家1" {
		t.Errorf("player = %+v %v, want its name key kept", got, err)
	}
	if err := create("p-2", "玩家１", "玩家1"); !errors.Is(err, eventstore.ErrNameTaken) {
		t.Errorf("CreatePlayer with a key p-1 holds: %v, want ErrNameTaken", err)
	}
	if _, err := s.PlayerByID(ctx, "p-2"); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("player of a refused creation: %v, want ErrNotFound", err)
	}
	for _, id := range []string{"p-old1", "p-old2"} {
		if err := create(id, "Old", ""); err != nil {
			t.Errorf("CreatePlayer without a key beside another: %v, want no error", err)
		}
	}
	if err := create("p-3", "Three", "three"); err != nil {
		t.Fatalf("CreatePlayer: %v", err)
	}
	if err := s.RenamePlayer(ctx, "p-3", "玩家１", "玩家1"); !errors.Is(err, eventstore.ErrNameTaken) {
		t.Errorf("RenamePlayer to a key p-1 holds: %v, want ErrNameTaken", err)
	}
	if got, err := s.PlayerByID(ctx, "p-3"); err != nil || got.Name != "Three" || got.NameKey != "three" {
		t.Errorf("player after a refused rename = %+v %v, want it unchanged", got, err)
	}
	if err := s.RenamePlayer(ctx, "p-1", "玩家１", "玩家1"); err != nil {
		t.Errorf("RenamePlayer to the key it holds: %v, want no error", err)
	}
	if err := s.RenamePlayer(ctx, "p-old1", "Three", "three"); !errors.Is(err, eventstore.ErrNameTaken) {
		t.Errorf("RenamePlayer of a keyless player to a key p-3 holds: %v, want ErrNameTaken", err)
	}

	// Registrations of one name at once: exactly one is stored.
	const racers = 8
	errs := make(chan error, racers)
	for i := range racers {
		go func() { errs <- create(fmt.Sprintf("p-race%d", i), "Racer", "racer") }()
	}
	won := 0
	for range racers {
		switch err := <-errs; {
		case err == nil:
			won++
		case !errors.Is(err, eventstore.ErrNameTaken):
			t.Errorf("concurrent CreatePlayer: %v, want nil or ErrNameTaken", err)
		}
	}
	if won != 1 {
		t.Errorf("%d of %d concurrent registrations of one name key stored, want exactly 1", won, racers)
	}
}

func testTokens(t *testing.T, s accountsStore) {
	ctx := t.Context()
	at := time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)
	if err := s.CreatePlayer(ctx, eventstore.Player{ID: "p-1", Name: "One", CreatedAt: at}, eventstore.Token{ID: "tk-1a", Label: "registration", Hash: "h-1a"}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreatePlayer(ctx, eventstore.Player{ID: "p-2", Name: "Two", CreatedAt: at}, eventstore.Token{ID: "tk-2a", Label: "registration", Hash: "h-2a"}); err != nil {
		t.Fatal(err)
	}
	phone := eventstore.Token{ID: "tk-1b", PlayerID: "p-1", Label: "手机", Hash: "h-1b", CreatedAt: at.Add(time.Hour), ExpiresAt: at.Add(48 * time.Hour)}
	if err := s.CreateToken(ctx, phone, -1); err != nil {
		t.Fatalf("CreateToken: %v", err)
	}
	if err := s.CreateToken(ctx, eventstore.Token{ID: "tk-1c", PlayerID: "p-1", Label: "laptop", Hash: "h-1c"}, -1); err != nil {
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
		if err := s.CreateToken(ctx, bad.tok, -1); !errors.Is(err, bad.want) {
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

// testTokenCap: CreateToken refuses a token past maxLive live ones
// (revoked and expired ones do not count), and the cap holds when many
// CreateTokens of one player run at once: the count and the insert are
// one transaction.
func testTokenCap(t *testing.T, s accountsStore) {
	ctx := t.Context()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if err := s.CreatePlayer(ctx, eventstore.Player{ID: "p-cap", Name: "Cap", CreatedAt: at}, eventstore.Token{ID: "tk-cap-0", Hash: "h-cap-0"}); err != nil {
		t.Fatalf("CreatePlayer: %v", err)
	}
	expired := eventstore.Token{ID: "tk-cap-exp", PlayerID: "p-cap", Hash: "h-cap-exp", CreatedAt: at, ExpiresAt: at.Add(time.Minute)}
	if err := s.CreateToken(ctx, expired, 2); err != nil {
		t.Fatalf("a second token under a cap of 2: %v", err)
	}
	later := at.Add(time.Hour) // the second token has expired by then
	revokedTok := eventstore.Token{ID: "tk-cap-rev", PlayerID: "p-cap", Hash: "h-cap-rev", CreatedAt: later}
	if err := s.CreateToken(ctx, revokedTok, 2); err != nil {
		t.Fatalf("a token once the other expired: %v", err)
	}
	if err := s.CreateToken(ctx, eventstore.Token{ID: "tk-cap-x", PlayerID: "p-cap", Hash: "h-cap-x", CreatedAt: later}, 2); !errors.Is(err, eventstore.ErrLimit) {
		t.Fatalf("a third live token under a cap of 2: %v, want ErrLimit", err)
	}
	if _, err := s.RevokeToken(ctx, "p-cap", revokedTok.ID, later); err != nil {
		t.Fatal(err)
	}
	// One live token now: of 50 at once under a cap of 20, exactly 19 go in.
	const tries, maxLive = 50, 20
	var wg sync.WaitGroup
	errs := make([]error, tries)
	for i := range tries {
		wg.Go(func() {
			errs[i] = s.CreateToken(ctx, eventstore.Token{ID: fmt.Sprintf("tk-cap-%d", i+1), PlayerID: "p-cap", Hash: fmt.Sprintf("h-cap-%d", i+1), CreatedAt: later}, maxLive)
		})
	}
	wg.Wait()
	created := 0
	for i, err := range errs {
		switch {
		case err == nil:
			created++
		case !errors.Is(err, eventstore.ErrLimit):
			t.Errorf("CreateToken %d at once: %v, want nil or ErrLimit", i, err)
		}
	}
	list, err := s.Tokens(ctx, "p-cap")
	if err != nil {
		t.Fatal(err)
	}
	live := 0
	for _, tok := range list {
		if tok.Live(later) {
			live++
		}
	}
	if created != maxLive-1 || live != maxLive {
		t.Errorf("%d CreateTokens at once under a cap of %d: %d created, %d live; want %d created, %d live", tries, maxLive, created, live, maxLive-1, maxLive)
	}
}

func testRooms(t *testing.T, s accountsStore) {
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
