package natsbus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Embedded is an in-process nats-server, with JetStream or without
// (StartEmbeddedCore). It opens no listener at all: the events it holds
// include every deal's secret seed, so only this process may reach it,
// through Connect.
type Embedded struct {
	srv  *server.Server
	once sync.Once
}

// startTimeout bounds the wait for the server to accept connections when
// the caller's context has no deadline of its own.
const startTimeout = 30 * time.Second

// StartEmbedded starts a single nats-server (no client, cluster or monitoring port)
// with JetStream storing its files under dir, which it creates if needed.
// Only one server may use a dir at a time. The server's notices go to logger
// at debug level, its warnings and errors at theirs.
func StartEmbedded(ctx context.Context, dir string, logger *slog.Logger) (*Embedded, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("natsbus: create nats dir: %w", err)
	}
	return startEmbedded(ctx, dir, logger)
}

// StartEmbeddedCore starts a single nats-server without JetStream, storing
// nothing: core publish and subscribe only (token revocations), for a node
// whose relay publishes into no stream (NewRelay with a nil JetStream).
func StartEmbeddedCore(ctx context.Context, logger *slog.Logger) (*Embedded, error) {
	return startEmbedded(ctx, "", logger)
}

// startEmbedded starts the server, with JetStream in dir unless dir is "".
func startEmbedded(ctx context.Context, dir string, logger *slog.Logger) (*Embedded, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	opts := &server.Options{
		// A fixed name keeps the JetStream identity stable across restarts
		// on the same dir.
		ServerName: "paiju-embedded",
		// No TCP listener: an unauthenticated port on loopback let any local
		// user read every running deal's seed and forge the relay's stream.
		DontListen:             true,
		JetStream:              dir != "",
		StoreDir:               dir,
		NoSigs:                 true,
		DisableJetStreamBanner: true,
	}
	where := dir
	if dir == "" {
		where = "memory"
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("natsbus: configure embedded nats-server: %w", err)
	}
	sl := &serverLog{l: logger.With("component", "nats-server"), fatal: make(chan string, 1)}
	srv.SetLoggerV2(sl, false, false, false)
	srv.Start()

	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(startTimeout)
	}
	for !srv.ReadyForConnections(50 * time.Millisecond) {
		var cause error
		select {
		case msg := <-sl.fatal:
			cause = errors.New(msg)
		default:
			if ctx.Err() != nil {
				cause = ctx.Err()
			} else if time.Now().After(deadline) {
				cause = errors.New("not ready for connections in time")
			}
		}
		if cause != nil {
			srv.Shutdown()
			srv.WaitForShutdown()
			return nil, fmt.Errorf("natsbus: start embedded nats-server in %s: %w", where, cause)
		}
	}
	if opts.JetStream && !srv.JetStreamEnabled() {
		srv.Shutdown()
		srv.WaitForShutdown()
		return nil, fmt.Errorf("natsbus: start embedded nats-server in %s: JetStream is not enabled", dir)
	}
	return &Embedded{srv: srv}, nil
}

// Connect connects to the server in-process (see the package's Connect for
// the connection's behaviour).
func (e *Embedded) Connect(ctx context.Context) (*nats.Conn, jetstream.JetStream, error) {
	return Connect(ctx, InProcessURL, nats.InProcessServer(e.srv))
}

// InProcessURL names the embedded server in logs and errors; it is not an
// address anything listens on.
const InProcessURL = "in-process"

// Shutdown stops the server and returns once it has closed its clients and
// flushed its JetStream files. Later calls do nothing.
func (e *Embedded) Shutdown() {
	e.once.Do(func() {
		e.srv.Shutdown()
		e.srv.WaitForShutdown()
	})
}

// serverLog routes nats-server's logger to slog. Notices are debug: the
// server is chatty at startup and an embedded one should not be.
type serverLog struct {
	l     *slog.Logger
	fatal chan string // the first fatal message, so a failed start can say why
}

func (s *serverLog) Noticef(format string, v ...any) { s.l.Debug(fmt.Sprintf(format, v...)) }
func (s *serverLog) Warnf(format string, v ...any)   { s.l.Warn(fmt.Sprintf(format, v...)) }
func (s *serverLog) Errorf(format string, v ...any)  { s.l.Error(fmt.Sprintf(format, v...)) }
func (s *serverLog) Debugf(format string, v ...any)  { s.l.Debug(fmt.Sprintf(format, v...)) }
func (s *serverLog) Tracef(format string, v ...any)  {}

// Fatalf must not exit the process as the server's own logger would: the
// embedding program decides.
func (s *serverLog) Fatalf(format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	s.l.Error(msg, "fatal", true)
	select {
	case s.fatal <- msg:
	default:
	}
}
