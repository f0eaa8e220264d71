// Package table is the Table aggregate: seats, the match around the hands, and
// the plumbing that lets any game plug in through the Rules interface. A table
// never names a game.
package table

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"paiju/domain/cards"
)

// SeedSource draws the secret seed of each deal. Production uses crypto/rand;
// tests and fixed-deal tables pass their own.
type SeedSource interface {
	NewSeed() (cards.Seed, error)
}

// DealClock is implemented by a SeedSource that also dates the deals it
// seeds. DealTime is called once per deal, right after NewSeed, and its time
// is recorded in HandDealt.At, so that a rule counting from the deal (a
// deadline) decides the same way on replay. The service's source reads its
// clock; the auditor's gives back the recorded times. A source that is not a
// DealClock leaves deals undated.
type DealClock interface {
	DealTime() time.Time
}

// Timed is implemented by rules whose legal actions depend on the time (an
// action that becomes legal once a deadline has passed). LegalAt lists what
// Legal lists plus what the time now allows; Decide checks the same against
// Action.At.
type Timed interface {
	LegalAt(s GameState, seat int, now time.Time) []Action
}

// State is a table folded from its events. Decide-side functions never modify
// it; Apply does.
type State struct {
	ID           string
	Game         string
	Variant      string
	Options      json.RawMessage
	Stake        int
	RulesVersion string
	Players      []string // player id per seat; "" is an empty seat
	Names        []string
	Version      int // number of events applied
	Hand         int // the current (or last) hand number, 0 before the first deal
	Deal         int // the current (or last) deal number within Hand
	InDeal       bool
	Voided       bool  // the last deal was voided: the same hand is dealt again
	Totals       []int // running sum of settlement deltas per seat
	Last         *HandSettled
	Closed       bool
	MaxHands     int // close after this many settled hands (0: no limit)
	Tournament   string
	Reserved     []string // the player each seat is reserved for (nil: none)
	FixedDeals   string   // the commitment to the secret every deal derives from ("": fresh seeds)
	dealsSeed    *cards.Seed
	Private      bool
	// BroadcastDelay is what an old table recorded
	// (TableOpened.BroadcastDelay); the service no longer acts on it.
	BroadcastDelay int
	// Spectators is the table's spectator policy (SpectatorsPublic or
	// SpectatorsAfterDeal), never "".
	Spectators string
	// WaitBetweenHands: the next deal waits for every seat to be ready
	// (TableOpened.WaitBetweenHands).
	WaitBetweenHands bool
	G                GameState
	Rules            Rules
	live
}

// New returns the empty state a stream starts from, for the given rules.
func New(r Rules) *State {
	return &State{Rules: r}
}

// Clone returns a deep copy of s.
func (s *State) Clone() *State {
	c := *s
	c.Players = slices.Clone(s.Players)
	c.Names = slices.Clone(s.Names)
	c.Totals = slices.Clone(s.Totals)
	if s.G != nil {
		c.G = s.G.Clone()
	}
	c.live = s.live.clone()
	return &c
}

// SeatOf returns the seat of player, or -1.
func (s *State) SeatOf(player string) int {
	if player == "" {
		return -1
	}
	return slices.Index(s.Players, player)
}

// Full reports whether every seat is taken.
func (s *State) Full() bool {
	return len(s.Players) > 0 && !slices.Contains(s.Players, "")
}

// Open returns the event that opens a table without a turn clock or a hand
// limit.
func Open(r Rules, id, game, variant string, stake int, openedBy string) ([]Payload, error) {
	return OpenWith(r, Opening{ID: id, Game: game, Variant: variant, Stake: stake, OpenedBy: openedBy})
}

// Opening is what a table is opened with.
type Opening struct {
	ID, Game, Variant string
	Stake             int
	OpenedBy          string
	// Clock is the turn clock (nil: none). A clock needs rules that can play
	// a seat (Autoplay).
	Clock *Clock
	// MaxHands closes the table after that many settled hands (0: no limit).
	MaxHands int
	// Tournament and Reserved: see TableOpened.
	Tournament string
	Reserved   []string
	// FixedDeals, if set, is the secret every deal derives from
	// (FixedDealSeed): TableOpened commits to it and a DealsSecret follows.
	FixedDeals *cards.Seed
	// Private: the table is joined by room code only (TableOpened.Private).
	Private bool
	// BroadcastDelay is accepted for the replay of tables that recorded it
	// (the auditor re-opens them); the service opens no new such table.
	BroadcastDelay int
	// Spectators is the spectator policy: "" or SpectatorsPublic (the
	// default, recorded as absent) or SpectatorsAfterDeal.
	Spectators string
	// WaitBetweenHands: after each hand the next deal waits until every
	// seat is ready (TableOpened.WaitBetweenHands). A tournament's table
	// never waits: the tournament's clock is its rounds.
	WaitBetweenHands bool
}

