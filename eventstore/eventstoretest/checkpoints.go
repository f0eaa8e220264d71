package eventstoretest

import "testing"

func testCheckpoints(t *testing.T, s checkpointStore) {
	ctx := t.Context()
	if pos, err := s.Checkpoint(ctx, "nats-relay"); err != nil || pos != 0 {
		t.Fatalf("Checkpoint never set = %d %v, want 0", pos, err)
	}
	for _, pos := range []int64{5, 42, 0} {
		if err := s.SetCheckpoint(ctx, "nats-relay", pos); err != nil {
			t.Fatalf("SetCheckpoint(%d): %v", pos, err)
		}
		if got, err := s.Checkpoint(ctx, "nats-relay"); err != nil || got != pos {
			t.Errorf("Checkpoint after SetCheckpoint(%d) = %d %v", pos, got, err)
		}
	}
	if err := s.SetCheckpoint(ctx, "hand-history", 7); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Checkpoint(ctx, "nats-relay"); got != 0 {
		t.Errorf("checkpoints of different names share a value: nats-relay = %d, want 0", got)
	}
	if err := s.SetCheckpoint(ctx, "x", -1); err == nil {
		t.Error("SetCheckpoint(-1): nil error, want one")
	}
}
