package table

import "time"

// Live tables: the turn clock, 托管 (trusteeship) and bots. The table owns the
// clock and the delegation; a game says whom it waits for, what a seat does
// when its time runs out, and how its bot plays.

// Autoplay is implemented by rules that can run under the turn clock and be
// played by the server. Every method is pure, like the rest of Rules.
type Autoplay interface {
	// Awaited lists, in increasing seat order, the seats the game is waiting
	// for now; each of them has a running deadline. It is empty between deals
	// and when the game needs nobody (never nil-vs-empty significant). It must
	// be cheap: the table calls it after every event.
	Awaited(s GameState) []int
	// TimeoutAction is the documented default action of an awaited seat whose
	// deadline has passed (the game's doc.go states the policy per phase). It
	// must be legal for that seat: Decide accepts it as it is. The table stamps
	// At before deciding it.
	TimeoutAction(s GameState, seat int) Action
	// BotAction is the bot's choice for a seat, decided only from what that
	// seat may see: its view and its legal actions (escape excluded), never the
	// state. legal is never empty. The result must be one of legal.
	BotAction(v View, legal []Action) Action
}

// TurnTimedOut records that the turn clock ran out for Seat at At. The seat's
// default action (Autoplay.TimeoutAction) follows in the same batch.
type TurnTimedOut struct {
	Seat int       `json:"seat"`
	At   time.Time `json:"at"`
}

// SeatDelegated: from now on the server plays Seat (托管) with the game's bot.
// By is "clock" (DelegateAfter timeouts in a row) or "player" (the player
// asked for it).
type SeatDelegated struct {
	Seat int    `json:"seat"`
	By   string `json:"by"`
}

// SeatResumed: the player of Seat plays again themself.
type SeatResumed struct {
	Seat int `json:"seat"`
}

func (TurnTimedOut) EventType() string  { return "TurnTimedOut" }
func (SeatDelegated) EventType() string { return "SeatDelegated" }
func (SeatResumed) EventType() string   { return "SeatResumed" }
