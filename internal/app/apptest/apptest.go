// Package apptest starts the real paiju server for whole-stack tests: the
// application of internal/app on a SQLite store in a temporary directory,
// embedded NATS, the relay, the projections and the HTTP API on a loopback
// listener. It is the one way tests start the server in-process.
package apptest

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"testing"

	"paiju/internal/app"
)

// Server is a running application.
type Server struct {
	*app.App
	// URL is the API's base URL (http://127.0.0.1:port).
	URL string
	// Config is the configuration the server runs with, defaults filled.
	Config app.Config
}

// New starts the application configured by cfg and stops it when the test
// ends. Zero fields get paiju serve's defaults (app.Default...), but for
// what a test needs otherwise: a data directory of the test's own, logs
// discarded, no rate limit, no drain, bots and delegated seats that play
// at once.
func New(t testing.TB, cfg app.Config) *Server {
	t.Helper()
	if cfg.Data == "" {
		cfg.Data = t.TempDir()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.ReadyMaxLag == 0 {
		cfg.ReadyMaxLag = app.DefaultReadyMaxLag
	}
	if cfg.ReadyLagGrace == 0 {
		cfg.ReadyLagGrace = app.DefaultReadyLagGrace
	}
	if cfg.ReadHeader == 0 {
		cfg.ReadHeader = app.DefaultReadHeader
	}
	if cfg.Read == 0 {
		cfg.Read = app.DefaultRead
	}
	if cfg.Request == 0 {
		cfg.Request = app.DefaultRequest
	}
	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.New(ctx, cfg)
	if err != nil {
		cancel()
		t.Fatalf("apptest: start the application: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cancel()
		a.Close()
		t.Fatalf("apptest: listen: %v", err)
	}
	done := make(chan error, 1)
	ready := make(chan string, 1)
	go func() { done <- a.Run(ctx, ln, ready) }()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		cancel()
		a.Close()
		t.Fatalf("apptest: the application stopped before serving: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("apptest: run: %v", err)
		}
		a.Close()
	})
	return &Server{App: a, URL: "http://" + addr, Config: cfg}
}
