package tournament

import (
	"bytes"
	"encoding/json"
	"fmt"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// Fault is where a tournament stream departs from what the decider
// produces: Index is the event's position in the stream, from 0.
type Fault struct {
	Index  int
	Reason string
}

func (f *Fault) Error() string { return fmt.Sprintf("event %d: %s", f.Index+1, f.Reason) }

// Redecide re-decides a whole tournament stream command by command, with the
// recorded inputs (the seed in Secret, the table ids in TableAssigned, each
// table's standings in ResultRecorded), and requires every event to be what
// the decider produces, byte for byte once encoded. It returns the folded
// state.
func Redecide(ps []table.Payload) (*State, error) {
	if len(ps) < 2 {
		return nil, &Fault{0, "a tournament stream starts with TournamentOpened and TournamentSecret"}
	}
	o, ok1 := ps[0].(Opened)
	sec, ok2 := ps[1].(Secret)
	if !ok1 || !ok2 {
		return nil, &Fault{0, "a tournament stream starts with TournamentOpened and TournamentSecret"}
	}
	seed, err := cards.ParseSeed(sec.Seed)
	if err != nil {
		return nil, &Fault{1, fmt.Sprintf("the secret is not a seed: %v", err)}
	}
	s := New()
	ids := &recordedIDs{ps: ps}
	for i := 0; i < len(ps); {
		var out []table.Payload
		switch e := ps[i].(type) {
		case Opened:
			if i != 0 {
				return nil, &Fault{i, "TournamentOpened past the start"}
			}
			out, err = Open(Opening{ID: o.TournamentID, Game: o.Game, Variant: o.Variant, Format: o.Format,
				Players: o.Players, HandsPerTable: o.HandsPerTable, Stake: o.Stake, OpenedBy: o.OpenedBy,
				Seats: o.Seats, Partnerships: o.Partnerships}, seed)
		case Registered:
			out, err = Register(s, e.PlayerID, e.Name, ids.from(i))
		case Withdrew:
			out, err = Withdraw(s, e.PlayerID)
		case ResultRecorded:
			out, err = Record(s, e.TableID, e.Hands, e.Standings, ids.from(i))
		case DuplicateResult:
			out, err = RecordDuplicate(s, e.TableID, e.Hands)
		default:
			return nil, &Fault{i, fmt.Sprintf("%s does not follow from the command before it", ps[i].EventType())}
		}
		if err != nil {
			return nil, &Fault{i, fmt.Sprintf("the decider rejects the %s it records: %v", ps[i].EventType(), err)}
		}
		if i+len(out) > len(ps) {
			return nil, &Fault{len(ps) - 1, fmt.Sprintf("the stream ends before the events its last command causes (%d missing)", i+len(out)-len(ps))}
		}
		for k, p := range out {
			if err := same(p, ps[i+k]); err != nil {
				return nil, &Fault{i + k, fmt.Sprintf("%s differs from what the decider produces: %v", ps[i+k].EventType(), err)}
			}
			Apply(s, ps[i+k])
		}
		i += len(out)
	}
	return s, nil
}

func same(want, got table.Payload) error {
	a, err := json.Marshal(want)
	if err != nil {
		return err
	}
	b, err := json.Marshal(got)
	if err != nil {
		return err
	}
	if !bytes.Equal(a, b) {
		return fmt.Errorf("want %s, recorded %s", a, b)
	}
	return nil
}

// recordedIDs gives back the table ids the stream recorded, in order, from
// the command being re-decided on.
type recordedIDs struct {
	ps  []table.Payload
	pos int
}

func (r *recordedIDs) from(i int) *recordedIDs { r.pos = i; return r }

func (r *recordedIDs) NewID() string {
	for ; r.pos < len(r.ps); r.pos++ {
		if t, ok := r.ps[r.pos].(TableAssigned); ok {
			r.pos++
			return t.TableID
		}
	}
	return ""
}
