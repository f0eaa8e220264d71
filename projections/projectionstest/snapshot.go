package projectionstest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"paiju/domain/table"
	"paiju/projections"
)

// DB is what a projection store offers its users: the Store contract, the
// reads the API serves (hands, leaderboards, players, the directory), quick
// play's OpenTables and the wait behind ?min_position.
type DB interface {
	projections.Store
	Hand(ctx context.Context, handID string) (projections.Hand, error)
	TableHands(ctx context.Context, tableID, cursor string, limit int) (projections.HandPage, error)
	PlayerHands(ctx context.Context, playerID, cursor string, limit int) (projections.HandPage, error)
	Leaderboard(ctx context.Context, q projections.LeaderboardQuery) (projections.Leaderboard, error)
	Player(ctx context.Context, playerID string) (projections.PlayerStats, error)
	Tables(ctx context.Context, q projections.TableQuery) (projections.TablePage, error)
	PlayerTables(ctx context.Context, playerID string, statuses []string, cursor string, limit int) (projections.TablePage, error)
	OpenTables(ctx context.Context, k projections.QuickKind, playerID string, limit int) ([]string, error)
	WaitFor(ctx context.Context, pos int64, timeout time.Duration) error
	TournamentStandings(ctx context.Context, id string) (projections.TournamentStandings, error)
	TournamentList(ctx context.Context, q projections.TournamentQuery) (projections.TournamentPage, error)
}

// errName names the errors the read side may answer with; any other error
// fails the test.
func errName(t testing.TB, what string, err error) string {
	t.Helper()
	for _, e := range []error{projections.ErrNotFound, projections.ErrHandInProgress, projections.ErrBadCursor, projections.ErrBadQuery} {
		if errors.Is(err, e) {
			return "error: " + e.Error()
		}
	}
	t.Fatalf("%s: %v", what, err)
	return ""
}

// universe is what a log names: the keys the snapshot reads by.
type universe struct {
	tables, hands, players []string
	games                  map[string][]string // variants by game
	kinds                  []projections.QuickKind
}

func universeOf(t testing.TB, l *Log) universe {
	t.Helper()
	u := universe{games: map[string][]string{}}
	add := func(s *[]string, v string) {
		if !slices.Contains(*s, v) {
			*s = append(*s, v)
		}
	}
	for _, ev := range l.Events {
		tid, ok := projections.TableID(ev.Stream)
		if !ok {
			continue
		}
		switch ev.Type {
		case "TableOpened":
			var o table.TableOpened
			if err := json.Unmarshal(ev.Data, &o); err != nil {
				t.Fatal(err)
			}
			add(&u.tables, tid)
			vs := u.games[o.Game]
			add(&vs, o.Variant)
			u.games[o.Game] = vs
			opts := "{}"
			if len(o.Options) > 0 {
				var b bytes.Buffer
				if err := json.Compact(&b, o.Options); err != nil {
					t.Fatal(err)
				}
				opts = b.String()
			}
			clock := ""
			if o.Clock != nil {
				js, _ := json.Marshal(o.Clock)
				clock = string(js)
			}
			k := projections.QuickKind{Game: o.Game, Variant: o.Variant, Stake: o.Stake, Options: opts, Clock: clock, RulesVersion: o.RulesVersion, Spectators: projections.SpectatorsOf(o)}
			if !slices.Contains(u.kinds, k) {
				u.kinds = append(u.kinds, k)
			}
		case "PlayerSeated":
			var p table.PlayerSeated
			if err := json.Unmarshal(ev.Data, &p); err != nil {
				t.Fatal(err)
			}
			add(&u.players, p.PlayerID)
		case "HandDealt":
			var d table.HandDealt
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				t.Fatal(err)
			}
			add(&u.hands, projections.HandID(tid, d.Hand))
		}
	}
	u.hands = append(u.hands, "T01-999", "nope")
	u.players = append(u.players, "NOBODY")
	return u
}

