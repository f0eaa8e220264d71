package projections_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"paiju/domain/table"
	"paiju/eventstore"
	"paiju/projections"
	"paiju/projections/projectionstest"
)

// streams are a log's events by stream, in version order.
func streams(t testing.TB, l *projectionstest.Log) map[string][]eventstore.Event {
	t.Helper()
	evs, err := l.ReadAll(context.Background(), 0, math.MaxInt32)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]eventstore.Event{}
	for _, ev := range evs {
		out[ev.Stream] = append(out[ev.Stream], ev)
	}
	return out
}

// histories are every player's history of f, through the API's JSON (as a
// file of RatingHistories.Read holds them).
func histories(t testing.TB, f *projections.RatingsFold) *projections.RatingHistories {
	t.Helper()
	var buf bytes.Buffer
	seen := map[string]bool{}
	for _, c := range f.History {
		if !seen[c.Player] {
			seen[c.Player] = true
			if err := json.NewEncoder(&buf).Encode(projections.PlayerRatings{PlayerID: c.Player, Ratings: []projections.CurrentRating{}, History: f.PlayerHistory(c.Player)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	out := projections.NewRatingHistories()
	if err := out.Read(&buf); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCheckExportRatingsRandom: over a random log of many tables, each
// table's events and every player's whole history (as the API serves it)
// check every settled hand that rates someone, with no fault: a hand's
// ratings after it follow from its table's log and the ratings before it
// alone, whatever the players did at other tables between.
func TestCheckExportRatingsRandom(t *testing.T) {
	l := projectionstest.RandomLog(38, 12, 3000)
	f, err := projections.RecomputeRatings(context.Background(), l, projectionstest.Rater())
	if err != nil {
		t.Fatal(err)
	}
	h := histories(t, f)
	rated := map[string]bool{}
	for _, c := range f.History {
		rated[c.HandID] = true
	}
	checked, rows := 0, 0
	for s, evs := range streams(t, l) {
		if _, ok := projections.TableID(s); !ok {
			continue
		}
		rep, err := projections.CheckExportRatings(projectionstest.Rater(), evs, h)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if len(rep.Unverifiable) != 0 {
			t.Fatalf("%s: unverifiable %v with every history given", s, rep.Unverifiable)
		}
		checked += len(rep.Checked)
		rows += rep.Rows
	}
	if checked != len(rated) || rows != len(f.History) || checked == 0 {
		t.Fatalf("checked %d hands and %d rows, the log rates %d hands in %d rows", checked, rows, len(rated), len(f.History))
	}
	t.Logf("%d hands and %d rating changes checked, table by table", checked, rows)
}

// TestCheckExportRatingsSeats: the table of TestRatingsFoldSeats (a seat
// the bot played, a server bot, an escaper, idle days) checks against its
// players' histories; a part of a history leaves the hands before it that
// another history names unverifiable; a history that rates a bot-played
// seat, or gives other idle days or another rating before a hand, is a
// fault naming the hand and the player.
func TestCheckExportRatingsSeats(t *testing.T) {
	l, hand := projectionstest.SeatsTable()
	const s = projectionstest.SeatsStream
	l.Add(s, 3*24*time.Hour, table.SeatDelegated{Seat: 0, By: "player"})
	hand(4, []int{-2, 1, 1}, table.SeatResumed{Seat: 0}, table.PlayerEscaped{Seat: 1, PlayerID: "ben", Hand: 4})
	f, err := projections.RecomputeRatings(context.Background(), l, projectionstest.Rater())
	if err != nil {
		t.Fatal(err)
	}
	evs := streams(t, l)[s]
	r := projectionstest.Rater()
	type row = projections.RatingHistoryRow
	ann, ben := f.PlayerHistory("ann"), f.PlayerHistory("ben")
	// given are histories: player, then that player's pages.
	given := func(pp ...any) *projections.RatingHistories {
		t.Helper()
		h := projections.NewRatingHistories()
		var player string
		for _, x := range pp {
			switch x := x.(type) {
			case string:
				player = x
			case []row:
				if err := h.Add(player, slices.Clone(x)); err != nil {
					t.Fatal(err)
				}
			}
		}
		return h
	}

	rep, err := projections.CheckExportRatings(r, evs, given("ann", ann, "ben", ben))
	if err != nil || len(rep.Checked) != 4 || rep.Rows != 7 || strings.Join(rep.Players, ",") != "ann,ben" || rep.Settled != 4 {
		t.Fatalf("whole histories: %+v, %v; want 4 hands, 7 rows, ann and ben", rep, err)
	}
	rep, err = projections.CheckExportRatings(r, evs, given("ann", ann[:3], "ann", ann[1:], "ben", ben[:1], "ben", ben[1:]))
	if err != nil || len(rep.Checked) != 4 || rep.Rows != 7 {
		t.Fatalf("histories in overlapping pages: %+v, %v; want 4 hands, 7 rows", rep, err)
	}

	rep, err = projections.CheckExportRatings(r, evs, given("ann", ann[2:], "ben", ben))
	if err != nil || strings.Join(rep.Checked, ",") != "T1-3,T1-4" || len(rep.Unverifiable) != 1 || rep.Unverifiable["T1-1"][0] != "ann" {
		t.Fatalf("ann's history from hand 3: %+v, %v; want hand 1 (ben's) unverifiable for want of ann's, hand 2 (ann's alone) named by none", rep, err)
	}
	// Two pages with a page missing between them: a gap, not a fault.
	rep, err = projections.CheckExportRatings(r, evs, given("ann", ann[:1], "ann", ann[2:], "ben", ben))
	if err != nil || strings.Join(rep.Checked, ",") != "T1-1,T1-3,T1-4" {
		t.Fatalf("ann's history without hand 2's page: %+v, %v; want hands 1, 3 and 4 checked", rep, err)
	}

	fault := func(what string, hs *projections.RatingHistories, hand, player, reason string) {
		t.Helper()
		_, err := projections.CheckExportRatings(r, evs, hs)
		var f *projections.RatingFault
		if !errors.As(err, &f) || f.HandID != hand || f.Player != player || !strings.Contains(f.Reason, reason) {
			t.Fatalf("%s: %v, want a fault at hand %s for %s: %s", what, err, hand, player, reason)
		}
	}
	botPlayed := ann[1]
	botPlayed.Seat = 1
	fault("ben rated at the hand the bot played for him", given("ann", ann, "ben", []row{ben[0], botPlayed}, "ben", ben[1:]), "T1-2", "ben", "the export does not")

	idle := slices.Clone(ann)
	idle[3].IdleDays = 2
	fault("ann's idle days", given("ann", idle, "ben", ben), "T1-4", "ann", "rating after the hand")

	before := slices.Clone(ann)
	before[2].Before.Deviation = math.Nextafter(before[2].Before.Deviation, 0)
	fault("ann's rating before hand 3", given("ann", before, "ben", ben), "T1-3", "ann", "rating after the hand")

	// One page that leaves hand 2 out: hand 3's rating before it is not
	// the one after hand 1, the row before it in the page.
	fault("ann's hand 2 left out of a page", given("ann", []row{ann[0], ann[2], ann[3]}, "ben", ben), "T1-3", "ann", "is not its rating after the previous hand T1-1")

	if err := given("ann", ann).Add("ann", []row{idle[3]}); err == nil || !strings.Contains(err.Error(), "given twice, differently") {
		t.Fatalf("a hand given twice, differently: %v", err)
	}
}

// TestRatingHistoriesJoin: pages of a history given in any order, even
// overlapping, join when none is missing between them; a page left out is
// an error naming the page after the gap, its first position past it and
// the page before it.
func TestRatingHistoriesJoin(t *testing.T) {
	l, hand := projectionstest.SeatsTable()
	hand(4, []int{-2, 1, 1})
	f, err := projections.RecomputeRatings(context.Background(), l, projectionstest.Rater())
	if err != nil {
		t.Fatal(err)
	}
	ann := f.PlayerHistory("ann")
	if len(ann) < 4 {
		t.Fatalf("ann's history %+v: want 4 hands", ann)
	}
	// read gives each page of ann's as a file of its own, named by letter.
	read := func(pages ...[]projections.RatingHistoryRow) *projections.RatingHistories {
		t.Helper()
		h := projections.NewRatingHistories()
		for i, p := range pages {
			var buf bytes.Buffer
			if err := json.NewEncoder(&buf).Encode(projections.PlayerRatings{PlayerID: "ann", Ratings: []projections.CurrentRating{}, History: p}); err != nil {
				t.Fatal(err)
			}
			if err := h.ReadNamed(string(rune('a'+i))+".json", &buf); err != nil {
				t.Fatal(err)
			}
		}
		return h
	}
	for name, pages := range map[string][][]projections.RatingHistoryRow{
		"one page":          {ann},
		"two pages":         {ann[:2], ann[2:]},
		"three, reversed":   {ann[3:], ann[1:3], ann[:1]},
		"overlapping pages": {ann[:3], ann[1:]},
	} {
		if err := read(pages...).Joins(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	err = read(ann[:1], ann[2:]).Joins()
	want := fmt.Sprintf("rating history of ann: page 2 (b.json), position %d (hand %s): the rating before the hand", ann[2].Position, ann[2].HandID)
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), fmt.Sprintf("of page 1 (a.json), position %d", ann[0].Position)) {
		t.Fatalf("hand 2's page left out: %v, want %q, after page 1's", err, want)
	}
}

// BenchmarkCheckExportRatings: the cost of checking a table's rated hands
// against its players' histories, per table of the random log.
func BenchmarkCheckExportRatings(b *testing.B) {
	l := projectionstest.RandomLog(38, 12, 3000)
	f, err := projections.RecomputeRatings(context.Background(), l, projectionstest.Rater())
	if err != nil {
		b.Fatal(err)
	}
	h := histories(b, f)
	var tables [][]eventstore.Event
	events := 0
	for s, evs := range streams(b, l) {
		if _, ok := projections.TableID(s); ok {
			tables = append(tables, evs)
			events += len(evs)
		}
	}
	hands := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, evs := range tables {
			rep, err := projections.CheckExportRatings(projectionstest.Rater(), evs, h)
			if err != nil {
				b.Fatal(err)
			}
			hands += len(rep.Checked)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(hands), "ns/hand")
	b.ReportMetric(float64(events*b.N)/b.Elapsed().Seconds(), "events/s")
}
