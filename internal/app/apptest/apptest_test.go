package apptest_test

import (
	"net/http"
	"testing"
	"time"

	"paiju/internal/app"
	"paiju/internal/app/apptest"
)

// TestNewServesUntilTheTestEnds: the server answers once New returns and
// becomes ready, from a data directory of the test's own.
func TestNewServesUntilTheTestEnds(t *testing.T) {
	s := apptest.New(t, app.Config{})
	// Until a probe passes: one probe's checks have a second in all, which
	// a loaded machine can exceed.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(s.URL + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET /readyz: %d, want 200", resp.StatusCode)
		}
	}
	if s.Config.Data == "" {
		t.Fatal("no data directory")
	}
}
