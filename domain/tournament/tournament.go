// Package tournament is the Tournament aggregate: players seated three to a
// table (four for a partnership game's duplicate, Opened.Seats). Two formats: elimination (seed 002, rules/README.md, Tournaments),
// rounds of N-hand matches whose best advance, topped up to a multiple of
// three, down to a final table; and duplicate, one round of tables that
// play the same N deals, each player scored in matchpoints against those who
// held the same cards elsewhere. It is pure like the rest of the domain:
// the service hands it the seed, the table ids and each table's result, and
// appends what it decides to the stream tournament-<id>.
//
// The seating draw. A tournament commits to a secret 32-byte seed when it
// opens (Opened.Commitment = SHA-256(seed), hex) and reveals it when it ends
// (Ended.Seed). Round r (from 1) seats its field — the round's players in
// registration order, as recorded in RoundStarted.Field — by a Fisher–Yates
// shuffle driven by cards.NewStream(SHA-256(seed ‖ r as 8 bytes big-endian)):
// for i from len−1 down to 1, j = Below(i+1), swap field[i] and field[j]
// (the construction of domain/cards, docs/AUDIT.md). Table t seats the
// shuffled players nt … nt+n−1 in seats 0 … n−1, n the seats of a table
// (3, or Opened.Seats). Anyone holding the
// revealed seed can redraw every round (Draw).
package tournament

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// Format names.
const (
	FormatElimination = "elimination"
	FormatDuplicate   = "duplicate"
)

// SeatsPerTable is how many players a tournament table seats unless
// Opened.Seats says otherwise.
const SeatsPerTable = 3

// PartnershipSeats is the table of a partnership game (升级): seats 0 and 2
// against 1 and 3.
const PartnershipSeats = 4

// Bounds of the options.
const (
	MaxPlayers       = 729
	MaxHandsPerTable = 100
)

// Status values.
const (
	StatusRegistering = "registering"
	StatusRunning     = "running"
	StatusEnded       = "ended"
)

// Errors of the tournament (table.Error, so the API maps them like a table's).
var (
	ErrFull         = &table.Error{Kind: table.KindConflict, Code: "tournament_full"}
	ErrRegistered   = &table.Error{Kind: table.KindConflict, Code: "already_registered"}
	ErrNotEntrant   = &table.Error{Kind: table.KindConflict, Code: "not_registered"}
	ErrNotRunning   = &table.Error{Kind: table.KindConflict, Code: "tournament_not_running"}
	ErrBadResult    = &table.Error{Kind: table.KindInvalid, Code: "invalid_table_result"}
	ErrUnknownTable = &table.Error{Kind: table.KindConflict, Code: "not_a_tournament_table"}
)

// IDs hands out the ids of the tables a round opens.
type IDs interface{ NewID() string }

// Entrant is a registered player.
type Entrant struct {
	PlayerID string `json:"player_id"`
	Name     string `json:"name"`
}

// Table is one table of a round.
type Table struct {
	TableID   string           `json:"table_id"`
	Players   []string         `json:"players"`
	Result    *ResultRecorded  `json:"result"`
	Duplicate *DuplicateResult `json:"duplicate"`
}

// Done reports whether the table's result is recorded.
func (t Table) Done() bool { return t.Result != nil || t.Duplicate != nil }

// Round is one round of the tournament.
type Round struct {
	Number   int       `json:"number"`
	Field    []string  `json:"field"`
	Tables   []Table   `json:"tables"`
	Advanced *Advanced `json:"advanced"`
}

// State is a tournament folded from its events.
type State struct {
	Opened
	Version    int
	Status     string
	Entrants   []Entrant
	Rounds     []Round
	Winner     string
	Seed       string // revealed by Ended; "" before
	Eliminated map[string]int
	Scores     []Score // a duplicate tournament's ranking, once scored
	secret     string
}

// DealsSecret is the secret a duplicate tournament's tables derive every
// deal from (table.FixedDealSeed): SHA-256(seed ‖ C(0)), the "round 0" seed
// of the draw's construction, so that the tournament's commitment covers
// the deals before the first hand and its revealed seed proves them.
func (s *State) DealsSecret() (cards.Seed, bool) {
	seed, err := cards.ParseSeed(s.secret)
	if s.Format != FormatDuplicate || err != nil {
		return cards.Seed{}, false
	}
	return DealsSecretOf(seed), true
}

