package api

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/go-chi/httprate"
	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/time/rate"
)

// Quotas bound what one caller may take of the server (docs/OPERATIONS.md,
// Quotas). A zero field takes its default from DefaultQuotas; a negative
// one turns that quota off.
type Quotas struct {
	// TablesPerHour is how many tables one player may open per hour.
	TablesPerHour int
	// RegistrationsPerMinute is how many players one address may register
	// per minute.
	RegistrationsPerMinute int
	// AuthFailuresPerMinute is how many requests with a missing or unknown
	// token one address may make per minute; past it, every request from the
	// address that needs a token gets 429 until the budget refills.
	AuthFailuresPerMinute int
	// StreamsPerPlayer is how many /stream responses one caller may hold
	// open at once.
	StreamsPerPlayer int
	// EventsPage is the most events one /events answer holds (and the page
	// size when the caller gives no limit).
	EventsPage int
	// CostlyReads is how many expensive reads (/legal, /export) one caller
	// may have running at once.
	CostlyReads int
	// RoomFailuresPerMinute is how many failed room code attempts (a
	// lookup of an unknown code, a wrong code to join or watch) one player
	// may make per minute; the failure that spends it locks the player out
	// for a minute, doubling with each further lockout in the hour
	// (roomguard.go).
	RoomFailuresPerMinute int
	// RoomFailuresPerNodePerMinute is how many failed room code attempts
	// this node hears a minute from everyone together; past it, players
	// who failed lately wait for it to refill, while others are still
	// heard.
	RoomFailuresPerNodePerMinute int
}

// DefaultQuotas are the quotas a server has unless configured otherwise.
var DefaultQuotas = Quotas{
	TablesPerHour:                60,
	RegistrationsPerMinute:       30,
	AuthFailuresPerMinute:        20,
	StreamsPerPlayer:             8,
	EventsPage:                   500,
	CostlyReads:                  2,
	RoomFailuresPerMinute:        10,
	RoomFailuresPerNodePerMinute: 60,
}

// MaxEventsPage is the largest EventsPage a server may be configured with.
const MaxEventsPage = 1000

// withDefaults fills the zero fields from DefaultQuotas.
func (q Quotas) withDefaults() Quotas {
	d := DefaultQuotas
	for _, f := range []struct{ v, d *int }{
		{&q.TablesPerHour, &d.TablesPerHour}, {&q.RegistrationsPerMinute, &d.RegistrationsPerMinute},
		{&q.AuthFailuresPerMinute, &d.AuthFailuresPerMinute}, {&q.StreamsPerPlayer, &d.StreamsPerPlayer},
		{&q.EventsPage, &d.EventsPage}, {&q.CostlyReads, &d.CostlyReads},
		{&q.RoomFailuresPerMinute, &d.RoomFailuresPerMinute},
		{&q.RoomFailuresPerNodePerMinute, &d.RoomFailuresPerNodePerMinute},
	} {
		if *f.v == 0 {
			*f.v = *f.d
		}
	}
	if q.EventsPage < 0 || q.EventsPage > MaxEventsPage {
		q.EventsPage = MaxEventsPage
	}
	return q
}

// rateLimited writes 429 rate_limited with Retry-After (whole seconds, at
// least 1).
func (s *server) rateLimited(w http.ResponseWriter, r *http.Request, retry time.Duration, detail string) {
	w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(retry.Seconds())))))
	s.writeError(w, r, problem(http.StatusTooManyRequests, "rate_limited", detail))
}

// quota limits requests per key to n per window, as the policy name of the
// RateLimit header fields; n < 0 is no limit. The count is this process's
// (httprate counts and decides under one lock, so requests at once cannot
// pass it): each node of a cluster keeps its own, and a restart forgets it.
func (s *server) quota(name string, n int, window time.Duration, what string, key httprate.KeyFunc) func(http.Handler) http.Handler {
	if n < 0 {
		return func(next http.Handler) http.Handler { return next }
	}
	return s.policy(name, n, window, key, fmt.Sprintf("more than %d %s in %s; retry after the time in Retry-After", n, what, window))
}

