package api

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

// ErrNoPlayer is what Players returns for an unknown token or id.
var ErrNoPlayer = errors.New("api: no such player")

// ErrNameTaken is what Players returns for a name whose comparison key
// another player holds.
var ErrNameTaken = errors.New("api: name taken")

// ErrNoToken is what Players returns for an unknown token id.
var ErrNoToken = errors.New("api: no such token")

// ErrTooManyTokens is what Players.CreateToken returns when the player
// holds its cap of live tokens already.
var ErrTooManyTokens = errors.New("api: too many live tokens")

// tokenTouchEvery is how coarsely a token's last use is kept: a request
// writes it only when the stored one is older, so that authentication stays
// a read.
const tokenTouchEvery = time.Minute

// caller is the authenticated principal of a request.
type caller struct {
	playerID string
	name     string
	created  time.Time
	auditor  bool
	// tokenID is the record of the token the request came with; "" for
	// the auditor.
	tokenID string
	// roomTable is the private table a stream ticket was issued for on the
	// strength of its room code (rooms.go).
	roomTable string
}

type callerKey struct{}

func callerOf(ctx context.Context) caller {
	if st := stateOf(ctx); st != nil {
		return st.who // without boxing the caller into an interface
	}
	c, _ := ctx.Value(callerKey{}).(caller)
	return c
}

// HashToken is how tokens are stored: hex SHA-256. Tokens carry 256 random
// bits, so a fast unsalted hash is enough to make a stolen table useless.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func newToken() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("crypto/rand: %w", err)
	}
	return "pj_" + base64.RawURLEncoding.EncodeToString(b[:]), nil
}

func (s *server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// An address that keeps failing is refused before its token is
		// looked at, so guessing costs the server nothing and tells nothing.
		// The address is worked out only when some address has failed,
		// or this one does.
		var addr string
		addrOf := func() string {
			if addr == "" {
				addr, _ = s.keyByClient(r)
			}
			return addr
		}
		if s.authFails.any() {
			if wait := s.authFails.blocked(addrOf(), s.Now()); wait > 0 {
				s.rateLimited(w, r, wait, fmt.Sprintf("more than %d failed authentications from this address in a minute; retry after the time in Retry-After", s.Quotas.AuthFailuresPerMinute))
				return
			}
		}
		h := r.Header.Get("Authorization")
		scheme, token, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			s.authFails.failed(addrOf(), s.Now())
			s.writeError(w, r, problem(http.StatusUnauthorized, "unauthorized", "send Authorization: Bearer <token> (POST /v1/players issues one)"))
			return
		}
		token = strings.TrimSpace(token)
		if s.AuditorToken != "" && subtle.ConstantTimeCompare([]byte(token), []byte(s.AuditorToken)) == 1 {
			next.ServeHTTP(w, withCaller(r, caller{auditor: true}))
			return
		}
		// The hash is looked up in the cache from a buffer; its string is
		// made only for a store read or a write.
		var hexHash [2 * sha256.Size]byte
		sum := sha256.Sum256([]byte(token))
		hex.Encode(hexHash[:], sum[:])
		now := s.Now()
		p, tok, gen, cached := s.tokens.get(hexHash[:], now)
		if !cached {
			hash := string(hexHash[:])
			var err error
			p, tok, err = s.Players.TokenByHash(r.Context(), hash)
			if errors.Is(err, ErrNoPlayer) {
				s.authFails.failed(addrOf(), now)
				s.writeError(w, r, problem(http.StatusUnauthorized, "unauthorized", "unknown token"))
				return
			}
			if err != nil {
				s.writeError(w, r, fmt.Errorf("authenticate: %w", err))
				return
			}
			// A revoked token is kept too: its refusals then cost no read
			// either, and a revocation only ever evicts.
			s.tokens.put(gen, hash, p, tok, now)
		}
		if !tok.live(now) {
			// Its holder knew the secret: saying why it stopped working
			// tells them nothing they could use.
			s.authFails.failed(addrOf(), now)
			why := "the token has expired"
			if !tok.RevokedAt.IsZero() {
				why = "the token was revoked"
			}
			s.writeError(w, r, problem(http.StatusUnauthorized, "unauthorized", why+"; use another of your tokens, or register"))
			return
		}
		if now.Sub(tok.LastUsedAt) >= tokenTouchEvery {
			// Last use is a convenience for the player's token list: a
			// failed write must not refuse the request.
			if err := s.Players.TouchToken(r.Context(), tok.ID, now); err != nil {
				s.log.WarnContext(r.Context(), "record token use", slog.String("token_id", tok.ID), slog.Any("err", err))
			} else {
				s.tokens.touched(string(hexHash[:]), now)
			}
		}
		next.ServeHTTP(w, withCaller(r, caller{playerID: p.ID, name: p.Name, created: p.CreatedAt, tokenID: tok.ID}))
	})
}