// The spectator policies (TableOpened.Spectators). Whoever is neither a
// seat nor a seat's watcher never sees a hidden card of a running deal
// under any of them.
const (
	// SpectatorsPublic: spectators see the public events only, every deal
	// as if it were still running.
	SpectatorsPublic = "public"
	// SpectatorsAfterDeal: spectators also see each deal in full (every
	// hand, the kitty, its seed) once it has ended: a replay, hand by hand.
	SpectatorsAfterDeal = "after_deal"
)

// normalSpectators is the recorded form of a spectator policy: the default
// left out, so that a table opened without it records what it did before.
func normalSpectators(policy string) (string, error) {
	switch policy {
	case "", SpectatorsPublic:
		return "", nil
	case SpectatorsAfterDeal:
		return policy, nil
	}
	return "", ErrBadOption.With("spectators must be %q or %q, got %q", SpectatorsPublic, SpectatorsAfterDeal, policy)
}

// MaxBroadcastDelay bounds Opening.BroadcastDelay.
const MaxBroadcastDelay = 1000

// MaxMaxHands bounds Opening.MaxHands.
const MaxMaxHands = 10_000

// OpenWith returns the event that opens a table.
func OpenWith(r Rules, o Opening) ([]Payload, error) {
	id, game, variant, stake, openedBy, c := o.ID, o.Game, o.Variant, o.Stake, o.OpenedBy, o.Clock
	if stake < 1 || stake > MaxStake {
		return nil, ErrBadOption.With("stake must be an integer from 1 to %d, got %d", MaxStake, stake)
	}
	if o.MaxHands < 0 || o.MaxHands > MaxMaxHands {
		return nil, ErrBadOption.With("max_hands must be 0 (no limit) or 1..%d, got %d", MaxMaxHands, o.MaxHands)
	}
	if o.Reserved != nil && len(o.Reserved) != r.Seats() {
		return nil, ErrBadOption.With("reserved names %d seats, the table has %d", len(o.Reserved), r.Seats())
	}
	if o.BroadcastDelay < 0 || o.BroadcastDelay > MaxBroadcastDelay {
		return nil, ErrBadOption.With("broadcast_delay must be 0 (none) or 1..%d events, got %d", MaxBroadcastDelay, o.BroadcastDelay)
	}
	if o.WaitBetweenHands && o.Tournament != "" {
		return nil, ErrBadOption.With("a tournament's tables deal the next hand at once: wait_between_hands is for tables opened by players")
	}
	spectators, err := normalSpectators(o.Spectators)
	if err != nil {
		return nil, err
	}
	if c != nil {
		if err := c.Validate(); err != nil {
			return nil, err
		}
		if _, ok := r.(Autoplay); !ok && c.TurnSeconds > 0 {
			return nil, ErrBadOption.With("%s/%s cannot run under a turn clock: set clock.turn_seconds to 0", game, variant)
		}
	}
	opened := TableOpened{
		TableID: id, Game: game, Variant: variant, Options: r.Options(),
		Stake: stake, Seats: r.Seats(), RulesVersion: r.Version(), OpenedBy: openedBy, Clock: c,
		MaxHands: o.MaxHands, Tournament: o.Tournament, Reserved: slices.Clone(o.Reserved),
		Private: o.Private, BroadcastDelay: o.BroadcastDelay, Spectators: spectators,
		WaitBetweenHands: o.WaitBetweenHands,
	}
	if o.FixedDeals == nil {
		return []Payload{opened}, nil
	}
	opened.FixedDeals = o.FixedDeals.Commitment()
	return []Payload{opened, DealsSecret{Seed: o.FixedDeals.String()}}, nil
}

// Join seats a player: seat < 0 takes the lowest free seat. When the last seat
// fills, the first deal follows in the same batch of events.
func Join(s *State, player, name string, seat int, seeds SeedSource) ([]Payload, error) {
	return join(s, player, name, seat, false, seeds)
}

