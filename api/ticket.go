package api

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	lru "github.com/hashicorp/golang-lru/v2"
)

// A browser's EventSource cannot send an Authorization header, and a bearer
// token must never travel in a URL (proxies, logs and browser history keep
// URLs). So a client trades its token for a stream ticket (POST
// /v1/tables/{id}/stream-tickets) and opens /stream?ticket=: the ticket
// opens one stream of one table, once, within StreamTicketTTL, with exactly
// the visibility of the caller who obtained it.
//
// Tickets live in the memory of the node that issued them, kept by their
// SHA-256: a ticket must be redeemed on that node (behind a load balancer,
// route a client's requests to one node or retry with a fresh ticket), and
// a restart forgets them all, which costs a client one more POST.

// StreamTicketTTL is how long a stream ticket stays valid.
const StreamTicketTTL = 30 * time.Second

// ticketPrefix tells a stream ticket from a bearer token at a glance.
const ticketPrefix = "pjst_"

// maxTickets bounds the tickets waiting to be redeemed; past it the oldest
// are forgotten (each caller's issuing is bounded by the rate limit).
const maxTickets = 1 << 16

// ticketGrant is what a ticket opens.
type ticketGrant struct {
	tableID string
	caller  caller
	expires time.Time
}

// streamTickets are the tickets this node issued and nobody redeemed yet.
type streamTickets struct {
	mu     sync.Mutex
	grants *lru.Cache[string, ticketGrant] // by HashToken(ticket)
}

func newStreamTickets() *streamTickets {
	g, err := lru.New[string, ticketGrant](maxTickets)
	if err != nil {
		panic(fmt.Sprintf("api: ticket cache: %v", err))
	}
	return &streamTickets{grants: g}
}

// issue returns a new ticket for c to stream tableID until expires.
func (t *streamTickets) issue(c caller, tableID string, now time.Time) (ticket string, expires time.Time, err error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", time.Time{}, fmt.Errorf("crypto/rand: %w", err)
	}
	ticket = ticketPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	expires = now.Add(StreamTicketTTL)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.grants.Add(HashToken(ticket), ticketGrant{tableID: tableID, caller: c, expires: expires})
	return ticket, expires, nil
}

// redeem uses ticket up: it returns the caller it was issued to if it is
// known, unused, unexpired and for tableID. Whatever the answer, the ticket
// is spent.
func (t *streamTickets) redeem(ticket, tableID string, now time.Time) (caller, bool) {
	h := HashToken(ticket)
	t.mu.Lock()
	defer t.mu.Unlock()
	g, ok := t.grants.Peek(h)
	if !ok {
		return caller{}, false
	}
	t.grants.Remove(h)
	if g.tableID != tableID || !now.Before(g.expires) {
		return caller{}, false
	}
	return g.caller, true
}

// streamTicket is the answer of POST /stream-tickets.
type streamTicket struct {
	Ticket    string    `json:"ticket"`
	ExpiresAt time.Time `json:"expires_at"`
}

// issueStreamTicket answers POST /v1/tables/{id}/stream-tickets.
func (s *server) issueStreamTicket(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r, true)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var none struct{}
	if err := decodeStrict(body, &none); err != nil {
		s.writeError(w, r, err)
		return
	}
	if s.Live == nil {
		s.writeError(w, r, problem(http.StatusServiceUnavailable, "live_unavailable", "this server has no live event feed"))
		return
	}
	if _, err := s.load(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	ticket, expires, err := s.tickets.issue(callerOf(r.Context()), chi.URLParam(r, "id"), s.Now())
	if err != nil {
		s.writeError(w, r, fmt.Errorf("issue stream ticket: %w", err))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, streamTicket{Ticket: ticket, ExpiresAt: expires.UTC()})
}

// authenticateStream authenticates /stream by its ticket when the URL has
// one, else by the Authorization header. Only a stream ticket is ever read
// from the URL: a bearer token there is refused like any unknown ticket.
func (s *server) authenticateStream(next http.Handler) http.Handler {
	byHeader := s.authenticate(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if !q.Has("ticket") {
			byHeader.ServeHTTP(w, r)
			return
		}
		addr, _ := s.keyByClient(r)
		if wait := s.authFails.blocked(addr, s.Now()); wait > 0 {
			s.rateLimited(w, r, wait, fmt.Sprintf("more than %d failed authentications from this address in a minute; retry after the time in Retry-After", s.Quotas.AuthFailuresPerMinute))
			return
		}
		c, ok := s.tickets.redeem(q.Get("ticket"), chi.URLParam(r, "id"), s.Now())
		if !ok {
			s.authFails.failed(addr, s.Now())
			s.writeError(w, r, problem(http.StatusUnauthorized, "invalid_stream_ticket",
				"the stream ticket is unknown, used, expired or for another table; get a new one with POST /v1/tables/{id}/stream-tickets"))
			return
		}
		if c.auditor {
			infoOf(r.Context()).player = "auditor"
		} else {
			infoOf(r.Context()).player = c.playerID
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), callerKey{}, c)))
	})
}
