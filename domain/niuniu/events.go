package niuniu

import (
	"time"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// The game's own events. Their type names and JSON shapes are persisted and
// never change meaning; see doc.go for the shapes.

// HandArranged: a seat arranged its hand (拼牌), naming the three cards of
// its bull (in display order) read as Reading, or declared no bull (Cards
// empty, Reading no_bull). A later HandArranged of the same seat in the same
// deal replaces it. Seats other than Seat see it, until the deal ends, as
// {"seat":n,"hidden":true}: the bull's cards and its class are part of the hand.
type HandArranged struct {
	Seat    int          `json:"seat"`
	Cards   []cards.Card `json:"cards,omitempty"`
	Reading *Bull        `json:"reading,omitempty"`
	// Hidden marks the redacted copy another seat sees; never stored.
	Hidden bool `json:"hidden,omitempty"`
}

// HandsRevealed: every seat's hand, arrangement and reading, shown to all
// (摊牌). It is always followed by the HandSettled of the same hand.
type HandsRevealed struct {
	Hand  int            `json:"hand"`
	Hands []RevealedHand `json:"hands"`
}

// RevealedHand is one seat's hand at the reveal.
type RevealedHand struct {
	Seat      int          `json:"seat"`
	Cards     []cards.Card `json:"cards"`          // the five cards, in display order
	BullCards []cards.Card `json:"bull,omitempty"` // the arranged bull; none for no bull
	Reading
}

// RevealCalled: a seat called the reveal once the table's deadline had
// passed (niuniu.md, Arranging: "or when the table's clock runs out"). At is
// the service's clock reading when it was called. It is always followed by
// HandsRevealed and HandSettled; the seats that had not arranged are 没牛.
type RevealCalled struct {
	Seat int       `json:"seat"`
	At   time.Time `json:"at"`
}

// BoutForfeited: a player (not the banker) escaped (it follows the table's
// PlayerEscaped): it is 没牛 and has lost its bout to the banker at the
// banker's multiplier (niuniu.md, Escape, revised Decision). The hand plays
// on for everyone else; the bout is paid in the HandSettled that ends the
// hand. Until then only the banker sees the multiplier and delta, which
// tell the banker's class; another seat sees {"seat":n,"hidden":true}.
type BoutForfeited struct {
	Seat       int `json:"seat"`
	Multiplier int `json:"multiplier,omitempty"`
	Delta      int `json:"delta,omitempty"`
	// Banker is the hand's banker, recorded when it changes from hand to
	// hand (banker_mode rotate or random) so that Redact knows whom to show
	// the bout; absent under fixed, where it is the table's banker.
	Banker *int `json:"banker,omitempty"`
	// Hidden marks the redacted copy another seat sees; never stored.
	Hidden bool `json:"hidden,omitempty"`
}

// bout is the forfeited bout as the settlement lists it.
func (e BoutForfeited) bout() Bout {
	return Bout{Seat: e.Seat, Winner: "banker", By: ByEscape, Multiplier: e.Multiplier, Delta: e.Delta}
}

func (BoutForfeited) EventType() string { return "BoutForfeited" }
func (RevealCalled) EventType() string  { return "RevealCalled" }
func (HandArranged) EventType() string  { return "HandArranged" }
func (HandsRevealed) EventType() string { return "HandsRevealed" }

// Result is the game's detail of a HandSettled, as its JSON result.
type Result struct {
	// End is "revealed" (every seat arranged or declared), "deadline" (a
	// seat called the reveal after the table's deadline) or "escape".
	End    string `json:"end"`
	Banker int    `json:"banker"`
	// Readings and High are per seat: the class each seat was settled at and
	// its highest card. For an escape they are what the escape settlement
	// used (see doc.go, Settling).
	Readings []Bull       `json:"readings"`
	High     []cards.Card `json:"high"`
	// Bouts are the players' bouts against the banker that were settled, in
	// seat order.
	Bouts []Bout `json:"bouts"`
	// Escaper is the seat whose escape ended the hand, for an escape.
	Escaper *int `json:"escaper,omitempty"`
	// Escaped lists the players who escaped during the hand and forfeited
	// their bouts (niuniu.md, Escape, revised Decision), whatever ended it.
	Escaped []int `json:"escaped,omitempty"`
}

// Bout is one player's result against the banker.
type Bout struct {
	Seat int `json:"seat"`
	// Winner is "banker" or "player".
	Winner string `json:"winner"`
	// By is why: "class", "high_card", "banker_edge", "escape" or (two
	// bombs, option special_hands) "bomb_rank".
	By string `json:"by"`
	// Multiplier is the winning hand's (niuniu.md, Settlement).
	Multiplier int `json:"multiplier"`
	// Delta is the player's delta in stake units multiplied out; the
	// banker's is its negation.
	Delta int `json:"delta"`
}

// events decodes the game's own event types.
var events = table.Events(
	HandArranged{}, HandsRevealed{}, RevealCalled{}, BoutForfeited{},
)
