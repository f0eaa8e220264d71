package projectionstest

import (
	"time"

	"paiju/domain/table"
	"paiju/projections"
	"paiju/ratings"
)

// ByDeltas rates a random log's hands as a free-for-all: each seat its own
// team, placed by its delta (the games' own contests read the games'
// settlements, which a random log does not hold).
func ByDeltas(_ table.TableOpened, hs table.HandSettled) ([]table.Contest, bool) {
	var c table.Contest
	for seat, d := range hs.Deltas {
		place := 0
		for _, o := range hs.Deltas {
			if o > d {
				place++
			}
		}
		c.Teams, c.Places = append(c.Teams, []int{seat}), append(c.Places, place)
	}
	return []table.Contest{c}, true
}

// Rater is the default model rating a random log's hands by ByDeltas.
func Rater() projections.Rater {
	return projections.Rater{Model: ratings.Default(), Contests: ByDeltas}
}

// SeatsStream is the stream of SeatsTable's table.
const SeatsStream = "table-T1"

// SeatsTable starts the log the ratings' seat rules are tested on: one
// table of three seats (game g, variant v) where ann, ben and a server bot
// sit, a hand is played, ben's seat is handed to the bot for the whole
// second hand, and ben takes it back during the third. Hand appends a
// further hand n settled with deltas, with between recorded inside it.
func SeatsTable() (l *Log, hand func(n int, deltas []int, between ...table.Payload)) {
	l = NewLog(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))
	const s = SeatsStream
	hand = func(n int, deltas []int, between ...table.Payload) {
		l.Add(s, time.Minute, table.HandDealt{Hand: n, Deal: 1})
		for _, p := range between {
			l.Add(s, time.Minute, p)
		}
		l.Add(s, time.Minute, table.HandSettled{Hand: n, Deltas: deltas})
	}
	l.Add(s, time.Minute, table.TableOpened{TableID: "T1", Game: "g", Variant: "v", Seats: 3, RulesVersion: "1"})
	l.Add(s, time.Minute, table.PlayerSeated{Seat: 0, PlayerID: "ann", Name: "Ann"})
	l.Add(s, time.Minute, table.PlayerSeated{Seat: 1, PlayerID: "ben", Name: "Ben"})
	l.Add(s, time.Minute, table.PlayerSeated{Seat: 2, PlayerID: "bot-T1-2", Name: "Bot", Bot: true})
	hand(1, []int{2, -1, -1})
	l.Add(s, time.Minute, table.SeatDelegated{Seat: 1, By: "clock"})
	hand(2, []int{-2, 1, 1}) // ben's seat played by the bot throughout
	hand(3, []int{2, -1, -1}, table.SeatResumed{Seat: 1})
	return l, hand
}
