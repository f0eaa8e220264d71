package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"paiju/audit"
	"paiju/domain/table"
	"paiju/domain/tournament"
	"paiju/eventstore"
	"paiju/eventstore/sqlite"
	"paiju/games"
	"paiju/internal/testclock"
	"paiju/service"
)

// webCase is one export the browser's verifier must judge as paiju verify
// does: ok, or the first fault at Event with the browser's check Check.
type webCase struct {
	File  string `json:"file"`
	Name  string `json:"name"`
	OK    bool   `json:"ok"`
	Event int    `json:"event"`
	Check string `json:"check"`
	Go    string `json:"go"`
}

// TestWebVerifierAgreesWithGo plays a table of every current game variant
// through the service (the frozen streams' recorder: two hands with a
// timeout, 托管 and an escape), takes the committed frozen streams of every
// rules version besides, and tampers with copies of each — a card of a
// HandDealt, a byte of a revealed seed, a settlement delta (each with the
// chain rewritten after it, as a forger would), a hash, a removed line. It
// asks audit.VerifyExport (paiju verify FILE) for each verdict, then runs the
// browser's verifier (web/static/js/verify) under Node on the same files,
// which must agree: the same verdict, the fault at the same event. The
// Node tests of web/verifytest run with it (the replay page's model on
// every frozen stream among them).
func TestWebVerifierAgreesWithGo(t *testing.T) {
	sequentialSkipsUnderRace(t)
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node is needed to run the browser's verifier: %v", err)
		}
		t.Skip("node is not installed")
	}
	reg := games.All()
	dir := t.TempDir()
	exports := map[string][]byte{}
	for _, v := range currentVersions(t, reg) {
		exports["played_"+strings.ReplaceAll(v.version, "/", "_")] = recordStream(t, reg, v)
	}
	// Tables with house rules that change the deal: the verifiers re-deal
	// them under the recorded options (niuniu.md, Table options).
	for name, options := range map[string]string{
		"niuniu_rotate":        `{"seats":3,"banker":2,"banker_mode":"rotate"}`,
		"niuniu_random":        `{"banker_mode":"random"}`,
		"niuniu_random_52":     `{"seats":2,"banker_mode":"random","jokers":false}`,
		"niuniu_52_multiplied": `{"banker":1,"jokers":false,"multipliers":{"bull_bull":8},"special_hands":{"bomb":9,"five_small":10}}`,
	} {
		v := versionOf{"niuniu", "classic", "niuniu/classic with " + options}
		exports["options_"+name] = recordStreamWith(t, reg, v, json.RawMessage(options))
	}
	// 升级's options change no deal and no first seat (the deal reads only
	// the seed and the last settlement's next_dealer): the browser's
	// verifier re-deals a match played under them as it is.
	for name, options := range map[string]string{
		"shengji_ningyang_levels": `{"start_level":"2","must_defend":"points","step":20,"kitty_multiplier":"linear"}`,
		"shengji_guafeng_levels":  `{"start_level":"2","must_defend":"last","step":30,"show_points":false}`,
	} {
		variant := strings.Split(name, "_")[1]
		v := versionOf{"shengji", variant, "shengji/" + variant + " with " + options}
		exports["options_"+name] = recordStreamWith(t, reg, v, json.RawMessage(options))
	}
	// A table that waits between hands (SeatReady, continue's timeout).
	exports["wait_doudizhu_classic"] = recordStreamOpts(t, reg, versionOf{"doudizhu", "classic", "doudizhu/classic with wait_between_hands"}, nil, true)
	for k, b := range duplicateExports(t, reg, "doudizhu", "classic", 6) {
		exports["duplicate_doudizhu_"+k] = b
	}
	for k, b := range duplicateExports(t, reg, "shengji", "ningyang", 8) {
		exports["duplicate_shengji_"+k] = b
	}
	frozen, err := filepath.Glob(filepath.Join(frozenDir, "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frozen {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		exports["frozen_"+strings.TrimSuffix(filepath.Base(f), ".jsonl")] = b
	}

	var cases []webCase
	add := func(name, check string, b []byte) {
		t.Helper()
		file := filepath.Join(dir, name+".jsonl")
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		c := webCase{File: file, Name: name, OK: true, Check: check}
		if _, err := audit.VerifyExport(reg.Rules, bytes.NewReader(b)); err != nil {
			var f *audit.ExportFault
			if !errors.As(err, &f) {
				t.Fatalf("%s: %v", name, err)
			}
			c.OK, c.Event, c.Go = false, f.Version, f.Error()
		}
		if (check == "") != c.OK {
			t.Fatalf("%s: paiju verify says %q; the tampering is meant to fail the check %q", name, c.Go, check)
		}
		cases = append(cases, c)
	}
	for name, b := range exports {
		x, err := audit.ReadExport(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		add(name, "", b)
		evs := x.Events
		dealt := firstOf(evs, "HandDealt")
		settled := lastOf(evs, "HandSettled")
		add(name+"_card", "deal", forgeAt(t, x, dealt, func(data []byte) any {
			var d table.HandDealt
			mustUnmarshal(t, data, &d)
			// A card seat 1 holds, in place of a different one of seat 0's.
			for _, c := range d.Hands[1] {
				if c != d.Hands[0][0] {
					d.Hands[0][0] = c
					break
				}
			}
			return d
		}))
		add(name+"_seed", "commitment", forgeAt(t, x, settled, func(data []byte) any {
			var s table.HandSettled
			mustUnmarshal(t, data, &s)
			s.Seed = flipHex(s.Seed)
			return s
		}))
		add(name+"_delta", "settlement", forgeAt(t, x, firstOf(evs, "HandSettled"), func(data []byte) any {
			var s table.HandSettled
			mustUnmarshal(t, data, &s)
			s.Deltas[0]++
			return s
		}))
		if evs[1].Type == "DealsSecret" {
			add(name+"_dealssecret", "opening", forgeAt(t, x, 1, func(data []byte) any {
				var d table.DealsSecret
				mustUnmarshal(t, data, &d)
				d.Seed = flipHex(d.Seed)
				return d
			}))
		}
		mid := len(evs) / 2
		hashed := append([]eventstore.Event(nil), evs...)
		hashed[mid].Hash = flipHex(hashed[mid].Hash)
		add(name+"_hash", "hash", writeExport(t, hashed, x.Head))
		removed := append(append([]eventstore.Event(nil), evs[:mid]...), evs[mid+1:]...)
		add(name+"_removed", "missing", writeExport(t, removed, x.Head))
	}
	list := filepath.Join(dir, "cases.json")
	b, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(list, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), node, "--test", "--test-reporter=spec", filepath.Join("..", "web", "verifytest")+string(filepath.Separator))
	cmd.Env = append(os.Environ(), "PAIJU_VERIFY_CASES="+list)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the browser's verifier disagrees with paiju verify (%v):\n%s", err, out)
	}
	t.Logf("%d exports judged alike by paiju verify and the browser's verifier", len(cases))
}

