package cli

import (
	"bytes"
	"slices"
	"testing"
)

// TestCORSOriginsFlag: --cors-origins (PAIJU_CORS_ORIGINS) is empty by
// default, reads a comma-separated list and refuses what is not an origin.
func TestCORSOriginsFlag(t *testing.T) {
	var stderr bytes.Buffer
	c, err := parseServe(nil, func(string) string { return "" }, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if c.CORSOrigins != nil {
		t.Fatalf("default origins %q, want none", c.CORSOrigins)
	}
	env := map[string]string{"PAIJU_CORS_ORIGINS": "https://play.example.com, http://localhost:5173,https://*.example.org"}
	c, err = parseServe(nil, func(k string) string { return env[k] }, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"https://play.example.com", "http://localhost:5173", "https://*.example.org"}; !slices.Equal(c.CORSOrigins, want) {
		t.Fatalf("origins %q, want %q", c.CORSOrigins, want)
	}
	for _, bad := range []string{"play.example.com", "https://play.example.com/", "ftp://x", "https://*.*.example.com", "https://"} {
		if _, err := parseServe([]string{"--cors-origins", bad}, func(string) string { return "" }, &stderr); err == nil {
			t.Errorf("--cors-origins %q accepted", bad)
		}
	}
}
