package niuniu

import (
	"slices"
	"time"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// GameView is the public state of the current (or last) hand, View's Game.
type GameView struct {
	Hand   int `json:"hand"`
	Banker int `json:"banker"`
	// Arranged tells, per seat, whether it has arranged or declared no bull
	// in the running hand; what it arranged stays hidden until the reveal.
	Arranged []bool `json:"arranged"`
	// Arrangement is the viewer's own standing arrangement; null when it has
	// none (or the viewer has no seat).
	Arrangement *ArrangementView `json:"arrangement"`
	// Escaped lists the seats whose players escaped from the running hand
	// (their bouts are lost to the banker; niuniu.md, Escape).
	Escaped []int `json:"escaped,omitempty"`
	// Deadline is when the running deal's time to arrange runs out; from
	// then on any seat may call the reveal. Null when the table has no
	// deadline or no hand is running.
	Deadline *time.Time `json:"deadline"`
	// LastReveal is the reveal of the last hand that was settled by one.
	LastReveal *HandsRevealed `json:"last_reveal"`
	// Hands and Arrangements hold every seat's cards and arrangement, for
	// the auditor only.
	Hands        [][]cards.Card     `json:"hands,omitempty"`
	Arrangements []*ArrangementView `json:"arrangements,omitempty"`
}

// ArrangementView is one seat's arrangement: the bull's cards (none for no
// bull) and the class they make.
type ArrangementView struct {
	Cards   []cards.Card `json:"cards"`
	Reading Bull         `json:"reading"`
}

// View is what seat sees: phase "arranging" while a hand runs, else
// "between_hands"; no seat to act (all arrange at once, Turn is null); the
// seat's own cards and arrangement; who has arranged; the last reveal; and,
// for the auditor, every hand and arrangement.
func (r *Rules) View(s *State, seat int) table.View {
	v := table.View{Phase: s.phase.String()}
	g := GameView{Hand: s.hand, Banker: s.banker, LastReveal: s.last}
	if due, ok := s.deadline(); ok {
		g.Deadline = &due
	}
	if s.phase == phaseArranging {
		for i := range s.seats {
			g.Arranged = append(g.Arranged, s.arr[i].done)
		}
		g.Escaped = escapedSeats(s.forfeit[:s.seats])
		// A seat whose player escaped holds no hand in this deal: whoever
		// takes it sees none until the next.
		if seat >= 0 && seat < s.seats && s.forfeit[seat] == nil {
			v.Hand = slices.Clone(s.hands[seat])
			g.Arrangement = s.arrangementView(seat)
		}
		if seat == table.Auditor {
			for i := range s.seats {
				g.Hands = append(g.Hands, slices.Clone(s.hands[i]))
				g.Arrangements = append(g.Arrangements, s.arrangementView(i))
			}
		}
	}
	v.Game = g
	return v
}

func (s *State) arrangementView(seat int) *ArrangementView {
	a := s.arr[seat]
	if !a.done {
		return nil
	}
	return &ArrangementView{Cards: slices.Clone(a.cards), Reading: a.bull}
}

// Redact hides a running hand's arrangements from the seats that did not make
// them: another seat sees only that the seat arranged, as
// {"seat":n,"hidden":true}, since the bull's cards and its class tell part of
// the hand. Once the hand has ended every event is shown. The other events of
// the game are public: HandsRevealed comes only with the settlement.
//
// A forfeited bout (BoutForfeited) tells the banker's class by its
// multiplier, so until the hand ends only the banker (and the auditor) sees
// it whole; others see {"seat":n,"hidden":true}.
func (r *Rules) Redact(p table.Payload, seat int, handOver bool) table.Payload {
	switch e := p.(type) {
	case HandArranged:
		if handOver || seat == e.Seat {
			return p
		}
		return HandArranged{Seat: e.Seat, Hidden: true}
	case BoutForfeited:
		banker := r.opts.Banker
		if e.Banker != nil {
			banker = *e.Banker
		}
		if handOver || seat == banker {
			return p
		}
		return BoutForfeited{Seat: e.Seat, Hidden: true}
	}
	return p
}
