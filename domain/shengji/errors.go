package shengji

import "paiju/domain/table"

// The game's own error codes, besides the table's (not_your_turn,
// wrong_phase, card_not_in_hand, invalid_combination, …).
var (
	ErrNotDeclaration  = &table.Error{Kind: table.KindRule, Code: "invalid_declaration"}
	ErrDeclarationWeak = &table.Error{Kind: table.KindRule, Code: "declaration_too_weak"}
	ErrAlreadyDeclared = &table.Error{Kind: table.KindRule, Code: "already_declared"}
	ErrAlreadyPassed   = &table.Error{Kind: table.KindConflict, Code: "already_passed"}
	ErrNotDealer       = &table.Error{Kind: table.KindConflict, Code: "not_dealer"}
	ErrBuryFour        = &table.Error{Kind: table.KindRule, Code: "bury_four"}
	ErrMustFollowSuit  = &table.Error{Kind: table.KindRule, Code: "must_follow_suit"}
	ErrMustPlayPairs   = &table.Error{Kind: table.KindRule, Code: "must_play_pairs"}
	ErrMustPlayHighest = &table.Error{Kind: table.KindRule, Code: "must_play_highest"}
	ErrWrongCardCount  = &table.Error{Kind: table.KindRule, Code: "wrong_card_count"}
	ErrMustPlayThunder = &table.Error{Kind: table.KindRule, Code: "must_play_thunder"}
	ErrCannotReinforce = &table.Error{Kind: table.KindRule, Code: "cannot_reinforce"}
	ErrCannotStick     = &table.Error{Kind: table.KindRule, Code: "cannot_stick"}
	ErrMustBuryJokers  = &table.Error{Kind: table.KindRule, Code: "must_bury_jokers"}
	ErrDeclaredCards   = &table.Error{Kind: table.KindRule, Code: "declared_cards_owed"}
	ErrBadExchange     = &table.Error{Kind: table.KindRule, Code: "invalid_exchange"}
	ErrNotSticker      = &table.Error{Kind: table.KindConflict, Code: "not_sticker"}
	ErrBadSwap         = &table.Error{Kind: table.KindRule, Code: "invalid_swap"}
)
