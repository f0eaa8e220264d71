package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"paiju/api/apitest"
	"paiju/audit"
	"paiju/domain/table"
	"paiju/games"
)

// ddzOptions are the 斗地主 table options a test opened a table with, for
// recomputing its settlements (doudizhu.md, Table options).
type ddzOptions struct {
	Cap        int  `json:"cap"`
	BombDouble bool `json:"bomb_double"`
	Spring     int  `json:"spring"`
	Double     bool `json:"double"`
}

// ddzResult is the part of a 斗地主 result these tests read.
type ddzResult struct {
	Multiplier int   `json:"multiplier"`
	Settled    []int `json:"settled"`
	Factors    []int `json:"factors"`
	Cap        int   `json:"cap"`
	Bombs      int   `json:"bombs"`
	Rockets    int   `json:"rockets"`
}

// optGameState is the part of the 斗地主 game_state these tests read.
type optGameState struct {
	Landlord  *int   `json:"landlord"`
	CardsLeft []*int `json:"cards_left"`
	Factors   []int  `json:"factors"`
	Cap       int    `json:"cap"`
}

// optTableView is the table view with its options and game state.
type optTableView struct {
	Phase     string          `json:"phase"`
	Turn      *int            `json:"turn"`
	Seat      *int            `json:"seat"`
	Options   json.RawMessage `json:"options"`
	GameState optGameState    `json:"game_state"`
}

func (e *env) optView(id, token string) optTableView {
	e.t.Helper()
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: token})
	if r.Status != http.StatusOK {
		e.t.Fatalf("get table: %d %s", r.Status, r.Body)
	}
	var v optTableView
	r.Decode(e.t, &v)
	return v
}

// isBombOrRocket reports a play of four cards of one rank or both jokers.
func isBombOrRocket(a map[string]any) bool {
	cs, _ := a["cards"].([]any)
	if a["type"] != "play" || len(cs) < 2 {
		return false
	}
	ranks := map[string]bool{}
	for _, c := range cs {
		ranks[c.(string)[1:]] = true
	}
	return (len(cs) == 4 && len(ranks) == 1) || (len(cs) == 2 && ranks["J"])
}

// ddzPrefer is a test's policy: the first legal action it prefers is
// taken, else a random one; every phase's view goes to watch.
type ddzPrefer func(v optTableView, a map[string]any) bool

// preferAll bids 3, grabs, doubles and plays bombs whenever it may.
func preferAll(_ optTableView, a map[string]any) bool {
	return (a["type"] == "bid" && a["bid"] == 3.0) || a["type"] == "grab" || a["type"] == "double" || isBombOrRocket(a)
}

// preferSpring bids 3 and has the farmers pass every play: the landlord
// plays out alone, a spring (春天).
func preferSpring(v optTableView, a map[string]any) bool {
	farmer := v.GameState.Landlord != nil && *v.Turn != *v.GameState.Landlord
	return (a["type"] == "bid" && a["bid"] == 3.0) || (v.Phase == "playing" && farmer && a["type"] == "pass")
}

// ddzHand plays the running hand to its settlement with the policy prefer
// (no escapes); watch sees each view before an action. It returns the
// settlement.
func (e *env) ddzHand(id string, ps []player, prefer ddzPrefer, watch func(v optTableView)) table.HandSettled {
	e.t.Helper()
	for range 500 {
		v := e.optView(id, ps[0].Token)
		if watch != nil {
			watch(v)
		}
		p := ps[*v.Turn]
		var choices []map[string]any
		for _, a := range e.legal(id, p.Token) {
			if a["type"] != "escape" && a["type"] != "delegate" {
				choices = append(choices, a)
			}
		}
		a := choices[e.rng.IntN(len(choices))]
		if i := slices.IndexFunc(choices, func(a map[string]any) bool { return prefer(v, a) }); i >= 0 {
			a = choices[i]
		}
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: p.Token, Body: a})
		if r.Status != http.StatusOK {
			e.t.Fatalf("seat %d posting %v: %d %s", *v.Turn, a, r.Status, r.Body)
		}
		var cr commandResp
		r.Decode(e.t, &cr)
		for _, ev := range cr.Events {
			if ev.Type == "HandSettled" {
				return *cr.Table.LastSettlement
			}
		}
	}
	e.t.Fatalf("the hand did not end in 500 actions")
	return table.HandSettled{}
}