// SeatBot seats a server bot, as Join seats a player; the game's bot
// (Autoplay.BotAction) plays the seat.
func SeatBot(s *State, player, name string, seat int, seeds SeedSource) ([]Payload, error) {
	if _, ok := s.Rules.(Autoplay); !ok {
		return nil, ErrBadOption.With("%s/%s has no bot", s.Game, s.Variant)
	}
	return join(s, player, name, seat, true, seeds)
}

func join(s *State, player, name string, seat int, bot bool, seeds SeedSource) ([]Payload, error) {
	if s.Closed {
		return nil, ErrTableClosed.With("table %s is closed", s.ID)
	}
	if s.SeatOf(player) >= 0 {
		return nil, ErrAlreadySeated.With("you already sit at seat %d", s.SeatOf(player))
	}
	if seat >= len(s.Players) {
		return nil, ErrNoSuchSeat.With("seat %d does not exist: this table has seats 0..%d", seat, len(s.Players)-1)
	}
	if s.Reserved != nil && !bot {
		r := slices.Index(s.Reserved, player)
		switch {
		case r < 0:
			return nil, ErrSeatReserved.With("the seats of this table are drawn by its tournament: you have none")
		case seat >= 0 && seat != r:
			return nil, ErrSeatReserved.With("seat %d is reserved for another player: yours is %d", seat, r)
		}
		seat = r
	}
	if seat < 0 {
		seat = slices.Index(s.Players, "")
		if seat < 0 {
			return nil, ErrTableFull.With("all %d seats are taken", len(s.Players))
		}
	} else if s.Players[seat] != "" {
		return nil, ErrSeatTaken.With("seat %d is taken", seat)
	}
	if s.InDeal {
		// A seat freed by an escape while the hand plays on (牛牛) holds the
		// escaper's dealt cards: nobody may sit there before the deal ends.
		return nil, ErrWrongPhase.With("a hand is running: seats are taken between hands")
	}
	evs := []Payload{PlayerSeated{Seat: seat, PlayerID: player, Name: name, Bot: bot}}
	return withDeal(s, evs, seeds)
}

// Act decides an action of a seated player.
func Act(s *State, seat int, a Action, seeds SeedSource) ([]Payload, error) {
	if s.Closed {
		return nil, ErrTableClosed.With("table %s is closed", s.ID)
	}
	if seat < 0 || seat >= len(s.Players) || s.Players[seat] == "" {
		return nil, ErrNotSeated.With("you have no seat at this table")
	}
	if a.Type == ActionLeave {
		if s.InDeal {
			return nil, ErrWrongPhase.With("a hand is running: use escape to leave it (with the escape penalty)")
		}
		if !a.TypeOnly() {
			return nil, ErrBadAction.With("leave takes no fields besides type")
		}
		return []Payload{PlayerLeft{Seat: seat, PlayerID: s.Players[seat]}}, nil
	}
	switch a.Type {
	case ActionDelegate, ActionResume:
		return delegation(s, seat, a, seeds)
	case ActionContinue:
		return ready(s, seat, a, seeds)
	}
	if !s.InDeal {
		return nil, ErrWrongPhase.With("no hand is running: waiting for players")
	}
	if a.Type == ActionEscape && !a.TypeOnly() {
		return nil, ErrBadAction.With("escape takes no fields besides type")
	}
	evs, err := s.Rules.Decide(s.G, seat, a)
	if err != nil {
		return nil, err
	}
	return withDeal(s, evs, seeds)
}

