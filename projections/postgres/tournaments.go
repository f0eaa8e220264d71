package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"paiju/eventstore"
	"paiju/projections"
	"paiju/projections/internal/rowscan"
)

// ---- tournaments ----

// tnState is the tournaments projection's rows of a batch's tournaments,
// folded in memory (projections.TournamentFold, shared with
// projections/sqlite) and written by finishTournaments.
type tnState struct {
	folds map[string]*projections.TournamentFold
	order []string // tournament ids, first seen first
}

// loadTournaments reads the rows of the batch's tournaments.
func loadTournaments(b *pgx.Batch, tx *wtx, events []eventstore.Event) {
	s := &tnState{folds: map[string]*projections.TournamentFold{}}
	tx.tn = s
	var ids []string
	for _, st := range streams(events) {
		if id, ok := projections.TournamentID(st); ok {
			ids = append(ids, id)
			s.order = append(s.order, id)
			s.folds[id] = projections.NewTournamentFold(nil, nil)
		}
	}
	if len(ids) == 0 {
		return
	}
	queueRows(b, func(rows pgx.Rows) error {
		t, err := rowscan.Tournament(rows)
		if err != nil {
			return fmt.Errorf("load tournaments: %w", err)
		}
		s.folds[t.ID].T = &t
		return nil
	}, `SELECT `+rowscan.TournamentColumns+` FROM tn_tournaments WHERE tournament_id = ANY($1)`, ids)
	queueRows(b, func(rows pgx.Rows) error {
		var id string
		p, err := rowscan.TournamentPlayer(rows, &id)
		if err != nil {
			return fmt.Errorf("load tournament players: %w", err)
		}
		s.folds[id].Players[p.PlayerID] = &p
		return nil
	}, `SELECT `+rowscan.TournamentPlayerColumns+`, tournament_id FROM tn_players WHERE tournament_id = ANY($1)`, ids)
}

// applyTournaments folds a tournament stream's event into its rows.
func applyTournaments(_ context.Context, tx *wtx, ev eventstore.Event) error {
	id, ok := projections.TournamentID(ev.Stream)
	if !ok {
		return nil
	}
	f := tx.tn.folds[id]
	if f == nil {
		return fmt.Errorf("tournament %s was not loaded", id)
	}
	return f.Apply(ev)
}

