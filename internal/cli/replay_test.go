package cli

import (
	"bytes"
	"context"
	"testing"
)

func TestReplayAndProjectFlags(t *testing.T) {
	env := func(string) string { return "" }
	var out bytes.Buffer
	if err := Run(context.Background(), []string{"replay", "--data", t.TempDir(), "--projection", "nope"}, env, &out, &out); err == nil {
		t.Fatal("replay of an unknown projection succeeded")
	}
	if err := Run(context.Background(), []string{"project", "--data", t.TempDir()}, env, &out, &out); err == nil {
		t.Fatal("project without --nats-url succeeded")
	}
}
