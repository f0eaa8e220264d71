package app

import (
	"paiju/api"
	"paiju/audit"
	"paiju/eventstore"
	"paiju/eventstore/postgres"
	"paiju/eventstore/sqlite"
	"paiju/natsbus"
	"paiju/projections"
	ppostgres "paiju/projections/postgres"
	psqlite "paiju/projections/sqlite"
	"paiju/service"
)

// Each adapter satisfies the interfaces its consumers declare. The proofs
// live here, where the adapters are wired, because no adapter may import
// another (deps_test.go).
var (
	_ api.Projections    = psqlite.Reader{}
	_ api.TableDirectory = psqlite.Reader{}
	_ readModel          = psqlite.Reader{}
	_ readModel          = ppostgres.Reader{}
	_ projectionStore    = (*psqlite.DB)(nil)
	_ projectionStore    = (*ppostgres.DB)(nil)
	_ service.OpenSeats  = openSeats{}
	_ api.Live           = natsbus.Live{}
	_ api.Revocations    = natsbus.Revocations{}
	_ api.Exporter       = audit.Exporter{}
	_ api.Players        = playerStore{}
	_ natsbus.Projector  = projections.Feed{}
	_ api.Rooms          = roomStore{}

	// Both event stores serve every command (store.go); each consumer
	// takes the store's contract it uses.
	_ logStore            = (*sqlite.Store)(nil)
	_ logStore            = (*postgres.Store)(nil)
	_ service.Store       = eventstore.Log(nil)
	_ natsbus.Source      = eventstore.Log(nil)
	_ natsbus.Checkpoints = eventstore.Checkpoints(nil)
	_ projections.Source  = eventstore.Log(nil)
)

// The tournaments' standings are read from the projections too.
var (
	_ api.TournamentBoard = psqlite.Reader{}
	_ api.TournamentBoard = ppostgres.Reader{}
)