// ddzWant recomputes a played-out hand's deltas from its events (those
// after its last HandDealt) by doudizhu.md's arithmetic: M = the bid
// (classic; × 2 per bomb and rocket with bomb_double) or the bidding's
// multiplier × 2 if open × 2 per bomb × 4 per rocket (hubei), × the spring
// factor for a spring (and classic's 反春; hubei's 反春 ×2); farmer f settles
// at S_f = min(M × its double factor, cap), the landlord at minus the sum.
func ddzWant(t *testing.T, variant string, o ddzOptions, stake int, evs []auditedEvent) (want []int, m int) {
	t.Helper()
	var landlord, bid, bidMult, bombs, rockets, winner int
	open, back := false, false
	plays, doubled := map[int]int{}, map[int]bool{}
	for _, ev := range evs {
		var d struct {
			Seat, Bid, Multiplier int
			Back                  bool
			Reading               struct{ Type string }
		}
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatal(err)
		}
		switch ev.Type {
		case "LandlordChosen":
			landlord, bid, bidMult = d.Seat, d.Bid, d.Multiplier
		case "HandOpened":
			open = true
		case "DoubleMade":
			back = back || d.Back
			doubled[d.Seat] = !d.Back
		case "CardsPlayed":
			plays[d.Seat]++
			winner = d.Seat
			switch d.Reading.Type {
			case "bomb":
				bombs++
			case "rocket":
				rockets++
			}
		}
	}
	m = bid
	if variant == "classic" && o.BombDouble {
		m <<= bombs + rockets
	}
	if variant != "classic" {
		m = bidMult << (bombs + 2*rockets)
		if open {
			m *= 2
		}
	}
	farmerPlays := 0
	for seat, n := range plays {
		if seat != landlord {
			farmerPlays += n
		}
	}
	spring := o.Spring
	switch {
	case winner == landlord && farmerPlays == 0:
		m *= spring
	case winner != landlord && plays[landlord] == 1 && variant == "classic":
		m *= spring
	case winner != landlord && plays[landlord] == 1:
		m *= 2
	}
	want = make([]int, 3)
	for f := range want {
		if f == landlord {
			continue
		}
		sf := m
		if doubled[f] {
			sf *= 2
			if back {
				sf *= 2
			}
		}
		if o.Cap > 0 {
			sf = min(sf, o.Cap)
		}
		want[f] = stake * sf
		if winner == landlord {
			want[f] = -want[f]
		}
		want[landlord] -= want[f]
	}
	return want, m
}

// settledDeal is the events of the last settled deal of the auditor's
// stream, from its HandDealt to its HandSettled (the next deal may follow).
func settledDeal(all []auditedEvent) []auditedEvent {
	end := len(all)
	for end > 0 && all[end-1].Type != "HandSettled" {
		end--
	}
	start := end
	for start > 0 && all[start-1].Type != "HandDealt" {
		start--
	}
	return all[start:end]
}

