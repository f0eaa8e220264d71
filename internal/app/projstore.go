package app

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"paiju/api"
	"paiju/games"
	"paiju/migrations/schema"
	"paiju/projections"
	ppostgres "paiju/projections/postgres"
	psqlite "paiju/projections/sqlite"
	"paiju/ratings"
	"paiju/service"
)

// projPath is the projections database: a file of its own next to the
// store's, because the store is the only writer of its file and a
// projection is rebuilt without touching the log.
func (c Common) ProjectionsPath() string { return filepath.Join(c.Data, "projections.db") }

// projectionStore is what the commands need of a projection store: the
// projections' Store (the feed, readiness), rebuilding from the log
// (replay), quick play's open tables, and the read side the API serves
// from. projections/sqlite and projections/postgres both are one
// (wiring.go).
type projectionStore interface {
	projections.Store
	Replay(ctx context.Context, name string, src projections.Source) error
	OpenTables(ctx context.Context, k projections.QuickKind, playerID string, limit int) ([]string, error)
	Close() error
}

// readModel is the read side of a projection store, its lag measured
// against a log: what the API reads hands, leaderboards, players, the
// lobby and the tournaments' standings from.
type readModel interface {
	api.Projections
	api.TableDirectory
	api.TournamentBoard
	api.Ratings
}

// openedProjections is the projection store --store selects, with its read
// side.
type openedProjections struct {
	projectionStore
	reader func(log projections.Source) readModel
	// Shared says that every node of a cluster reads and writes these
	// projections (PostgreSQL), rather than each its own (SQLite). Shared
	// projections need one worker per projection in a deployment to avoid
	// applying every event once per node (the feed's deployment-wide
	// lease); they stay right without it, because appliers of a
	// projection take turns on its checkpoint row. A node's own
	// projections need every event delivered to that node.
	Shared bool
}

// Reader is the read side the API serves, with lag measured against log.
func (p openedProjections) Reader(log projections.Source) readModel { return p.reader(log) }

// openProjections opens the projection store beside the event store
// --store names, with leaderboard periods bounded in the named time zone:
// the SQLite file in the data directory beside the SQLite store, or the
// PostgreSQL database of the PostgreSQL store, which every node of a
// cluster shares (Shared).
func openProjections(ctx context.Context, c Common, tz string) (openedProjections, error) {
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return openedProjections{}, fmt.Errorf("time zone %q: %w", tz, err)
	}
	kind, err := c.storeKind()
	if err != nil {
		return openedProjections{}, err
	}
	rater := Rater()
	if kind == storePostgres {
		db, err := ppostgres.Open(ctx, c.Store, ppostgres.Options{Location: loc, Rater: rater})
		if err != nil {
			return openedProjections{}, fmt.Errorf("open projections in %s: %w", schema.RedactURL(c.Store), err)
		}
		return openedProjections{db, func(log projections.Source) readModel { return ppostgres.Reader{DB: db, Log: log} }, true}, nil
	}
	db, err := psqlite.Open(ctx, c.ProjectionsPath(), psqlite.Options{Location: loc, Rater: rater})
	if err != nil {
		return openedProjections{}, fmt.Errorf("open projections: %w", err)
	}
	return openedProjections{db, func(log projections.Source) readModel { return psqlite.Reader{DB: db, Log: log} }, false}, nil
}

// Rater is how the ratings projection rates hands: the default model, and
// the contests of the games' rules (docs/AUDIT.md, Ratings). paiju verify
// rates with it too.
func Rater() projections.Rater {
	return projections.Rater{Model: ratings.Default(), Contests: projections.RegistryContests(games.All())}
}

// openSeats adapts the table directory to quick play.
type openSeats struct{ db projectionStore }

func (o openSeats) OpenTables(ctx context.Context, k service.TableKind, playerID string, limit int) ([]string, error) {
	return o.db.OpenTables(ctx, projections.QuickKind(k), playerID, limit)
}

// postgresProjectionsSchema is the PostgreSQL projections' schema for paiju
// migrate.
func postgresProjectionsSchema(c Common) database {
	return database{
		name: "projections",
		path: schema.RedactURL(c.Store),
		open: func(ctx context.Context) (*schema.Migrator, error) { return ppostgres.Migrator(ctx, c.Store) },
	}
}
