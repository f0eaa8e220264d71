package tournament

import (
	"paiju/domain/table"
)

// The events of a tournament stream (tournament-<id>). Like a table's, each
// is immutable once shipped.

// Opened starts every tournament stream. Commitment is SHA-256 of the
// tournament's secret seed (hex), from which every round's seating is drawn;
// Ended reveals the seed.
type Opened struct {
	TournamentID  string `json:"tournament_id"`
	Game          string `json:"game"`
	Variant       string `json:"variant"`
	Format        string `json:"format"`
	Players       int    `json:"players"`
	HandsPerTable int    `json:"hands_per_table"`
	Stake         int    `json:"stake"`
	Commitment    string `json:"commitment"`
	OpenedBy      string `json:"opened_by"`
	// Seats is how many players a table seats; absent (0) in the streams of
	// three-seat tournaments, which were all there was before it.
	Seats int `json:"seats,omitempty"`
	// Partnerships: seats 0 and 2 play against seats 1 and 3 (升级), and a
	// duplicate compares the sides, not the seats.
	Partnerships bool `json:"partnerships,omitempty"`
}

// Secret carries the seed Opened commits to. It follows Opened in the same
// batch and is shown to nobody but the auditor before Ended reveals it.
type Secret struct {
	Seed string `json:"seed"` // 64 hex digits
}

// Registered: a player took a place in the tournament.
type Registered struct {
	PlayerID string `json:"player_id"`
	Name     string `json:"name"`
}

// Withdrew: a registered player gave up their place before the field was
// full; the entrants after them move up one place in registration order.
type Withdrew struct {
	PlayerID string `json:"player_id"`
}

// Started: the field is full; Players is the field in registration order.
type Started struct {
	Players []string `json:"players"`
}

// RoundStarted records a round's seating draw: Field is the players of the
// round in registration order, Seating the draw (see Draw); table t seats
// Seating[3t], Seating[3t+1], Seating[3t+2] in seats 0, 1, 2.
type RoundStarted struct {
	Round   int      `json:"round"`
	Field   []string `json:"field"`
	Seating []string `json:"seating"`
}

// TableAssigned names the table that plays one table of a round, with its
// players by seat.
type TableAssigned struct {
	Round   int      `json:"round"`
	Table   int      `json:"table"`
	TableID string   `json:"table_id"`
	Players []string `json:"players"`
}

// Standing is one player's result at a table: the seat's total of the
// match, its place (1 = first; the match breaks a tie for first with extra
// hands, so exactly one seat is first), and the hands the seat lost (a
// negative settlement), which orders the top-up after the points.
type Standing struct {
	Seat      int    `json:"seat"`
	PlayerID  string `json:"player_id"`
	Place     int    `json:"place"`
	Total     int    `json:"total"`
	HandsLost int    `json:"hands_lost"`
}

// ResultRecorded is the final standing of one table's match, by seat.
type ResultRecorded struct {
	Round     int        `json:"round"`
	Table     int        `json:"table"`
	TableID   string     `json:"table_id"`
	Hands     int        `json:"hands"`
	Standings []Standing `json:"standings"`
}

// Advanced closes a round: the table winners advance, the best of the others
// are brought back to make the field a multiple of three, the rest are out.
type Advanced struct {
	Round       int      `json:"round"`
	Winners     []string `json:"winners"`
	BroughtBack []string `json:"brought_back"`
	Eliminated  []string `json:"eliminated"`
}

// HandScore is one settled hand of a duplicate table: the deal it ended on
// and each seat's settlement.
type HandScore struct {
	Hand   int   `json:"hand"`
	Deal   int   `json:"deal"`
	Deltas []int `json:"deltas"`
}

// DuplicateResult is a duplicate table's match, hand by hand.
type DuplicateResult struct {
	Round   int         `json:"round"`
	Table   int         `json:"table"`
	TableID string      `json:"table_id"`
	Hands   []HandScore `json:"hands"`
}

// Score is a player's result in a duplicate tournament: matchpoints (for
// each hand, 1 for every player who held the same cards at another table
// and scored less, ½ for every one who scored the same; with partnerships,
// the side's, compared with the sides that held the same cards) and the
// points scored.
type Score struct {
	PlayerID    string  `json:"player_id"`
	Matchpoints float64 `json:"matchpoints"`
	Points      int     `json:"points"`
}

// Scored ranks a duplicate tournament's players: by matchpoints, then
// points, then registration.
type Scored struct {
	Scores []Score `json:"scores"`
}

// Ended: the final table's winner wins; Seed reveals the seed Opened
// committed to, from which anyone can redraw every round.
type Ended struct {
	Winner string `json:"winner"`
	Seed   string `json:"seed"`
}

func (Opened) EventType() string          { return "TournamentOpened" }
func (Secret) EventType() string          { return "TournamentSecret" }
func (Registered) EventType() string      { return "TournamentPlayerRegistered" }
func (Withdrew) EventType() string        { return "TournamentPlayerWithdrew" }
func (Started) EventType() string         { return "TournamentStarted" }
func (RoundStarted) EventType() string    { return "TournamentRoundStarted" }
func (TableAssigned) EventType() string   { return "TournamentTableAssigned" }
func (ResultRecorded) EventType() string  { return "TournamentTableResult" }
func (Advanced) EventType() string        { return "TournamentPlayersAdvanced" }
func (Ended) EventType() string           { return "TournamentEnded" }
func (DuplicateResult) EventType() string { return "TournamentDuplicateResult" }
func (Scored) EventType() string          { return "TournamentScored" }

var events = table.Events(Opened{}, Secret{}, Registered{}, Withdrew{}, Started{}, RoundStarted{}, TableAssigned{}, ResultRecorded{}, Advanced{}, Ended{}, DuplicateResult{}, Scored{})

// EventTypes lists the names of a tournament's events, sorted.
func EventTypes() []string { return events.Names() }

// Decode decodes a stored tournament event.
func Decode(typ string, data []byte) (table.Payload, error) { return events.Decode(typ, data) }

// Redact returns p as anyone but the auditor may see it in a tournament
// that has ended or not: nil for the secret (Ended reveals the seed), and a
// duplicate table's hands left out until the end, since they would tell the
// players of a table that has not yet played a deal how it went elsewhere.
func Redact(p table.Payload, ended bool) table.Payload {
	switch e := p.(type) {
	case Secret:
		return nil
	case DuplicateResult:
		if !ended {
			e.Hands = nil
		}
		return e
	}
	return p
}
