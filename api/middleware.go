package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/oklog/ulid/v2"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Observer is told of every request and event stream, for metrics. Its
// methods run on the request path and must return at once.
type Observer interface {
	// Request reports a finished request by its route pattern (never the
	// raw path: ids would make every table a series of its own).
	Request(method, route string, status int, took time.Duration)
	// StreamOpened and StreamClosed bracket every live event stream.
	StreamOpened()
	StreamClosed()
}

type noObserver struct{}

func (noObserver) Request(string, string, int, time.Duration) {}
func (noObserver) StreamOpened()                              {}
func (noObserver) StreamClosed()                              {}

// RequestIDHeader carries the request id both ways: a caller (or a proxy)
// may send one, and every response has one.
const RequestIDHeader = "X-Request-Id"

// maxRequestIDLen bounds a caller's request id; a longer or odder one is
// replaced, so that nobody can write what they like into the logs.
const maxRequestIDLen = 64

// requestID takes the caller's X-Request-Id when it is short and plain, or
// makes a ULID, and puts it in the context (where chi's middleware.GetReqID
// finds it) and in the response.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(RequestIDHeader)
		if !plainID(id) {
			id = ulid.Make().String()
		}
		w.Header().Set(RequestIDHeader, id)
		ctx := context.WithValue(r.Context(), middleware.RequestIDKey, id)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func plainID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for _, c := range id {
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '-' || c == '_' || c == '.' || c == ':') {
			return false
		}
	}
	return true
}

// requestInfo is what inner handlers tell the access log: who the caller
// turned out to be, and whether the client went away.
type requestInfo struct {
	player   string
	canceled bool
}

type requestInfoKey struct{}

func infoOf(ctx context.Context) *requestInfo {
	if i, ok := ctx.Value(requestInfoKey{}).(*requestInfo); ok {
		return i
	}
	return &requestInfo{} // a handler called outside the server's chain
}

// statusClientClosed is what the access log and metrics record for a
// request whose client went away before its answer (nginx's 499); no
// response is written for it.
const statusClientClosed = 499

// routeOf is the route pattern chi matched, or "unmatched".
func routeOf(r *http.Request) string {
	if rc := chi.RouteContext(r.Context()); rc != nil {
		if p := rc.RoutePattern(); p != "" {
			return p
		}
	}
	return "unmatched"
}

// accessLog writes one line per request at info and reports it to the
// Observer. It logs the route pattern, never the query string (stream
// tickets travel there) nor any header (tokens do).
func (s *server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := &requestInfo{}
		r = r.WithContext(context.WithValue(r.Context(), requestInfoKey{}, info))
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		start := time.Now()
		next.ServeHTTP(ww, r)
		took := time.Since(start)
		status := ww.Status()
		switch {
		case info.canceled:
			status = statusClientClosed
		case status == 0:
			status = http.StatusOK // nothing written: net/http answers 200
		}
		route := routeOf(r)
		s.Observer.Request(r.Method, route, status, took)
		if !s.log.Enabled(r.Context(), slog.LevelInfo) {
			return // --log-level warn: nothing to build
		}
		attrs := make([]slog.Attr, 0, 8)
		attrs = append(attrs,
			slog.String("request_id", middleware.GetReqID(r.Context())),
			slog.String("method", r.Method),
			slog.String("route", route),
			slog.Int("status", status),
			slog.Duration("duration", took),
			slog.Int("bytes", ww.BytesWritten()),
			slog.String("client", s.client.of(r)))
		if info.player != "" {
			attrs = append(attrs, slog.String("player", info.player))
		}
		s.log.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
	})
}

// traceRequests starts a server span per request, continuing the caller's
// W3C trace context; NewServer installs it only when there is a tracer.
func (s *server) traceRequests(tracer trace.Tracer) func(http.Handler) http.Handler {
	prop := propagation.TraceContext{}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx := prop.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
			ctx, span := tracer.Start(ctx, "HTTP "+r.Method, trace.WithSpanKind(trace.SpanKindServer),
				trace.WithAttributes(attribute.String("http.request.method", r.Method)))
			defer span.End()
			ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			r = r.WithContext(ctx)
			next.ServeHTTP(ww, r)
			route := routeOf(r)
			span.SetName(r.Method + " " + route)
			span.SetAttributes(
				attribute.String("http.route", route),
				attribute.Int("http.response.status_code", ww.Status()),
				attribute.String("paiju.request_id", middleware.GetReqID(ctx)))
			if ww.Status() >= 500 {
				span.SetStatus(codes.Error, http.StatusText(ww.Status()))
			}
		})
	}
}
