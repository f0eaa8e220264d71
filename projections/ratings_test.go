package projections_test

import (
	"context"
	"testing"
	"time"

	"paiju/domain/table"
	"paiju/projections"
	"paiju/projections/projectionstest"
)

// TestRatingsFoldSeats: who a settled hand rates (issue 38; docs/AUDIT.md,
// Ratings): a seat handed to the bot before the deal and never resumed is
// a bot seat (its player is not rated, and the others play against the
// bot's rating); resumed during the hand, it is its player's again; a
// server bot is never rated; an escaper answers for the hand they left;
// the idle days count from the last rated hand's recorded time.
func TestRatingsFoldSeats(t *testing.T) {
	l, hand := projectionstest.SeatsTable()
	const s = projectionstest.SeatsStream
	l.Add(s, 3*24*time.Hour, table.SeatDelegated{Seat: 0, By: "player"})
	hand(4, []int{-2, 1, 1}, table.SeatResumed{Seat: 0}, table.PlayerEscaped{Seat: 1, PlayerID: "ben", Hand: 4})

	f, err := projections.RecomputeRatings(context.Background(), l, projectionstest.Rater())
	if err != nil {
		t.Fatal(err)
	}
	hands := func(p string) []string {
		var out []string
		for _, h := range f.PlayerHistory(p) {
			out = append(out, h.HandID)
		}
		return out
	}
	if got := hands("ann"); len(got) != 4 {
		t.Fatalf("ann rated at hands %v, want all four (her seat handed to the bot at hand 4 was resumed)", got)
	}
	if got := hands("ben"); len(got) != 3 || got[1] != "T1-3" {
		t.Fatalf("ben rated at hands %v, want 1, 3 and 4, not hand 2 the bot played for him", got)
	}
	if got := hands("bot-T1-2"); len(got) != 0 {
		t.Fatalf("the bot was rated at hands %v", got)
	}
	h := f.PlayerHistory("ann")
	if h[3].IdleDays != 3 || h[2].IdleDays != 0 {
		t.Fatalf("ann's idle days %d then %d, want 0 then 3", h[2].IdleDays, h[3].IdleDays)
	}
	if h[3].Before != h[2].After {
		t.Fatalf("ann's hand 4 starts from %+v, hand 3 ended at %+v", h[3].Before, h[2].After)
	}
	if h[1].After.Rating >= h[1].Before.Rating {
		t.Fatalf("ann lost hand 2 against the bot and ben's bot-played seat, and rose from %v to %v", h[1].Before.Rating, h[1].After.Rating)
	}
	if b := f.PlayerHistory("ben"); b[2].HandID != "T1-4" || b[2].Seat != 1 {
		t.Fatalf("ben's last rated hand %+v, want hand 4 at seat 1, which he escaped", b[2])
	}
}
