package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"paiju/audit"
	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/eventstore/sqlite"
	"paiju/games"
	"paiju/internal/testclock"
	"paiju/service"
)

var updateFrozen = flag.Bool("update-frozen", false, "record the frozen streams of the current rules versions missing from testdata/frozen")

// frozenDir holds one exported stream per game variant and rules version,
// named after the version ("doudizhu/classic/1" is doudizhu_classic_1.jsonl).
const frozenDir = "testdata/frozen"

func frozenFile(version string) string {
	return filepath.Join(frozenDir, strings.ReplaceAll(version, "/", "_")+".jsonl")
}

// frozenMust lists the event types every frozen stream holds, so that each
// exercises the shared events a rules change could break.
var frozenMust = []string{"TableOpened", "HandDealt", "DealSecret", "HandSettled", "TurnTimedOut", "SeatDelegated", "SeatResumed", "PlayerEscaped"}

// TestFrozenStreamsReplay: every stream recorded under a rules version,
// current or past, still decodes, replays and verifies (every command
// re-decided, every deal recomputed) with this build's registry — a rules
// change that would strand old tables fails here (DESIGN.md, The aggregate:
// every rules version stays replayable; docs/OPERATIONS.md, Rules versions).
// Every current variant has its stream.
func TestFrozenStreamsReplay(t *testing.T) {
	reg := games.All()
	if *updateFrozen {
		recordFrozen(t, reg)
	}
	files, err := filepath.Glob(filepath.Join(frozenDir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no frozen streams in %s (%v): record them with go test -run TestFrozenStreamsReplay -update-frozen .", frozenDir, err)
	}
	for _, v := range currentVersions(t, reg) {
		if !slices.Contains(files, frozenFile(v.version)) {
			t.Errorf("rules %s (%s/%s) has no frozen stream %s: record it with -update-frozen", v.version, v.game, v.variant, frozenFile(v.version))
		}
	}
	for name := range waitingFrozen {
		if !slices.Contains(files, filepath.Join(frozenDir, name+".jsonl")) {
			t.Errorf("no frozen stream %s of a table that waits between hands: record it with -update-frozen", name)
		}
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := audit.VerifyExport(reg.Rules, bytes.NewReader(b))
			if err != nil {
				t.Fatalf("%s no longer verifies under this build's rules: %v", f, err)
			}
			x, err := audit.ReadExport(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			var types []string
			for _, e := range x.Events {
				types = append(types, e.Type)
			}
			for _, want := range frozenMust {
				if !slices.Contains(types, want) {
					t.Errorf("%s holds no %s event", f, want)
				}
			}
			if _, ok := waitingFrozen[strings.TrimSuffix(filepath.Base(f), ".jsonl")]; ok && !slices.Contains(types, "SeatReady") {
				t.Errorf("%s waits between hands and holds no SeatReady", f)
			}
			if rep.Deals < 3 || rep.Commands == 0 {
				t.Errorf("%s: %d deals recomputed, %d commands re-decided; want at least 3 deals", f, rep.Deals, rep.Commands)
			}
		})
	}
}

// versionOf is one variant's current rules version.
type versionOf struct{ game, variant, version string }

func currentVersions(t *testing.T, reg table.Registry) []versionOf {
	t.Helper()
	var vs []versionOf
	for name, g := range reg {
		for _, variant := range g.Variants() {
			r, err := g.Rules(variant, nil)
			if err != nil {
				t.Fatalf("%s/%s: %v", name, variant, err)
			}
			vs = append(vs, versionOf{name, variant, r.Version()})
		}
	}
	return vs
}

// waitingFrozen are the frozen streams of tables opened with
// wait_between_hands (file name → the variant), whose SeatReady events
// every verifier must re-decide.
var waitingFrozen = map[string]versionOf{
	"doudizhu_classic_2_wait_between_hands": {"doudizhu", "classic", "doudizhu/classic/2"},
}