// duplicateExports plays a duplicate tournament of game (players enough
// for two tables, every seat handed to the bot) and returns the export of
// each of its tables, whose deals derive from the tournament's secret.
func duplicateExports(t *testing.T, reg table.Registry, game, variant string, players int) map[string][]byte {
	t.Helper()
	ctx := context.Background()
	clock := testclock.New(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "d.db"), sqlite.Options{Logger: slog.New(slog.DiscardHandler), Now: clock.Now, Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	svc := service.New(service.Config{Store: store, Games: reg, Clock: clock})
	tl, err := svc.OpenTournament(ctx, service.Player{ID: "host"}, service.TournamentRequest{
		Game: game, Variant: variant, Format: "duplicate", Players: players, HandsPerTable: 2, Stake: 1,
	})
	if err != nil {
		t.Fatalf("%s duplicate: %v", game, err)
	}
	id := tl.State.TournamentID
	for i := range players {
		if tl, err = svc.JoinTournament(ctx, service.Player{ID: fmt.Sprintf("d%d", i)}, id); err != nil {
			t.Fatal(err)
		}
	}
	tables := tl.State.Current().Tables
	for _, tb := range tables {
		for _, p := range tb.Players {
			if _, err := svc.Act(ctx, service.Player{ID: p}, tb.TableID, table.Action{Type: table.ActionDelegate}, service.NoCond); err != nil {
				t.Fatal(err)
			}
		}
	}
	for range 5000 {
		if tl, err = svc.LoadTournament(ctx, id); err != nil {
			t.Fatal(err)
		}
		if tl.State.Status == tournament.StatusEnded {
			break
		}
		svc.RunDue(ctx)
		clock.Advance(time.Second)
	}
	if tl.State.Status != tournament.StatusEnded {
		t.Fatalf("%s duplicate: the tournament did not end: %s", game, tl.State.Status)
	}
	out := map[string][]byte{}
	for i, tb := range tables {
		var buf bytes.Buffer
		out[fmt.Sprintf("table%d", i)] = exportOf(t, store, tb.TableID, clock.Now(), &buf)
	}
	return out
}

// forgeAt replaces the data of event i with change's result and rewrites the
// chain after it (each later prev_hash and hash, and the head), as whoever
// edits a log can: only the checks beyond the hashes can then find the edit.
func forgeAt(t *testing.T, x *audit.Export, i int, change func([]byte) any) []byte {
	t.Helper()
	evs := append([]eventstore.Event(nil), x.Events...)
	data, err := json.Marshal(change(evs[i].Data))
	if err != nil {
		t.Fatal(err)
	}
	evs[i].Data = data
	for j := i; j < len(evs); j++ {
		if j > 0 && evs[j].Position == evs[j-1].Position+1 {
			evs[j].PrevHash = evs[j-1].Hash
		}
		e := evs[j]
		evs[j].Hash = eventstore.Hash(e.PrevHash, e.Stream, e.Version, e.Type, e.Data)
	}
	head := *x.Head
	if last := evs[len(evs)-1]; head.ChainHead.Position == last.Position {
		head.ChainHead.Hash = last.Hash
	}
	return writeExport(t, evs, &head)
}

func writeExport(t *testing.T, evs []eventstore.Event, head *audit.Head) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := audit.WriteExport(&buf, evs, head.ChainHead, head.ExportedAt); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func firstOf(evs []eventstore.Event, typ string) int {
	for i, e := range evs {
		if e.Type == typ {
			return i
		}
	}
	panic(fmt.Sprintf("no %s in the stream", typ))
}

func lastOf(evs []eventstore.Event, typ string) int {
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == typ {
			return i
		}
	}
	panic(fmt.Sprintf("no %s in the stream", typ))
}

// flipHex changes the first hex digit of h.
func flipHex(h string) string {
	if h[0] == '0' {
		return "1" + h[1:]
	}
	return "0" + h[1:]
}

func mustUnmarshal(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatal(err)
	}
}
