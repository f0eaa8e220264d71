package shengji

import (
	"paiju/domain/cards"
	"paiju/domain/table"
)

// The game's own events. Their type names and JSON shapes are persisted and
// never change meaning; doc.go shows them and who may see which fields.

// CardsDrawn: Seat advanced the deal by one round; Cards[s] is the card seat s
// drew (one each, in the draw order of doc.go). Each seat sees only its own.
type CardsDrawn struct {
	Seat  int            `json:"seat"`
	Round int            `json:"round"` // 1..26
	Cards [][]cards.Card `json:"cards"`
}

// TrumpDeclared: Seat declared (亮主) with Cards, one joker and Pairs pairs
// of Suit. Declarations are hidden (暗亮): other seats see the seat, Jokers
// and Pairs, never Suit or Cards, until the kitty is buried (TrumpRevealed).
// qiangbao: a shown level card (Pairs 0) or a pair of it (Pairs 1), no
// joker, public at once.
type TrumpDeclared struct {
	Seat   int          `json:"seat"`
	Cards  []cards.Card `json:"cards,omitempty"`
	Suit   string       `json:"suit,omitempty"`
	Jokers int          `json:"jokers"`
	Pairs  int          `json:"pairs"`
	// Kind (guafeng): "" for a first declaration, "override" for 沖主 (2+
	// jokers over a one-joker declaration), "stick" for 粘牌; Stuck lists the
	// seats a stick takes the declaration cards of, after the bury.
	Kind  string `json:"kind,omitempty"`
	Stuck []int  `json:"stuck,omitempty"`
}

// TrumpReinforced (guafeng, 續牌): the standing declarer Seat added Cards
// (the second of its joker, or a pair extending its tractor) to its
// declaration, which now has Jokers jokers and Pairs pairs. Cards are hidden
// from other seats as the declaration's are.
type TrumpReinforced struct {
	Seat   int          `json:"seat"`
	Cards  []cards.Card `json:"cards,omitempty"`
	Jokers int          `json:"jokers"`
	Pairs  int          `json:"pairs"`
}

// LevelDropped (guafeng, 悶牌): nobody declared in a later hand, so the
// dealer's Side drops to Level (not below A) before the kitty is flipped.
type LevelDropped struct {
	Side  int    `json:"side"`
	Level string `json:"level"`
}

// DeclarationTaken (guafeng, 粘牌): the sticker Seat took the declaration
// cards Cards (reinforcements included) of the stuck seat From, public since
// they were declared; Trumps is how many of the cards it gives back must be
// jokers, level cards, 2s, 3s or 5s (one per joker taken). It follows the
// bury for the first stuck seat, and the last CardGiven to a stuck seat for
// the next one.
type DeclarationTaken struct {
	Seat   int          `json:"seat"`
	From   int          `json:"from"`
	Cards  []cards.Card `json:"cards"`
	Trumps int          `json:"trumps"`
}

// CardGiven (guafeng, 粘牌): the sticker Seat gave the stuck seat To one card
// back (Cards holds it) for the declaration cards it took; Left more are
// owed to To. Cards only the two seats see until the hand ends.
type CardGiven struct {
	Seat  int          `json:"seat"`
	To    int          `json:"to"`
	Cards []cards.Card `json:"cards,omitempty"`
	Left  int          `json:"left"`
}

// KittySwapOpened (guafeng, 粘牌 kitty swap): the sticker Seat's exchange
// is over and it may now take plain trump-suit cards out of the buried
// Kitty, one KittySwapped each, until it passes (KittySwapClosed). It
// follows the last CardGiven of every stick, whether a swap is possible or
// not, so that its coming tells nobody what the kitty holds. Kitty (the
// buried cards) only the sticker and the burier see until the hand ends.
type KittySwapOpened struct {
	Seat  int          `json:"seat"`
	Kitty []cards.Card `json:"kitty,omitempty"`
}

