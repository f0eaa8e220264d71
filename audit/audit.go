// Package audit proves a table stream was played by the rules: it re-executes
// every command the stream records through the rules the table was opened
// under, recomputes every deal from its revealed seed, and requires each
// recomputed event to equal the stored one byte for byte.
package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/eventstore"
)

// Fault is the first place a stream departs from the rules.
type Fault struct {
	Stream  string
	Version int
	Reason  string
}

func (f *Fault) Error() string {
	return fmt.Sprintf("%s version %d: %s", f.Stream, f.Version, f.Reason)
}

// ErrFault matches any *Fault.
var ErrFault = errors.New("audit: fault")

// Is makes errors.Is(err, ErrFault) true.
func (f *Fault) Is(target error) bool { return target == ErrFault }

// RulesFunc returns the rules a table was opened under.
type RulesFunc func(table.TableOpened) (table.Rules, error)

// Report summarizes a verified table.
type Report struct {
	Events   int
	Deals    int // deals recomputed from their revealed seed
	Commands int // commands re-executed
	Open     bool
	// Cut: the stream ends right before a deal that its last command dealt
	// (a player's export stops where the running deal began).
	Cut bool
}

// VerifyTable verifies one table stream (its events in version order).
func VerifyTable(rulesOf RulesFunc, evs []eventstore.Event) (Report, error) {
	var rep Report
	if len(evs) == 0 {
		return rep, errors.New("audit: empty stream")
	}
	stream := evs[0].Stream
	fault := func(i int, format string, args ...any) error {
		return &Fault{Stream: stream, Version: evs[i].Version, Reason: fmt.Sprintf(format, args...)}
	}
	for i, e := range evs {
		if e.Version != i+1 {
			return rep, &Fault{Stream: stream, Version: i + 1, Reason: fmt.Sprintf("version %d is missing or out of place (found version %d there)", i+1, e.Version)}
		}
	}
	if evs[0].Type != "TableOpened" {
		return rep, fault(0, "stream starts with %s, not TableOpened", evs[0].Type)
	}
	var opened table.TableOpened
	if err := json.Unmarshal(evs[0].Data, &opened); err != nil {
		return rep, fault(0, "TableOpened does not decode: %v", err)
	}
	// Bounds first, named as such: a stake outside them is where a wrapped
	// settlement would come from, and a stream recorded before the bound
	// existed fails here (docs/AUDIT.md, What verify checks).
	if opened.Stake < 1 || opened.Stake > table.MaxStake {
		return rep, fault(0, "stake %d is out of bounds: a stake is 1..%d", opened.Stake, table.MaxStake)
	}
	rules, err := rulesOf(opened)
	if err != nil {
		return rep, fault(0, "%v", err)
	}
	// A table of fixed deals opens with the secret its deals derive from:
	// the opening is re-decided with it, and TableOpened must commit to it.
	var fixed *cards.Seed
	if len(evs) > 1 && evs[1].Type == (table.DealsSecret{}).EventType() {
		var sec table.DealsSecret
		if err := json.Unmarshal(evs[1].Data, &sec); err != nil {
			return rep, fault(1, "DealsSecret does not decode: %v", err)
		}
		seed, err := cards.ParseSeed(sec.Seed)
		if err != nil {
			return rep, fault(1, "DealsSecret holds no seed: %v", err)
		}
		fixed = &seed
	}
	want, err := table.OpenWith(rules, table.Opening{
		ID: opened.TableID, Game: opened.Game, Variant: opened.Variant, Stake: opened.Stake,
		OpenedBy: opened.OpenedBy, Clock: opened.Clock, MaxHands: opened.MaxHands,
		Tournament: opened.Tournament, Reserved: opened.Reserved, FixedDeals: fixed,
		Private: opened.Private, BroadcastDelay: opened.BroadcastDelay, Spectators: opened.Spectators,
		WaitBetweenHands: opened.WaitBetweenHands,
	})
	if err != nil {
		return rep, fault(0, "table could not have been opened: %v", err)
	}
	if fixed == nil && opened.FixedDeals != "" {
		// A player's export leaves the secret out: the commitment is taken
		// as recorded, and each deal is recomputed from its revealed seed.
		o := want[0].(table.TableOpened)
		o.FixedDeals = opened.FixedDeals
		want[0] = o
	}
	for i, w := range want {
		if err := same(w, evs[i].Data); err != nil {
			return rep, fault(i, "%s differs from what the rules record: %v", evs[i].Type, err)
		}
	}

	payloads := make([]table.Payload, len(evs))
	for i, e := range evs {
		p, err := table.Decode(rules, e.Type, e.Data)
		if err != nil {
			return rep, fault(i, "does not decode: %v", err)
		}
		payloads[i] = p
	}
	seeds, err := revealedSeeds(payloads)
	if err != nil {
		var ie indexedError
		if errors.As(err, &ie) {
			return rep, fault(ie.index, "%v", ie.err)
		}
		return rep, err
	}

	st := table.New(rules)
	for i := range want {
		table.ApplyAt(st, payloads[i], evs[i].RecordedAt)
	}
	for i := len(want); i < len(payloads); {
		produced, err := reexecute(st, payloads[i], seeds)
		if err != nil {
			return rep, fault(i, "%v", err)
		}
		if i+len(produced) > len(payloads) {
			// A player's export ends where the running deal begins, which may
			// be within the command that ended the deal before it (docs/AUDIT.md).
			cut := len(payloads) - i
			if _, ok := produced[cut].(table.HandDealt); !ok || cut == 0 {
				return rep, fault(len(payloads)-1, "the stream ends before the events its last command causes (%d missing)", i+len(produced)-len(payloads))
			}
			produced = produced[:cut]
			rep.Cut = true
		}
		for k, p := range produced {
			j := i + k
			if d, ok := p.(table.HandDealt); ok {
				rep.Deals++
				if !seeds.known(d.Hand, d.Deal) {
					// The deal is still running: its seed is secret, so only the
					// recorded deal can be taken (its commitment is checked when
					// the seed is revealed).
					rest := len(produced) - k
					if err := checkUnrevealed(payloads[j:j+rest], d); err != nil {
						return rep, fault(j, "%v", err)
					}
					for r, q := range payloads[j : j+rest] {
						table.ApplyAt(st, q, evs[j+r].RecordedAt)
					}
					break
				}
			}
			// The stored settlement's bounds first: out of bounds is the
			// more telling fault than its difference from the rules.
			if s, ok := payloads[j].(table.HandSettled); ok {
				if err := checkSettled(s, opened.Stake, st.Totals); err != nil {
					return rep, fault(j, "settlement of hand %d: %v", s.Hand, err)
				}
			}
			if err := same(p, evs[j].Data); err != nil {
				return rep, fault(j, "%s differs from what the rules produce: %v", evs[j].Type, err)
			}
			table.ApplyAt(st, payloads[j], evs[j].RecordedAt)
		}
		rep.Commands++
		i += len(produced)
	}
	rep.Events = len(evs)
	rep.Open = st.InDeal
	return rep, nil
}

