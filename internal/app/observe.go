package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"paiju/metrics"
)

// logger returns the logger the config asks for: text (default) or JSON.
func (c Common) Logger(w io.Writer) (*slog.Logger, error) {
	switch c.LogFormat {
	case "", "text":
		return newLogger(w, c.LogLevel)
	case "json":
		var l slog.Level
		if err := l.UnmarshalText([]byte(c.LogLevel)); err != nil {
			return nil, fmt.Errorf("log level %q: want debug, info, warn or error", c.LogLevel)
		}
		return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l})), nil
	}
	return nil, fmt.Errorf("log format %q: want text or json", c.LogFormat)
}

// newTracer exports spans to an OTLP/HTTP collector at endpoint (a URL such
// as http://otel-collector:4318). Without an endpoint tracing is off: the
// tracer is nil and nothing is traced.
func newTracer(ctx context.Context, endpoint string) (trace.Tracer, func(context.Context) error, error) {
	if endpoint == "" {
		return nil, func(context.Context) error { return nil }, nil
	}
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(endpoint))
	if err != nil {
		return nil, nil, fmt.Errorf("OTLP exporter for %s: %w", endpoint, err)
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exp),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", "paiju"))),
	)
	return tp.Tracer("paiju"), tp.Shutdown, nil
}

// scrapeTimeout bounds the store reads of one metrics scrape.
const scrapeTimeout = 2 * time.Second

// registerLags adds the gauges read at scrape time: the relay's lag and
// state, and each projection's lag.
func registerLags(m *metrics.Metrics, h *health) {
	m.GaugeFunc("relay_lag_events", "Committed events JetStream does not hold yet (store head minus relay position).", func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
		defer cancel()
		lag, err := h.relayLag(ctx)
		if err != nil {
			return -1
		}
		return float64(lag)
	})
	m.GaugeFunc("relay_up", "1 while the relay runs and agrees with the store, 0 when it stopped or diverged; 1 on a node that stands by while another relays (see relay_lag_events).", func() float64 {
		if !h.relaying() {
			return 1
		}
		if s := h.src.Relay(); s.Running && !s.Diverged {
			return 1
		}
		return 0
	})
	m.GaugeFunc("relay_lease_held", "1 while this node holds the deployment's relay lease (always with the embedded NATS).", func() float64 {
		if h.relaying() {
			return 1
		}
		return 0
	})
	m.GaugesFunc("projection_lag_events", "Events in the store a projection has not applied yet.", "projection", func() (map[string]float64, error) {
		ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
		defer cancel()
		return h.projectionLags(ctx)
	})
}

// serveMetrics serves /metrics on its own listener (--metrics-addr), so
// that it need not be reachable where the API is.
func serveMetrics(addr string, h http.Handler, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics listener on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server stopped", "err", err)
		}
	}()
	log.Info("metrics serving", "addr", ln.Addr().String())
	return func() { _ = srv.Close() }, nil
}

// newLogger returns a text logger at the named level.
func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("log level %q: want debug, info, warn or error", level)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}