// KittySwapped (guafeng, 粘牌 kitty swap): the sticker Seat took Cards[0],
// a plain card of the trump suit, out of the kitty and put Cards[1], a side
// card of the same rank from its hand, in its place (the action's cards).
// Cards only the sticker and the burier see until the hand ends.
type KittySwapped struct {
	Seat  int          `json:"seat"`
	Cards []cards.Card `json:"cards,omitempty"`
}

// KittySwapClosed (guafeng, 粘牌 kitty swap): the sticker Seat passed on
// further swaps; the dealer leads.
type KittySwapClosed struct {
	Seat int `json:"seat"`
}

// DeclarePassed: Seat passed in the final declaration window; a seat passes
// once and may not declare after it.
type DeclarePassed struct {
	Seat int `json:"seat"`
}

// KittyFlipped: nobody declared, so the kitty was turned over in order up to
// its first card that is not a joker, whose suit is trump (public).
// qiangbao: its first three cards, the third card's suit being trump, ""
// when it is a joker (无主, no trump suit).
type KittyFlipped struct {
	Cards []cards.Card `json:"cards"`
	Suit  string       `json:"suit"`
}

// KittyTaken: the deal is over; Seat is the hand's dealer, Level its level
// rank, and Cards the kitty joining the dealer's hand (only the dealer sees
// them). Declarer is the final declarer, null when the kitty was flipped.
type KittyTaken struct {
	Seat     int          `json:"seat"`
	Declarer *int         `json:"declarer"`
	Level    string       `json:"level"`
	Cards    []cards.Card `json:"cards,omitempty"`
	// Burier (guafeng) is the seat that takes and buries the kitty when it
	// is not the dealer: the dealer's partner when the dealer declared.
	Burier *int `json:"burier,omitempty"`
}

// KittyBuried: the dealer (guafeng: the burier, Seat) buried Cards face down (扣底); only the burier sees
// them until the hand ends.
// qiangbao: one card per KittyBuried, eight in all.
type KittyBuried struct {
	Seat  int          `json:"seat"`
	Cards []cards.Card `json:"cards,omitempty"`
}

// TrumpRevealed follows KittyBuried when the trump was declared: the final
// declaration (seat, cards) and its suit become public.
type TrumpRevealed struct {
	Seat  int          `json:"seat"`
	Cards []cards.Card `json:"cards"`
	Suit  string       `json:"suit"`
}

// CardsPlayed: Seat played Cards (display order). Shape is the play read as
// a combination ("single", "pair", "tractor2", …), or "mixed" for a follow
// that is none of them.
type CardsPlayed struct {
	Seat  int          `json:"seat"`
	Cards []cards.Card `json:"cards"`
	Shape string       `json:"shape"`
}

// TrickWon: trick Trick (from 1) went to Seat with Points in it; Defenders is
// the defenders' running total from tricks (the kitty is counted in the
// settlement).
type TrickWon struct {
	Trick     int `json:"trick"`
	Seat      int `json:"seat"`
	Points    int `json:"points"`
	Defenders int `json:"defenders"`
}

func (CardsDrawn) EventType() string    { return "CardsDrawn" }
func (TrumpDeclared) EventType() string { return "TrumpDeclared" }
func (DeclarePassed) EventType() string { return "DeclarePassed" }
func (KittyFlipped) EventType() string  { return "KittyFlipped" }
func (KittyTaken) EventType() string    { return "KittyTaken" }
func (KittyBuried) EventType() string   { return "KittyBuried" }
func (TrumpRevealed) EventType() string { return "TrumpRevealed" }
func (CardsPlayed) EventType() string   { return "CardsPlayed" }
func (TrickWon) EventType() string      { return "TrickWon" }

func (TrumpReinforced) EventType() string  { return "TrumpReinforced" }
func (LevelDropped) EventType() string     { return "LevelDropped" }
func (DeclarationTaken) EventType() string { return "DeclarationTaken" }
func (CardGiven) EventType() string        { return "CardGiven" }
func (KittySwapOpened) EventType() string  { return "KittySwapOpened" }
func (KittySwapped) EventType() string     { return "KittySwapped" }
func (KittySwapClosed) EventType() string  { return "KittySwapClosed" }

