// Package rowscan reads the rows of the read queries both projection
// stores answer alike (the directory's tables and seats, settled hands,
// leaderboard rows, tournaments) from either driver: database/sql's rows
// and pgx's both have the methods Row and Rows name. Both stores keep
// times as Unix nanoseconds. The queries stay the stores'; they select the
// columns named here, in this order.
package rowscan

import (
	"encoding/json"
	"time"

	"paiju/projections"
)

// Row is the one row of a query.
type Row interface {
	Scan(dest ...any) error
}

// Rows are the rows of a query; the caller closes them.
type Rows interface {
	Row
	Next() bool
	Err() error
}

// utc is a time kept as Unix nanoseconds.
func utc(nanos int64) time.Time { return time.Unix(0, nanos).UTC() }

// Strings reads rows of one text column (nil for none).
func Strings(rows Rows) ([]string, error) {
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// TableColumns are the td_tables columns (of the table as t) a directory
// entry is read from, in the order Tables reads them.
const TableColumns = `t.table_id, t.game, t.variant, t.stake, t.options, t.rules_version, t.seats, t.seated, t.status, t.hands, t.created_at, t.updated_at, t.opened_position, t.spectators`

// Table is a directory entry, without its seats yet, and the position its
// lists are ordered by.
type Table struct {
	projections.TableEntry
	Opened int64
}

// Tables reads rows of TableColumns (nil for none).
func Tables(rows Rows) ([]Table, error) {
	var out []Table
	for rows.Next() {
		var t Table
		var opts string
		var seated int
		var created, updated int64
		if err := rows.Scan(&t.ID, &t.Game, &t.Variant, &t.Stake, &opts, &t.RulesVersion, &t.Seats, &seated, &t.Status, &t.HandsPlayed, &created, &updated, &t.Opened, &t.Spectators); err != nil {
			return nil, err
		}
		t.Options = json.RawMessage(opts)
		t.FreeSeats = max(t.Seats-seated, 0)
		t.Watchers = true
		t.CreatedAt, t.UpdatedAt = utc(created), utc(updated)
		t.Players = []projections.TableSeat{}
		out = append(out, t)
	}
	return out, rows.Err()
}

// SeatColumns are the td_seats columns Seats reads, in order.
const SeatColumns = `table_id, seat, player_id, name, bot`

// Seats reads rows of SeatColumns, the seats of the tables ts and of no
// other, into ts, and returns ts's entries with their seats.
func Seats(rows Rows, ts []Table) ([]projections.TableEntry, error) {
	idx := make(map[string]int, len(ts))
	for i, t := range ts {
		idx[t.ID] = i
	}
	for rows.Next() {
		var tid string
		var s projections.TableSeat
		if err := rows.Scan(&tid, &s.Seat, &s.PlayerID, &s.Name, &s.Bot); err != nil {
			return nil, err
		}
		ts[idx[tid]].Players = append(ts[idx[tid]].Players, s)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]projections.TableEntry, len(ts))
	for i, t := range ts {
		out[i] = t.TableEntry
	}
	return out, nil
}

// Summaries reads rows of settled hands' hand_id, table_id, hand, game,
// variant, deltas, settled_at and settled_position, each followed, withSeat,
// by the player's seat and delta.
func Summaries(rows Rows, withSeat bool) (projections.HandPage, error) {
	p := projections.HandPage{Hands: []projections.HandSummary{}}
	for rows.Next() {
		var s projections.HandSummary
		var deltas string
		var at int64
		dest := []any{&s.HandID, &s.TableID, &s.Hand, &s.Game, &s.Variant, &deltas, &at, &s.SettledPosition}
		var seat, delta int
		if withSeat {
			dest = append(dest, &seat, &delta)
		}
		if err := rows.Scan(dest...); err != nil {
			return projections.HandPage{}, err
		}
		if err := json.Unmarshal([]byte(deltas), &s.Deltas); err != nil {
			return projections.HandPage{}, err
		}
		s.SettledAt = utc(at)
		if withSeat {
			s.Seat, s.Delta = &seat, &delta
		}
		p.Hands = append(p.Hands, s)
	}
	return p, rows.Err()
}

