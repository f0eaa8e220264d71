package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
)

// A player holds several tokens (a phone, a laptop), each a record of its
// own with a label, a coarse last use, an optional expiry and a revocation.
// The secret is shown once, when issued; lists show records only.
//
// Revocation is immediate on the node that revokes and on every node that
// hears the notice (Deps.Revocations): each forgets the token's cached
// verification, so its next request reads the shared player store and
// fails. A node that misses the notice trusts its cached verification for
// Deps.TokenCacheFor at most (1 s by default) and then reads the store
// again: that is the bound on a revocation anywhere. Live streams authenticated once,
// when they opened: the node that revokes ends its own streams of that
// token at once (tokenStreams); a stream on another node finds the
// revocation when it checks its token again, at its next heartbeat
// (Deps.Heartbeat, 15 s by default), and ends then — or at once, when the
// nodes share Deps.Revocations (NATS): the revoking node announces the token
// and every node ends its streams of it.

// Revocations spreads token revocations between nodes (natsbus.Revocations
// is one).
type Revocations interface {
	// Announce tells every node that tokenID was revoked.
	Announce(ctx context.Context, tokenID string) error
	// Listen calls revoked with each token revoked from now on, on any
	// node, until stop is called; revoked must not block.
	Listen(revoked func(tokenID string)) (stop func(), err error)
}

// registrationLabel labels the token POST /v1/players issues.
const registrationLabel = "registration"

// maxLabelLen bounds a token's label, like a name.
const maxLabelLen = 40

// maxLiveTokens bounds the tokens a player holds at once (not revoked, not
// expired), so that the list stays a list.
const maxLiveTokens = 20

// maxTokenLifetime bounds expires_in: a year.
const maxTokenLifetime = 365 * 24 * time.Hour

// minTokenLifetime is the shortest expires_in, long enough to be of use.
const minTokenLifetime = time.Minute

func newTokenID() (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("crypto/rand: %w", err)
	}
	return "tk_" + hex.EncodeToString(b[:]), nil
}

func (s *server) tokenRoutes(r chi.Router) {
	r.Patch("/me", s.renameMe)
	r.Get("/me/tokens", s.listTokens)
	r.Post("/me/tokens", s.createToken)
	r.Delete("/me/tokens/{tokenID}", s.revokeToken)
}

// tokenOut is a token record as its player sees it: never the secret.
type tokenOut struct {
	ID         string     `json:"id"`
	Label      string     `json:"label"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	ExpiresAt  *time.Time `json:"expires_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
	// Current marks the token the request came with.
	Current bool `json:"current"`
}

func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

func tokenOf(t TokenRecord, c caller) tokenOut {
	return tokenOut{ID: t.ID, Label: t.Label, CreatedAt: t.CreatedAt.UTC(), LastUsedAt: optTime(t.LastUsedAt),
		ExpiresAt: optTime(t.ExpiresAt), RevokedAt: optTime(t.RevokedAt), Current: t.ID == c.tokenID}
}

type tokenList struct {
	Tokens []tokenOut `json:"tokens"`
}

// playerCaller is the caller if it is a player; the auditor token belongs
// to no player.
func playerCaller(r *http.Request) (caller, error) {
	c := callerOf(r.Context())
	if c.auditor {
		return caller{}, errNotAPlayer
	}
	return c, nil
}

