package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"paiju/eventstore"
	"paiju/projections"
	"paiju/projections/internal/rowscan"
)

// applyTournaments keeps the tournaments projection: it loads the
// tournament's rows, folds the event (projections.TournamentFold, shared
// with projections/postgres) and writes back the rows it changed.
func applyTournaments(ctx context.Context, tx *wtx, ev eventstore.Event) error {
	id, ok := projections.TournamentID(ev.Stream)
	if !ok {
		return nil
	}
	t, err := loadTournament(ctx, tx, id)
	if err != nil {
		return err
	}
	// Only the rows the event names are read: a table's result touches
	// three players of a field of hundreds.
	f := projections.NewTournamentFold(t, nil)
	f.Lookup = func(pid string) (*projections.TournamentPlayer, error) {
		ps, err := queryTournamentPlayers(ctx, tx, `WHERE tournament_id = ? AND player_id = ?`, id, pid)
		if err != nil || len(ps) == 0 {
			return nil, err
		}
		return &ps[0], nil
	}
	f.LoadAll = func() error {
		ps, err := loadTournamentPlayers(ctx, tx, id)
		for i := range ps {
			if f.Players[ps[i].PlayerID] == nil {
				f.Players[ps[i].PlayerID] = &ps[i]
			}
		}
		return err
	}
	if err := f.Apply(ev); err != nil {
		return err
	}
	return writeTournament(ctx, tx, f)
}

type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func loadTournament(ctx context.Context, tx *wtx, id string) (*projections.TournamentEntry, error) {
	t, err := rowscan.Tournament(tx.QueryRowContext(ctx, `SELECT `+rowscan.TournamentColumns+` FROM tn_tournaments WHERE tournament_id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load tournament %s: %w", id, err)
	}
	return &t, nil
}

func loadTournamentPlayers(ctx context.Context, q queryer, id string) ([]projections.TournamentPlayer, error) {
	return queryTournamentPlayers(ctx, q, `WHERE tournament_id = ? ORDER BY seq`, id)
}

// queryTournamentPlayers reads the player rows where (SQL after FROM)
// selects; args[0] is the tournament.
func queryTournamentPlayers(ctx context.Context, q queryer, where string, args ...any) ([]projections.TournamentPlayer, error) {
	id := args[0]
	rows, err := q.QueryContext(ctx, `SELECT `+rowscan.TournamentPlayerColumns+` FROM tn_players `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("load players of tournament %s: %w", id, err)
	}
	defer rows.Close()
	out, err := rowscan.TournamentPlayers(rows)
	if err != nil {
		return nil, fmt.Errorf("load players of tournament %s: %w", id, err)
	}
	return out, nil
}

func writeTournament(ctx context.Context, tx *wtx, f *projections.TournamentFold) error {
	t := f.T
	if t == nil {
		return nil
	}
	if f.Reset {
		if _, err := tx.ExecContext(ctx, `DELETE FROM tn_players WHERE tournament_id = ?`, t.ID); err != nil {
			return err
		}
	}
	if f.TChanged {
		var winner any
		if t.Winner != nil {
			winner = *t.Winner
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO tn_tournaments (`+rowscan.TournamentColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			t.ID, t.Game, t.Variant, t.Format, t.Players, t.Registered, t.HandsPerTable, t.Stake, t.Status, t.Round, winner,
			t.OpenedPosition, t.CreatedAt.UnixNano(), t.UpdatedAt.UnixNano()); err != nil {
			return err
		}
	}
	for id := range f.Removed {
		if _, err := tx.ExecContext(ctx, `DELETE FROM tn_players WHERE tournament_id = ? AND player_id = ?`, t.ID, id); err != nil {
			return err
		}
	}
	for id := range f.Changed {
		p := f.Players[id]
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO tn_players
			(tournament_id, player_id, name, seq, round, table_id, table_done, points, hands_lost, place, eliminated_round, matchpoints, score_rank)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			t.ID, p.PlayerID, p.Name, p.Seq, p.Round, p.TableID, p.TableDone, p.Points, p.HandsLost, p.Place, p.EliminatedRound, p.Matchpoints, p.ScoreRank); err != nil {
			return err
		}
	}
	return nil
}

// TournamentStandings returns a tournament with its standings, or an error
// matching ErrNotFound.
func (d *DB) TournamentStandings(ctx context.Context, id string) (projections.TournamentStandings, error) {
	// No transaction: this file's transactions take the write lock when
	// they begin. The checkpoint is read first, so the rows read after it
	// hold at least what it says was applied.
	tx := d.db
	var pos int64
	err := tx.QueryRowContext(ctx, `SELECT position FROM projection_checkpoints WHERE name = ?`, projections.Tournaments).Scan(&pos)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return projections.TournamentStandings{}, err
	}
	t, err := rowscan.Tournament(tx.QueryRowContext(ctx, `SELECT `+rowscan.TournamentColumns+` FROM tn_tournaments WHERE tournament_id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return projections.TournamentStandings{}, fmt.Errorf("%w: tournament %s", projections.ErrNotFound, id)
	}
	if err != nil {
		return projections.TournamentStandings{}, fmt.Errorf("tournament %s: %w", id, err)
	}
	players, err := loadTournamentPlayers(ctx, tx, id)
	if err != nil {
		return projections.TournamentStandings{}, err
	}
	return projections.TournamentStandings{Tournament: t, Standings: projections.StandingsOf(t, players), Position: pos}, nil
}

// TournamentList lists tournaments, newest first, of q.Status if given.
func (d *DB) TournamentList(ctx context.Context, q projections.TournamentQuery) (projections.TournamentPage, error) {
	if err := projections.CheckTournamentQuery(q); err != nil {
		return projections.TournamentPage{}, err
	}
	limit, err := projections.ClampLimit(q.Limit)
	if err != nil {
		return projections.TournamentPage{}, err
	}
	after, err := projections.DecodeCursor(q.Cursor)
	if err != nil {
		return projections.TournamentPage{}, err
	}
	if after == 0 {
		after = 1 << 62
	}
	query := `SELECT ` + rowscan.TournamentColumns + ` FROM tn_tournaments WHERE opened_position < ?`
	args := []any{after}
	if q.Status != "" {
		query += ` AND status = ?`
		args = append(args, q.Status)
	}
	query += ` ORDER BY opened_position DESC LIMIT ?`
	args = append(args, limit+1)
	rows, err := d.db.QueryContext(ctx, query, args...)
	if err != nil {
		return projections.TournamentPage{}, fmt.Errorf("tournaments: %w", err)
	}
	defer rows.Close()
	ts, err := rowscan.Tournaments(rows)
	if err != nil {
		return projections.TournamentPage{}, fmt.Errorf("tournaments: %w", err)
	}
	p := projections.TournamentPage{Tournaments: ts}
	if len(p.Tournaments) > limit {
		p.Tournaments = p.Tournaments[:limit]
		p.Next = projections.EncodeCursor(p.Tournaments[limit-1].OpenedPosition)
	}
	return p, nil
}
