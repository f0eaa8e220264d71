package eventstore

import "time"

// Player is a registered player, as the stores keep it beside the log. Its
// bearer tokens are records of their own (Token).
type Player struct {
	ID   string
	Name string
	// NameKey is the name's comparison key (the api derives it): no two
	// players hold one key. Empty for a player registered before keys
	// were kept, until it is renamed (migrations/0013_name_keys).
	NameKey   string
	CreatedAt time.Time // UTC; set by CreatePlayer when zero
}

// Token is one bearer token of a player: a player holds several (one per
// device, say), each revocable on its own. The token itself is never
// stored, only Hash, a digest the api package computes; ID names the record
// (in URLs and lists) and tells nothing about the secret.
type Token struct {
	ID        string
	PlayerID  string
	Label     string
	Hash      string
	CreatedAt time.Time // UTC; set by the store when zero
	// LastUsedAt is when the token last authenticated a request, kept
	// coarsely (the api updates it at most once a minute); zero: never.
	LastUsedAt time.Time
	// ExpiresAt is when the token stops working; zero: never.
	ExpiresAt time.Time
	// RevokedAt is when the player revoked the token; zero: not revoked.
	RevokedAt time.Time
}

// Live reports whether t still authenticates at now.
func (t Token) Live(now time.Time) bool {
	return t.RevokedAt.IsZero() && (t.ExpiresAt.IsZero() || now.Before(t.ExpiresAt))
}
