package doudizhu

import (
	"paiju/domain/climb"
	"paiju/domain/table"
)

// The shapes of 斗地主 for counting plays (doudizhu.md, Card types):
// straights of 5, pair straights of 3, airplanes of 2 trios, a trio carries
// a single or a pair, the rocket is BJ + RJ (all four jokers with two decks).
var (
	oneDeckShapes  = climb.Shapes{MinRun: [4]int{0, 5, 3, 2}, Kickers: climb.KickerOne, JokerGroup: 2}
	twoDecksShapes = climb.Shapes{MinRun: [4]int{0, 5, 3, 2}, Kickers: climb.KickerOne, JokerGroup: 4}
)

// botAction is the bot of doudizhu.go's doc (Bot): it reads only the seat's
// view and legal list.
func botAction(v table.View, legal []table.Action) table.Action {
	g, ok := v.Game.(GameView)
	if !ok || v.Turn == nil {
		return legal[0]
	}
	seat := *v.Turn
	shapes := &oneDeckShapes
	if len(g.CardsLeft) == 4 {
		shapes = &twoDecksShapes
	}
	hand := climb.CountsOf(v.Hand)
	switch v.Phase {
	case phaseBidding.String():
		return bidChoice(shapes, &hand, legal)
	case phaseGrabbing.String():
		return grabChoice(shapes, &hand, legal)
	case phaseDoubling.String():
		// doudizhu.md, Table options, double: the bot passes.
		return passOf(legal)
	}
	return legal[playChoice(shapes, seat, &g, &hand, legal)]
}

// strength rates a hand for the bidding: its control cards (jokers, 2s,
// bombs count twice) less the plays it needs beyond a third of its cards,
// scaled to a one-deck hand of 17.
func strength(shapes *climb.Shapes, hand *climb.Counts) int {
	n := hand.Total()
	ctrl := 2*hand.Jokers() + 2*int(hand[climb.Rank2]) + int(hand[climb.RankA])
	for r := climb.Rank3; r <= climb.Rank2; r++ {
		if hand[r] >= 4 {
			ctrl += 4
		}
	}
	if hand[climb.RankBJ] > 0 && hand[climb.RankRJ] > 0 {
		ctrl += 2
	}
	plays := shapes.Plays(hand)
	return (ctrl - 2*(plays-n/3)) * 17 / max(n, 1)
}

// bidChoice bids what the hand's strength is worth (3 from 12, 2 from 9, 1
// from 7), if that is above the bids so far; else it passes.
func bidChoice(shapes *climb.Shapes, hand *climb.Counts, legal []table.Action) table.Action {
	st := strength(shapes, hand)
	want := 0
	switch {
	case st >= 12:
		want = 3
	case st >= 9:
		want = 2
	case st >= 7:
		want = 1
	}
	best := -1
	for i, a := range legal {
		if a.Type == ActionBid && *a.Bid <= want && (best < 0 || *a.Bid > *legal[best].Bid) {
			best = i
		}
	}
	if best < 0 {
		return passOf(legal)
	}
	return legal[best]
}

// grabChoice grabs with a hand worth a bid of 3; else declines.
func grabChoice(shapes *climb.Shapes, hand *climb.Counts, legal []table.Action) table.Action {
	if strength(shapes, hand) >= 12 {
		for _, a := range legal {
			if a.Type == ActionGrab {
				return a
			}
		}
	}
	return passOf(legal)
}

func passOf(legal []table.Action) table.Action {
	for _, a := range legal {
		if a.Type == ActionPass {
			return a
		}
	}
	return legal[len(legal)-1]
}

// playChoice is climb.Choose on the play: the landlord against both
// farmers; a farmer lets its partner's play win and stops the landlord when
// it has 2 cards or fewer. Open play (明牌) is never chosen.
func playChoice(shapes *climb.Shapes, seat int, g *GameView, hand *climb.Counts, legal []table.Action) int {
	sit := climb.Situation{Hand: *hand, Pass: -1, Danger: 2}
	landlord := -1
	if g.Landlord != nil {
		landlord = *g.Landlord
	}
	for i, left := range g.CardsLeft {
		// A count the view hides (show_counts false: more than 2) is no
		// danger.
		if i == seat || left <= 0 || (seat != landlord && i != landlord) {
			continue
		}
		if sit.OpponentLow == 0 || left < sit.OpponentLow {
			sit.OpponentLow = left
		}
	}
	if g.LastPlay != nil && seat != landlord && g.LastPlay.Seat != landlord {
		sit.PartnerWinning = true
	}
	opts := climb.Options(&sit, legal, ActionPass, ActionPlay, func(a table.Action, take *climb.Counts) bool { return isBomb(take) })
	return shapes.Choose(sit, opts)
}

// isBomb: four or more cards of one rank, or jokers of both colours (the
// rocket; with two decks BJ + RJ alone is no play, so a legal play of both
// colours is the rocket).
func isBomb(c *climb.Counts) bool {
	ranks, most := 0, uint8(0)
	for _, k := range c {
		if k > 0 {
			ranks++
			most = max(most, k)
		}
	}
	if ranks == 1 && most >= 4 {
		return true
	}
	return c.Jokers() == c.Total() && c[climb.RankBJ] > 0 && c[climb.RankRJ] > 0
}