// withDeal appends the next deal to evs when, after evs, every seat is filled
// and the game wants a deal.
func withDeal(s *State, evs []Payload, seeds SeedSource) ([]Payload, error) {
	next := s.Clone()
	for _, e := range evs {
		// The last guard against an overflowing settlement, whatever a game
		// computed: it is refused, never stored wrapped.
		if hs, ok := e.(HandSettled); ok {
			if err := CheckSettlement(hs.Deltas, hs.House, next.Totals); err != nil {
				return nil, fmt.Errorf("settle hand %d: %w", hs.Hand, err)
			}
		}
		Apply(next, e)
	}
	if next.Reserved != nil && !next.Closed {
		// A tournament's table plays its match out: a seat whose player
		// escaped goes on under a bot, its total kept.
		for _, e := range slices.Clone(evs) {
			seat := -1
			switch e := e.(type) {
			case PlayerEscaped:
				seat = e.Seat
			case PlayerLeft:
				seat = e.Seat
			}
			if seat < 0 || next.Players[seat] != "" {
				continue
			}
			bot := PlayerSeated{Seat: seat, PlayerID: fmt.Sprintf("bot-%s-%d", next.ID, seat), Name: fmt.Sprintf("Bot %d", seat+1), Bot: true}
			Apply(next, bot)
			evs = append(evs, bot)
		}
	}
	if next.Closed || next.InDeal || !next.G.NeedsDeal() {
		return evs, nil
	}
	if next.MaxHands > 0 && next.Hand >= next.MaxHands && !next.Voided {
		return append(evs, TableClosed{Reason: "max_hands", Totals: slices.Clone(next.Totals)}), nil
	}
	if next.abandoned() {
		return append(evs, TableClosed{Reason: ReasonAbandoned, Totals: slices.Clone(next.Totals)}), nil
	}
	if !next.Full() || next.nobodyPresent() && !next.Voided {
		return evs, nil
	}
	if next.BetweenHands() && !next.allReady() {
		return evs, nil // the players see the result first (SeatReady)
	}
	d := DealNumber{Hand: next.Hand + 1, Deal: 1}
	if next.Voided {
		d = DealNumber{Hand: next.Hand, Deal: next.Deal + 1}
	}
	// The source is drawn from even for fixed deals, so that a source that
	// also dates the deals (DealClock) stays in step with them.
	seed, err := seeds.NewSeed()
	if err != nil {
		return nil, fmt.Errorf("draw seed: %w", err)
	}
	if next.dealsSeed != nil {
		seed = FixedDealSeed(*next.dealsSeed, d)
	}
	deal, err := s.Rules.Deal(next.G, d, seed)
	if err != nil {
		return nil, fmt.Errorf("deal hand %d: %w", d.Hand, err)
	}
	if c, ok := seeds.(DealClock); ok {
		at := c.DealTime().UTC()
		for i, p := range deal {
			if hd, ok := p.(HandDealt); ok {
				hd.At = at
				deal[i] = hd
			}
		}
	}
	return append(evs, deal...), nil
}

// FixedDealSeed is the seed of deal d of a table whose deals derive from
// secret: SHA-256(secret ‖ C(hand) ‖ C(deal)), C(n) being n as 8 bytes
// big-endian (docs/AUDIT.md, Tournaments). Revealing one deal's seed
// reveals nothing of the secret, nor of any other deal.
func FixedDealSeed(secret cards.Seed, d DealNumber) cards.Seed {
	var in [len(cards.Seed{}) + 16]byte
	copy(in[:], secret[:])
	binary.BigEndian.PutUint64(in[len(secret):], uint64(d.Hand))
	binary.BigEndian.PutUint64(in[len(secret)+8:], uint64(d.Deal))
	return cards.Seed(sha256.Sum256(in[:]))
}

// Abandoning is implemented by rules that close a table whose seats are all
// absent (rules README, Clocks, timeouts and absent players): after
// AbandonAfter deals in a row thrown in (DealVoided) during which every
// action was a timeout's default or a delegated seat's bot, the table closes
// with reason ReasonAbandoned instead of dealing again. Older rules versions
// do not implement it, so their streams replay as recorded.
type Abandoning interface {
	AbandonAfter() int
}

// ReasonAbandoned is TableClosed.Reason of a table closed by Abandoning.
const ReasonAbandoned = "abandoned"

// abandoned reports that s, between deals, has thrown in as many deals in a
// row with every seat absent as its rules allow. A tournament's table is
// never abandoned: the tournament waits for no one (nobodyPresent).
func (s *State) abandoned() bool {
	a, ok := Adapted(s.Rules).(Abandoning)
	if !ok || s.Tournament != "" || !s.Voided {
		return false
	}
	n := a.AbandonAfter()
	return n > 0 && s.absence.voided >= n
}

// nobodyPresent reports that the table has players and the bot plays every
// one of them (托管): no next hand is dealt until one resumes (or leaves,
// and someone else sits down), so that a table everyone has left to the bot
// does not play on for ever (a deal thrown in is still dealt again: its
// hand has not ended). A table of bots only is not held back: its end is
// max_hands.
func (s *State) nobodyPresent() bool {
	if s.Tournament != "" {
		return false // a tournament waits for no one: the clock and the bot play on
	}
	people := false
	for seat, p := range s.Players {
		if p == "" || s.Bots[seat] {
			continue
		}
		people = true
		if !s.Delegated[seat] {
			return false
		}
	}
	return people
}

