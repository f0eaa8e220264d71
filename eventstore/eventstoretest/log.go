package eventstoretest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"paiju/eventstore"
)

func testDataKeptByteForByte(t *testing.T, s eventstore.Store) {
	datas := []string{
		"{\"s\":\"\\u0000 牌局\"}",
		" [1, 2.50, 1e3] ",
		"{\"b\":1,\"a\":{\"x\":[]},\"b\":2}", // a repeated key, kept as written
		"\"\"",
		"null",
	}
	for i, d := range datas {
		mustAppend(t, s, "table-a", i, ev("E", d))
	}
	for i, e := range mustLoad(t, s, "table-a", 0) {
		if string(e.Data) != datas[i] {
			t.Errorf("version %d data = %q, want %q (eventstore.go, Event.Data: exactly as appended)", e.Version, e.Data, datas[i])
		}
	}
	mustVerify(t, s)
}

func testAppendRejectsInvalidInput(t *testing.T, s eventstore.Store) {
	tests := []struct {
		name     string
		stream   string
		expected int
		events   []eventstore.NewEvent
	}{
		{"empty stream id", "", 0, []eventstore.NewEvent{ev("E", `{}`)}},
		{"negative expected version", "table-a", -1, []eventstore.NewEvent{ev("E", `{}`)}},
		{"no events", "table-a", 0, nil},
		{"empty type", "table-a", 0, []eventstore.NewEvent{ev("", `{}`)}},
		{"data not JSON", "table-a", 0, []eventstore.NewEvent{ev("E", `{"a":`)}},
		{"nil data", "table-a", 0, []eventstore.NewEvent{{Type: "E"}}},
	}
	for _, tt := range tests {
		if _, err := s.Append(t.Context(), tt.stream, tt.expected, tt.events); err == nil || errors.Is(err, eventstore.ErrConflict) {
			t.Errorf("%s: Append: %v, want a validation error", tt.name, err)
		}
	}
	if pos, _, _ := s.Head(t.Context()); pos != 0 {
		t.Errorf("invalid appends stored events: head at %d", pos)
	}
	if _, err := s.ReadAll(t.Context(), 0, 0); err == nil {
		t.Error("ReadAll with limit 0: nil error, want one")
	}
}

func testAppendIdempotent(t *testing.T, s eventstore.Store) {
	ctx := t.Context()
	key := eventstore.IdempotencyKey{Scope: "player-1", Key: "k-1", RequestHash: "req-a"}

	mustAppend(t, s, "table-a", 0, ev("TableOpened", `{}`))
	res, err := s.AppendIdempotent(ctx, "table-a", 1, []eventstore.NewEvent{ev("Bid", `{"n":1}`), ev("Bid", `{"n":2}`)}, key)
	if err != nil || res.Version != 3 {
		t.Fatalf("AppendIdempotent: %+v %v, want version 3", res, err)
	}
	rec, found, err := s.LookupIdempotency(ctx, "player-1", "k-1")
	if err != nil || !found {
		t.Fatalf("LookupIdempotency after the append: %+v %v %v, want found", rec, found, err)
	}
	if rec.Stream != "table-a" || rec.FirstVersion != 2 || rec.LastVersion != 3 || rec.RequestHash != "req-a" || rec.CreatedAt.IsZero() {
		t.Errorf("idempotency record = %+v, want table-a versions 2..3 with request hash req-a", rec)
	}

	// A retry (at the old expected version) and a reuse of the key for another
	// request both store nothing and report the first use.
	for _, retry := range []struct {
		stream   string
		expected int
		hash     string
	}{
		{"table-a", 1, "req-a"},
		{"table-a", 3, "req-b"},
		{"table-z", 0, "req-c"},
	} {
		k := key
		k.RequestHash = retry.hash
		_, err := s.AppendIdempotent(ctx, retry.stream, retry.expected, []eventstore.NewEvent{ev("Bid", `{"n":9}`)}, k)
		var de *eventstore.DuplicateKeyError
		if !errors.As(err, &de) || !errors.Is(err, eventstore.ErrDuplicateKey) {
			t.Fatalf("AppendIdempotent with a used key on %s: %v, want *DuplicateKeyError (idempotency.go)", retry.stream, err)
		}
		if de.Record != rec {
			t.Errorf("DuplicateKeyError.Record = %+v, want the first use %+v", de.Record, rec)
		}
	}
	if pos, _, _ := s.Head(ctx); pos != 3 {
		t.Errorf("head at %d after duplicate keys, want 3: a duplicate key stores nothing", pos)
	}

	// The same key of another player is another key.
	other := eventstore.IdempotencyKey{Scope: "player-2", Key: "k-1", RequestHash: "req-a"}
	if _, err := s.AppendIdempotent(ctx, "table-a", 3, []eventstore.NewEvent{ev("Bid", `{}`)}, other); err != nil {
		t.Errorf("AppendIdempotent with player-2's k-1: %v, want success: keys are scoped by player", err)
	}

	// A conflicting append records no key: the retry must be able to land.
	k2 := eventstore.IdempotencyKey{Scope: "player-1", Key: "k-2", RequestHash: "req-d"}
	if _, err := s.AppendIdempotent(ctx, "table-a", 1, []eventstore.NewEvent{ev("Bid", `{}`)}, k2); !errors.Is(err, eventstore.ErrConflict) {
		t.Fatalf("AppendIdempotent at a stale version: %v, want a conflict", err)
	}
	if _, found, err := s.LookupIdempotency(ctx, "player-1", "k-2"); found || err != nil {
		t.Errorf("LookupIdempotency after a conflicting append: found %v, %v; want not found: the key is stored only with its events", found, err)
	}
	if _, err := s.AppendIdempotent(ctx, "table-a", 4, []eventstore.NewEvent{ev("Bid", `{}`)}, k2); err != nil {
		t.Errorf("AppendIdempotent retried at the right version: %v", err)
	}
	if _, err := s.AppendIdempotent(ctx, "table-a", 5, []eventstore.NewEvent{ev("Bid", `{}`)}, eventstore.IdempotencyKey{Scope: "player-1"}); err == nil {
		t.Error("AppendIdempotent with an empty key: nil error, want one")
	}
}

