package dadun

import "paiju/domain/table"

// The game's own error codes, besides the table's (not_your_turn,
// wrong_phase, card_not_in_hand, invalid_combination, does_not_beat, …).
var (
	// ErrFriendCard: a call names a card the banker may not call (one it
	// does not hold exactly one copy of), or a banker holding both copies of
	// the turned card passes instead of calling or going alone.
	ErrFriendCard = &table.Error{Kind: table.KindRule, Code: "invalid_friend_card"}
	// ErrNotBanker: only the banker holding both copies of the turned card
	// calls a friend.
	ErrNotBanker = &table.Error{Kind: table.KindConflict, Code: "not_banker"}
	// ErrTwo510K: exactly two 510K sets played together; several sets go out
	// together only three or more at a time (dadun.md, Combinations).
	ErrTwo510K = &table.Error{Kind: table.KindRule, Code: "two_510k_sets"}
)
