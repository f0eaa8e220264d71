package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"paiju/domain/table"
	pmig "paiju/migrations/projections"
	"paiju/migrations/schema"
	"paiju/projections"
	"paiju/projections/projectionstest"
)

// ratingRows is every row of the ratings projection as text, the floats
// as their bits.
func ratingRows(t *testing.T, d *DB) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	rows, err := d.db.QueryContext(ctx, `SELECT stream, state FROM rt_tables ORDER BY stream`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s, st string
		if err := rows.Scan(&s, &st); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "table %s %s\n", s, st)
	}
	rows.Close()
	rows, err = d.db.QueryContext(ctx, `SELECT game, variant, player_id, name, mu, sigma, hands, last_at FROM rt_ratings ORDER BY game, variant, player_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var g, v, p, n string
		var mu, sigma float64
		var hands int
		var last int64
		if err := rows.Scan(&g, &v, &p, &n, &mu, &sigma, &hands, &last); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "rating %s %s %s %s %x %x %d %d\n", g, v, p, n, math.Float64bits(mu), math.Float64bits(sigma), hands, last)
	}
	rows.Close()
	b.WriteString(historyRows(t, d.db, historyQuery))
	return b.String()
}

// historyQuery reads the rating history as rt_history held it before
// migration 0015.
const historyQuery = `SELECT p.player_id, p.position, h.game, h.variant, h.hand_id, p.seat, p.mu_before, p.sigma_before, p.idle_days, p.mu_after, p.sigma_after, h.settled_at
	FROM rt_player_hands p JOIN rt_hands h ON h.position = p.position ORDER BY p.player_id, p.position`

// historyRows is the rows of the rating history query as text, the floats
// as their bits.
func historyRows(t *testing.T, db *sql.DB, query string) string {
	t.Helper()
	var b strings.Builder
	rows, err := db.QueryContext(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var p, g, v, h string
		var pos, at int64
		var seat, idle int
		var mb, sb, ma, sa float64
		if err := rows.Scan(&p, &pos, &g, &v, &h, &seat, &mb, &sb, &idle, &ma, &sa, &at); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "history %s %d %s %s %s %d %x %x %d %x %x %d\n", p, pos, g, v, h, seat,
			math.Float64bits(mb), math.Float64bits(sb), idle, math.Float64bits(ma), math.Float64bits(sa), at)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRatingHandsMigration: migration 0015's down gives rt_history every
// row of the history again, bit for bit, and its up moves them back to
// rt_hands and rt_player_hands, where the projection reads them as before.
func TestRatingHandsMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "projections.db")
	l := projectionstest.RandomLog(7, 8, 3000)
	d, err := Open(ctx, path, Options{Now: l.Now, Rater: projectionstest.Rater()})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(l.Events); i += 100 {
		if _, err := d.ApplyBatch(ctx, projections.Ratings, l.Events[i:min(i+100, len(l.Events))]); err != nil {
			t.Fatal(err)
		}
	}
	want, history := ratingRows(t, d), historyRows(t, d.db, historyQuery)
	if strings.Count(history, "\n") < 100 {
		t.Fatalf("%d history rows, want more", strings.Count(history, "\n"))
	}
	d.Close()

	m, err := schema.Open(ctx, path, pmig.FS, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Down(ctx, 1); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	got := historyRows(t, db, `SELECT player_id, position, game, variant, hand_id, seat, mu_before, sigma_before, idle_days, mu_after, sigma_after, settled_at
		FROM rt_history ORDER BY player_id, position`)
	db.Close()
	if got != history {
		t.Fatalf("rt_history after down:\n%s\nwant\n%s", got, history)
	}
	if err := m.Up(ctx); err != nil {
		t.Fatal(err)
	}
	m.Close()
	d, err = Open(ctx, path, Options{Now: l.Now, Rater: projectionstest.Rater()})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got := ratingRows(t, d); got != want {
		t.Fatalf("rows after down and up:\n%s\nwant\n%s", got, want)
	}
}

// TestRatingsBatchSizes applies one random log to the ratings projection
// in batches of several sizes, alone and with the other projections in one
// transaction a batch: the rows a batch reads before its events
// (RatingsFold.Preload) or one at a time, and the table rows written only
// when an event changes them, give the same rows, bit for bit, whatever
// the batches, and the same histories as the log recomputed in memory.
func TestRatingsBatchSizes(t *testing.T) {
	ctx := context.Background()
	l := projectionstest.RandomLog(36, 12, projectionstest.Events(3000))
	rater := projectionstest.Rater()
	f, err := projections.RecomputeRatings(ctx, l, rater)
	if err != nil {
		t.Fatal(err)
	}
	var want string
	for _, size := range []int{1, 5, 64, 256, 1000} {
		for _, together := range []bool{false, true} {
			d, err := Open(ctx, filepath.Join(t.TempDir(), fmt.Sprintf("p%d%v.db", size, together)), Options{Now: l.Now, Rater: rater})
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < len(l.Events); i += size {
				page := l.Events[i:min(i+size, len(l.Events))]
				if together {
					err = d.ApplyBatches(ctx, projections.Names, page)
				} else {
					_, err = d.ApplyBatch(ctx, projections.Ratings, page)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			got := ratingRows(t, d)
			if want == "" {
				want = got
				if strings.Count(got, "history ") < 100 {
					t.Fatalf("%d history rows: the log rates too little to compare", strings.Count(got, "history "))
				}
			} else if got != want {
				t.Fatalf("batches of %d (with the others: %v): the rows differ from batches of 1", size, together)
			}
			d.Close()
		}
	}
	// The rows against the log recomputed in memory.
	for _, k := range f.RatingsChanged {
		r := f.Rating(k)
		line := fmt.Sprintf("rating %s %s %s %s %x %x %d %d\n", k.Game, k.Variant, k.Player, r.Name,
			math.Float64bits(r.Rating.Mu), math.Float64bits(r.Rating.Sigma), r.Hands, r.LastAt)
		if !strings.Contains(want, line) {
			t.Fatalf("the projection lacks the recomputed rating %s", line)
		}
	}
	if got, n := strings.Count(want, "rating "), len(f.RatingsChanged); got != n {
		t.Fatalf("%d ratings, %d recomputed", got, n)
	}
	for _, h := range f.History {
		line := fmt.Sprintf("history %s %d %s %s %s %d %x %x %d %x %x %d\n", h.Player, h.Position, h.Game, h.Variant, h.HandID, h.Seat,
			math.Float64bits(h.Before.Mu), math.Float64bits(h.Before.Sigma), h.IdleDays, math.Float64bits(h.After.Mu), math.Float64bits(h.After.Sigma), h.SettledAt)
		if !strings.Contains(want, line) {
			t.Fatalf("the projection lacks the recomputed row %s", line)
		}
	}
	if got, n := strings.Count(want, "history "), len(f.History); got != n {
		t.Fatalf("%d history rows, %d recomputed", got, n)
	}
}

// TestRatingsSeatsBatched applies TestRatingsFoldSeats' table (seats
// handed to the bot and resumed, a server bot, an escaper, idle days) in
// batches of every size: a table's row, written only when an event changes
// it and read back by the next batch, carries who held each seat across
// batch ends, and the histories are those recomputed from the log.
func TestRatingsSeatsBatched(t *testing.T) {
	ctx := context.Background()
	l, hand := projectionstest.SeatsTable()
	const s = projectionstest.SeatsStream
	l.Add(s, time.Minute, table.SeatDelegated{Seat: 1, By: "clock"})
	l.Add(s, time.Minute, table.SeatDelegated{Seat: 1, By: "clock"}) // changes nothing
	l.Add(s, time.Minute, table.PlayerSeated{Seat: 1, PlayerID: "ben", Name: "Ben"})
	hand(4, []int{1, 1, -2})
	l.Add(s, 3*24*time.Hour, table.SeatDelegated{Seat: 0, By: "player"})
	hand(5, []int{-2, 1, 1}, table.SeatResumed{Seat: 0}, table.PlayerEscaped{Seat: 1, PlayerID: "ben", Hand: 5})
	l.Add(s, time.Minute, table.PlayerSeated{Seat: 1, PlayerID: "cat", Name: "Cat"})
	hand(6, []int{1, -2, 1}, table.PlayerLeft{Seat: 2})
	rater := projectionstest.Rater()
	f, err := projections.RecomputeRatings(ctx, l, rater)
	if err != nil {
		t.Fatal(err)
	}
	for size := 1; size <= len(l.Events); size++ {
		d, err := Open(ctx, filepath.Join(t.TempDir(), fmt.Sprintf("p%d.db", size)), Options{Now: l.Now, Rater: rater})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(l.Events); i += size {
			if _, err := d.ApplyBatch(ctx, projections.Ratings, l.Events[i:min(i+size, len(l.Events))]); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range []string{"ann", "ben", "cat", "bot-T1-2"} {
			got, err := d.PlayerRatings(ctx, p, true, "", 100)
			if err != nil {
				t.Fatal(err)
			}
			want := f.PlayerHistory(p)
			if len(got.History) != len(want) {
				t.Fatalf("batches of %d: %s has %d rated hands, recomputed %d", size, p, len(got.History), len(want))
			}
			for i := range want {
				if got.History[i] != want[i] {
					t.Fatalf("batches of %d: %s's hand %d\n%+v\nrecomputed\n%+v", size, p, i, got.History[i], want[i])
				}
			}
		}
		d.Close()
	}
	if n := len(f.PlayerHistory("ben")); n != 4 {
		t.Fatalf("ben rated at %d hands, want 4 (1, 3, 4 and 5, which he escaped)", n)
	}
}
