package projections

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"time"

	"paiju/eventstore"
	"paiju/ratings"
)

// RatingHistories are players' rating histories as the API serves them,
// for CheckExportRatings: each player's rows, oldest first by position, a
// hand once.
type RatingHistories struct {
	Rows map[string][]RatingHistoryRow
	// Follows[player][i] says Rows[player][i-1] is the row before
	// Rows[player][i] in the player's whole history: both were given in one
	// page, one after the other. Where it is not known (rows from two
	// pages, or no Follows), a rating before a hand is not compared with
	// the one after the player's previous hand.
	Follows map[string][]bool

	pages  int
	member map[string]map[string][]pageIndex // player → hand id → where given
	given  []givenPage                       // every page, in the order given
	source string                            // the name ReadNamed reads from
}

// givenPage is a page of a player's history as it was given: the n-th
// page, from source.
type givenPage struct {
	n      int
	source string
	player string
	rows   []RatingHistoryRow
}

func (p givenPage) String() string {
	if p.source == "" {
		return fmt.Sprintf("page %d", p.n)
	}
	return fmt.Sprintf("page %d (%s)", p.n, p.source)
}

type pageIndex struct{ page, index int }

// NewRatingHistories returns no histories.
func NewRatingHistories() *RatingHistories {
	return &RatingHistories{Rows: map[string][]RatingHistoryRow{}, Follows: map[string][]bool{}, member: map[string]map[string][]pageIndex{}}
}

// Add adds one page of player's history: rows that follow one another in
// it, oldest first. A hand given twice must be given the same.
func (h *RatingHistories) Add(player string, page []RatingHistoryRow) error {
	h.pages++
	h.given = append(h.given, givenPage{n: h.pages, source: h.source, player: player, rows: slices.Clone(page)})
	if h.member[player] == nil {
		h.member[player] = map[string][]pageIndex{}
	}
	m := h.member[player]
	rows := h.Rows[player]
	for i, r := range page {
		if _, ok := m[r.HandID]; ok {
			at := slices.IndexFunc(rows, func(x RatingHistoryRow) bool { return x.HandID == r.HandID })
			if !SameHistoryRow(rows[at], r) {
				return fmt.Errorf("rating history of %s: hand %s given twice, differently", player, r.HandID)
			}
		} else {
			rows = append(rows, r)
		}
		m[r.HandID] = append(m[r.HandID], pageIndex{h.pages, i})
	}
	slices.SortStableFunc(rows, func(a, b RatingHistoryRow) int { return cmpInt64(a.Position, b.Position) })
	follows := make([]bool, len(rows))
	for i := 1; i < len(rows); i++ {
		for _, a := range m[rows[i].HandID] {
			if slices.Contains(m[rows[i-1].HandID], pageIndex{a.page, a.index - 1}) {
				follows[i] = true
			}
		}
	}
	h.Rows[player], h.Follows[player] = rows, follows
	return nil
}

// ReadNamed is Read of the file name: Joins names its pages by it.
func (h *RatingHistories) ReadNamed(name string, r io.Reader) error {
	h.source = name
	defer func() { h.source = "" }()
	return h.Read(r)
}

// Joins checks that the pages given of each player's history join into
// one: taken in the order of their first positions, the first row of a
// page on a board (game and variant) past the rows of the earlier pages
// there starts from the rating after the last of them, bit for bit (its
// rating before the hand is the one after that hand). Within a page the
// rows follow one another and CheckExportRatings chains them; between
// pages a page left out, or a page of another history, breaks the chain:
// the error names the page, the position and the page it does not join.
func (h *RatingHistories) Joins() error {
	byPlayer := map[string][]givenPage{}
	for _, p := range h.given {
		if len(p.rows) > 0 {
			byPlayer[p.player] = append(byPlayer[p.player], p)
		}
	}
	type board struct{ game, variant string }
	type lastRow struct {
		row  RatingHistoryRow
		page givenPage
	}
	for _, player := range slices.Sorted(maps.Keys(byPlayer)) {
		pages := byPlayer[player]
		slices.SortStableFunc(pages, func(a, b givenPage) int { return cmpInt64(a.rows[0].Position, b.rows[0].Position) })
		last := map[board]lastRow{}
		for _, p := range pages {
			for _, r := range p.rows {
				b := board{r.Game, r.Variant}
				l, ok := last[b]
				if ok && r.Position <= l.row.Position {
					continue // given before, and the same (Add)
				}
				if ok && l.page.n != p.n && !sameValue(l.row.After, r.Before) {
					return fmt.Errorf("rating history of %s: %s, position %d (hand %s): the rating before the hand %s is not the rating after the last %s/%s hand of %s, position %d (hand %s), %s: a page between them is missing, or the pages are not of one history",
						player, p, r.Position, r.HandID, bitsOf(r.Before), b.game, b.variant, l.page, l.row.Position, l.row.HandID, bitsOf(l.row.After))
				}
				last[b] = lastRow{r, p}
			}
		}
	}
	return nil
}

