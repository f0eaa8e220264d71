package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	pmig "paiju/migrations/projections"
	"paiju/migrations/schema"
	"paiju/projections"
	"paiju/projections/projectionstest"
)

// TestHandEventRunsMigration: migration 0011's down (which also drops
// lb_player_stats, and its up builds it again from lb_results) writes every event of
// the runs back as a row of hh_hand_events, byte for byte, and its up
// (with rows the old code wrote, odd bytes included) gives the hands the
// same events again.
func TestHandEventRunsMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "projections.db")
	l := projectionstest.RandomLog(3, 8, 3000)
	d, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(l.Events); i += 100 {
		for _, n := range []string{projections.Hands, projections.Leaderboards} {
			if _, err := d.ApplyBatch(ctx, n, l.Events[i:min(i+100, len(l.Events))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	hands := map[string]projections.Hand{}
	ids := settledHands(t, d.db)
	for _, id := range ids {
		if hands[id], err = d.Hand(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if len(ids) < 50 {
		t.Fatalf("%d settled hands, want more", len(ids))
	}
	players := playerStats(t, d)
	d.Close()

	m, err := schema.Open(ctx, path, pmig.FS, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// Down to before 0011: 0015 and 0014 (ratings) and 0012 (the
	// directory's spectators) are undone first.
	if err := m.Down(ctx, 4); err != nil {
		t.Fatal(err)
	}
	m.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		var got []projections.HandEvent
		rows, err := db.Query(`SELECT position, version, type, data, recorded_at FROM hh_hand_events WHERE hand_id = ? ORDER BY position`, id)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var e projections.HandEvent
			var data string
			var at int64
			if err := rows.Scan(&e.Position, &e.Version, &e.Type, &data, &at); err != nil {
				t.Fatal(err)
			}
			e.Data, e.RecordedAt = []byte(data), time.Unix(0, at).UTC()
			got = append(got, e)
		}
		rows.Close()
		if !reflect.DeepEqual(got, hands[id].Events) {
			t.Fatalf("hand %s after down:\n got %+v\nwant %+v", id, got, hands[id].Events)
		}
	}
	// Rows as the old code wrote them, with bytes JSON escapes.
	odd := []string{`{"a":"\"q\" \\ \u003c\u2028é"}`, "raw\x01\x1f\"\\\n\t\u2028 \U0001F600", `{}`}
	if _, err := db.Exec(`INSERT INTO hh_hands (hand_id, table_id, hand, game, variant, seats, started_at, settled_at, settled_position, deltas)
		VALUES ('odd-1', 'odd', 1, 'doudizhu', 'classic', '[]', 1, 2, 30, '[0,0,0]')`); err != nil {
		t.Fatal(err)
	}
	var want []projections.HandEvent
	for i, data := range odd {
		pos := int64(30 - 10*i) // inserted out of order
		if _, err := db.Exec(`INSERT INTO hh_hand_events (hand_id, position, version, type, data, recorded_at) VALUES ('odd-1', ?, ?, 'Odd"Type', ?, ?)`, pos, i+1, data, int64(i)*1e9+7); err != nil {
			t.Fatal(err)
		}
		want = append([]projections.HandEvent{{Position: pos, Version: i + 1, Type: `Odd"Type`, Data: []byte(data), RecordedAt: time.Unix(0, int64(i)*1e9+7).UTC()}}, want...)
	}
	db.Close()

	d, err = Open(ctx, path, Options{}) // migrates up
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, id := range ids {
		h, err := d.Hand(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(h, hands[id]) {
			t.Fatalf("hand %s after down and up:\n got %+v\nwant %+v", id, h, hands[id])
		}
	}
	// 0014 empties the leaderboards (bots left them), to be rebuilt from
	// the log: rebuilt, they give the players the same totals.
	if _, err := d.ApplyBatch(ctx, projections.Leaderboards, l.Events); err != nil {
		t.Fatal(err)
	}
	if got := playerStats(t, d); !reflect.DeepEqual(got, players) {
		t.Fatalf("players after down and up:\n got %+v\nwant %+v", got, players)
	}
	got, err := d.handEvents(ctx, "odd-1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("odd rows after up:\n got %+v\nwant %+v", got, want)
	}
}

func settledHands(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT hand_id FROM hh_hands WHERE settled_at IS NOT NULL ORDER BY hand_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// playerStats is what Player answers for every player lb_results has, and
// checks it against the totals of lb_results, which Player summed before
// lb_player_stats.
func playerStats(t *testing.T, d *DB) map[string]projections.PlayerStats {
	t.Helper()
	ctx := context.Background()
	rows, err := d.db.Query(`SELECT player_id, game, SUM(delta), COUNT(*), SUM(delta > 0) FROM lb_results GROUP BY player_id, game ORDER BY player_id, game`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := map[string][]projections.GameStats{}
	for rows.Next() {
		var pid string
		var g projections.GameStats
		if err := rows.Scan(&pid, &g.Game, &g.Score, &g.Hands, &g.Wins); err != nil {
			t.Fatal(err)
		}
		g.Title = projections.Title(g.Score)
		want[pid] = append(want[pid], g)
	}
	if len(want) < 3 {
		t.Fatalf("%d players in lb_results, want more", len(want))
	}
	got := map[string]projections.PlayerStats{}
	for pid, games := range want {
		p, err := d.Player(ctx, pid)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(p.Games, games) {
			t.Fatalf("player %s: lb_player_stats\n%+v\nlb_results\n%+v", pid, p.Games, games)
		}
		got[pid] = p
	}
	return got
}

// TestPlayerStatsRedealt: a hand settled twice keeps its first results in
// lb_results (INSERT OR IGNORE), and lb_player_stats counts them once, in
// every split of projectionstest.RedealtLog into two batches.
func TestPlayerStatsRedealt(t *testing.T) {
	ctx := context.Background()
	l := projectionstest.RedealtLog()
	for split := 0; split <= len(l.Events); split++ {
		dbi, _ := openSuite(t, l.Now)
		d := dbi.(*DB)
		for _, b := range [][2]int{{0, split}, {split, len(l.Events)}} {
			if b[0] == b[1] {
				continue
			}
			if _, err := d.ApplyBatch(ctx, projections.Leaderboards, l.Events[b[0]:b[1]]); err != nil {
				t.Fatalf("split %d: %v", split, err)
			}
		}
		playerStats(t, d)
	}
}
