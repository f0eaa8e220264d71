package cli

import (
	"bytes"
	"testing"

	"paiju/api"
)

// TestQuotaFlags: the quota flags default to api.DefaultQuotas, read their
// environment variables, take -1 for "no limit", and refuse 0, garbage and a
// page above the maximum (docs/OPERATIONS.md, Quotas).
func TestQuotaFlags(t *testing.T) {
	noEnv := func(string) string { return "" }
	var stderr bytes.Buffer
	c, err := parseServe(nil, noEnv, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if c.Quotas != api.DefaultQuotas {
		t.Fatalf("default quotas %+v, want %+v", c.Quotas, api.DefaultQuotas)
	}
	env := map[string]string{"PAIJU_QUOTA_STREAMS_PER_PLAYER": "3"}
	c, err = parseServe([]string{"--quota-tables-per-hour", "-1", "--quota-events-page", "1000"}, func(k string) string { return env[k] }, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if c.Quotas.TablesPerHour != -1 || c.Quotas.EventsPage != 1000 || c.Quotas.StreamsPerPlayer != 3 {
		t.Fatalf("quotas %+v, want tables -1, page 1000, streams 3 (from the environment)", c.Quotas)
	}
	for _, bad := range [][]string{
		{"--quota-events-page", "1001"},
		{"--quota-events-page", "-1"},
		{"--quota-costly-reads", "0"},
		{"--quota-auth-failures-per-minute", "many"},
		{"--quota-registrations-per-minute", "-2"},
	} {
		if _, err := parseServe(bad, noEnv, &stderr); err == nil {
			t.Errorf("parseServe(%q) accepted it", bad)
		}
	}
}
