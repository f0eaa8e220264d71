package api_test

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"paiju/api/apitest"
	"paiju/audit"
	"paiju/games"
	"paiju/service"
)

// TestTournamentShengjiDuplicateOverREST: for each variant, eight players
// at two tables of 升级 play the same two deals, every hand as a first hand. The
// tables are sealed from each other while the tournament runs; at the end
// the test proves from the revealed seed alone that both tables dealt the
// very same cards (hands and kitty), that every hand was played at the
// starting level with no dealer carried over, and recomputes the
// partnership matchpoints from the tables' settlements: each side (seats
// 0/2, 1/3) against the same side of the other table, both partners
// getting the side's. Two hands per table; one with -short (a quick
// run).
func TestTournamentShengjiDuplicateOverREST(t *testing.T) {
	crawlerSkipsUnderRace(t)
	t.Parallel() // one of the package's longest tests: they run side by side
	for i, c := range []struct{ variant, level string }{{"ningyang", "A"}, {"guafeng", "A"}, {"qiangbao", "3"}} {
		t.Run(c.variant, func(t *testing.T) { shengjiDuplicate(t, uint64(808+i), c.variant, c.level) })
	}
}

// shengjiDuplicate plays one 升级 duplicate of variant, whose hands are all
// played at level.
func shengjiDuplicate(t *testing.T, envSeed uint64, variant, level string) {
	hands := 2
	if testing.Short() {
		hands = 1
	}
	e := newEnv(t, envSeed)
	byID := map[string]player{}
	var ps []player
	for i := range 8 {
		p := e.newPlayer(fmt.Sprintf("sj%d", i))
		ps = append(ps, p)
		byID[p.ID] = p
	}
	for _, bad := range []map[string]any{
		{"game": "shengji", "variant": "ningyang", "format": "duplicate", "players": 4, "hands_per_table": hands},
		{"game": "shengji", "variant": "ningyang", "format": "duplicate", "players": 6, "hands_per_table": hands},
		{"game": "shengji", "variant": "ningyang", "format": "elimination", "players": 8, "hands_per_table": hands},
		{"game": "shuangkou", "variant": "classic", "format": "duplicate", "players": 8, "hands_per_table": hands},
	} {
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments", Token: ps[0].Token, Body: bad})
		if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "invalid_option" {
			t.Fatalf("open %v: %d %s", bad, r.Status, r.Body)
		}
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments", Token: ps[0].Token, Body: map[string]any{
		"game": "shengji", "variant": variant, "format": "duplicate", "players": 8, "hands_per_table": hands,
	}})
	if r.Status != http.StatusCreated {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	var tv tournamentView
	r.Decode(t, &tv)
	var shape struct {
		SeatsPerTable int  `json:"seats_per_table"`
		Partnerships  bool `json:"partnerships"`
	}
	r.Decode(t, &shape)
	if shape.SeatsPerTable != 4 || !shape.Partnerships {
		t.Fatalf("a 升级 duplicate's tables: %+v", shape)
	}
	for _, p := range ps {
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments/" + tv.ID + "/join", Token: p.Token})
		if r.Status != http.StatusOK {
			t.Fatalf("join: %d %s", r.Status, r.Body)
		}
		r.Decode(t, &tv)
	}
	if len(tv.Rounds) != 1 || len(tv.Rounds[0].Tables) != 2 || len(tv.Rounds[0].Tables[0].Players) != 4 {
		t.Fatalf("eight players in a 升级 duplicate: want one round of two tables of four, got %+v", tv.Rounds)
	}
	tabA, tabB := tv.Rounds[0].Tables[0], tv.Rounds[0].Tables[1]
	playerB := byID[tabB.Players[0]]
	sealed := func(tok string) {
		t.Helper()
		for _, path := range []string{"", "/events", "/legal"} {
			r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tabA.TableID + path, Token: tok})
			if r.Status != http.StatusForbidden || r.Problem(t) != "table_sealed" {
				t.Fatalf("GET table A%s by a non-player while the tournament runs: %d %s", path, r.Status, r.Body)
			}
		}
	}
	sealed(playerB.Token)
	// 升级 lets several seats act at once (the draw, declarations): each
	// step posts one legal action of any seat, chosen at random.
	play := func(tb string, ids []string) {
		t.Helper()
		var seated []player
		for _, id := range ids {
			seated = append(seated, byID[id])
		}
		for range 20_000 {
			var v struct {
				Closed bool `json:"closed"`
			}
			e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tb, Token: seated[0].Token}).Decode(t, &v)
			if v.Closed {
				return
			}
			type choice struct {
				seat int
				a    map[string]any
			}
			var choices []choice
			for seat, p := range seated {
				for _, a := range e.legal(tb, p.Token) {
					switch a["type"] {
					case "escape", "leave", "delegate":
					default:
						choices = append(choices, choice{seat, a})
					}
				}
			}
			if len(choices) == 0 {
				t.Fatalf("no seat of %s may act in phase %s", tb, e.view(tb, seated[0].Token).Phase)
			}
			c := choices[e.rng.IntN(len(choices))]
			r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tb + "/actions", Token: seated[c.seat].Token, Body: c.a})
			if r.Status != http.StatusOK {
				t.Fatalf("seat %d posting its legal action %v: %d %s", c.seat, c.a, r.Status, r.Body)
			}
		}
		t.Fatalf("table %s did not end", tb)
	}
	play(tabA.TableID, tabA.Players)
	tv = e.tournament(tv.ID, playerB.Token)
	if tv.Status != "running" || !tv.Rounds[0].Tables[0].Ended || tv.Rounds[0].Tables[1].Ended {
		t.Fatalf("after table A's match: %+v", tv)
	}
	if tv.Rounds[0].Tables[0].Hands != nil || tv.Scores != nil || tv.Seed != nil {
		t.Fatalf("table A's hands or the seed shown while B has yet to play them: %+v", tv)
	}
	sealed(playerB.Token)
	play(tabB.TableID, tabB.Players)
	tv = e.tournament(tv.ID, ps[0].Token)
	if tv.Status != "ended" || tv.Seed == nil || tv.Winner == nil || len(tv.Scores) != 8 {
		t.Fatalf("the duplicate did not end with its seed, winner and scores: %+v", tv)
	}

	// From the revealed seed alone: the seating, the deals' secret and its
	// commitment in each table's TableOpened, and every deal's seed.
	seed, _ := hex.DecodeString(*tv.Seed)
	if sum := sha256.Sum256(seed); hex.EncodeToString(sum[:]) != tv.Commitment {
		t.Fatal("the revealed seed does not match the commitment")
	}
	seating := redraw(seed, 1, tv.Rounds[0].Field)
	for ti, tb := range tv.Rounds[0].Tables {
		if !slices.Equal(tb.Players, seating[4*ti:4*ti+4]) {
			t.Fatalf("table %d seats %v; the seed draws %v", ti, tb.Players, seating[4*ti:4*ti+4])
		}
	}
	secret := sha256.Sum256(binary.BigEndian.AppendUint64(slices.Clone(seed), 0))
	secretSum := sha256.Sum256(secret[:])
	dealSeed := func(hand, deal int) string {
		in := binary.BigEndian.AppendUint64(slices.Clone(secret[:]), uint64(hand))
		sum := sha256.Sum256(binary.BigEndian.AppendUint64(in, uint64(deal)))
		return hex.EncodeToString(sum[:])
	}
	type dealKey struct{ hand, deal int }
	dealt := map[dealKey]string{}  // the cards of each deal at the first table that dealt it
	deltas := map[string][][]int{} // table → hand → seat deltas
	dealOf := map[string][]int{}   // table → hand → its last deal
	compared := 0
	for _, tb := range []string{tabA.TableID, tabB.TableID} {
		var lastDeal dealKey
		for _, ev := range e.auditorEvents(tb) {
			var d struct {
				FixedDeals string          `json:"fixed_deals"`
				Options    json.RawMessage `json:"options"`
				Hand       int             `json:"hand"`
				Deal       int             `json:"deal"`
				Hands      json.RawMessage `json:"hands"`
				Kitty      json.RawMessage `json:"kitty"`
				Seed       string          `json:"seed"`
				Deltas     []int           `json:"deltas"`
				Result     struct {
					End        string   `json:"end"`
					Level      string   `json:"level"`
					Levels     []string `json:"levels"`
					NextDealer *int     `json:"next_dealer"`
				} `json:"result"`
			}
			mustUnmarshal(t, ev.Data, &d)
			switch ev.Type {
			case "TableOpened":
				if d.FixedDeals != hex.EncodeToString(secretSum[:]) {
					t.Fatalf("table %s commits to %s, not to the tournament's deals", tb, d.FixedDeals)
				}
				var o struct {
					Duplicate bool `json:"duplicate"`
				}
				mustUnmarshal(t, d.Options, &o)
				if !o.Duplicate {
					t.Fatalf("table %s is not opened with option duplicate: %s", tb, d.Options)
				}
			case "HandDealt":
				lastDeal = dealKey{d.Hand, d.Deal}
				cardsDealt := string(d.Hands) + string(d.Kitty)
				if prev, ok := dealt[lastDeal]; ok {
					if prev != cardsDealt {
						t.Fatalf("hand %d deal %d differs between the tables", d.Hand, d.Deal)
					}
					compared++
				}
				dealt[lastDeal] = cardsDealt
			case "HandSettled", "DealVoided":
				if d.Seed != dealSeed(lastDeal.hand, lastDeal.deal) {
					t.Fatalf("table %s hand %d deal %d: seed %s is not the one the tournament's seed derives", tb, lastDeal.hand, lastDeal.deal, d.Seed)
				}
				if ev.Type != "HandSettled" {
					continue
				}
				// Every hand a first hand: at the starting level, both sides
				// left there, no next dealer named.
				if d.Result.End == "played_out" && (d.Result.Level != level || !slices.Equal(d.Result.Levels, []string{level, level}) || d.Result.NextDealer != nil) {
					t.Fatalf("table %s hand %d was not played as a first hand: %s", tb, d.Hand, ev.Data)
				}
				if d.Deltas[0] != d.Deltas[2] || d.Deltas[1] != d.Deltas[3] || d.Deltas[0] != -d.Deltas[1] {
					t.Fatalf("table %s hand %d: partners settle differently: %v", tb, d.Hand, d.Deltas)
				}
				deltas[tb] = append(deltas[tb], d.Deltas)
				dealOf[tb] = append(dealOf[tb], lastDeal.deal)
			}
		}
		if len(deltas[tb]) != hands {
			t.Fatalf("table %s settled %d hands, want %d", tb, len(deltas[tb]), hands)
		}
	}
	if compared == 0 {
		t.Fatal("no deal was dealt at both tables")
	}
	// Matchpoints, recomputed: each side against the same side of the other
	// table, hand by hand, where both ended the hand on the same deal; the
	// side's score is its two seats' settlements together.
	want := map[string]float64{}
	points := map[string]int{}
	for _, pair := range [][2]int{{0, 1}, {1, 0}} {
		me, other := tv.Rounds[0].Tables[pair[0]], tv.Rounds[0].Tables[pair[1]]
		for h := range hands {
			for seat, p := range me.Players {
				points[p] += deltas[me.TableID][h][seat]
			}
			if dealOf[me.TableID][h] != dealOf[other.TableID][h] {
				continue
			}
			for seat, p := range me.Players {
				side := func(tb string) int { return deltas[tb][h][seat%2] + deltas[tb][h][seat%2+2] }
				switch a, b := side(me.TableID), side(other.TableID); {
				case a > b:
					want[p]++
				case a == b:
					want[p] += 0.5
				}
			}
		}
	}
	for _, sc := range tv.Scores {
		if sc.Matchpoints != want[sc.PlayerID] || sc.Points != points[sc.PlayerID] {
			t.Fatalf("%s has %v matchpoints and %d points, recomputed %v and %d", sc.PlayerID, sc.Matchpoints, sc.Points, want[sc.PlayerID], points[sc.PlayerID])
		}
	}
	// Partners share their matchpoints.
	for _, tb := range tv.Rounds[0].Tables {
		if want[tb.Players[0]] != want[tb.Players[2]] || want[tb.Players[1]] != want[tb.Players[3]] {
			t.Fatalf("partners at %s differ: %v", tb.TableID, want)
		}
	}
	if *tv.Winner != tv.Scores[0].PlayerID || tv.Standings[0].PlayerID != *tv.Winner {
		t.Fatalf("winner %s, scores %+v", *tv.Winner, tv.Scores)
	}
	if r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tabA.TableID + "/events", Token: playerB.Token}); r.Status != http.StatusOK {
		t.Fatalf("table A after the end: %d %s", r.Status, r.Body)
	}
	for _, tb := range []string{tabA.TableID, tabB.TableID} {
		evs, err := e.store.Load(context.Background(), service.StreamID(tb), 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := audit.VerifyTable(games.All().Rules, evs); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := e.store.Load(context.Background(), service.TournamentStreamID(tv.ID), 0)
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := audit.VerifyTournament(evs); err != nil || !rep.Ended {
		t.Fatalf("verify the tournament: %+v %v", rep, err)
	}
}
