package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"paiju/internal/app"
)

// TestObserveFlags: the observability flags are checked before anything
// starts, and --log-format json writes one JSON object per line.
func TestObserveFlags(t *testing.T) {
	env := func(string) string { return "" }
	for _, tc := range []struct {
		args []string
		want string // in the error
	}{
		{[]string{"--log-format", "xml"}, "log format"},
		{[]string{"--drain", "soon"}, "--drain"},
		{[]string{"--drain", "-1s"}, "--drain"},
		{[]string{"--ready-lag-grace", "2h"}, "--ready-lag-grace"},
		{[]string{"--ready-max-lag", "-5"}, "--ready-max-lag"},
	} {
		args := append([]string{"serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0"}, tc.args...)
		err := Run(context.Background(), args, env, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("serve %v: %v, want an error naming %s", tc.args, err, tc.want)
		}
	}

	c := app.Common{LogLevel: "info", LogFormat: "json"}
	var buf bytes.Buffer
	log, err := c.Logger(&buf)
	if err != nil {
		t.Fatal(err)
	}
	log.Info("request", "route", "/v1/tables/{id}", "status", 200)
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil || line["route"] != "/v1/tables/{id}" || line["msg"] != "request" {
		t.Errorf("--log-format json wrote %q (%v)", buf.String(), err)
	}
}