// LeaderboardRows reads rows of player id, name, score, hands and wins,
// unranked (nil for none).
func LeaderboardRows(rows Rows) ([]projections.Row, error) {
	var all []projections.Row
	for rows.Next() {
		var r projections.Row
		if err := rows.Scan(&r.PlayerID, &r.Name, &r.Score, &r.Hands, &r.Wins); err != nil {
			return nil, err
		}
		all = append(all, r)
	}
	return all, rows.Err()
}

// GameStats reads rows of game, score, hands and wins, each with its
// title (an empty slice, not nil, for none).
func GameStats(rows Rows) ([]projections.GameStats, error) {
	out := []projections.GameStats{}
	for rows.Next() {
		var g projections.GameStats
		if err := rows.Scan(&g.Game, &g.Score, &g.Hands, &g.Wins); err != nil {
			return nil, err
		}
		g.Title = projections.Title(g.Score)
		out = append(out, g)
	}
	return out, rows.Err()
}

// TournamentColumns are the tn_tournaments columns, in the order
// Tournament reads them.
const TournamentColumns = `tournament_id, game, variant, format, players, registered, hands_per_table, stake, status, round, winner, opened_position, created_at, updated_at`

// Tournament reads a row of TournamentColumns.
func Tournament(row Row) (projections.TournamentEntry, error) {
	var t projections.TournamentEntry
	var created, updated int64
	// A NULL winner is a nil *string with either driver.
	err := row.Scan(&t.ID, &t.Game, &t.Variant, &t.Format, &t.Players, &t.Registered, &t.HandsPerTable, &t.Stake,
		&t.Status, &t.Round, &t.Winner, &t.OpenedPosition, &created, &updated)
	if err != nil {
		return projections.TournamentEntry{}, err
	}
	t.CreatedAt, t.UpdatedAt = utc(created), utc(updated)
	return t, nil
}

// Tournaments reads rows of TournamentColumns (an empty slice, not nil,
// for none).
func Tournaments(rows Rows) ([]projections.TournamentEntry, error) {
	out := []projections.TournamentEntry{}
	for rows.Next() {
		t, err := Tournament(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// TournamentPlayerColumns are the tn_players columns, but the tournament's
// id, in the order TournamentPlayer reads them.
const TournamentPlayerColumns = `player_id, name, seq, round, table_id, table_done, points, hands_lost, place, eliminated_round, matchpoints, score_rank`

// TournamentPlayer reads a row of TournamentPlayerColumns followed by the
// columns extra scans into.
func TournamentPlayer(row Row, extra ...any) (projections.TournamentPlayer, error) {
	var p projections.TournamentPlayer
	dest := append([]any{&p.PlayerID, &p.Name, &p.Seq, &p.Round, &p.TableID, &p.TableDone, &p.Points, &p.HandsLost, &p.Place,
		&p.EliminatedRound, &p.Matchpoints, &p.ScoreRank}, extra...)
	if err := row.Scan(dest...); err != nil {
		return projections.TournamentPlayer{}, err
	}
	return p, nil
}

// TournamentPlayers reads rows of TournamentPlayerColumns (nil for none).
func TournamentPlayers(rows Rows) ([]projections.TournamentPlayer, error) {
	var out []projections.TournamentPlayer
	for rows.Next() {
		p, err := TournamentPlayer(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// RatedTables reads the ratings' table states: rows of (stream, state).
func RatedTables(rows Rows, n int) (map[string]*projections.RatedTable, error) {
	out := make(map[string]*projections.RatedTable, n)
	for rows.Next() {
		var stream, state string
		if err := rows.Scan(&stream, &state); err != nil {
			return nil, err
		}
		t, err := projections.DecodeRatedTable(state)
		if err != nil {
			return nil, err
		}
		out[stream] = t
	}
	return out, rows.Err()
}
