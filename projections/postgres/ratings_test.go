package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"paiju/domain/table"
	"paiju/eventstore"
	"paiju/internal/pgtest"
	"paiju/projections"
	"paiju/projections/projectionstest"
	psqlite "paiju/projections/sqlite"
)

// bits prints a history with its floats as their bits.
func bits(h []projections.RatingHistoryRow) string {
	s := ""
	for _, r := range h {
		s += fmt.Sprintf("%s %d %d %x %x %x %x %d\n", r.HandID, r.Seat, r.Position,
			math.Float64bits(r.Before.Rating), math.Float64bits(r.Before.Deviation),
			math.Float64bits(r.After.Rating), math.Float64bits(r.After.Deviation), r.IdleDays)
	}
	return s
}

type ratingReader interface {
	PlayerRatings(ctx context.Context, playerID string, history bool, cursor string, limit int) (projections.PlayerRatings, error)
	RatingBoard(ctx context.Context, q projections.RatingQuery) (projections.RatingBoard, error)
}

func historyOf(t *testing.T, db ratingReader, player string) []projections.RatingHistoryRow {
	t.Helper()
	var all []projections.RatingHistoryRow
	for cursor := ""; ; {
		p, err := db.PlayerRatings(context.Background(), player, true, cursor, 7)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, p.History...)
		if cursor = p.Next; cursor == "" {
			return all
		}
	}
}

// TestRatingsSameBitsAsSQLite: the ratings projection of a random log of
// five weeks (idle days, bots, escapes, re-deals), applied to PostgreSQL in
// pages and to SQLite an event at a time, holds the same ratings and
// history in both to the last bit, and both are what the log recomputed in
// memory from position 0 gives; the rating boards answer alike.
func TestRatingsSameBitsAsSQLite(t *testing.T) {
	ctx := context.Background()
	l := projectionstest.RandomLog(38, 10, projectionstest.Events(1500))
	rater := projectionstest.Rater()
	url := pgtest.NewDatabase(t)
	pg, err := Open(ctx, url, Options{Location: shanghai(t), Now: l.Now, Rater: rater})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close() })
	lite, err := psqlite.Open(ctx, filepath.Join(t.TempDir(), "projections.db"), psqlite.Options{Location: shanghai(t), Now: l.Now, Rater: rater})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lite.Close() })
	if err := projections.CatchUp(ctx, pg, projections.Ratings, l); err != nil {
		t.Fatal(err)
	}
	for _, ev := range l.Events {
		if _, err := lite.ApplyBatch(ctx, projections.Ratings, []eventstore.Event{ev}); err != nil {
			t.Fatal(err)
		}
	}
	f, err := projections.RecomputeRatings(ctx, l, rater)
	if err != nil {
		t.Fatal(err)
	}
	players, games := map[string]bool{}, map[string]bool{} // players: seated as a human once
	idle, rated := 0, 0
	for _, ev := range l.Events {
		switch ev.Type {
		case "PlayerSeated":
			var p table.PlayerSeated
			if err := json.Unmarshal(ev.Data, &p); err != nil {
				t.Fatal(err)
			}
			// A random log seats one id as a bot at a table and as a
			// player at another: only an id never seated but as a bot
			// must have no rating.
			players[p.PlayerID] = players[p.PlayerID] || !p.Bot
		case "TableOpened":
			var o table.TableOpened
			if err := json.Unmarshal(ev.Data, &o); err != nil {
				t.Fatal(err)
			}
			games[o.Game] = true
		}
	}
	for _, p := range slices.Sorted(maps.Keys(players)) {
		want := f.PlayerHistory(p)
		got, lt := historyOf(t, pg, p), historyOf(t, lite, p)
		if bits(got) != bits(want) || bits(lt) != bits(want) {
			t.Fatalf("%s: PostgreSQL\n%s\nSQLite\n%s\nrecomputed from the log\n%s", p, bits(got), bits(lt), bits(want))
		}
		if !players[p] && len(want) > 0 {
			t.Fatalf("bot %s has a rating history", p)
		}
		rated += len(want)
		for _, h := range want {
			idle += h.IdleDays
		}
	}
	// About one rated hand in fifteen events: 100 in the full log, 20 in
	// the fifth of it that -short plays.
	if rated < len(l.Events)/15 || idle == 0 {
		t.Fatalf("%d rated hands, %d idle days in all: the log rates too little to compare", rated, idle)
	}
	for g := range games {
		a, err := pg.RatingBoard(ctx, projections.RatingQuery{Game: g, Limit: 200})
		if err != nil {
			t.Fatal(err)
		}
		b, err := lite.RatingBoard(ctx, projections.RatingQuery{Game: g, Limit: 200})
		if err != nil {
			t.Fatal(err)
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("%s board: PostgreSQL %s, SQLite %s", g, ja, jb)
		}
		for _, r := range a.Rows {
			if !players[r.PlayerID] {
				t.Fatalf("bot %s on the %s rating board", r.PlayerID, g)
			}
		}
	}
}