// reexecute runs the command that p opens against st and returns the events
// the rules produce for it.
func reexecute(st *table.State, p table.Payload, seeds *seedBook) ([]table.Payload, error) {
	var (
		out []table.Payload
		err error
	)
	switch e := p.(type) {
	case table.PlayerSeated:
		if e.Bot {
			out, err = table.SeatBot(st, e.PlayerID, e.Name, e.Seat, seeds)
		} else {
			out, err = table.Join(st, e.PlayerID, e.Name, e.Seat, seeds)
		}
	case table.TurnTimedOut:
		// The recorded time is the input: the rules re-decide that the
		// deadline had passed then, and the default action.
		out, err = table.Timeout(st, e.Seat, e.At, seeds)
	case table.SeatDelegated:
		if e.By != "player" {
			return nil, fmt.Errorf("SeatDelegated by %q does not follow from the command before it", e.By)
		}
		out, err = table.Act(st, e.Seat, table.Action{Type: table.ActionDelegate}, seeds)
	case table.SeatResumed:
		out, err = table.Act(st, e.Seat, table.Action{Type: table.ActionResume}, seeds)
	case table.SeatReady:
		out, err = table.Act(st, e.Seat, table.Action{Type: table.ActionContinue}, seeds)
	case table.PlayerLeft:
		out, err = table.Act(st, e.Seat, table.Action{Type: table.ActionLeave}, seeds)
	case table.PlayerEscaped:
		out, err = table.Act(st, e.Seat, table.Action{Type: table.ActionEscape}, seeds)
	case table.WatcherAdded:
		out, err = table.AddWatcher(st, e.Seat, e.PlayerID)
	case table.WatcherRemoved:
		out, err = table.RemoveWatcher(st, e.Seat, e.PlayerID)
	case table.TableOpened, table.DealsSecret, table.HandDealt, table.DealSecret, table.HandSettled, table.DealVoided, table.TableClosed:
		return nil, fmt.Errorf("%s does not follow from the command before it", p.EventType())
	default:
		seat, a, ok := st.Rules.Command(p)
		if !ok {
			return nil, fmt.Errorf("%s does not follow from the command before it", p.EventType())
		}
		out, err = table.Act(st, seat, a, seeds)
	}
	if err != nil {
		return nil, fmt.Errorf("the rules reject the %s it records: %w", p.EventType(), err)
	}
	return out, nil
}