// DealsSecretOf is DealsSecret for the tournament seed seed.
func DealsSecretOf(seed cards.Seed) cards.Seed {
	return roundSeed(seed, 0)
}

func roundSeed(seed cards.Seed, r int) cards.Seed {
	var buf [len(seed) + 8]byte
	copy(buf[:], seed[:])
	binary.BigEndian.PutUint64(buf[len(seed):], uint64(r))
	return cards.Seed(sha256.Sum256(buf[:]))
}

// New returns the empty state a stream starts from.
func New() *State { return &State{Eliminated: map[string]int{}} }

// TableSeats is how many players each of the tournament's tables seats.
func (s *State) TableSeats() int { return tableSeats(s.Opened) }

func tableSeats(o Opened) int {
	if o.Seats > 0 {
		return o.Seats
	}
	return SeatsPerTable
}

// Registration returns the index of player in registration order, or -1.
func (s *State) Registration(player string) int {
	return slices.IndexFunc(s.Entrants, func(e Entrant) bool { return e.PlayerID == player })
}

// Current returns the running round, or nil.
func (s *State) Current() *Round {
	if len(s.Rounds) == 0 {
		return nil
	}
	return &s.Rounds[len(s.Rounds)-1]
}

// TableOf returns the round and table index of a table id, or false.
func (s *State) TableOf(tableID string) (round, tab int, ok bool) {
	for r, rd := range s.Rounds {
		for t, tb := range rd.Tables {
			if tb.TableID == tableID {
				return r + 1, t, true
			}
		}
	}
	return 0, 0, false
}

// Apply evolves s by one event.
func Apply(s *State, p table.Payload) {
	s.Version++
	switch e := p.(type) {
	case Opened:
		s.Opened = e
		s.Status = StatusRegistering
	case Secret:
		s.secret = e.Seed
	case Registered:
		s.Entrants = append(s.Entrants, Entrant(e))
	case Withdrew:
		s.Entrants = slices.DeleteFunc(s.Entrants, func(x Entrant) bool { return x.PlayerID == e.PlayerID })
	case Started:
		s.Status = StatusRunning
	case RoundStarted:
		s.Rounds = append(s.Rounds, Round{Number: e.Round, Field: e.Field})
	case TableAssigned:
		r := &s.Rounds[e.Round-1]
		r.Tables = append(r.Tables, Table{TableID: e.TableID, Players: e.Players})
	case ResultRecorded:
		res := e
		s.Rounds[e.Round-1].Tables[e.Table].Result = &res
	case DuplicateResult:
		res := e
		s.Rounds[e.Round-1].Tables[e.Table].Duplicate = &res
	case Scored:
		s.Scores = e.Scores
	case Advanced:
		adv := e
		s.Rounds[e.Round-1].Advanced = &adv
		for _, p := range e.Eliminated {
			s.Eliminated[p] = e.Round
		}
	case Ended:
		s.Status, s.Winner, s.Seed = StatusEnded, e.Winner, e.Seed
	}
}

// Opening is what a tournament is opened with.
type Opening struct {
	ID, Game, Variant, Format string
	Players, HandsPerTable    int
	Stake                     int
	OpenedBy                  string
	// Seats per table (0: SeatsPerTable) and whether seats 0/2 and 1/3 are
	// partners: the service reads both from the game's rules.
	Seats        int
	Partnerships bool
}