// Result is the game's detail of a HandSettled, as its JSON result.
type Result struct {
	// End is "played_out" or "escape".
	End      string `json:"end"`
	Dealer   *int   `json:"dealer"`
	Declarer *int   `json:"declarer"`
	Level    string `json:"level,omitempty"`
	Trump    string `json:"trump,omitempty"`
	// Kitty is the buried kitty, revealed.
	Kitty []cards.Card `json:"kitty"`
	// TrickPoints: the defenders' points from tricks. KittyPoints ×
	// KittyMultiplier is added when the defenders won the last trick
	// (KittyMultiplier is 0 otherwise). DefenderPoints is the total X the
	// scoring table reads.
	TrickPoints     int `json:"trick_points"`
	KittyPoints     int `json:"kitty_points"`
	KittyMultiplier int `json:"kitty_multiplier"`
	DefenderPoints  int `json:"defender_points"`
	// KittyDeducted (guafeng, the kitty_deduction option): the dealer side
	// won the last trick with trumps, so KittyPoints × KittyMultiplier was
	// taken off the defenders' points.
	KittyDeducted bool `json:"kitty_deducted,omitempty"`
	LastTrick     int  `json:"last_trick"` // seat that won the last trick
	// Winner is "dealer" or "defenders"; Multiple the stakes each seat of
	// the winning side gets from each seat of the other; LevelSteps the
	// levels the next dealer side goes up. With option duplicate no level
	// moves and NextDealer is nil: the next hand is a first hand again.
	Winner     string `json:"winner,omitempty"`
	Multiple   int    `json:"multiple"`
	LevelSteps int    `json:"level_steps"`
	NextDealer *int   `json:"next_dealer"`
	// The table options that changed this result, absent at their
	// defaults (shengji.md, Table options): KittyRule the kitty_multiplier
	// mode that made KittyMultiplier, Step the points per level that made
	// Multiple, StepsLost the level steps a must_defend gate cut off
	// (LevelSteps is what the side did rise).
	KittyRule string `json:"kitty_rule,omitempty"`
	Step      int    `json:"step,omitempty"`
	StepsLost int    `json:"steps_lost,omitempty"`
	// Levels: each side's level after the hand (side 0 = seats 0 and 2),
	// "won" past K. MatchWinner is the side that passed K.
	Levels      []string `json:"levels"`
	MatchWinner *int     `json:"match_winner,omitempty"`
	// MatchPoints (qiangbao): each side's match points after the hand;
	// MatchWinner is then the side ahead once the match's hands are
	// played and the points untied.
	MatchPoints []int `json:"match_points,omitempty"`
	// Escape: the escaper, their cards left, the penalty they paid, the
	// bonus each other seat got, and the house's share (the rest).
	Escaper   *int  `json:"escaper,omitempty"`
	CardsLeft []int `json:"cards_left,omitempty"`
	Penalty   int   `json:"penalty,omitempty"`
	Bonus     int   `json:"bonus,omitempty"`
	House     int   `json:"house,omitempty"`
}

// events decodes the game's own event types.
var events = table.Events(
	CardsDrawn{}, TrumpDeclared{}, DeclarePassed{}, KittyFlipped{}, KittyTaken{}, KittyBuried{}, TrumpRevealed{}, CardsPlayed{}, TrickWon{}, TrumpReinforced{}, LevelDropped{}, DeclarationTaken{}, CardGiven{},
	KittySwapOpened{}, KittySwapped{}, KittySwapClosed{},
)

// suitName and suitNamed persist a suit by its notation letter.
func suitName(s cards.Suit) string { return s.Letter() }

func suitNamed(name string) cards.Suit {
	for s := cards.Spades; s < cards.Joker; s++ {
		if s.Letter() == name {
			return s
		}
	}
	return cards.Joker
}