// testConcurrentSameKey: appends racing with one key, each to a stream of
// its own (so that no version conflict decides): exactly one lands, the
// others report it as the key's first use, whether or not they shared its
// group commit.
func testConcurrentSameKey(t *testing.T, s eventstore.Store) {
	const writers = 8
	for round := range 4 {
		key := eventstore.IdempotencyKey{Scope: "player-1", Key: fmt.Sprintf("k-%d", round), RequestHash: "req"}
		errs := make([]error, writers)
		start(writers, func(i int) {
			_, errs[i] = s.AppendIdempotent(context.Background(), fmt.Sprintf("table-%d-%d", round, i), 0, []eventstore.NewEvent{ev("E", `{}`)}, key)
		})
		won := -1
		for i, err := range errs {
			switch {
			case err == nil && won >= 0:
				t.Fatalf("round %d: appends %d and %d both stored with key %s, want one (idempotency.go)", round, won, i, key.Key)
			case err == nil:
				won = i
			case !errors.Is(err, eventstore.ErrDuplicateKey):
				t.Fatalf("round %d: append %d: %v, want nil or a duplicate key", round, i, err)
			}
		}
		if won < 0 {
			t.Fatalf("round %d: no append stored with key %s: %v", round, key.Key, errs)
		}
		winner := fmt.Sprintf("table-%d-%d", round, won)
		for i, err := range errs {
			var de *eventstore.DuplicateKeyError
			if errors.As(err, &de) && (de.Record.Stream != winner || de.Record.FirstVersion != 1) {
				t.Errorf("round %d: append %d reports the key's first use as %+v, want %s version 1", round, i, de.Record, winner)
			}
		}
	}
	if all := readAll(t, s, 100); len(all) != 4 {
		t.Errorf("%d events stored, want 4: one per key", len(all))
	}
	mustVerify(t, s)
}

func testStreams(t *testing.T, s eventstore.Store) {
	got, err := s.Streams(t.Context())
	if err != nil || got == nil || len(got) != 0 {
		t.Fatalf("Streams of an empty store = %#v %v, want an empty slice", got, err)
	}
	mustAppend(t, s, "table-a", 0, ev("E", `{}`), ev("E", `{}`))
	mustAppend(t, s, "table-b", 0, ev("E", `{}`))
	mustAppend(t, s, "table-a", 2, ev("E", `{}`))
	mustAppend(t, s, "table-0", 0, ev("E", `{}`))
	mustAppend(t, s, "Table-Z", 0, ev("E", `{}`)) // byte order puts upper case first
	got, err = s.Streams(t.Context())
	if err != nil || fmt.Sprint(got) != "[Table-Z table-0 table-a table-b]" {
		t.Errorf("Streams = %v %v, want [Table-Z table-0 table-a table-b]: each once, in byte order", got, err)
	}
}