func (s *server) listTokens(w http.ResponseWriter, r *http.Request) {
	c, err := playerCaller(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	recs, err := s.Players.Tokens(r.Context(), c.playerID)
	if err != nil {
		s.writeError(w, r, fmt.Errorf("list tokens: %w", err))
		return
	}
	out := tokenList{Tokens: make([]tokenOut, 0, len(recs))}
	for _, t := range recs {
		out.Tokens = append(out.Tokens, tokenOf(t, c))
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
}

type createTokenRequest struct {
	Label string `json:"label"`
	// ExpiresIn is the token's lifetime in seconds; absent: it never
	// expires.
	ExpiresIn *int64 `json:"expires_in"`
}

// issuedToken is the answer of POST /v1/me/tokens: the record and, this
// once, the secret.
type issuedToken struct {
	tokenOut
	Token string `json:"token"`
}

func (s *server) createToken(w http.ResponseWriter, r *http.Request) {
	c, err := playerCaller(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	body, err := readBody(w, r, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req createTokenRequest
	if err := decodeStrict(body, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	label, err := visibleText(req.Label, maxLabelLen, func(why string) error {
		return problem(http.StatusUnprocessableEntity, "invalid_label",
			fmt.Sprintf("label must be 1 to %d characters of visible text: %s", maxLabelLen, why))
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	now := s.Now().UTC()
	rec := TokenRecord{PlayerID: c.playerID, Label: label, CreatedAt: now}
	if req.ExpiresIn != nil {
		d := time.Duration(*req.ExpiresIn) * time.Second
		if *req.ExpiresIn < int64(minTokenLifetime/time.Second) || *req.ExpiresIn > int64(maxTokenLifetime/time.Second) {
			s.writeError(w, r, problem(http.StatusUnprocessableEntity, "invalid_expires_in",
				fmt.Sprintf("expires_in is seconds, from %d to %d; leave it out for a token that does not expire", int64(minTokenLifetime/time.Second), int64(maxTokenLifetime/time.Second))))
			return
		}
		rec.ExpiresAt = now.Add(d)
	}
	secret, err := newToken()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if rec.ID, err = newTokenID(); err != nil {
		s.writeError(w, r, err)
		return
	}
	rec.Hash = HashToken(secret)
	// The store counts the live tokens and adds this one in one
	// transaction: a count read here first would let concurrent requests
	// each see room for one more.
	if err := s.Players.CreateToken(r.Context(), rec, maxLiveTokens); err != nil {
		if errors.Is(err, ErrTooManyTokens) {
			s.writeError(w, r, problem(http.StatusConflict, "too_many_tokens",
				fmt.Sprintf("you hold %d tokens that still work, the most there may be; revoke one (DELETE /v1/me/tokens/{id}) first", maxLiveTokens)))
			return
		}
		s.writeError(w, r, fmt.Errorf("create token: %w", err))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, issuedToken{tokenOut: tokenOf(rec, c), Token: secret})
}

func (s *server) revokeToken(w http.ResponseWriter, r *http.Request) {
	c, err := playerCaller(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	id := chi.URLParam(r, "tokenID")
	if _, err := s.Players.RevokeToken(r.Context(), c.playerID, id, s.Now().UTC()); err != nil {
		if errors.Is(err, ErrNoToken) {
			// Another player's token is as unknown as a made-up id.
			s.writeError(w, r, problem(http.StatusNotFound, "token_not_found", "you hold no token with that id (GET /v1/me/tokens lists yours)"))
			return
		}
		s.writeError(w, r, fmt.Errorf("revoke token: %w", err))
		return
	}
	s.revoked(id)
	if s.Revocations != nil {
		// The revocation holds already (the store); the notice only hurries
		// the other nodes' streams, which their heartbeat ends anyway.
		if err := s.Revocations.Announce(r.Context(), id); err != nil {
			s.log.WarnContext(r.Context(), "announce a token revocation", "token_id", id, "err", err)
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

type renameRequest struct {
	Name string `json:"name"`
}

// renameMe changes the caller's name, normalised as at registration. Events
// already recorded keep the name they were recorded with.
func (s *server) renameMe(w http.ResponseWriter, r *http.Request) {
	c, err := playerCaller(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	body, err := readBody(w, r, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req renameRequest
	if err := decodeStrict(body, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	name, key, err := playerName(req.Name)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.Players.RenamePlayer(r.Context(), c.playerID, name, key); err != nil {
		s.writeError(w, r, nameTaken(name, fmt.Errorf("rename player: %w", err)))
		return
	}
	s.tokens.evictPlayer(c.playerID)
	writeJSON(w, http.StatusOK, me{ID: c.playerID, Name: name, CreatedAt: c.created.UTC()})
}

// tokenStreams are the live streams open on this node, by the token that
// opened them (directly or through a stream ticket).
type tokenStreams struct {
	mu   sync.Mutex
	next uint64
	m    map[string]map[uint64]context.CancelFunc
}

func newTokenStreams() *tokenStreams {
	return &tokenStreams{m: map[string]map[uint64]context.CancelFunc{}}
}

// add registers a stream of tokenID that end cancels; remove unregisters it.
func (t *tokenStreams) add(tokenID string, cancel context.CancelFunc) (remove func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	n := t.next
	if t.m[tokenID] == nil {
		t.m[tokenID] = map[uint64]context.CancelFunc{}
	}
	t.m[tokenID][n] = cancel
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		delete(t.m[tokenID], n)
		if len(t.m[tokenID]) == 0 {
			delete(t.m, tokenID)
		}
	}
}

// end cancels every stream of tokenID open on this node.
func (t *tokenStreams) end(tokenID string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, cancel := range t.m[tokenID] {
		cancel()
	}
}

// revoked forgets tokenID on this node: its cached verification and its
// live streams. It runs for a revocation made here and for each notice of
// one made elsewhere, so it must not block.
func (s *server) revoked(tokenID string) {
	s.tokens.evictToken(tokenID)
	s.tokenStreams.end(tokenID)
}

// tokenStillLive reports whether the token a stream was opened with still
// authenticates. A store that cannot say keeps the stream: its next check
// decides.
func (s *server) tokenStillLive(ctx context.Context, c caller) bool {
	if c.tokenID == "" {
		return true
	}
	t, err := s.Players.TokenByID(ctx, c.tokenID)
	if errors.Is(err, ErrNoToken) {
		return false
	}
	if err != nil {
		s.log.WarnContext(ctx, "check a stream's token", "token_id", c.tokenID, "err", err)
		return true
	}
	return t.live(s.Now())
}