// policy limits requests per key to limit per window (httprate's sliding
// window) and tells the caller where it stands in the header fields of
// draft-ietf-httpapi-ratelimit-headers-10 (docs/OPERATIONS.md, Quotas):
//
//	RateLimit-Policy: "requests";q=100;w=1
//	RateLimit: "requests";r=57;t=1
//
// q is the quota, w its window in seconds, r what remains of it and t the
// seconds until it is whole again. The window slides, so t is an upper
// bound: the window's length. Each policy a request passes adds its own
// item to both fields. Over the limit: 429 rate_limited with Retry-After.
func (s *server) policy(name string, limit int, window time.Duration, key httprate.KeyFunc, detail string) func(http.Handler) http.Handler {
	secs := max(1, int(math.Ceil(window.Seconds())))
	rl := httprate.NewRateLimiter(limit, window,
		// The counts are read back below to write the draft's fields
		// instead of httprate's X-RateLimit-* ones.
		httprate.WithResponseHeaders(httprate.ResponseHeaders{}),
		httprate.WithErrorHandler(func(w http.ResponseWriter, r *http.Request, err error) {
			s.writeError(w, r, fmt.Errorf("rate limit %s: %w", name, err))
		}))
	// The policy's field is the same at every request, and the remaining
	// count's field differs only in r.
	policyField := fmt.Sprintf("%q;q=%d;w=%d", name, limit, secs)
	remainingPrefix := strconv.Quote(name) + ";r="
	windowSuffix := ";t=" + strconv.Itoa(secs)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			k, err := key(r)
			if err != nil {
				s.writeError(w, r, fmt.Errorf("rate limit %s key: %w", name, err))
				return
			}
			over := rl.OnLimit(w, r, k)
			_, rate, err := rl.Status(k)
			if err != nil {
				s.writeError(w, r, fmt.Errorf("rate limit %s: %w", name, err))
				return
			}
			remaining := max(0, limit-int(math.Round(rate)))
			if over {
				remaining = 0
			}
			h := w.Header()
			h.Add("RateLimit-Policy", policyField)
			h.Add("RateLimit", remainingPrefix+strconv.Itoa(remaining)+windowSuffix)
			if over {
				s.rateLimited(w, r, window, detail)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// authFailures budgets the failed authentications of each address: a token
// bucket per address refilled at AuthFailuresPerMinute, one token spent per
// failure, kept in a bounded LRU so a flood of addresses cannot grow it.
type authFailures struct {
	per   int
	mu    sync.Mutex
	addrs *lru.Cache[string, *rate.Limiter]
}

func newAuthFailures(per int) *authFailures {
	addrs, err := lru.New[string, *rate.Limiter](1 << 16)
	if err != nil {
		panic(fmt.Sprintf("api: auth failure cache: %v", err))
	}
	return &authFailures{per: per, addrs: addrs}
}

func (a *authFailures) limiter(addr string) *rate.Limiter {
	a.mu.Lock()
	defer a.mu.Unlock()
	l, ok := a.addrs.Get(addr)
	if !ok {
		l = rate.NewLimiter(rate.Limit(float64(a.per)/60), a.per)
		a.addrs.Add(addr, l)
	}
	return l
}

// any reports whether some address may be blocked: the budget is on and
// an address has failed since the server started.
func (a *authFailures) any() bool {
	return a.per >= 0 && a.addrs.Len() > 0
}

// blocked says how long addr must wait before its next attempt, or 0 if it
// may try now.
func (a *authFailures) blocked(addr string, now time.Time) time.Duration {
	if a.per < 0 {
		return 0
	}
	// An address that never failed has its whole budget (at least 1):
	// looking it up makes no limiter for it, as every request would.
	l, ok := a.addrs.Get(addr)
	if !ok {
		return 0
	}
	tokens := l.TokensAt(now)
	if tokens >= 1 {
		return 0
	}
	return time.Duration((1 - tokens) / float64(l.Limit()) * float64(time.Second))
}

// failed spends one of addr's attempts.
func (a *authFailures) failed(addr string, now time.Time) {
	if a.per >= 0 {
		a.limiter(addr).AllowN(now, 1)
	}
}

// inFlight counts what each key holds open (streams, running reads) against
// a ceiling. take counts and decides under one lock, so the ceiling holds
// for requests at once; it is this process's count, so on a cluster each
// node allows the ceiling (docs/OPERATIONS.md, Caps under concurrent
// requests).
type inFlight struct {
	max int
	mu  sync.Mutex
	n   map[string]int
}

func newInFlight(max int) *inFlight { return &inFlight{max: max, n: map[string]int{}} }

// acquire takes one for key, or reports false if key holds the maximum;
// release gives it back.
func (f *inFlight) acquire(key string) (release func(), ok bool) {
	if !f.take(key) {
		return nil, false
	}
	var once sync.Once
	return func() { once.Do(func() { f.give(key) }) }, true
}

// take takes one for key, or reports false if key holds the maximum; give
// gives it back. A negative maximum is no limit.
func (f *inFlight) take(key string) bool {
	if f.max < 0 {
		return true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n[key] >= f.max {
		return false
	}
	f.n[key]++
	return true
}

func (f *inFlight) give(key string) {
	if f.max < 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n[key]--; f.n[key] == 0 {
		delete(f.n, key)
	}
}

// limitInFlight lets each caller run at most f.max of the wrapped requests
// at once; one more gets 429 with Retry-After.
func (s *server) limitInFlight(f *inFlight, what string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if f.max < 0 {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			key, _ := keyByCaller(r)
			if !f.take(key) {
				s.rateLimited(w, r, time.Second, fmt.Sprintf("at most %d %s at once per caller; retry after the time in Retry-After", f.max, what))
				return
			}
			defer f.give(key)
			next.ServeHTTP(w, r)
		})
	}
}
