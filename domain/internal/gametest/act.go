package gametest

import (
	"encoding/json"
	"testing"

	"paiju/domain/table"
	"paiju/internal/race"
)

// actSeeds seeds the deals that Act and MustAct start: a fixed stream, so
// that a test acting through them deals the same cards every run.
const actSeeds = 99

// ApplyAll folds evs into st, in order.
func ApplyAll(st *table.State, evs []table.Payload) {
	for _, e := range evs {
		table.Apply(st, e)
	}
}

// Act decides a for seat and, when the rules accept it, applies its events.
// The deals it starts come from the seed stream 99.
func Act(st *table.State, seat int, a table.Action) ([]table.Payload, error) {
	evs, err := table.Act(st, seat, a, &SeedSeq{ID: actSeeds})
	if err == nil {
		ApplyAll(st, evs)
	}
	return evs, err
}

// MustAct is Act for an action the rules must accept: it fails the test
// otherwise.
func MustAct(t testing.TB, st *table.State, seat int, a table.Action) []table.Payload {
	t.Helper()
	evs, err := Act(st, seat, a)
	if err != nil {
		t.Fatalf("seat %d %s: %v", seat, DescribeAction(a), err)
	}
	return evs
}

// SettledOf returns the HandSettled among evs and its result decoded as R
// (the game's Result); it fails the test when evs settle no hand.
func SettledOf[R any](t testing.TB, evs []table.Payload) (table.HandSettled, R) {
	t.Helper()
	var res R
	for _, e := range evs {
		if hs, ok := e.(table.HandSettled); ok {
			if err := json.Unmarshal(hs.Result, &res); err != nil {
				t.Fatalf("result of hand %d: %v", hs.Hand, err)
			}
			return hs, res
		}
	}
	t.Fatalf("no HandSettled in %v", EventTypes(evs))
	return table.HandSettled{}, res
}

// Game returns the game state of st as the game's own state type S.
func Game[S any, P interface {
	*S
	table.GameState
}](st *table.State) *S {
	return (*S)(st.G.(P))
}

// SkipUnderRace skips a long, single-goroutine test (bot strength,
// thousands of random or timed-out hands, a property checked over many
// positions) under the race detector, which can find nothing in the rules
// packages (they start no goroutine and share no memory) and slows them
// tenfold: for a run of go test -race by hand. make test's race pass
// leaves the rules packages out, and its pass without -race runs these in
// full.
func SkipUnderRace(t testing.TB) {
	t.Helper()
	if race.Enabled {
		t.Skip("sequential and statistical: runs in full in make test's pass without -race")
	}
}