// recordFrozen records a stream for every current version that has none:
// two hands played by their players, with a turn timeout, a seat handed to
// the bot (托管) and taken back, then an escape in the third hand.
func recordFrozen(t *testing.T, reg table.Registry) {
	for name, v := range waitingFrozen {
		file := filepath.Join(frozenDir, name+".jsonl")
		if _, err := os.Stat(file); err == nil {
			continue // frozen: never rewritten
		}
		if err := os.WriteFile(file, recordStreamOpts(t, reg, v, nil, true), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("recorded %s", file)
	}
	for _, v := range currentVersions(t, reg) {
		if _, err := os.Stat(frozenFile(v.version)); err == nil {
			continue // frozen: never rewritten
		}
		b := recordStream(t, reg, v)
		if err := os.MkdirAll(frozenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(frozenFile(v.version), b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("recorded %s", frozenFile(v.version))
	}
}

// fixedSeeds deals from a seeded generator, so that a recorded stream
// reproduces.
type fixedSeeds struct {
	mu sync.Mutex
	r  *rand.Rand
}

func (f *fixedSeeds) NewSeed() (cards.Seed, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var seed cards.Seed
	for i := range seed {
		seed[i] = byte(f.r.Uint32())
	}
	return seed, nil
}

func recordStream(t *testing.T, reg table.Registry, v versionOf) []byte {
	t.Helper()
	return recordStreamWith(t, reg, v, nil)
}

// recordStreamWith is recordStream at a table opened with options.
func recordStreamWith(t *testing.T, reg table.Registry, v versionOf, options json.RawMessage) []byte {
	t.Helper()
	return recordStreamOpts(t, reg, v, options, false)
}

// recordStreamOpts is recordStreamWith at a table that waits between hands
// when wait is set: its players post continue after each hand.
func recordStreamOpts(t *testing.T, reg table.Registry, v versionOf, options json.RawMessage, wait bool) []byte {
	t.Helper()
	ctx := context.Background()
	clock := testclock.New(time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC))
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "f.db"), sqlite.Options{Logger: slog.New(slog.DiscardHandler), Now: clock.Now, Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	// Fixed deals: a stream recorded for the same version is the same
	// stream, and a deal that ends the match early cannot come by chance.
	svc := service.New(service.Config{Store: store, Games: reg, Clock: clock, Seeds: &fixedSeeds{r: rand.New(rand.NewPCG(2026, 12))}})
	rules, err := reg[v.game].Rules(v.variant, options)
	if err != nil {
		t.Fatal(err)
	}
	players := make([]service.Player, rules.Seats())
	for i := range players {
		players[i] = service.Player{ID: fmt.Sprintf("frozen-player-%d", i), Name: fmt.Sprintf("p%d", i)}
	}
	// Timeouts never delegate here: delegation is asked for, so that the
	// players keep their seats.
	res, err := svc.Open(ctx, players[0], service.OpenRequest{Game: v.game, Variant: v.variant, Options: options, Stake: 1, Clock: &table.Clock{TurnSeconds: 30, DelegateAfter: 5}, WaitBetweenHands: wait}, service.NoCond)
	if err != nil {
		t.Fatalf("%s: open: %v", v.version, err)
	}
	opened, ok := res.Table.Events[0].Payload.(table.TableOpened)
	id := opened.TableID
	if !ok || id == "" {
		t.Fatalf("%s: no table id", v.version)
	}
	for i, p := range players {
		if _, err := svc.Join(ctx, p, id, i, service.NoCond); err != nil {
			t.Fatalf("%s: join seat %d: %v", v.version, i, err)
		}
	}
	act := func(seat int, a table.Action) {
		t.Helper()
		if _, err := svc.Act(ctx, players[seat], id, a, service.NoCond); err != nil {
			t.Fatalf("%s: seat %d %+v: %v", v.version, seat, a, err)
		}
		clock.Advance(time.Second)
		svc.RunDue(ctx)
	}
	// The first turn runs out.
	clock.Advance(31 * time.Second)
	if svc.RunDue(ctx) == 0 {
		t.Fatalf("%s: no timeout after 31 s", v.version)
	}
	delegated, delegatedAt, resumed := -1, 0, false
	for step := 0; step < 5000; step++ {
		l, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		st := l.State
		settled := 0
		for _, e := range l.Events {
			if e.Type == "HandSettled" {
				settled++
			}
		}
		if st.Closed {
			t.Fatalf("%s: the table closed after %d hands, before the escape", v.version, settled)
		}
		if settled >= 2 && st.InDeal && resumed {
			act(0, table.Action{Type: table.ActionEscape})
			var buf bytes.Buffer
			return exportOf(t, store, id, clock.Now(), &buf)
		}
		if delegated < 0 && st.InDeal {
			for seat := 1; seat < len(st.Players); seat++ {
				if st.Awaited(seat) && !st.ServerPlays(seat) {
					act(seat, table.Action{Type: table.ActionDelegate})
					delegated, delegatedAt = seat, step
					break
				}
			}
			if delegated >= 0 {
				continue
			}
		}
		if delegated >= 0 && !resumed && step > delegatedAt+8 {
			act(delegated, table.Action{Type: table.ActionResume})
			resumed = true
			continue
		}
		seat, a, ok := firstPlayerMove(svc, st, clock.Now())
		if !ok {
			// Nothing to do but wait for a deadline.
			clock.Advance(31 * time.Second)
			if svc.RunDue(ctx) == 0 {
				t.Fatalf("%s: stuck at version %d", v.version, len(l.Events))
			}
			continue
		}
		act(seat, a)
	}
	t.Fatalf("%s: two hands did not settle in 5000 moves", v.version)
	return nil
}

// firstPlayerMove is the lowest seat played by its player that the game
// awaits, with the move the game's bot would make there (a first legal
// action can go round in circles, as 刮风's declarations may).
func firstPlayerMove(svc *service.Service, st *table.State, now time.Time) (int, table.Action, bool) {
	for seat := range st.Players {
		if st.ServerPlays(seat) || !st.Awaited(seat) {
			continue
		}
		if a, ok := table.BotMove(st, seat, now); ok {
			return seat, a, true
		}
		for _, a := range svc.Legal(st, seat) {
			switch a.Type {
			case table.ActionEscape, table.ActionLeave, table.ActionDelegate, table.ActionResume:
				continue
			}
			return seat, a, true
		}
	}
	return 0, table.Action{}, false
}

func exportOf(t *testing.T, store *sqlite.Store, id string, at time.Time, buf *bytes.Buffer) []byte {
	t.Helper()
	ctx := context.Background()
	evs, err := store.Load(ctx, service.StreamID(id), 0)
	if err != nil {
		t.Fatal(err)
	}
	pos, hash, err := store.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := audit.WriteExport(buf, evs, audit.ChainHead{Position: pos, Hash: hash}, at); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// changedRules are a variant's rules after a change that decides old
// streams differently (here: every action refused), under version v.
type changedRules struct {
	table.Rules
	v string
}

func (c changedRules) Version() string { return c.v }

func (c changedRules) Decide(table.GameState, int, table.Action) ([]table.Payload, error) {
	return nil, errors.New("the changed rules refuse this")
}

// changedGame is a game whose rules changed, to the next version when bump
// is set (else keeping the old version string: a change nobody bumped).
type changedGame struct {
	table.Game
	bump bool
}

func (g changedGame) Rules(variant string, options json.RawMessage) (table.Rules, error) {
	r, err := g.Game.Rules(variant, options)
	if err != nil {
		return nil, err
	}
	if !g.bump {
		return changedRules{r, r.Version()}, nil
	}
	return changedRules{r, nextVersion(r.Version())}, nil
}

// nextVersion is "game/variant/N+1" of "game/variant/N".
func nextVersion(v string) string {
	i := strings.LastIndexByte(v, '/')
	n, err := strconv.Atoi(v[i+1:])
	if err != nil {
		panic(fmt.Sprintf("rules version %q does not end in a number", v))
	}
	return v[:i+1] + strconv.Itoa(n+1)
}

// keepingGame is changedGame keeping its old rules (table.Versioned).
type keepingGame struct{ changedGame }

func (g keepingGame) RulesAt(version, variant string, options json.RawMessage) (table.Rules, error) {
	r, err := g.Game.(table.Versioned).RulesAt(version, variant, options)
	if err != nil {
		return nil, err
	}
	if r.Version() != version {
		return nil, fmt.Errorf("%w: %s", table.ErrRulesVersion, version)
	}
	return r, nil
}

// TestRulesChangeKeepsOldTablesReplayable: after a game's rules change, a
// table opened under the old version replays and verifies under it when
// the game keeps it (table.Versioned), is refused by name when the game
// keeps none, and a change made without bumping the version fails the
// frozen stream (docs/OPERATIONS.md, Rules versions).
func TestRulesChangeKeepsOldTablesReplayable(t *testing.T) {
	dou := games.All()["doudizhu"]
	current, err := dou.Rules("classic", nil)
	if err != nil {
		t.Fatal(err)
	}
	old, next := current.Version(), nextVersion(current.Version())
	stream, err := os.ReadFile(frozenFile(old))
	if err != nil {
		t.Fatal(err)
	}
	verify := func(g table.Game) error {
		reg := games.All()
		reg["doudizhu"] = g
		_, err := audit.VerifyExport(reg.Rules, bytes.NewReader(stream))
		return err
	}
	if err := verify(keepingGame{changedGame{dou, true}}); err != nil {
		t.Fatalf("rules bumped to %s with %s kept: the old table does not verify: %v", next, old, err)
	}
	r, err := keepingGame{changedGame{dou, true}}.Rules("classic", nil)
	if err != nil || r.Version() != next {
		t.Fatalf("new tables open under %v (%v), want %s", r, err, next)
	}
	// audit reports a fault by its text (the line and event), so match that.
	if err := verify(changedGame{dou, true}); err == nil || !strings.Contains(err.Error(), table.ErrRulesVersion.Error()) || !strings.Contains(err.Error(), old) {
		t.Fatalf("rules bumped to %s with %s dropped: %v, want a refusal naming the version", next, old, err)
	}
	if err := verify(changedGame{dou, false}); err == nil || strings.Contains(err.Error(), table.ErrRulesVersion.Error()) {
		t.Fatalf("rules changed without a version bump: %v, want the frozen stream to fail re-deciding", err)
	}
}
