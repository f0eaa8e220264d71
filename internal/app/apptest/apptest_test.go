package apptest_test

import (
	"testing"

	"paiju/api/apitest"
	"paiju/internal/app"
	"paiju/internal/app/apptest"
)

// TestNewServesUntilTheTestEnds: the server answers once New returns and
// becomes ready, from a data directory of the test's own.
func TestNewServesUntilTheTestEnds(t *testing.T) {
	s := apptest.New(t, app.Config{})
	apitest.New(t, s.URL).WaitReady()
	if s.Config.Data == "" {
		t.Fatal("no data directory")
	}
}
