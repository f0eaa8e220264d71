package eventstore

import (
	"context"
	"time"
)

// Accounts are the records a store keeps beside the log for the API: the
// players with their tokens, and the private rooms. They are never events:
// the log and its exports are read by people these records are not for.
type Accounts interface {
	Players
	Rooms
}

// Players are the registered players and their bearer tokens.
type Players interface {
	// CreatePlayer stores p with its first token, in one transaction. An
	// ID or token hash already in use is an error matching ErrExists; a
	// name key another player holds, one matching ErrNameTaken.
	CreatePlayer(ctx context.Context, p Player, first Token) error
	// PlayerByID returns the player with id, or an error matching
	// ErrNotFound.
	PlayerByID(ctx context.Context, id string) (Player, error)
	// RenamePlayer sets the name and name key of player id, or returns an
	// error matching ErrNotFound, or ErrNameTaken when another player
	// holds the key.
	RenamePlayer(ctx context.Context, id, name, nameKey string) error
	// CreateToken stores a further token of t.PlayerID unless the player
	// holds maxLive tokens live at t.CreatedAt already (an error matching
	// ErrLimit); maxLive < 0 is no cap. The count and the insert are one
	// transaction that excludes every other CreateToken of the player, on
	// every node sharing the store, so the cap holds under concurrent
	// requests. A token id or hash already in use is an error matching
	// ErrExists; an unknown player, one matching ErrNotFound.
	CreateToken(ctx context.Context, t Token, maxLive int) error
	// TokenByHash returns the token whose hash is hash and its player,
	// revoked and expired tokens included (the caller judges them by
	// Token.Live), or an error matching ErrNotFound. The hash is a
	// credential: errors never show it.
	TokenByHash(ctx context.Context, hash string) (Player, Token, error)
	// TokenByID returns the token id, or an error matching ErrNotFound.
	TokenByID(ctx context.Context, id string) (Token, error)
	// Tokens lists playerID's tokens, revoked and expired ones included,
	// oldest first.
	Tokens(ctx context.Context, playerID string) ([]Token, error)
	// RevokeToken revokes playerID's token id at at and returns it;
	// revoking a revoked token keeps its first revocation time. A token
	// that is not playerID's is an error matching ErrNotFound, as an
	// unknown one.
	RevokeToken(ctx context.Context, playerID, id string, at time.Time) (Token, error)
	// TouchToken records that token id was used at at; a use earlier than
	// the one recorded changes nothing.
	TouchToken(ctx context.Context, id string, at time.Time) error
}

// Rooms bind private tables to their room codes (Room).
type Rooms interface {
	// CreateRoom binds code to tableID. A code or table already bound is
	// an error matching ErrExists.
	CreateRoom(ctx context.Context, code, tableID string, at time.Time) error
	// TakeOverRoom rebinds code from oldTable (closed) to newTable. If code
	// is no longer oldTable's (another table took it over first), the
	// error matches ErrNotFound; if newTable holds a code already, ErrExists.
	TakeOverRoom(ctx context.Context, code, oldTable, newTable string, at time.Time) error
	// ReleaseRoom unbinds code if tableID holds it; otherwise it does
	// nothing.
	ReleaseRoom(ctx context.Context, code, tableID string) error
	// RoomByCode returns the room of code, or an error matching
	// ErrNotFound. A code is a secret of its table's players: errors never
	// show it.
	RoomByCode(ctx context.Context, code string) (Room, error)
	// RoomOfTable returns the room of tableID, or an error matching
	// ErrNotFound.
	RoomOfTable(ctx context.Context, tableID string) (Room, error)
}