// Read reads histories as GET /v1/players/{id}/ratings?history=true serves
// them: one or more PlayerRatings objects, one after the other (a page, or
// every page of the history concatenated, of one player or of several).
// Only player_id and history are read.
func (h *RatingHistories) Read(r io.Reader) error {
	dec := json.NewDecoder(r)
	n := 0
	for {
		var p PlayerRatings
		err := dec.Decode(&p)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("rating history %d: %w", n+1, err)
		}
		n++
		if p.PlayerID == "" {
			return fmt.Errorf("rating history %d: no player_id (want the body of GET /v1/players/{id}/ratings?history=true)", n)
		}
		if err := h.Add(p.PlayerID, p.History); err != nil {
			return err
		}
	}
	if n == 0 {
		return errors.New("no rating history (want the body of GET /v1/players/{id}/ratings?history=true)")
	}
	return nil
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// SameHistoryRow compares two history rows, their floats by their bits.
func SameHistoryRow(a, b RatingHistoryRow) bool {
	same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
	return a.Game == b.Game && a.Variant == b.Variant && a.HandID == b.HandID && a.Seat == b.Seat && a.Position == b.Position &&
		a.SettledAt.Equal(b.SettledAt) && a.IdleDays == b.IdleDays &&
		same(a.Before.Rating, b.Before.Rating) && same(a.Before.Deviation, b.Before.Deviation) &&
		same(a.After.Rating, b.After.Rating) && same(a.After.Deviation, b.After.Deviation)
}

// RatingFault is a rating history that the export it was checked against
// does not give: the hand and the player it names.
type RatingFault struct {
	HandID, Player string
	Reason         string
}

func (f *RatingFault) Error() string {
	return fmt.Sprintf("hand %s, player %s: %s", f.HandID, f.Player, f.Reason)
}

// ExportRatingsReport is what CheckExportRatings checked.
type ExportRatingsReport struct {
	Settled int // settled hands in the export
	// Checked are the hands whose every rated player's history was given
	// and whose new ratings were recomputed and found equal to them.
	Checked []string
	// Unverifiable are hands some history names but that rate a player
	// whose history for the hand was not given: hand id → those players.
	Unverifiable map[string][]string
	// Players are the players whose history a checked hand matched.
	Players []string
	// Rows is the number of history rows compared.
	Rows int
}

