// Package metrics keeps paiju's Prometheus collectors. Producers never import
// it: each declares a small observer of its own (api.Observer,
// service.Observer, sqlite.Options.OnCommit) or exposes its state for a
// scrape (natsbus.Relay.Stats), and main wires them to a Metrics. Every
// series is documented in docs/OPERATIONS.md.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Namespace prefixes every paiju series.
const Namespace = "paiju"

// Metrics is one registry with paiju's collectors, the Go runtime's and the
// process's. Its methods are safe for concurrent use.
type Metrics struct {
	reg *prometheus.Registry

	requests        *prometheus.CounterVec
	requestDuration *prometheus.HistogramVec
	streams         prometheus.Gauge

	commands     *prometheus.CounterVec
	moveDuration *prometheus.HistogramVec
	cache        *prometheus.CounterVec
	timeouts     prometheus.Counter
	botMoves     prometheus.Counter

	commitEvents   prometheus.Histogram
	commitAppends  prometheus.Histogram
	commitDuration prometheus.Histogram
}

// New returns Metrics with every collector registered.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Subsystem: "http", Name: "requests_total",
			Help: "HTTP requests by method, route pattern and status (499: the client went away).",
		}, []string{"method", "route", "status"}),
		requestDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Subsystem: "http", Name: "request_duration_seconds",
			Help:    "HTTP request latency by method and route pattern (event streams last as long as they are open).",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "route"}),
		streams: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: Namespace, Subsystem: "http", Name: "live_streams",
			Help: "Open live event streams (SSE).",
		}),
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "commands_total",
			Help: "Commands by game, kind (open, join, act, timeout, bot) and outcome (ok or the error code).",
		}, []string{"game", "command", "outcome"}),
		moveDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Name: "move_duration_seconds",
			Help:    "Latency of moves (act, timeout and bot commands) from load to durable append, by game.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"game"}),
		cache: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Subsystem: "table_cache", Name: "lookups_total",
			Help: "Table lookups served from the folded cache (hit) or read from the store (miss).",
		}, []string{"result"}),
		timeouts: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: Namespace, Name: "turn_timeouts_total",
			Help: "TurnTimedOut appends by the turn clock.",
		}),
		botMoves: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: Namespace, Name: "bot_moves_total",
			Help: "Moves the server made for a bot or a delegated seat (托管).",
		}),
		commitEvents: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: Namespace, Subsystem: "store", Name: "commit_events",
			Help:    "Events per group commit of the event store.",
			Buckets: prometheus.ExponentialBuckets(1, 2, 10),
		}),
		commitAppends: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: Namespace, Subsystem: "store", Name: "commit_appends",
			Help:    "Appends (commands) sharing one group commit of the event store.",
			Buckets: prometheus.ExponentialBuckets(1, 2, 8),
		}),
		commitDuration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: Namespace, Subsystem: "store", Name: "commit_duration_seconds",
			Help:    "Time from BEGIN to COMMIT of a group commit (the disk flush included).",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25},
		}),
	}
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.requests, m.requestDuration, m.streams,
		m.commands, m.moveDuration, m.cache, m.timeouts, m.botMoves,
		m.commitEvents, m.commitAppends, m.commitDuration,
	)
	return m
}

// Handler serves the registry in Prometheus' exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Registry is where a caller registers collectors of its own.
func (m *Metrics) Registry() prometheus.Registerer { return m.reg }

// knownMethods keeps a caller's invented method out of the label values.
var knownMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodOptions: true,
}

// Request counts an HTTP request (api.Observer).
func (m *Metrics) Request(method, route string, status int, took time.Duration) {
	if !knownMethods[method] {
		method = "OTHER"
	}
	m.requests.WithLabelValues(method, route, strconv.Itoa(status)).Inc()
	m.requestDuration.WithLabelValues(method, route).Observe(took.Seconds())
}

// StreamOpened counts an event stream in (api.Observer).
func (m *Metrics) StreamOpened() { m.streams.Inc() }

// StreamClosed counts an event stream out (api.Observer).
func (m *Metrics) StreamClosed() { m.streams.Dec() }

// Command counts a command and times moves (service.Observer).
func (m *Metrics) Command(game, kind, outcome string, took time.Duration) {
	m.commands.WithLabelValues(game, kind, outcome).Inc()
	switch kind {
	case "act", "timeout", "bot":
		m.moveDuration.WithLabelValues(game).Observe(took.Seconds())
	}
	if outcome != "ok" {
		return
	}
	switch kind {
	case "timeout":
		m.timeouts.Inc()
	case "bot":
		m.botMoves.Inc()
	}
}

// CacheLookup counts a table cache hit or miss (service.Observer).
func (m *Metrics) CacheLookup(hit bool) {
	if hit {
		m.cache.WithLabelValues("hit").Inc()
	} else {
		m.cache.WithLabelValues("miss").Inc()
	}
}

// Commit records a group commit (sqlite.Options.OnCommit).
func (m *Metrics) Commit(events, appends int, took time.Duration) {
	m.commitEvents.Observe(float64(events))
	m.commitAppends.Observe(float64(appends))
	m.commitDuration.Observe(took.Seconds())
}
