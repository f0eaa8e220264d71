package api

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
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

// requestState is the context of every request the server answers: what
// the chain learns of the request as it goes (the request id, the caller
// once authenticated, what the access log reports) and chi's routing
// context, held in one value. Each context.WithValue would copy the
// *http.Request once more (r.WithContext); the chain used to make four such
// copies a request (chi's, the request id's, the access log's, the
// caller's), and now makes one.
type requestState struct {
	context.Context
	id    string
	info  requestInfo
	who   caller
	route *chi.Context
	// callerKey is keyByCaller's answer, made once the caller is known.
	callerKey string
	w         statusWriter
}

// Value answers the keys the chain used to set one by one, so that chi
// (RouteContext, middleware.GetReqID) and the handlers read them as before.
func (st *requestState) Value(key any) any {
	switch key {
	case chi.RouteCtxKey:
		return st.route
	case middleware.RequestIDKey:
		return st.id
	case requestInfoKey{}:
		return &st.info
	case callerKey{}:
		return st.who
	case requestStateKey{}:
		return st
	}
	return st.Context.Value(key)
}

type requestStateKey struct{}

// stateOf is the server's state of the request ctx belongs to; nil for a
// handler called outside the server's chain.
func stateOf(ctx context.Context) *requestState {
	st, _ := ctx.Value(requestStateKey{}).(*requestState)
	return st
}

// withCaller makes c the request's caller, for the handlers after the one
// that authenticated it.
func withCaller(r *http.Request, c caller) *http.Request {
	if st := stateOf(r.Context()); st != nil {
		st.who = c
		st.callerKey = ""
		if c.auditor {
			st.info.player = "auditor"
		} else {
			st.info.player = c.playerID
		}
		return r
	}
	return r.WithContext(context.WithValue(r.Context(), callerKey{}, c))
}

// front is the outside of the chain, around the router: it gives the
// request its id (the caller's X-Request-Id when it is short and plain, or
// a new ULID), in the context (where chi's middleware.GetReqID finds it)
// and in the response, and writes the access log line once the router has
// answered.
func (s *server) front(mux *chi.Mux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(RequestIDHeader)
		if !plainID(id) {
			id = ulid.Make().String()
		}
		w.Header()[RequestIDHeader] = []string{id}
		rc := s.routeContexts.Get().(*chi.Context)
		rc.Reset()
		rc.Routes = mux
		st := &requestState{Context: r.Context(), id: id, route: rc}
		st.w.ResponseWriter = w
		r = r.WithContext(st)
		start := time.Now()
		mux.ServeHTTP(&st.w, r)
		s.logRequest(r, st, time.Since(start))
		st.route = nil
		s.routeContexts.Put(rc)
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

// logRequest writes one line per request at info and reports it to the
// Observer. It logs the route pattern, never the query string (stream
// tickets travel there) nor any header (tokens do).
func (s *server) logRequest(r *http.Request, st *requestState, took time.Duration) {
	status := st.w.status
	switch {
	case st.info.canceled:
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
		slog.String("request_id", st.id),
		slog.String("method", r.Method),
		slog.String("route", route),
		slog.Int("status", status),
		slog.Duration("duration", took),
		slog.Int("bytes", st.w.bytes),
		slog.String("client", s.client.of(r)))
	if st.info.player != "" {
		attrs = append(attrs, slog.String("player", st.info.player))
	}
	s.log.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
}

// statusWriter records the status and the body's length of an answer for
// the access log, as chi's middleware.WrapResponseWriter did, without an
// allocation of its own (it lives in the requestState). Flush and Hijack
// reach the connection's writer; http.ResponseController finds the rest
// through Unwrap.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
	wrote  bool
}

func (w *statusWriter) WriteHeader(code int) {
	// 1xx answers are interim (103 Early Hints): the final status follows.
	if code >= 100 && code <= 199 && code != http.StatusSwitchingProtocols {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	if !w.wrote {
		w.status, w.wrote = code, true
		w.ResponseWriter.WriteHeader(code)
	}
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

func (w *statusWriter) Flush() {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

// ReadFrom keeps io.Copy's path to the connection's writer.
func (w *statusWriter) ReadFrom(src io.Reader) (int64, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	n, err := io.Copy(w.ResponseWriter, src)
	w.bytes += int(n)
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

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

// errRequestTimeout is the cause of a request context that RequestTimeout
// ended, telling it from a client that went away.
var errRequestTimeout = errors.New("the request took longer than the server's request timeout")

// requestDeadline ends a request's context after RequestTimeout. The live
// streams are left alone: they last as long as their client listens.
func (s *server) requestDeadline(next http.Handler) http.Handler {
	if s.RequestTimeout <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/stream") {
			next.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithTimeoutCause(r.Context(), s.RequestTimeout, errRequestTimeout)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// timedOut is the problem of a request that RequestTimeout ended. A command
// may have been stored even so (its COMMIT may have reached the store just
// before the end), so its client is told to ask again with the same
// Idempotency-Key, which answers the first attempt's result if it was
// stored and applies the command once if it was not.
func timedOut(r *http.Request, after time.Duration) *Problem {
	detail := fmt.Sprintf("the server could not finish this request within %s (its store or message bus did not answer in time); retry after the time in Retry-After, on this node or another", after)
	if r.Method == http.MethodPost {
		detail += "; a command may or may not have been applied: retry it with the same Idempotency-Key to learn which, and it is applied at most once"
	}
	p := problem(http.StatusServiceUnavailable, "request_timeout", detail)
	p.retryAfter = time.Second
	return p
}
