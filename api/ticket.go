package api

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
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
// Tickets are kept by their SHA-256 in a TicketStore: by default the
// memory of the node that issued them (behind a load balancer, a client's
// requests must then reach that node, or it retries with a fresh ticket; a
// restart forgets them all, which costs a client one more POST). A cluster
// passes a store every node shares, and a ticket opens a stream on any
// node.

// StreamTicketTTL is how long a stream ticket stays valid.
const StreamTicketTTL = 30 * time.Second

// ticketPrefix tells a stream ticket from a bearer token at a glance.
const ticketPrefix = "pjst_"

// maxTickets bounds the tickets waiting to be redeemed in memory; past it
// the oldest are forgotten (each caller's issuing is bounded by the rate
// limit).
const maxTickets = 1 << 16

// TicketStore keeps issued stream tickets until they are redeemed. Keys
// are ticket hashes (lowercase hex); a grant is opaque to the store. The
// store may forget a grant once StreamTicketTTL has passed since its Put.
type TicketStore interface {
	// Put stores a new ticket's grant under key.
	Put(ctx context.Context, key string, grant []byte) error
	// Take returns the grant under key and removes it, atomically: of two
	// Takes of one key, at most one returns true.
	Take(ctx context.Context, key string) (grant []byte, ok bool, err error)
}

// ticketGrant is what a ticket opens.
type ticketGrant struct {
	TableID  string    `json:"table_id"`
	PlayerID string    `json:"player_id,omitempty"`
	Name     string    `json:"name,omitempty"`
	Created  time.Time `json:"created,omitzero"`
	Auditor  bool      `json:"auditor,omitempty"`
	// TokenID is the token the ticket was obtained with: the stream it
	// opens ends when that token is revoked.
	TokenID string `json:"token_id,omitempty"`
	// RoomTable: the ticket was issued to watch this private table by its
	// room code, which the stream's URL does not carry.
	RoomTable string    `json:"room_table,omitempty"`
	Expires   time.Time `json:"expires"`
}

func (g ticketGrant) caller() caller {
	return caller{playerID: g.PlayerID, name: g.Name, created: g.Created, auditor: g.Auditor, tokenID: g.TokenID, roomTable: g.RoomTable}
}

// memoryTickets is the TicketStore of a single node.
type memoryTickets struct {
	mu     sync.Mutex
	grants *lru.Cache[string, []byte]
}

// NewMemoryTickets returns a TicketStore in this process's memory, the
// default: tickets are redeemed only on the node that issued them.
func NewMemoryTickets() TicketStore {
	g, err := lru.New[string, []byte](maxTickets)
	if err != nil {
		panic(fmt.Sprintf("api: ticket cache: %v", err))
	}
	return &memoryTickets{grants: g}
}

func (t *memoryTickets) Put(_ context.Context, key string, grant []byte) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.grants.Add(key, grant)
	return nil
}

func (t *memoryTickets) Take(_ context.Context, key string) ([]byte, bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	g, ok := t.grants.Peek(key)
	if ok {
		t.grants.Remove(key)
	}
	return g, ok, nil
}

// streamTickets issues and redeems tickets kept in a TicketStore.
type streamTickets struct{ store TicketStore }

// issue returns a new ticket for c to stream tableID until expires.
func (t streamTickets) issue(ctx context.Context, c caller, tableID string, now time.Time) (ticket string, expires time.Time, err error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", time.Time{}, fmt.Errorf("crypto/rand: %w", err)
	}
	ticket = ticketPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	expires = now.Add(StreamTicketTTL)
	grant, err := json.Marshal(ticketGrant{TableID: tableID, PlayerID: c.playerID, Name: c.name, Created: c.created, Auditor: c.auditor, TokenID: c.tokenID, RoomTable: c.roomTable, Expires: expires})
	if err != nil {
		return "", time.Time{}, fmt.Errorf("encode ticket: %w", err)
	}
	if err := t.store.Put(ctx, HashToken(ticket), grant); err != nil {
		return "", time.Time{}, err
	}
	return ticket, expires, nil
}

// redeem uses ticket up: it returns the caller it was issued to if it is
// known, unused, unexpired and for tableID. Whatever the answer, the ticket
// is spent. An error means the store could not say.
func (t streamTickets) redeem(ctx context.Context, ticket, tableID string, now time.Time) (caller, bool, error) {
	b, ok, err := t.store.Take(ctx, HashToken(ticket))
	if err != nil || !ok {
		return caller{}, false, err
	}
	var g ticketGrant
	if err := json.Unmarshal(b, &g); err != nil {
		return caller{}, false, fmt.Errorf("decode ticket: %w", err)
	}
	if g.TableID != tableID || !now.Before(g.Expires) {
		return caller{}, false, nil
	}
	return g.caller(), true, nil
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
	l, err := s.load(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c := callerOf(r.Context())
	if l.State.Private && !watchesWithoutCode(l, c) {
		c.roomTable = l.State.ID // load checked its room code
	}
	ticket, expires, err := s.tickets.issue(r.Context(), c, chi.URLParam(r, "id"), s.Now())
	if err != nil {
		s.log.Warn("issue stream ticket", "err", err)
		s.writeError(w, r, problem(http.StatusServiceUnavailable, "live_unavailable", "stream tickets cannot be issued right now; retry"))
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
		c, ok, err := s.tickets.redeem(r.Context(), q.Get("ticket"), chi.URLParam(r, "id"), s.Now())
		if err != nil {
			s.log.Warn("redeem stream ticket", "err", err)
			s.writeError(w, r, problem(http.StatusServiceUnavailable, "live_unavailable", "stream tickets cannot be checked right now; retry with a new ticket"))
			return
		}
		if !ok {
			s.authFails.failed(addr, s.Now())
			s.writeError(w, r, problem(http.StatusUnauthorized, "invalid_stream_ticket",
				"the stream ticket is unknown, used, expired or for another table; get a new one with POST /v1/tables/{id}/stream-tickets"))
			return
		}
		next.ServeHTTP(w, withCaller(r, c))
	})
}
