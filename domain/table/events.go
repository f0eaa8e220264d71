package table

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"time"

	"paiju/domain/cards"
)

// Payload is the body of one event. Every payload type has a stable name,
// which is persisted; a payload's meaning never changes once shipped (new
// meaning gets a new type name).
type Payload interface {
	EventType() string
}

// The variant-agnostic events every game shares, so that projections and audit
// tools can read any table without knowing its game.

// TableOpened starts every table stream.
type TableOpened struct {
	TableID      string          `json:"table_id"`
	Game         string          `json:"game"`
	Variant      string          `json:"variant"`
	Options      json.RawMessage `json:"options"`
	Stake        int             `json:"stake"`
	Seats        int             `json:"seats"`
	RulesVersion string          `json:"rules_version"`
	OpenedBy     string          `json:"opened_by"`
	// Private tables are found by their room code only: never listed by
	// the lobby nor offered by quick play. The code itself is not in the
	// log (the store keeps it beside it, for the table's open life).
	Private bool `json:"private,omitempty"`
	// BroadcastDelay was recorded by tables opened while a delayed full
	// broadcast to spectators existed; it showed them the running deal's
	// hands. It stays readable so those streams replay as recorded, but
	// the server serves such a table as Spectators "public" (the safer
	// reading) and opens no new one.
	BroadcastDelay int `json:"broadcast_delay,omitempty"`
	// Spectators is the spectator policy (SpectatorsAfterDeal); absent:
	// public, spectators see the public events only.
	Spectators string `json:"spectators,omitempty"`
	// Clock is the turn clock; absent on tables opened without one.
	Clock *Clock `json:"clock,omitempty"`
	// MaxHands closes the table once that many hands are settled, whatever
	// the game; 0 (absent) leaves the end to the game.
	MaxHands int `json:"max_hands,omitempty"`
	// Tournament names the tournament that opened the table; absent on
	// tables opened by players. Such a table is never held back for want of
	// a present player, and a seat its player escapes is played out by a
	// bot, so that the tournament cannot stall on it.
	Tournament string `json:"tournament,omitempty"`
	// Reserved is the player drawn to each seat (a tournament's draw): only
	// that player may take the seat. Absent: any player may sit anywhere.
	Reserved []string `json:"reserved,omitempty"`
	// FixedDeals is SHA-256 (hex) of the secret that every deal of the
	// table is derived from (FixedDealSeed) instead of a fresh seed: the
	// tables of a duplicate set deal the same cards. Absent: fresh seeds.
	FixedDeals string `json:"fixed_deals,omitempty"`
	// WaitBetweenHands: after a hand settles, the next deal waits until
	// every seat is ready (SeatReady; bots and delegated seats are), so
	// that the players see the result first. Absent: the next hand is
	// dealt at once, as on every table opened before the flag existed.
	WaitBetweenHands bool `json:"wait_between_hands,omitempty"`
}

// DealsSecret carries the secret FixedDeals commits to. It follows
// TableOpened in the opening batch and is shown to the auditor only; the
// tournament that opened the table reveals it when it ends.
type DealsSecret struct {
	Seed string `json:"seed"` // 64 hex digits
}

// PlayerSeated: a player took a seat.
type PlayerSeated struct {
	Seat     int    `json:"seat"`
	PlayerID string `json:"player_id"`
	Name     string `json:"name"`
	// Bot: the seat is taken by a server bot, played by the game's bot.
	Bot bool `json:"bot,omitempty"`
}

// HandDealt records a deal: every seat's cards, the kitty, and the commitment
// SHA-256(seed) of the seed they were shuffled from. Hand counts hands from 1;
// Deal counts deals within a hand from 1 (a hand is re-dealt when the rules
// say so). FirstSeat is the seat the rules name to act first, drawn from the
// seed's stream when the rules say so.
type HandDealt struct {
	Hand       int            `json:"hand"`
	Deal       int            `json:"deal"`
	Commitment string         `json:"commitment"`
	Hands      [][]cards.Card `json:"hands"`
	Kitty      []cards.Card   `json:"kitty"`
	FirstSeat  int            `json:"first_seat"`
	// At is when the deal was made (UTC), when the service's seed source
	// dates deals (DealClock); a deadline counts from it.
	At time.Time `json:"at,omitzero"`
}

// DealSecret carries the seed of the deal it follows, so that the game can
// reveal it in the DealVoided or HandSettled that ends the deal. A game's Deal
// emits it right after HandDealt. Redact hides it entirely from every viewer
// but the auditor until its deal has ended.
type DealSecret struct {
	Hand int    `json:"hand"`
	Deal int    `json:"deal"`
	Seed string `json:"seed"` // 64 hex digits
}