// Open decides the opening of a tournament committed to seed. The game and
// variant are the service's to check (a three-seat game that plays N-hand
// matches, or a partnership game of four for a duplicate); Open holds the
// tables to those two shapes.
func Open(o Opening, seed cards.Seed) ([]table.Payload, error) {
	n := o.Seats
	if n == SeatsPerTable {
		n = 0 // recorded as absent, as before there were other tables
	}
	switch {
	case n == 0 && !o.Partnerships:
	case n == PartnershipSeats && o.Partnerships && o.Format == FormatDuplicate:
	default:
		return nil, table.ErrBadOption.With("a tournament seats %d to a table, or %d partners for a duplicate: not %d (partnerships %t) in format %q", SeatsPerTable, PartnershipSeats, o.Seats, o.Partnerships, o.Format)
	}
	seats := tableSeats(Opened{Seats: n})
	switch o.Format {
	case FormatElimination:
	case FormatDuplicate:
		if o.Players < 2*seats {
			return nil, table.ErrBadOption.With("a duplicate tournament compares tables: players must be at least %d, got %d", 2*seats, o.Players)
		}
	default:
		return nil, table.ErrBadOption.With("format must be %q or %q, got %q", FormatElimination, FormatDuplicate, o.Format)
	}
	if o.Players < seats || o.Players > MaxPlayers || o.Players%seats != 0 {
		return nil, table.ErrBadOption.With("players must be a multiple of %d from %d to %d, got %d", seats, seats, MaxPlayers, o.Players)
	}
	if o.HandsPerTable < 1 || o.HandsPerTable > MaxHandsPerTable {
		return nil, table.ErrBadOption.With("hands_per_table must be 1..%d, got %d", MaxHandsPerTable, o.HandsPerTable)
	}
	if o.Stake < 1 || o.Stake > table.MaxStake {
		return nil, table.ErrBadOption.With("stake must be an integer from 1 to %d, got %d", table.MaxStake, o.Stake)
	}
	return []table.Payload{
		Opened{
			TournamentID: o.ID, Game: o.Game, Variant: o.Variant, Format: o.Format,
			Players: o.Players, HandsPerTable: o.HandsPerTable, Stake: o.Stake,
			Commitment: seed.Commitment(), OpenedBy: o.OpenedBy,
			Seats: n, Partnerships: o.Partnerships,
		},
		Secret{Seed: seed.String()},
	}, nil
}

// Register decides a player's registration; the one that fills the field
// starts the tournament and its first round, whose tables take ids from ids.
func Register(s *State, player, name string, ids IDs) ([]table.Payload, error) {
	if s.Status != StatusRegistering {
		return nil, ErrFull.With("registration is closed: the tournament is %s", s.Status)
	}
	if s.Registration(player) >= 0 {
		return nil, ErrRegistered.With("you are already registered")
	}
	evs := []table.Payload{Registered{PlayerID: player, Name: name}}
	if len(s.Entrants)+1 < s.Players {
		return evs, nil
	}
	field := make([]string, 0, s.Players)
	for _, e := range s.Entrants {
		field = append(field, e.PlayerID)
	}
	field = append(field, player)
	evs = append(evs, Started{Players: slices.Clone(field)})
	round, err := s.round(1, field, ids)
	if err != nil {
		return nil, err
	}
	return append(evs, round...), nil
}

// Withdraw decides a registered player's withdrawal, possible only while the
// tournament registers (the registration that fills the field starts it).
func Withdraw(s *State, player string) ([]table.Payload, error) {
	if s.Status != StatusRegistering {
		return nil, ErrFull.With("registration is closed: the tournament is %s", s.Status)
	}
	if s.Registration(player) < 0 {
		return nil, ErrNotEntrant.With("you are not registered for this tournament")
	}
	return []table.Payload{Withdrew{PlayerID: player}}, nil
}

// round draws round r of field (in registration order).
func (s *State) round(r int, field []string, ids IDs) ([]table.Payload, error) {
	seed, err := cards.ParseSeed(s.secret)
	if err != nil {
		return nil, err
	}
	seating := Draw(seed, r, field)
	evs := []table.Payload{RoundStarted{Round: r, Field: field, Seating: seating}}
	n := s.TableSeats()
	for t := 0; t < len(seating)/n; t++ {
		evs = append(evs, TableAssigned{Round: r, Table: t, TableID: ids.NewID(), Players: slices.Clone(seating[t*n : (t+1)*n])})
	}
	return evs, nil
}

