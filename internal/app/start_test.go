package app

import (
	"errors"
	"log/slog"
	"testing"
)

// TestWhileStarting: a node starting with its NATS cluster retries what
// fails until it succeeds, and gives up at once on a permanent error.
func TestWhileStarting(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	calls := 0
	err := whileStarting(t.Context(), log, "test", func() error {
		if calls++; calls < 2 {
			return errors.New("nats: no responders available for request")
		}
		return nil
	})
	if err != nil || calls != 2 {
		t.Fatalf("after %d calls: %v, want success on the second", calls, err)
	}
	calls = 0
	err = whileStarting(t.Context(), log, "test", func() error { calls++; return permanent{errAnchorMissing} })
	if !errors.Is(err, errAnchorMissing) || calls != 1 {
		t.Fatalf("permanent error after %d calls: %v", calls, err)
	}
	if _, ok := err.(permanent); ok {
		t.Fatal("whileStarting returned the permanent wrapper, not its error")
	}
}