// TestDoudizhuOptionsPlayed: each 斗地主 table option (doudizhu.md, Table
// options) on a table opened through POST /v1/tables: its hands settle as
// the rules file's arithmetic says, the table view shows the options with
// the defaults filled in, and the switch shows where it should (the
// doubling phase, hidden counts, the cap).
func TestDoudizhuOptionsPlayed(t *testing.T) {
	crawlerSkipsUnderRace(t)
	e := newEnv(t, 4242)
	const stake = 3
	for _, tc := range []struct {
		name, variant string
		options       map[string]any
		shown         string
		o             ddzOptions
		prefer        ddzPrefer
		watch         func(t *testing.T, v optTableView, seen map[string]bool)
		check         func(t *testing.T, res ddzResult, m int, seen map[string]bool)
	}{
		{
			// hubei: a call of 3 and two grabs is at least 12; cap 3 binds.
			name: "cap", variant: "hubei", options: map[string]any{"cap": 3},
			shown: `{"cap":3,"double":false,"show_counts":true,"spring":4}`, o: ddzOptions{Cap: 3, Spring: 4},
			watch: func(t *testing.T, v optTableView, seen map[string]bool) {
				seen["cap shown"] = seen["cap shown"] || v.GameState.Cap == 3
			},
			check: func(t *testing.T, res ddzResult, m int, seen map[string]bool) {
				if res.Cap != 3 || res.Settled == nil || !seen["cap shown"] {
					t.Errorf("result %+v (M %d), want the cap 3 marked and settled; the view shows the cap: %v", res, m, seen["cap shown"])
				}
			},
		},
		{
			name: "bomb_double", variant: "classic", options: map[string]any{"bomb_double": true},
			shown: `{"bomb_double":true,"double":false,"show_counts":true,"spring":2}`, o: ddzOptions{BombDouble: true, Spring: 2},
		},
		{
			// The farmers never play: bid 3 × spring 3 = 9.
			name: "spring", variant: "classic", options: map[string]any{"spring": 3},
			shown: `{"bomb_double":false,"double":false,"show_counts":true,"spring":3}`, o: ddzOptions{Spring: 3}, prefer: preferSpring,
			check: func(t *testing.T, res ddzResult, m int, seen map[string]bool) {
				if m != 9 {
					t.Errorf("result %+v: want a spring at 3 × 3", res)
				}
			},
		},
		{
			// Both farmers double and the landlord doubles back: ×4 each.
			name: "double", variant: "classic", options: map[string]any{"double": true},
			shown: `{"bomb_double":false,"double":true,"show_counts":true,"spring":2}`, o: ddzOptions{Double: true, Spring: 2},
			watch: func(t *testing.T, v optTableView, seen map[string]bool) {
				if v.Phase == "doubling" {
					seen["doubling"] = true
				}
			},
			check: func(t *testing.T, res ddzResult, m int, seen map[string]bool) {
				if !seen["doubling"] || slices.Max(res.Factors) != 4 || res.Settled == nil {
					t.Errorf("result %+v: want factors of 4 and settled after a doubling phase (seen %v)", res, seen["doubling"])
				}
			},
		},
		{
			name: "show_counts", variant: "classic", options: map[string]any{"show_counts": false},
			shown: `{"bomb_double":false,"double":false,"show_counts":false,"spring":2}`, o: ddzOptions{Spring: 2},
			watch: func(t *testing.T, v optTableView, seen map[string]bool) {
				for i, n := range v.GameState.CardsLeft {
					switch {
					case i == *v.Seat && n == nil:
						t.Errorf("seat %d does not see its own count", i)
					case n == nil:
						seen["hidden"] = true
					case i != *v.Seat && *n > 2 && v.Phase != "waiting":
						t.Errorf("seat %d sees seat %d's count %d (show_counts false: only at 2 or fewer)", *v.Seat, i, *n)
					}
				}
			},
			check: func(t *testing.T, res ddzResult, m int, seen map[string]bool) {
				if !seen["hidden"] {
					t.Errorf("no count was hidden")
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			body := map[string]any{"game": "doudizhu", "variant": tc.variant, "stake": stake, "options": tc.options}
			id, ps := e.openTable(body, 3)
			if got := e.optView(id, ps[1].Token).Options; string(got) != tc.shown {
				t.Errorf("the table view shows options %s, want %s (defaults filled in)", got, tc.shown)
			}
			seen := map[string]bool{}
			prefer := tc.prefer
			if prefer == nil {
				prefer = preferAll
			}
			for range 2 {
				hs := e.ddzHand(id, ps, prefer, func(v optTableView) {
					if tc.watch != nil {
						tc.watch(t, v, seen)
					}
				})
				want, m := ddzWant(t, tc.variant, tc.o, stake, settledDeal(e.auditorEvents(id)))
				t.Logf("settled %v: %s", hs.Deltas, hs.Result)
				var res ddzResult
				if err := json.Unmarshal(hs.Result, &res); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(hs.Deltas, want) || res.Multiplier != m {
					t.Errorf("settled %v at multiplier %d (%s), want %v at %d (doudizhu.md, Table options)", hs.Deltas, res.Multiplier, hs.Result, want, m)
				}
				if tc.check != nil {
					tc.check(t, res, m, seen)
				}
			}
			// The export of a table played with options re-decides under
			// the recorded options.
			full := e.export(id, auditorToken)
			if _, err := audit.VerifyExport(games.All().Rules, bytes.NewReader(full.Body)); full.Status != http.StatusOK || err != nil {
				t.Errorf("export %d: %v", full.Status, err)
			}
		})
	}
}

// TestDoudizhuOptionsRefused: a bad value, or a key the variant does not
// take, is 422 invalid_option naming the key in the problem's option
// member, and nothing is opened.
func TestDoudizhuOptionsRefused(t *testing.T) {
	e := newEnv(t, 4243)
	p := e.newPlayer("opener")
	for _, tc := range []struct {
		variant string
		options string
		key     string
	}{
		{"classic", `{"cap":2}`, "cap"},
		{"classic", `{"cap":"8"}`, "cap"},
		{"hubei", `{"bomb_double":true}`, "bomb_double"},
		{"classic", `{"spring":5}`, "spring"},
		{"fourplayer", `{"double":"yes"}`, "double"},
		{"classic", `{"show_counts":0}`, "show_counts"},
		{"classic", `{"jokers":4}`, "jokers"},
	} {
		body := map[string]any{"game": "doudizhu", "variant": tc.variant, "stake": 1, "options": json.RawMessage(tc.options)}
		// The body breaks openapi.yaml on purpose: the server's answer is
		// what is checked.
		r := e.c.Unchecked().Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: p.Token, Body: body})
		var prob struct {
			Option string `json:"option"`
		}
		if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "invalid_option" {
			t.Errorf("%s %s: %d %s, want 422 invalid_option", tc.variant, tc.options, r.Status, r.Body)
			continue
		}
		if r.Decode(t, &prob); prob.Option != tc.key {
			t.Errorf("%s %s: problem option %q, want %q", tc.variant, tc.options, prob.Option, tc.key)
		}
	}
}