// Draw is the seating of round r: field shuffled as the package doc says.
func Draw(seed cards.Seed, r int, field []string) []string {
	st := cards.NewStream(roundSeed(seed, r))
	out := slices.Clone(field)
	for i := len(out) - 1; i > 0; i-- {
		j := int(st.Below(uint64(i + 1)))
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// Record decides the final standings of a table's match; the last table of
// a round closes it (Advanced) and opens the next round, or ends the
// tournament after the final table.
func Record(s *State, tableID string, hands int, standings []Standing, ids IDs) ([]table.Payload, error) {
	round, t, err := s.openTable(tableID)
	if err != nil {
		return nil, err
	}
	if s.Format != FormatElimination {
		return nil, ErrBadResult.With("a %s tournament records its tables hand by hand", s.Format)
	}
	tb := s.Rounds[round-1].Tables[t]
	if err := checkStandings(tb.Players, standings); err != nil {
		return nil, err
	}
	if hands < s.HandsPerTable {
		return nil, ErrBadResult.With("a match plays at least %d hands, the result says %d", s.HandsPerTable, hands)
	}
	st := slices.Clone(standings)
	slices.SortStableFunc(st, func(a, b Standing) int { return a.Place - b.Place })
	res := ResultRecorded{Round: round, Table: t, TableID: tableID, Hands: hands, Standings: st}
	evs := []table.Payload{res}
	// The round as it stands after this result (s itself is not modified).
	rd := s.Rounds[round-1]
	rd.Tables = slices.Clone(rd.Tables)
	rd.Tables[t].Result = &res
	for _, tb := range rd.Tables {
		if !tb.Done() {
			return evs, nil
		}
	}
	adv := s.advance(rd)
	evs = append(evs, adv)
	if len(rd.Tables) == 1 {
		return append(evs, Ended{Winner: adv.Winners[0], Seed: s.secret}), nil
	}
	field := append(slices.Clone(adv.Winners), adv.BroughtBack...)
	slices.SortFunc(field, func(a, b string) int { return s.Registration(a) - s.Registration(b) })
	more, err := s.round(round+1, field, ids)
	if err != nil {
		return nil, err
	}
	return append(evs, more...), nil
}

// checkStandings requires one standing per seat of the table, for the player
// drawn to it, places consistent with the totals and a single first.
func checkStandings(players []string, st []Standing) error {
	if len(st) != len(players) {
		return ErrBadResult.With("%d standings for a table of %d", len(st), len(players))
	}
	seen := make([]bool, len(players))
	firsts := 0
	for _, x := range st {
		if x.Seat < 0 || x.Seat >= len(players) || seen[x.Seat] {
			return ErrBadResult.With("seat %d is out of range or given twice", x.Seat)
		}
		seen[x.Seat] = true
		if x.PlayerID != players[x.Seat] {
			return ErrBadResult.With("seat %d was drawn for %s, not %s", x.Seat, players[x.Seat], x.PlayerID)
		}
		if x.HandsLost < 0 {
			return ErrBadResult.With("hands_lost cannot be negative")
		}
		place := 1
		for _, o := range st {
			if o.Total > x.Total {
				place++
			}
		}
		if x.Place != place {
			return ErrBadResult.With("seat %d with %d points is place %d, not %d", x.Seat, x.Total, place, x.Place)
		}
		if place == 1 {
			firsts++
		}
	}
	if firsts != 1 {
		return ErrBadResult.With("a tie for first is played out with extra hands: a result has one first")
	}
	return nil
}

// advance closes round rd: each table's first advances; when that is not a
// multiple of three, the best of the others by points, then fewer hands
// lost, then earlier registration, are brought back to make it one.
func (s *State) advance(rd Round) Advanced {
	adv := Advanced{Round: rd.Number, Winners: []string{}, BroughtBack: []string{}, Eliminated: []string{}}
	var rest []Standing
	for _, tb := range rd.Tables {
		for _, x := range tb.Result.Standings {
			if x.Place == 1 {
				adv.Winners = append(adv.Winners, x.PlayerID)
			} else {
				rest = append(rest, x)
			}
		}
	}
	slices.SortStableFunc(rest, func(a, b Standing) int {
		if a.Total != b.Total {
			return b.Total - a.Total
		}
		if a.HandsLost != b.HandsLost {
			return a.HandsLost - b.HandsLost
		}
		return s.Registration(a.PlayerID) - s.Registration(b.PlayerID)
	})
	need := 0
	if len(rd.Tables) > 1 {
		need = (SeatsPerTable - len(adv.Winners)%SeatsPerTable) % SeatsPerTable
	}
	for i, x := range rest {
		if i < need {
			adv.BroughtBack = append(adv.BroughtBack, x.PlayerID)
		} else {
			adv.Eliminated = append(adv.Eliminated, x.PlayerID)
		}
	}
	return adv
}

// openTable finds a table of the running round whose result is not
// recorded yet.
func (s *State) openTable(tableID string) (round, t int, err error) {
	if s.Status != StatusRunning {
		return 0, 0, ErrNotRunning.With("the tournament is %s", s.Status)
	}
	round, t, ok := s.TableOf(tableID)
	if !ok || round != len(s.Rounds) {
		return 0, 0, ErrUnknownTable.With("table %s is not a table of the tournament's running round", tableID)
	}
	if s.Rounds[round-1].Tables[t].Done() {
		return 0, 0, ErrBadResult.With("table %s already has its result", tableID)
	}
	return round, t, nil
}

// RecordDuplicate decides a duplicate table's result, hand by hand; the
// last table's scores the tournament (Scored) and ends it.
func RecordDuplicate(s *State, tableID string, hands []HandScore) ([]table.Payload, error) {
	round, t, err := s.openTable(tableID)
	if err != nil {
		return nil, err
	}
	if s.Format != FormatDuplicate {
		return nil, ErrBadResult.With("an %s tournament records each table's standings", s.Format)
	}
	if len(hands) != s.HandsPerTable {
		return nil, ErrBadResult.With("a duplicate table plays %d hands, the result has %d", s.HandsPerTable, len(hands))
	}
	for i, h := range hands {
		if h.Hand != i+1 || h.Deal < 1 || len(h.Deltas) != s.TableSeats() {
			return nil, ErrBadResult.With("hand %d of the result is hand %d, deal %d with %d deltas", i+1, h.Hand, h.Deal, len(h.Deltas))
		}
	}
	res := DuplicateResult{Round: round, Table: t, TableID: tableID, Hands: cloneHands(hands)}
	evs := []table.Payload{res}
	rd := s.Rounds[round-1]
	rd.Tables = slices.Clone(rd.Tables)
	rd.Tables[t].Duplicate = &res
	for _, tb := range rd.Tables {
		if !tb.Done() {
			return evs, nil
		}
	}
	scores := s.matchpoints(rd)
	return append(evs, Scored{Scores: scores}, Ended{Winner: scores[0].PlayerID, Seed: s.secret}), nil
}

func cloneHands(hs []HandScore) []HandScore {
	out := make([]HandScore, len(hs))
	for i, h := range hs {
		out[i] = HandScore{Hand: h.Hand, Deal: h.Deal, Deltas: slices.Clone(h.Deltas)}
	}
	return out
}

// matchpoints scores a duplicate round: the player in seat s of a table is
// compared, hand by hand, with the players in seat s of the other tables
// that ended that hand on the same deal (so held the same cards): 1 for
// each of them they outscored, ½ for each tie. With partnerships the unit
// compared is the side: its score of a hand is the sum of its two seats'
// settlements (equal but for an escape), compared with the same side of
// the other tables, and both partners get the side's matchpoints.
func (s *State) matchpoints(rd Round) []Score {
	// score is what seat seat of a table is compared on in hand h.
	score := func(h HandScore, seat int) int { return h.Deltas[seat] }
	if s.Partnerships {
		score = func(h HandScore, seat int) int {
			return h.Deltas[seat%2] + h.Deltas[seat%2+2]
		}
	}
	by := map[string]*Score{}
	var order []*Score
	for _, tb := range rd.Tables {
		for _, p := range tb.Players {
			sc := &Score{PlayerID: p}
			by[p] = sc
			order = append(order, sc)
		}
	}
	for _, tb := range rd.Tables {
		for hi, h := range tb.Duplicate.Hands {
			for seat, d := range h.Deltas {
				sc := by[tb.Players[seat]]
				sc.Points += d
				mine := score(h, seat)
				for _, other := range rd.Tables {
					o := other.Duplicate.Hands[hi]
					if other.TableID == tb.TableID || o.Deal != h.Deal {
						continue
					}
					switch theirs := score(o, seat); {
					case mine > theirs:
						sc.Matchpoints++
					case mine == theirs:
						sc.Matchpoints += 0.5
					}
				}
			}
		}
	}
	out := make([]Score, len(order))
	for i, sc := range order {
		out[i] = *sc
	}
	slices.SortStableFunc(out, func(a, b Score) int {
		switch {
		case a.Matchpoints != b.Matchpoints:
			if a.Matchpoints > b.Matchpoints {
				return -1
			}
			return 1
		case a.Points != b.Points:
			return b.Points - a.Points
		}
		return s.Registration(a.PlayerID) - s.Registration(b.PlayerID)
	})
	return out
}