// Snapshot reads everything the log's tables, hands and players can be
// read by (every page of every list, every leaderboard period and variant,
// quick play for every kind and player, the checkpoints) and returns the
// answers, one read a line: two stores fed the same log must give the same
// snapshot.
func Snapshot(t testing.TB, db DB, l *Log) string {
	t.Helper()
	ctx := context.Background()
	u := universeOf(t, l)
	var b strings.Builder
	line := func(what string, v any, err error) {
		t.Helper()
		if err != nil {
			fmt.Fprintf(&b, "%s → %s\n", what, errName(t, what, err))
			return
		}
		js, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s → %s\n", what, js)
	}
	for _, n := range projections.Names {
		cp, err := db.Checkpoint(ctx, n)
		line("checkpoint "+n, cp, err)
	}
	for _, h := range u.hands {
		v, err := db.Hand(ctx, h)
		line("hand "+h, v, err)
	}
	for _, tid := range u.tables {
		pages(t, "table hands "+tid, line, func(c string) (string, any, error) {
			p, err := db.TableHands(ctx, tid, c, 2)
			return p.Next, p, err
		})
	}
	for _, pid := range u.players {
		pages(t, "player hands "+pid, line, func(c string) (string, any, error) {
			p, err := db.PlayerHands(ctx, pid, c, 3)
			return p.Next, p, err
		})
		v, err := db.Player(ctx, pid)
		line("player "+pid, v, err)
	}
	games := make([]string, 0, len(u.games))
	for g := range u.games {
		games = append(games, g)
	}
	slices.Sort(games)
	for _, g := range games {
		for _, variant := range append([]string{""}, u.games[g]...) {
			for _, period := range []string{"", projections.PeriodDay, projections.PeriodWeek, projections.PeriodMonth} {
				q := projections.LeaderboardQuery{Game: g, Variant: variant, Period: period, Limit: 4}
				what := fmt.Sprintf("leaderboard %s/%s/%s", g, variant, period)
				pages(t, what, line, func(c string) (string, any, error) {
					q.Cursor = c
					p, err := db.Leaderboard(ctx, q)
					return p.Next, p, err
				})
				for _, pid := range u.players {
					q := q
					q.Around, q.Limit = pid, 3
					v, err := db.Leaderboard(ctx, q)
					line(what+" around "+pid, v, err)
				}
			}
		}
	}
	all := []string{projections.StatusOpen, projections.StatusRunning, projections.StatusClosed}
	statusSets := [][]string{nil, {projections.StatusOpen}, {projections.StatusRunning}, {projections.StatusClosed}, all}
	for _, ss := range statusSets {
		for _, g := range append([]string{""}, games...) {
			variants := []string{""}
			if g != "" {
				variants = append(variants, u.games[g]...)
			}
			for _, variant := range variants {
				q := projections.TableQuery{Game: g, Variant: variant, Statuses: ss, Limit: 3}
				pages(t, fmt.Sprintf("lobby %v %s/%s", ss, g, variant), line, func(c string) (string, any, error) {
					q.Cursor = c
					p, err := db.Tables(ctx, q)
					return p.Next, p, err
				})
			}
		}
		for _, pid := range u.players {
			pages(t, fmt.Sprintf("tables of %s %v", pid, ss), line, func(c string) (string, any, error) {
				p, err := db.PlayerTables(ctx, pid, ss, c, 2)
				return p.Next, p, err
			})
		}
	}
	for _, k := range u.kinds {
		for _, pid := range append(u.players, "NEWCOMER") {
			ids, err := db.OpenTables(ctx, k, pid, 10)
			line(fmt.Sprintf("quick %+v for %s", k, pid), ids, err)
		}
	}
	return b.String()
}

// pages reads every page of a list, at most 10,000.
func pages(t testing.TB, what string, line func(string, any, error), read func(cursor string) (next string, page any, err error)) {
	t.Helper()
	cursor := ""
	for n := 0; n < 10000; n++ {
		next, p, err := read(cursor)
		line(fmt.Sprintf("%s page %d", what, n), p, err)
		if err != nil || next == "" {
			return
		}
		cursor = next
	}
	t.Fatalf("%s: more than 10,000 pages", what)
}
