package eventstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"paiju/eventstore"
)

// TestHashGolden pins the chain hash (hash.go, Hash): stored hashes must stay
// verifiable forever, so the encoding may never change. The values were
// computed independently of this code from the documented encoding.
func TestHashGolden(t *testing.T) {
	first := eventstore.Hash("", "table-1", 1, "TableOpened", []byte(`{}`))
	if want := "f8d36030e179449aec761a194779004c8d12e7f9e0b6355dd1e1fc3223cabc52"; first != want {
		t.Fatalf("Hash of the first event = %s, want %s", first, want)
	}
	second := eventstore.Hash(first, "table-1", 2, "PlayerSeated", []byte(`{"seat":0}`))
	if want := "8a4f10ffb4ea95854406327af4e983ec187a32fce27d55355009e14e9ecdb445"; second != want {
		t.Fatalf("Hash of the second event = %s, want %s", second, want)
	}
}

// logStore is a log held in a slice, to feed VerifyChain logs that a real
// store refuses to produce. Only ReadAll is used.
type logStore struct {
	eventstore.Log
	events []eventstore.Event
	err    error
}

func (l *logStore) ReadAll(_ context.Context, from int64, limit int) ([]eventstore.Event, error) {
	if l.err != nil {
		return nil, l.err
	}
	var out []eventstore.Event
	for _, e := range l.events {
		if e.Position > from && len(out) < limit {
			out = append(out, e)
		}
	}
	return out, nil
}

type spec struct {
	stream  string
	version int
}

// chain builds a correctly hashed log from specs, positions from 1.
func chain(specs ...spec) []eventstore.Event {
	events := make([]eventstore.Event, len(specs))
	prev := ""
	for i, s := range specs {
		e := eventstore.Event{Position: int64(i + 1), Stream: s.stream, Version: s.version, Type: "E", Data: []byte(fmt.Sprintf(`{"i":%d}`, i)), PrevHash: prev}
		e.Hash = eventstore.Hash(prev, e.Stream, e.Version, e.Type, e.Data)
		prev = e.Hash
		events[i] = e
	}
	return events
}

// rechain recomputes links and hashes, as a forger would.
func rechain(events []eventstore.Event) []eventstore.Event {
	prev := ""
	for i := range events {
		events[i].PrevHash = prev
		events[i].Hash = eventstore.Hash(prev, events[i].Stream, events[i].Version, events[i].Type, events[i].Data)
		prev = events[i].Hash
	}
	return events
}

func TestVerifyChain(t *testing.T) {
	good := func() []eventstore.Event {
		return chain(spec{"a", 1}, spec{"b", 1}, spec{"a", 2}, spec{"a", 3}, spec{"b", 2})
	}
	long := make([]spec, 2500) // crosses VerifyChain's pages
	for i := range long {
		long[i] = spec{fmt.Sprintf("s%d", i%3), i/3 + 1}
	}
	tests := []struct {
		name     string
		events   []eventstore.Event
		headPos  int64
		headHash func([]eventstore.Event) string
		want     int64 // position of the *ChainError, 0 for none
	}{
		{"valid log", good(), 0, nil, 0},
		{"valid log, head at tail", good(), 5, func(e []eventstore.Event) string { return e[4].Hash }, 0},
		{"valid log over several pages", chain(long...), 2500, func(e []eventstore.Event) string { return e[2499].Hash }, 0},
		{"first event links to something", func() []eventstore.Event {
			e := good()
			e[0].PrevHash = e[1].Hash
			return e
		}(), 0, nil, 1},
		{"log starts at position 2", good()[1:], 0, nil, 1},
		{"position repeated", func() []eventstore.Event {
			e := good()
			e[3].Position = 3
			return e
		}(), 0, nil, 4},
		{"stream skips a version, rehashed", rechain(func() []eventstore.Event {
			e := good()
			e[2].Version = 3
			e[3].Version = 4
			return e
		}()), 0, nil, 3},
		{"stream starts at version 2, rehashed", rechain(func() []eventstore.Event {
			e := good()
			e[1].Version = 2
			return e
		}()), 0, nil, 2},
		{"version stored twice, rehashed", rechain(func() []eventstore.Event {
			e := good()
			e[3].Version = 2
			return e
		}()), 0, nil, 4},
		{"hash stored wrong, links follow it", func() []eventstore.Event {
			e := good()
			e[2].Hash = e[1].Hash
			e[3].PrevHash = e[1].Hash
			return e
		}(), 0, nil, 3},
		{"head hash differs", good(), 3, func(e []eventstore.Event) string { return e[2].PrevHash }, 3},
		{"head beyond the log", good(), 8, func(e []eventstore.Event) string { return "x" }, 6},
		{"empty log with a head", nil, 1, func([]eventstore.Event) string { return "x" }, 1},
	}
	for _, tt := range tests {
		hash := ""
		if tt.headHash != nil {
			hash = tt.headHash(tt.events)
		}
		err := eventstore.VerifyChain(t.Context(), &logStore{events: tt.events}, tt.headPos, hash)
		var ce *eventstore.ChainError
		switch {
		case tt.want == 0 && err != nil:
			t.Errorf("%s: VerifyChain: %v, want nil", tt.name, err)
		case tt.want != 0 && (!errors.As(err, &ce) || ce.Position != tt.want || !errors.Is(err, eventstore.ErrChainBroken)):
			t.Errorf("%s: VerifyChain: %v, want a *ChainError at position %d (verify.go, VerifyChain)", tt.name, err, tt.want)
		}
	}

	readErr := errors.New("disk gone")
	err := eventstore.VerifyChain(t.Context(), &logStore{err: readErr}, 0, "")
	if !errors.Is(err, readErr) || errors.Is(err, eventstore.ErrChainBroken) {
		t.Errorf("VerifyChain on a failing read: %v, want the read error, not a chain error", err)
	}
}
