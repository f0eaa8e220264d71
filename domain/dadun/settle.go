package dadun

import (
	"slices"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// result starts a Result with what every ending records.
func (s *State) result(end string) Result {
	res := Result{End: end, Turned: s.turned, Banker: s.banker, Finish: slices.Clone(s.finish),
		Captured: slices.Clone(s.captured[:]), CardsLeft: s.cardsLeft(), Awards: slices.Clone(s.awards)}
	if res.Finish == nil {
		res.Finish = []int{}
	}
	if res.Awards == nil {
		res.Awards = []Award{}
	}
	if s.soloist >= 0 {
		res.Soloist = table.Seat(s.soloist)
	} else if s.friend >= 0 {
		fc := s.friendCard
		res.FriendCard, res.Friend = &fc, table.Seat(s.friend)
	}
	if s.phase == phasePlaying {
		res.Sides = s.sides()
	}
	return res
}

// awardDeltas settles the 盾 awards apart from the result (dadun.md, 盾
// awards Decision): each other player pays the earner awards × base.
func (s *State) awardDeltas(awards []Award) ([]int, error) {
	d := make([]int, seats)
	for _, a := range awards {
		each, err := table.MulStake(s.Stake, a.Awards)
		if err != nil {
			return nil, err
		}
		for i := range seats {
			if i == a.Seat {
				d[i] += (seats - 1) * each
			} else {
				d[i] -= each
			}
		}
	}
	return d, nil
}

func (s *State) settle(res Result, house int) (table.HandSettled, error) {
	var err error
	if res.AwardDeltas, err = s.awardDeltas(res.Awards); err != nil {
		return table.HandSettled{}, err
	}
	deltas := make([]int, seats)
	for i := range deltas {
		if deltas[i], err = table.AddStake(res.ResultDeltas[i], res.AwardDeltas[i]); err != nil {
			return table.HandSettled{}, err
		}
	}
	return s.Settle(s.hand, deltas, house, res)
}

// settlePlayedOut settles the hand that seat has just ended by going out
// with played (dadun.md, Points and result). finish includes seat.
func (s *State) settlePlayedOut(finish []int, seat int, played []cards.Card, awards int) (table.HandSettled, error) {
	res := s.result("played_out")
	res.Finish = finish
	res.CardsLeft[seat] -= len(played)
	if awards > 0 {
		res.Awards = append(res.Awards, Award{Seat: seat, Cards: played, Awards: awards})
	}
	// Decision: the trick the hand ends in goes to its last player, the
	// seat that went out; no one may answer the play any more.
	res.Captured[seat] += s.trick + points(played)
	res.ResultDeltas = make([]int, seats)
	head := finish[0]
	win := 0
	switch {
	case s.soloist >= 0:
		// dadun.md: the soloist must finish first; 4 × base against each.
		res.Multiplier = winAlone
		res.Outcome = OutcomeAloneLost
		win = 1
		if head == s.soloist {
			res.Outcome, win = OutcomeAloneWon, 0
		}
	case len(finish) == 2:
		res.Outcome, res.Multiplier, win = OutcomeShuangying, winShuangying, s.side(head)
	default:
		// The 末游 is the one seat with cards: its captured points go to the
		// 头游, the points in its hand to the side against it.
		m := slices.IndexFunc(res.CardsLeft, func(n int) bool { return n > 0 })
		res.Last = table.Seat(m)
		pts := make([]int, 2)
		for i, c := range res.Captured {
			pts[s.side(i)] += c
		}
		pts[s.side(m)] -= res.Captured[m]
		pts[s.side(head)] += res.Captured[m]
		pts[1-s.side(m)] += points(s.hands[m].Cards())
		res.Points = pts
		switch {
		case pts[0] == pts[1]:
			res.Outcome, res.Multiplier, win = OutcomeTie, winPoints, s.side(head)
		case pts[0] == allPoints || pts[1] == allPoints:
			res.Outcome, res.Multiplier = OutcomePoints, winAll
			win = slices.Index(pts, allPoints)
		default:
			res.Outcome, res.Multiplier = OutcomePoints, winPoints
			if pts[1] > pts[0] {
				win = 1
			}
		}
	}
	for i := range seats {
		if s.side(i) == win {
			res.Winners = append(res.Winners, i)
		}
	}
	each, err := table.MulStake(s.Stake, res.Multiplier)
	if err != nil {
		return table.HandSettled{}, err
	}
	for i := range seats {
		// 打独 stakes are per opponent: the soloist wins or loses three times.
		amount := each
		if i == s.soloist {
			amount *= seats - 1
		}
		if s.side(i) != win {
			amount = -amount
		}
		res.ResultDeltas[i] = amount
	}
	return s.settle(res, 0)
}

// escape settles the hand seat leaves (dadun.md, Escape Decision, as
// 宁阳刮风): the escaper pays 16 × base, shared equally by the three others;
// what does not divide by three is kept by the house (HandSettled.House).
// Awards already earned are settled as well.
func (s *State) escape(seat int) ([]table.Payload, error) {
	res := s.result("escape")
	res.Escaper = table.Seat(seat)
	penalty, err := table.MulStake(s.Stake, escapePenalty)
	if err != nil {
		return nil, err
	}
	res.Penalty = penalty
	each := res.Penalty / (seats - 1)
	res.House = res.Penalty - (seats-1)*each
	res.Winners = []int{}
	res.ResultDeltas = make([]int, seats)
	for i := range seats {
		res.ResultDeltas[i] = each
	}
	res.ResultDeltas[seat] = -res.Penalty
	settled, err := s.settle(res, res.House)
	if err != nil {
		return nil, err
	}
	return []table.Payload{
		table.PlayerEscaped{Seat: seat, PlayerID: s.Players[seat], Hand: s.hand},
		settled,
	}, nil
}
