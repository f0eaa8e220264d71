package apptest_test

import (
	"net/http"
	"testing"

	"paiju/internal/app"
	"paiju/internal/app/apptest"
)

// TestNewServesUntilTheTestEnds: the server answers readiness once New
// returns, from a data directory of the test's own.
func TestNewServesUntilTheTestEnds(t *testing.T) {
	s := apptest.New(t, app.Config{})
	resp, err := http.Get(s.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /readyz: %d, want 200", resp.StatusCode)
	}
	if s.Config.Data == "" {
		t.Fatal("no data directory")
	}
}