// CheckExportRatings recomputes, for each settled hand of a table's events
// evs (an export, in version order) that one of the histories hs names, the
// ratings after the hand from the ratings before it that the histories
// give, with r and the ratings projection's own fold (RatingsFold: the same
// seats, bots, idle days and Model.Hand), and compares them bit for bit
// with the histories. A hand that rates a player whose history for it is
// not given cannot be recomputed: it is reported, not a fault. A
// difference is a *RatingFault naming the hand and the player.
func CheckExportRatings(r Rater, evs []eventstore.Event, hs *RatingHistories) (ExportRatingsReport, error) {
	histories := hs.Rows
	rep := ExportRatingsReport{Unverifiable: map[string][]string{}}
	byHand := map[string]map[string]int{} // hand id → player → index in histories[player]
	for player, rows := range histories {
		for i, h := range rows {
			if byHand[h.HandID] == nil {
				byHand[h.HandID] = map[string]int{}
			}
			byHand[h.HandID][player] = i
		}
	}
	// state follows the table's seats, bots and running hand; a hand the
	// histories name is rated by a fold of its own over state's table row,
	// whose ratings before the hand are the histories'.
	state := NewRatingsFold(r,
		func(string) (*RatedTable, error) { return nil, nil },
		func(RatingKey) (*PlayerRating, error) { return nil, nil })
	players := map[string]bool{}
	for _, ev := range evs {
		if ev.Type != "HandSettled" {
			if err := state.Apply(ev); err != nil {
				return rep, fmt.Errorf("event %d (%s): %w", ev.Version, ev.Type, err)
			}
			continue
		}
		rep.Settled++
		hand, err := HandNumber(ev.Data)
		if err != nil {
			return rep, fmt.Errorf("event %d (%s): %w", ev.Version, ev.Type, err)
		}
		tid, ok := TableID(ev.Stream)
		if !ok {
			return rep, fmt.Errorf("event %d: stream %s is not a table's", ev.Version, ev.Stream)
		}
		hid := HandID(tid, hand)
		named := byHand[hid]
		if len(named) == 0 {
			if err := state.Apply(ev); err != nil {
				return rep, fmt.Errorf("event %d (%s): %w", ev.Version, ev.Type, err)
			}
			continue
		}
		at := ev.RecordedAt.UTC().UnixNano()
		var missing []string
		hf := NewRatingsFold(r,
			func(stream string) (*RatedTable, error) { return state.Table(stream), nil },
			func(k RatingKey) (*PlayerRating, error) {
				i, ok := named[k.Player]
				if !ok {
					missing = append(missing, k.Player)
					return nil, nil
				}
				h := histories[k.Player][i]
				pr := &PlayerRating{RatingKey: k, Rating: ratingOf(h.Before)}
				if h.IdleDays > 0 {
					pr.LastAt = at - int64(h.IdleDays)*int64(24*time.Hour)
				}
				return pr, nil
			})
		// The table row is state's: hf's settlement ends its running hand
		// there, as state's own would.
		if err := hf.Apply(ev); err != nil {
			return rep, fmt.Errorf("event %d (%s): %w", ev.Version, ev.Type, err)
		}
		// A hand the fold cannot check: it rates a player whose history
		// for it is not given (their rating before it is unknown). A human
		// the hand does not rate (a seat the rules voided) needs none.
		slices.Sort(missing)
		missing = slices.Compact(missing)
		rated := map[string]bool{}
		for _, c := range hf.History {
			rated[c.Player] = true
		}
		missing = slices.DeleteFunc(missing, func(p string) bool { return !rated[p] })
		if len(missing) > 0 {
			rep.Unverifiable[hid] = missing
			continue
		}
		for _, c := range hf.History {
			got := c.HistoryRow()
			want := histories[c.Player][named[c.Player]]
			if err := compareRow(want, got); err != nil {
				return rep, &RatingFault{HandID: hid, Player: c.Player, Reason: err.Error()}
			}
			// The history's own steps: the rating before is the one after
			// the player's previous hand there, and the idle days are the
			// whole days since it, when that hand is in the history given
			// (the player's latest row before this one on the same board,
			// with no row between them missing: RatingHistories.Follows).
			follows := hs.Follows[c.Player]
			for i := named[c.Player] - 1; i >= 0 && i+1 < len(follows) && follows[i+1]; i-- {
				prev := histories[c.Player][i]
				if prev.Game == want.Game && prev.Variant == want.Variant {
					if !sameValue(prev.After, want.Before) {
						return rep, &RatingFault{HandID: hid, Player: c.Player, Reason: fmt.Sprintf("the history's rating before the hand %v is not its rating after the previous hand %s, %v", want.Before, prev.HandID, prev.After)}
					}
					if d := IdleDays(prev.SettledAt.UnixNano(), at); d != want.IdleDays {
						return rep, &RatingFault{HandID: hid, Player: c.Player, Reason: fmt.Sprintf("the history gives %d idle days, the settlements of hands %s and %s are %d whole days apart", want.IdleDays, prev.HandID, hid, d)}
					}
					break
				}
			}
			rep.Rows++
			players[c.Player] = true
			delete(named, c.Player)
		}
		for _, p := range slices.Sorted(maps.Keys(named)) {
			return rep, &RatingFault{HandID: hid, Player: p, Reason: "the history rates the player in the hand, the export does not (a bot seat, a seat the rules voided, or not seated)"}
		}
		rep.Checked = append(rep.Checked, hid)
	}
	rep.Players = slices.Sorted(maps.Keys(players))
	return rep, nil
}

func ratingOf(v RatingValue) ratings.Rating { return ratings.Rating{Mu: v.Rating, Sigma: v.Deviation} }

func sameValue(a, b RatingValue) bool {
	return math.Float64bits(a.Rating) == math.Float64bits(b.Rating) && math.Float64bits(a.Deviation) == math.Float64bits(b.Deviation)
}

// compareRow says how the history's row want differs from the row
// recomputed from the export, got (nil when equal to the last bit).
func compareRow(want, got RatingHistoryRow) error {
	if SameHistoryRow(want, got) {
		return nil
	}
	switch {
	case !sameValue(want.After, got.After):
		return fmt.Errorf("the history's rating after the hand is %s, recomputed from the export %s", bitsOf(want.After), bitsOf(got.After))
	case want.Game != got.Game || want.Variant != got.Variant:
		return fmt.Errorf("the history's board is %s/%s, the export's table is %s/%s", want.Game, want.Variant, got.Game, got.Variant)
	case want.Seat != got.Seat:
		return fmt.Errorf("the history's seat is %d, the export's %d", want.Seat, got.Seat)
	case want.Position != got.Position || !want.SettledAt.Equal(got.SettledAt):
		return fmt.Errorf("the history's settlement is at position %d, %s, the export's at %d, %s", want.Position, want.SettledAt.Format(time.RFC3339Nano), got.Position, got.SettledAt.Format(time.RFC3339Nano))
	}
	return fmt.Errorf("the history's row %+v differs from the recomputed %+v", want, got)
}

func bitsOf(v RatingValue) string {
	return fmt.Sprintf("(%v %#016x, %v %#016x)", v.Rating, math.Float64bits(v.Rating), v.Deviation, math.Float64bits(v.Deviation))
}