// TestDoudizhuOptionsInLobby: the caller's tables in the lobby show a
// table's options with the defaults filled in; recorded, a key at its
// default is left out (TableOpened.options).
func TestDoudizhuOptionsInLobby(t *testing.T) {
	e := newEnv(t, 4244)
	id, ps := e.openTable(map[string]any{"game": "doudizhu", "variant": "hubei", "stake": 1,
		"options": map[string]any{"cap": 48, "spring": 4, "show_counts": true}}, 3)
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/me/tables", Token: ps[0].Token})
	var page struct {
		Tables []struct {
			ID      string          `json:"id"`
			Options json.RawMessage `json:"options"`
		} `json:"tables"`
	}
	r.Decode(t, &page)
	const want = `{"cap":48,"double":false,"show_counts":true,"spring":4}`
	found := false
	for _, x := range page.Tables {
		found = found || (x.ID == id && string(x.Options) == want)
	}
	if r.Status != http.StatusOK || !found {
		t.Fatalf("my tables: %d %s, want the table with options %s", r.Status, r.Body, want)
	}
	opened := e.auditorEvents(id)[0]
	if !strings.Contains(string(opened.Data), `"options":{"cap":48}`) {
		t.Errorf("TableOpened %s: want the options recorded as {\"cap\":48} (defaults left out)", opened.Data)
	}
}

// TestDoudizhuQuickPlayOptions: quick play matches 斗地主 tables by their
// normalized options: the same house rules (a default spelled out or not)
// seat together, other rules open another table.
func TestDoudizhuQuickPlayOptions(t *testing.T) {
	e := newEnv(t, 4245)
	quick := func(name string, options map[string]any) (tableView, int) {
		p := e.newPlayer(name)
		body := map[string]any{"game": "doudizhu", "variant": "classic", "options": options}
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/quick", Token: p.Token, Body: body})
		var v tableView
		r.Decode(t, &v)
		return v, r.Status
	}
	first, st1 := quick("ann", map[string]any{"double": true, "spring": 2})
	same, st2 := quick("ben", map[string]any{"double": true})
	other, st3 := quick("cai", map[string]any{"double": true, "cap": 8})
	if st1 != http.StatusCreated || st2 != http.StatusOK || same.ID != first.ID || st3 != http.StatusCreated || other.ID == first.ID {
		t.Fatalf("quick play: %d %s, %d %s, %d %s; want ben at ann's table (spring 2 is the default) and cai at a new one",
			st1, first.ID, st2, same.ID, st3, other.ID)
	}
}
