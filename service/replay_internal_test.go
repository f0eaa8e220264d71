package service

import (
	"errors"
	"testing"
)

// TestReplaySafelyTurnsPanicsIntoErrors: rules that panic on events they
// never produced must not take the request (or the server) down.
func TestReplaySafelyTurnsPanicsIntoErrors(t *testing.T) {
	want := errors.New("decode failed")
	for _, tc := range []struct {
		name    string
		fold    func() (*Loaded, error)
		wantErr bool
	}{
		{"panic", func() (*Loaded, error) { panic("index out of range") }, true},
		{"error", func() (*Loaded, error) { return nil, want }, true},
		{"ok", func() (*Loaded, error) { return &Loaded{}, nil }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := replaySafely(tc.fold)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want an error: %v", err, tc.wantErr)
			}
			if tc.wantErr && l != nil {
				t.Errorf("a failed fold returned a table")
			}
		})
	}
}