// same compares a recomputed payload with stored event data.
func same(p table.Payload, stored []byte) error {
	got, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	if !bytes.Equal(got, stored) {
		return fmt.Errorf("stored %s, rules give %s", clip(stored), clip(got))
	}
	return nil
}

func clip(b []byte) string {
	const max = 300
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

// checkSettled checks a settlement against the bounds of any game at stake:
// each delta and the house's share within stake × table.MaxMultiplier, the
// sum zero without overflow, and the running totals representable.
func checkSettled(s table.HandSettled, stake int, totals []int) error {
	limit := stake * table.MaxMultiplier // stake ≤ table.MaxStake: no overflow
	if s.House > limit || s.House < -limit {
		return fmt.Errorf("house share %d is beyond ±%d (stake %d × %d)", s.House, limit, stake, table.MaxMultiplier)
	}
	for seat, d := range s.Deltas {
		if d > limit || d < -limit {
			return fmt.Errorf("seat %d's delta %d is beyond ±%d (stake %d × %d)", seat, d, limit, stake, table.MaxMultiplier)
		}
	}
	if err := table.CheckSettlement(s.Deltas, s.House, totals); err != nil {
		return fmt.Errorf("deltas and house share: %w", err)
	}
	return nil
}

// checkUnrevealed accepts the recorded events of a running deal.
func checkUnrevealed(recorded []table.Payload, produced table.HandDealt) error {
	d, ok := recorded[0].(table.HandDealt)
	if !ok {
		return fmt.Errorf("%s where a HandDealt was due", recorded[0].EventType())
	}
	if d.Hand != produced.Hand || d.Deal != produced.Deal {
		return fmt.Errorf("deal %d.%d where %d.%d was due", d.Hand, d.Deal, produced.Hand, produced.Deal)
	}
	if len(d.Commitment) != 64 {
		return fmt.Errorf("deal commitment %q is not a SHA-256", d.Commitment)
	}
	return nil
}

// seedBook hands out, in deal order, the seed each deal revealed when it ended
// and the time each deal was recorded at, so that re-deciding a command deals
// exactly what the record holds.
type seedBook struct {
	seeds []cards.Seed // by deal index in stream order
	times []time.Time  // by deal index in stream order, running deals too
	keys  map[[2]int]bool
	next  int
}

type indexedError struct {
	index int
	err   error
}

func (e indexedError) Error() string { return e.err.Error() }

// revealedSeeds pairs every HandDealt with the seed revealed by the event that
// ends that deal, checking the seed against the deal's commitment.
func revealedSeeds(ps []table.Payload) (*seedBook, error) {
	b := &seedBook{keys: map[[2]int]bool{}}
	var open *table.HandDealt
	for i, p := range ps {
		var revealed string
		switch e := p.(type) {
		case table.HandDealt:
			if open != nil {
				return nil, indexedError{i, fmt.Errorf("deal %d.%d begins before deal %d.%d ended", e.Hand, e.Deal, open.Hand, open.Deal)}
			}
			d := e
			open = &d
			b.times = append(b.times, e.At)
			continue
		case table.HandSettled:
			revealed = e.Seed
		case table.DealVoided:
			revealed = e.Seed
		default:
			continue
		}
		if open == nil {
			return nil, indexedError{i, fmt.Errorf("%s ends no deal", p.EventType())}
		}
		seed, err := cards.ParseSeed(revealed)
		if err != nil {
			return nil, indexedError{i, fmt.Errorf("revealed seed: %w", err)}
		}
		if seed.Commitment() != open.Commitment {
			return nil, indexedError{i, fmt.Errorf("revealed seed does not match the commitment of deal %d.%d", open.Hand, open.Deal)}
		}
		b.seeds = append(b.seeds, seed)
		b.keys[[2]int{open.Hand, open.Deal}] = true
		open = nil
	}
	return b, nil
}

// NewSeed returns the next revealed seed; past the last one (a deal still
// running) it returns a zero seed whose deal is not compared.
func (b *seedBook) NewSeed() (cards.Seed, error) {
	if b.next >= len(b.seeds) {
		b.next++
		return cards.Seed{}, nil
	}
	s := b.seeds[b.next]
	b.next++
	return s, nil
}

// DealTime dates the deal whose seed NewSeed gave last with its recorded
// time (table.DealClock).
func (b *seedBook) DealTime() time.Time {
	if i := b.next - 1; i >= 0 && i < len(b.times) {
		return b.times[i]
	}
	return time.Time{}
}

func (b *seedBook) known(hand, deal int) bool { return b.keys[[2]int{hand, deal}] }
