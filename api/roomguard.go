package api

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/time/rate"
)

// Room code guessing (docs/OPERATIONS.md, Room codes) is bounded twice,
// and never by address: friends behind one NAT each have their own budget.
//
//   - Per player: Quotas.RoomFailuresPerMinute failed attempts, refilled
//     at that rate (a token bucket). A failure that empties the bucket locks
//     the player out for a minute, and each further lockout within the hour
//     for twice as long as the last (up to maxRoomLockout): a guesser's pace
//     falls off while a friend who mistypes once or twice never notices.
//   - Per node: Quotas.RoomFailuresPerNodePerMinute failed attempts of
//     everyone together. Once it is spent, a player who failed lately (its
//     own bucket is not full) is refused before its code is looked at,
//     until the node's budget refills; a player who has not failed lately
//     is still heard, so the right code of a friend is always accepted.
//
// An attempt is reserved before its code is compared and settled after, so
// that attempts made at once cannot each find the budget unspent: of 50
// wrong guesses at once, exactly the budget is answered.
//
// The budgets live in this process: each node of a cluster keeps its own,
// so a guesser spread over n nodes gets n times the rate.

// maxRoomLockout bounds a player's backoff.
const maxRoomLockout = time.Hour

// roomStrikesForget is how long after its last lockout a player's backoff
// starts again from a minute.
const roomStrikesForget = time.Hour

type roomGuard struct {
	per, nodePer int // failures a minute; < 0 is no limit

	mu       sync.Mutex
	players  *lru.Cache[string, *roomBudget]
	node     *rate.Limiter
	nodeHeld int // node budget reserved by attempts under way
}

// roomBudget is one player's: its bucket, the attempts under way, and its
// backoff.
type roomBudget struct {
	bucket      *rate.Limiter
	held        int
	strikes     int
	lockedUntil time.Time
	lastLockout time.Time
}

func newRoomGuard(per, nodePer int) *roomGuard {
	players, err := lru.New[string, *roomBudget](1 << 16)
	if err != nil {
		panic(fmt.Sprintf("api: room guard cache: %v", err))
	}
	g := &roomGuard{per: per, nodePer: nodePer, players: players}
	if nodePer >= 0 {
		g.node = rate.NewLimiter(perMinute(nodePer), nodePer)
	}
	return g
}

func perMinute(n int) rate.Limit { return rate.Limit(float64(n) / 60) }

// roomTry is one room code attempt under way; end settles it.
type roomTry struct {
	g      *roomGuard
	b      *roomBudget // nil: no player budget
	node   bool        // holds a reservation of the node's budget
	failed bool
}

// fail marks the attempt failed: an unknown or wrong code.
func (t *roomTry) fail() { t.failed = true }

// refusal is why an attempt may not be made now.
type refusal struct {
	wait time.Duration
	node bool // the node's budget, not the player's
}

// begin reserves an attempt of player at now, or says how long it must
// wait.
func (g *roomGuard) begin(player string, now time.Time) (*roomTry, *refusal) {
	g.mu.Lock()
	defer g.mu.Unlock()
	t := &roomTry{g: g}
	suspect := false
	if g.per >= 0 {
		b := g.budget(player)
		if now.Before(b.lockedUntil) {
			return nil, &refusal{wait: b.lockedUntil.Sub(now)}
		}
		tokens := b.bucket.TokensAt(now)
		if avail := tokens - float64(b.held); avail < 1 {
			return nil, &refusal{wait: untilTokens(b.bucket, 1-avail)}
		}
		suspect = tokens < float64(b.bucket.Burst()) || b.held > 0
		t.b = b
	}
	// Without player budgets nobody can be told apart as a guesser: the
	// node's budget then holds for every attempt.
	if g.node != nil && (suspect || g.per < 0) {
		if avail := g.node.TokensAt(now) - float64(g.nodeHeld); avail < 1 {
			return nil, &refusal{wait: untilTokens(g.node, 1-avail), node: true}
		}
		g.nodeHeld++
		t.node = true
	}
	if t.b != nil {
		t.b.held++
	}
	return t, nil
}

// untilTokens is how long l takes to refill n tokens.
func untilTokens(l *rate.Limiter, n float64) time.Duration {
	if l.Limit() <= 0 {
		return maxRoomLockout
	}
	return time.Duration(n / float64(l.Limit()) * float64(time.Second))
}

func (g *roomGuard) budget(player string) *roomBudget {
	b, ok := g.players.Get(player)
	if !ok {
		b = &roomBudget{bucket: rate.NewLimiter(perMinute(g.per), g.per)}
		g.players.Add(player, b)
	}
	return b
}

// end settles the attempt at now: a failure spends the player's and the
// node's budget, and a failure that empties the player's starts its next
// lockout.
func (t *roomTry) end(now time.Time) {
	g := t.g
	g.mu.Lock()
	defer g.mu.Unlock()
	if t.node {
		g.nodeHeld--
	}
	if g.node != nil && t.failed {
		// A failure past the node's budget (a player not failed lately)
		// spends nothing more: the budget is never in debt, so it refills
		// at its rate whatever the guessers do.
		g.node.AllowN(now, 1)
	}
	b := t.b
	if b == nil {
		return
	}
	b.held--
	if !t.failed {
		return
	}
	b.bucket.AllowN(now, 1)
	if b.bucket.TokensAt(now) >= 1 {
		return
	}
	if now.Sub(b.lastLockout) > roomStrikesForget {
		b.strikes = 0
	}
	b.lockedUntil = now.Add(min(maxRoomLockout, time.Minute<<min(b.strikes, 6)))
	b.lastLockout = now
	b.strikes++
}

// roomAttempt starts a room code attempt of the caller; a refused one is
// the 429 problem to answer. Every started attempt must be ended
// (roomTry.end), failed or not.
func (s *server) roomAttempt(r *http.Request) (*roomTry, error) {
	player, _ := keyByCaller(r)
	t, no := s.roomGuard.begin(player, s.Now())
	if no == nil {
		return t, nil
	}
	var p *Problem
	if no.node {
		p = problem(http.StatusTooManyRequests, "room_attempts_throttled",
			fmt.Sprintf("this server hears at most %d failed room code attempts a minute, and you failed one lately; retry after the time in Retry-After", s.Quotas.RoomFailuresPerNodePerMinute))
	} else {
		p = problem(http.StatusTooManyRequests, "room_attempts_limited",
			fmt.Sprintf("too many failed room code attempts (%d a minute, then a wait that doubles each time); retry after the time in Retry-After", s.Quotas.RoomFailuresPerMinute))
	}
	p.retryAfter = no.wait
	return nil, p
}