// Apply evolves s by one event whose time is unknown: ApplyAt with a zero
// time. Deadlines count only from recorded times.
func Apply(s *State, p Payload) { ApplyAt(s, p, time.Time{}) }

// ApplyAt evolves s by one event recorded at at (the store's recorded_at).
// It never fails on a stream the Decide side produced; it panics on a stream
// that contradicts itself (a corrupt store).
func ApplyAt(s *State, p Payload, at time.Time) {
	s.Version++
	switch e := p.(type) {
	case TableOpened:
		s.ID, s.Game, s.Variant = e.TableID, e.Game, e.Variant
		s.Options, s.Stake, s.RulesVersion = e.Options, e.Stake, e.RulesVersion
		s.MaxHands = e.MaxHands
		s.Tournament, s.Reserved, s.FixedDeals = e.Tournament, e.Reserved, e.FixedDeals
		s.MaxHands, s.Private, s.BroadcastDelay = e.MaxHands, e.Private, e.BroadcastDelay
		s.Spectators = cmp.Or(e.Spectators, SpectatorsPublic)
		s.WaitBetweenHands = e.WaitBetweenHands
		s.Players = make([]string, e.Seats)
		s.Names = make([]string, e.Seats)
		s.Totals = make([]int, e.Seats)
		s.G = s.Rules.NewState()
	case DealsSecret:
		if seed, err := cards.ParseSeed(e.Seed); err == nil {
			s.dealsSeed = &seed
		}
	case PlayerSeated:
		s.Players[e.Seat], s.Names[e.Seat] = e.PlayerID, e.Name
	case PlayerLeft:
		s.Players[e.Seat], s.Names[e.Seat] = "", ""
	case PlayerEscaped:
		s.Players[e.Seat], s.Names[e.Seat] = "", ""
	case HandDealt:
		s.Hand, s.Deal, s.InDeal, s.Voided = e.Hand, e.Deal, true, false
	case DealVoided:
		s.InDeal, s.Voided = false, true
	case HandSettled:
		s.InDeal = false
		for i, d := range e.Deltas {
			s.Totals[i] += d
		}
		last := e
		s.Last = &last
	case TableClosed:
		s.Closed = true
	}
	if s.G != nil {
		s.G = s.Rules.Evolve(s.G, p)
	}
	s.applyLive(p, at)
}

// Decode decodes a stored event of a table played under r.
func Decode(r Rules, typ string, data []byte) (Payload, error) {
	if commonEvents.Has(typ) {
		if p, ok := decodeCanonical(typ, data); ok {
			return p, nil
		}
		return commonEvents.Decode(typ, data)
	}
	return r.Decode(typ, data)
}

// Redact returns p as seat may see it, or nil when seat may not see the event
// at all. handOver reports that the deal the event belongs to has ended
// (settled or voided). The auditor sees everything.
func Redact(r Rules, p Payload, seat int, handOver bool) Payload {
	if seat == Auditor {
		return p
	}
	if _, ok := p.(DealsSecret); ok {
		return nil // the auditor's alone (above) until the tournament reveals it
	}
	if _, ok := p.(DealSecret); ok {
		if handOver {
			return p
		}
		return nil
	}
	if d, ok := p.(HandDealt); ok {
		if handOver {
			return d
		}
		hidden := d
		hidden.Hands = make([][]cards.Card, len(d.Hands))
		if seat >= 0 && seat < len(d.Hands) {
			hidden.Hands[seat] = d.Hands[seat]
		}
		hidden.Kitty = nil
		// The game may hide more: in a progressive deal (升级) a seat sees
		// only the cards it has drawn, none of them at the deal itself.
		return r.Redact(hidden, seat, handOver)
	}
	return r.Redact(p, seat, handOver)
}

// DealEnded reports whether p ends a deal (so the deal's hidden cards may be
// shown from then on).
func DealEnded(p Payload) bool {
	switch p.(type) {
	case HandSettled, DealVoided:
		return true
	}
	return false
}

// Legal lists every action seat may take whatever the time: the game's legal
// actions during a deal plus escape, or leave between hands. Nil for a caller
// without a seat.
func Legal(s *State, seat int) []Action { return LegalAt(s, seat, time.Time{}) }