// DealVoided ends a deal that the rules throw in (for example, everyone passed
// the bidding). It reveals the deal's seed; a new HandDealt for the same hand
// follows.
type DealVoided struct {
	Hand   int    `json:"hand"`
	Deal   int    `json:"deal"`
	Reason string `json:"reason"`
	Seed   string `json:"seed"`
}

// HandSettled ends a hand: per-seat deltas in stake units multiplied out, the
// game's result details, and the revealed seed. The deltas and House sum to
// zero: House is what the house takes (positive) or pays, nonzero only where a
// rules Decision says a settlement does not balance between the players
// (升级 escape, shengji.md).
type HandSettled struct {
	Hand   int             `json:"hand"`
	Deltas []int           `json:"deltas"`
	House  int             `json:"house,omitempty"`
	Result json.RawMessage `json:"result"`
	Seed   string          `json:"seed"`
}

// PlayerEscaped: a player left a running hand (逃跑). The game's escape
// settlement follows as a HandSettled; the seat is empty afterwards.
type PlayerEscaped struct {
	Seat     int    `json:"seat"`
	PlayerID string `json:"player_id"`
	Hand     int    `json:"hand"`
}

// PlayerLeft: a player left a table between hands; the seat is empty.
type PlayerLeft struct {
	Seat     int    `json:"seat"`
	PlayerID string `json:"player_id"`
}

// SeatReady: between hands at a table that waits for its seats
// (TableOpened.WaitBetweenHands), Seat is ready for the next deal: its
// player posted continue, or its time ran out (a TurnTimedOut precedes it).
type SeatReady struct {
	Seat int `json:"seat"`
}

// TableClosed ends the table; nothing may follow it.
type TableClosed struct {
	Reason string `json:"reason"`
	Totals []int  `json:"totals"`
}

func (TableOpened) EventType() string   { return "TableOpened" }
func (PlayerSeated) EventType() string  { return "PlayerSeated" }
func (HandDealt) EventType() string     { return "HandDealt" }
func (DealVoided) EventType() string    { return "DealVoided" }
func (DealSecret) EventType() string    { return "DealSecret" }
func (HandSettled) EventType() string   { return "HandSettled" }
func (PlayerEscaped) EventType() string { return "PlayerEscaped" }
func (PlayerLeft) EventType() string    { return "PlayerLeft" }
func (TableClosed) EventType() string   { return "TableClosed" }
func (DealsSecret) EventType() string   { return "DealsSecret" }
func (SeatReady) EventType() string     { return "SeatReady" }

// commonEvents decodes the variant-agnostic events.
var commonEvents = Events(
	TableOpened{}, PlayerSeated{}, HandDealt{}, DealVoided{}, DealSecret{},
	HandSettled{}, PlayerEscaped{}, PlayerLeft{}, TableClosed{},
	TurnTimedOut{}, SeatDelegated{}, SeatResumed{}, DealsSecret{},
	WatcherAdded{}, WatcherRemoved{}, SeatReady{},
)

// EventTypes decodes stored events by type name. Each name comes from the
// payload's own EventType, so that it is written once.
type EventTypes struct {
	types map[string]reflect.Type
}

// Events returns the decoder of the given payload types, each given as its
// zero value. A name given twice is a programming error and panics, as does a
// payload that is not a struct value (decoding fills a fresh one by type).
func Events(zeros ...Payload) EventTypes {
	types := make(map[string]reflect.Type, len(zeros))
	for _, z := range zeros {
		t := reflect.TypeOf(z)
		if t.Kind() != reflect.Struct {
			panic(fmt.Sprintf("table.Events: %T is not a struct value", z))
		}
		name := z.EventType()
		if prev, dup := types[name]; dup {
			panic(fmt.Sprintf("table.Events: event type %q names both %v and %v", name, prev, t))
		}
		types[name] = t
	}
	return EventTypes{types: types}
}

// Names lists the type names, sorted.
func (e EventTypes) Names() []string {
	return slices.Sorted(maps.Keys(e.types))
}

// CommonEventTypes lists the names of the events every game shares.
func CommonEventTypes() []string { return commonEvents.Names() }

// Has reports whether typ is one of the types.
func (e EventTypes) Has(typ string) bool {
	_, ok := e.types[typ]
	return ok
}

// Decode decodes JSON event data of type typ; an unknown type is an error.
func (e EventTypes) Decode(typ string, data []byte) (Payload, error) {
	t, ok := e.types[typ]
	if !ok {
		return nil, fmt.Errorf("unknown event type %q", typ)
	}
	v := reflect.New(t)
	if err := json.Unmarshal(data, v.Interface()); err != nil {
		return nil, fmt.Errorf("decode %s: %w", typ, err)
	}
	return v.Elem().Interface().(Payload), nil
}