// finishTournaments writes the rows the batch changed: a tournament opened
// in it loses any earlier player rows, then the tournaments and players
// changed are written, one statement each.
func finishTournaments(tx *wtx) {
	s := tx.tn
	var reset []string
	var ts []*projections.TournamentEntry
	var pt []string
	var ps []*projections.TournamentPlayer
	var rt, rp []string // the rows of players who withdrew
	for _, id := range s.order {
		f := s.folds[id]
		if f.T == nil {
			continue
		}
		if f.Reset {
			reset = append(reset, id)
		}
		if f.TChanged {
			ts = append(ts, f.T)
		}
		pids := make([]string, 0, len(f.Changed))
		for pid := range f.Changed {
			pids = append(pids, pid)
		}
		slices.Sort(pids)
		for _, pid := range pids {
			pt, ps = append(pt, id), append(ps, f.Players[pid])
		}
		for pid := range f.Removed {
			rt, rp = append(rt, id), append(rp, pid)
		}
	}
	if len(reset) > 0 {
		tx.exec(`DELETE FROM tn_players WHERE tournament_id = ANY($1)`, reset)
	}
	if len(rp) > 0 {
		tx.exec(`DELETE FROM tn_players WHERE (tournament_id, player_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`, rt, rp)
	}
	if len(ts) > 0 {
		var ids, games, variants, formats, statuses []string
		var players, registered, hands, stakes, rounds []int32
		var winners []*string
		var opened, created, updated []int64
		for _, t := range ts {
			ids, games, variants, formats, statuses = append(ids, t.ID), append(games, t.Game), append(variants, t.Variant), append(formats, t.Format), append(statuses, t.Status)
			players, registered, hands = append(players, int32(t.Players)), append(registered, int32(t.Registered)), append(hands, int32(t.HandsPerTable))
			stakes, rounds, winners = append(stakes, int32(t.Stake)), append(rounds, int32(t.Round)), append(winners, t.Winner)
			opened, created, updated = append(opened, t.OpenedPosition), append(created, t.CreatedAt.UnixNano()), append(updated, t.UpdatedAt.UnixNano())
		}
		tx.exec(`INSERT INTO tn_tournaments (`+rowscan.TournamentColumns+`)
			SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::int[], $9::text[], $10::int[], $11::text[], $12::bigint[], $13::bigint[], $14::bigint[])
			ON CONFLICT (tournament_id) DO UPDATE SET game = excluded.game, variant = excluded.variant, format = excluded.format,
				players = excluded.players, registered = excluded.registered, hands_per_table = excluded.hands_per_table, stake = excluded.stake,
				status = excluded.status, round = excluded.round, winner = excluded.winner, opened_position = excluded.opened_position,
				created_at = excluded.created_at, updated_at = excluded.updated_at`,
			ids, games, variants, formats, players, registered, hands, stakes, statuses, rounds, winners, opened, created, updated)
	}
	if len(ps) > 0 {
		var pids, names, tables []string
		var seqs, rounds, points, lost, places, elim, ranks []int32
		var done []bool
		var mps []float64
		for _, p := range ps {
			pids, names, tables = append(pids, p.PlayerID), append(names, p.Name), append(tables, p.TableID)
			seqs, rounds, points, lost = append(seqs, int32(p.Seq)), append(rounds, int32(p.Round)), append(points, int32(p.Points)), append(lost, int32(p.HandsLost))
			places, elim, ranks = append(places, int32(p.Place)), append(elim, int32(p.EliminatedRound)), append(ranks, int32(p.ScoreRank))
			done, mps = append(done, p.TableDone), append(mps, p.Matchpoints)
		}
		tx.exec(`INSERT INTO tn_players (tournament_id, `+rowscan.TournamentPlayerColumns+`)
			SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::bool[], $8::int[], $9::int[], $10::int[], $11::int[], $12::float8[], $13::int[])
			ON CONFLICT (tournament_id, player_id) DO UPDATE SET name = excluded.name, seq = excluded.seq, round = excluded.round,
				table_id = excluded.table_id, table_done = excluded.table_done, points = excluded.points, hands_lost = excluded.hands_lost,
				place = excluded.place, eliminated_round = excluded.eliminated_round, matchpoints = excluded.matchpoints, score_rank = excluded.score_rank`,
			pt, pids, names, seqs, rounds, tables, done, points, lost, places, elim, mps, ranks)
	}
}

// TournamentStandings returns a tournament with its standings, or an error
// matching ErrNotFound.
func (d *DB) TournamentStandings(ctx context.Context, id string) (projections.TournamentStandings, error) {
	// One snapshot for the checkpoint, the tournament and its players.
	tx, err := d.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return projections.TournamentStandings{}, fmt.Errorf("tournament %s: %w", id, err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	var pos int64
	err = tx.QueryRow(ctx, `SELECT position FROM projection_checkpoints WHERE name = $1`, projections.Tournaments).Scan(&pos)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return projections.TournamentStandings{}, fmt.Errorf("tournament %s: checkpoint: %w", id, err)
	}
	t, err := rowscan.Tournament(tx.QueryRow(ctx, `SELECT `+rowscan.TournamentColumns+` FROM tn_tournaments WHERE tournament_id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return projections.TournamentStandings{}, fmt.Errorf("%w: tournament %s", projections.ErrNotFound, id)
	}
	if err != nil {
		return projections.TournamentStandings{}, fmt.Errorf("tournament %s: %w", id, err)
	}
	rows, err := tx.Query(ctx, `SELECT `+rowscan.TournamentPlayerColumns+` FROM tn_players WHERE tournament_id = $1 ORDER BY seq`, id)
	if err != nil {
		return projections.TournamentStandings{}, fmt.Errorf("tournament %s: players: %w", id, err)
	}
	players, err := rowscan.TournamentPlayers(rows)
	rows.Close()
	if err != nil {
		return projections.TournamentStandings{}, fmt.Errorf("tournament %s: players: %w", id, err)
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
	rows, err := d.pool.Query(ctx, `SELECT `+rowscan.TournamentColumns+` FROM tn_tournaments
		WHERE opened_position < $1 AND ($2 = '' OR status = $2) ORDER BY opened_position DESC LIMIT $3`, after, q.Status, limit+1)
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