// LegalAt is Legal at the clock reading now, which adds what Timed rules
// allow once their deadlines have passed.
func LegalAt(s *State, seat int, now time.Time) []Action {
	if s.Closed || seat < 0 || seat >= len(s.Players) || s.Players[seat] == "" {
		return nil
	}
	if !s.InDeal {
		if s.WaitsFor(seat) {
			return []Action{{Type: ActionContinue}, {Type: ActionLeave}}
		}
		return []Action{{Type: ActionLeave}}
	}
	return append(gameLegal(s, seat, now), Action{Type: ActionEscape})
}

// PlayerLegal is what seat's player may post at the clock reading now: LegalAt
// with the live table's own actions — delegate before escape while the
// player plays, and only resume and escape while the bot plays the seat.
func PlayerLegal(s *State, seat int, now time.Time) []Action {
	legal := LegalAt(s, seat, now)
	if len(legal) == 0 {
		return legal
	}
	if _, ok := s.Rules.(Autoplay); !ok || s.Bots[seat] {
		return legal
	}
	if s.Delegated[seat] {
		// The bot plays the seat (or, between hands, holds the next deal
		// back) until its player takes it back: resume, or leave.
		return append([]Action{{Type: ActionResume}}, legal[len(legal)-1])
	}
	if !s.InDeal {
		return legal
	}
	return slices.Insert(legal, len(legal)-1, Action{Type: ActionDelegate})
}

// delegation decides delegate and resume.
func delegation(s *State, seat int, a Action, seeds SeedSource) ([]Payload, error) {
	if !a.TypeOnly() {
		return nil, ErrBadAction.With("%s takes no fields besides type", a.Type)
	}
	if _, ok := s.Rules.(Autoplay); !ok || s.Bots[seat] {
		return nil, ErrUnknownAction.With("this seat cannot be handed to a bot")
	}
	if a.Type == ActionDelegate {
		if s.Delegated[seat] {
			return nil, ErrAlreadyDelegated.With("seat %d is already played by the bot", seat)
		}
		if !s.InDeal {
			return nil, ErrWrongPhase.With("no hand is running: nothing to delegate")
		}
		return []Payload{SeatDelegated{Seat: seat, By: "player"}}, nil
	}
	if !s.Delegated[seat] {
		return nil, ErrNotDelegated.With("seat %d is not delegated", seat)
	}
	// A resume between hands may be what the next deal waited for.
	return withDeal(s, []Payload{SeatResumed{Seat: seat}}, seeds)
}

// BetweenHands reports that the table, between two hands, waits for its
// seats to be ready before it deals (TableOpened.WaitBetweenHands): a hand
// has settled, the game wants another, and the table is open. A deal thrown
// in (DealVoided) is dealt again at once: its hand has not ended.
func (s *State) BetweenHands() bool {
	return s.WaitBetweenHands && !s.Closed && !s.InDeal && !s.Voided && s.Hand > 0 && s.G != nil && s.G.NeedsDeal()
}

// WaitsFor reports that the table, between hands, waits for seat's player
// to be ready. A bot's seat and a delegated one are always ready; so is an
// empty seat (whoever sits down there is), so that a player who leaves
// never holds the table back.
func (s *State) WaitsFor(seat int) bool {
	return s.BetweenHands() && seat >= 0 && seat < len(s.Players) && s.Players[seat] != "" &&
		!s.Bots[seat] && !s.Delegated[seat] && !s.Ready[seat]
}

// allReady reports that no seat holds the next deal back.
func (s *State) allReady() bool {
	for seat := range s.Players {
		if s.WaitsFor(seat) {
			return false
		}
	}
	return true
}

// ready decides continue: the seat is ready for the next deal, which
// follows when it was the last one the table waited for.
func ready(s *State, seat int, a Action, seeds SeedSource) ([]Payload, error) {
	if !a.TypeOnly() {
		return nil, ErrBadAction.With("continue takes no fields besides type")
	}
	if !s.WaitBetweenHands {
		return nil, ErrNotBetweenHands.With("this table deals the next hand as soon as a hand ends: there is nothing to continue")
	}
	if !s.BetweenHands() {
		return nil, ErrNotBetweenHands.With("the table is not waiting between hands")
	}
	if !s.WaitsFor(seat) {
		return nil, ErrAlreadyReady.With("seat %d is ready for the next hand", seat)
	}
	return withDeal(s, []Payload{SeatReady{Seat: seat}}, seeds)
}
