package eventstore

import "time"

// Player is a registered player, as the stores keep it beside the log. The
// bearer token itself is never stored, only TokenHash, a digest the api
// package computes.
type Player struct {
	ID        string
	Name      string
	TokenHash string
	CreatedAt time.Time // UTC; set by CreatePlayer when zero
}
