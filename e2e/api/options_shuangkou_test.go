package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"paiju/api/apitest"
	"paiju/audit"
	"paiju/games"
)

// skOptionsResult is the part of a 双扣 result the house rules change.
type skOptionsResult struct {
	End        string `json:"end"`
	Outcome    string `json:"outcome"`
	Finish     []int  `json:"finish"`
	Winners    []int  `json:"winners"`
	Multiplier int    `json:"multiplier"`
	Xiang      *int   `json:"xiang"`
	Bonus      int    `json:"bonus"`
	Capped     int    `json:"capped"`
}

// skIsBomb reports a legal play that is a bomb or the 4-joker bomb: four
// cards or more of one natural rank with jokers or not, or four jokers.
func skIsBomb(cs []string) bool {
	if len(cs) < 4 {
		return false
	}
	var ranks []string
	for _, c := range cs {
		if c != "BJ" && c != "RJ" {
			ranks = append(ranks, c[1:])
		}
	}
	return len(slices.Compact(ranks)) <= 1
}

func cardsOf(a map[string]any) []string {
	var out []string
	if cs, ok := a["cards"].([]any); ok {
		for _, c := range cs {
			out = append(out, c.(string))
		}
	}
	return out
}

// skStepBombs has the seat on turn play a bomb when it may (so that 相
// comes into play), else pass one time in two when it may, else a random
// play; it returns the command's events.
func (e *env) skStepBombs(id string, ps []player) commandResp {
	e.t.Helper()
	seat := *e.view(id, ps[0].Token).Turn
	var plays, bombs []map[string]any
	var pass map[string]any
	for _, a := range e.legal(id, ps[seat].Token) {
		switch {
		case a["type"] == "pass":
			pass = a
		case a["type"] == "play" && skIsBomb(cardsOf(a)):
			bombs = append(bombs, a)
		case a["type"] == "play":
			plays = append(plays, a)
		}
	}
	a := pass
	switch {
	case len(bombs) > 0:
		a = bombs[e.rng.IntN(len(bombs))]
	case a == nil || (len(plays) > 0 && e.rng.IntN(2) == 0):
		a = plays[e.rng.IntN(len(plays))]
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[seat].Token, Body: a})
	if r.Status != http.StatusOK {
		e.t.Fatalf("seat %d posting its legal action %v: %d %s", seat, a, r.Status, r.Body)
	}
	var cr commandResp
	r.Decode(e.t, &cr)
	return cr
}

// skWantUnits is the stake units of a 双扣 hand played out, from its events
// as shuangkou.md computes them: the outcome's 3, 2 or 1 (Result), × 2^(L−4)
// for the winning side's 相 L ≥ 5 under bomb_bonus (its largest bomb's card
// count, the 4-joker bomb 7, at least k + 2 for k ≥ 3 bombs), at most cap
// (Table options). It returns the 相 too.
func skWantUnits(evs []eventView, bombBonus bool, limit int) (units, xiang int, finish []int) {
	var xs [4][]int
	for _, ev := range evs {
		switch ev.Type {
		case "CardsPlayed":
			seat := int(ev.Data["seat"].(float64))
			rd := ev.Data["reading"].(map[string]any)
			switch rd["type"] {
			case "bomb":
				xs[seat] = append(xs[seat], len(ev.Data["cards"].([]any)))
			case "joker_bomb":
				xs[seat] = append(xs[seat], 7)
			}
		case "PlayerOut":
			finish = append(finish, int(ev.Data["seat"].(float64)))
		}
	}
	first, last := finish[0], finish[len(finish)-1]
	units = 1 // 1st and 4th
	if first%2 == last%2 {
		units = 5 - len(finish) // 双扣 3, 单扣 2
	}
	side := append(slices.Clone(xs[first%2]), xs[first%2+2]...)
	if len(side) > 0 {
		xiang = slices.Max(side)
	}
	if len(side) >= 3 {
		xiang = max(xiang, len(side)+2)
	}
	if bombBonus && xiang >= 5 {
		units <<= xiang - 4
	}
	if limit > 0 {
		units = min(units, limit)
	}
	return units, xiang, finish
}

// skPlayOut plays the running hand of table id to its settlement with step
// and returns the hand's events (from the feed) and its result.
func (e *env) skPlayOut(id string, ps []player, step func() commandResp) ([]eventView, skOptionsResult, []int) {
	e.t.Helper()
	hand := e.view(id, ps[0].Token).HandNumber
	for range 1500 {
		cr := step()
		if !slices.ContainsFunc(cr.Events, func(ev eventView) bool { return ev.Type == "HandSettled" }) {
			continue
		}
		var evs []eventView
		for _, ev := range e.feed(id, ps[0].Token) {
			if ev.Type == "HandDealt" {
				evs = evs[:0]
			}
			evs = append(evs, ev)
			if ev.Type == "HandSettled" && int(ev.Data["hand"].(float64)) == hand {
				break
			}
		}
		var res skOptionsResult
		s := cr.Table.LastSettlement
		mustUnmarshal(e.t, s.Result, &res)
		return evs, res, s.Deltas
	}
	e.t.Fatalf("hand %d did not settle in 1500 actions", hand)
	return nil, skOptionsResult{}, nil
}

// checkSkDeltas checks a settlement at stake against the units the winners
// win each and the losers pay each.
func checkSkDeltas(t *testing.T, deltas []int, winners []int, stake, units int, res skOptionsResult) {
	t.Helper()
	for seat, d := range deltas {
		want := -stake * units
		if slices.Contains(winners, seat) {
			want = -want
		}
		if d != want {
			t.Fatalf("seat %d wins %d, want %d (%d units at stake %d; shuangkou.md, Result and Table options); result %+v", seat, d, want, units, stake, res)
		}
	}
}

// TestShuangkouOptionsOverREST: each house rule of shuangkou.md, Table
// options, on a table opened over REST and played to its settlement, which
// must match the rules file's arithmetic; bad values are 422
// invalid_option naming the key; the view and the lobby show the options
// with the defaults filled in; and the export of a table played with
// options verifies.
func TestShuangkouOptionsOverREST(t *testing.T) {
	crawlerSkipsUnderRace(t)
	t.Run("bomb_bonus and cap", func(t *testing.T) {
		e := newEnv(t, 61)
		opts := map[string]any{"bomb_bonus": true, "cap": 4}
		id, ps := e.openTable(map[string]any{"game": "shuangkou", "variant": "baibian", "stake": 2, "options": opts}, 4)
		e.checkSkShown(id, ps[0].Token, `{"bomb_bonus":true,"cap":4,"wild":"all"}`, `{"bomb_bonus":true,"cap":4}`)
		sawBonus, sawCap := false, false
		for hand := 0; hand < 6 && !(sawBonus && sawCap); hand++ {
			evs, res, deltas := e.skPlayOut(id, ps, func() commandResp { return e.skStepBombs(id, ps) })
			units, xiang, finish := skWantUnits(evs, true, 4)
			if res.End != "played_out" || !slices.Equal(res.Finish, finish) || res.Xiang == nil || *res.Xiang != xiang {
				t.Fatalf("result %+v, want a hand played out with finish %v and 相 %d", res, finish, xiang)
			}
			checkSkDeltas(t, deltas, res.Winners, 2, units, res)
			if bonus := max(1, 1<<max(0, xiang-4)); res.Bonus != bonus || (res.Capped != 0) != (res.Multiplier*bonus > 4) {
				t.Fatalf("result %+v, want bonus %d, capped at 4 when %d × %d > 4", res, bonus, res.Multiplier, bonus)
			}
			sawBonus = sawBonus || res.Bonus > 1
			sawCap = sawCap || res.Capped == 4
		}
		if !sawBonus || !sawCap {
			t.Fatalf("no hand doubled by 相 (%v) or capped (%v): the test proves nothing", sawBonus, sawCap)
		}
		full := e.export(id, auditorToken)
		if full.Status != http.StatusOK {
			t.Fatalf("auditor export: %d %s", full.Status, full.Body)
		}
		if _, err := audit.VerifyExport(games.All().Rules, bytes.NewReader(full.Body)); err != nil {
			t.Fatalf("the export of a table played with bomb_bonus and cap does not verify: %v", err)
		}
	})
	t.Run("wild big", func(t *testing.T) {
		e := newEnv(t, 62)
		id, ps := e.openTable(map[string]any{"game": "shuangkou", "variant": "classic", "stake": 3, "options": map[string]any{"wild": "big"}}, 4)
		e.checkSkShown(id, ps[0].Token, `{"bomb_bonus":false,"wild":"big"}`, `{"wild":"big"}`)
		refused := false
		step := func() commandResp {
			if !refused {
				refused = e.skRefuseBJWild(id, ps)
			}
			_, cr := e.step1(id, ps)
			return cr
		}
		evs, res, deltas := e.skPlayOut(id, ps, step)
		units, _, _ := skWantUnits(evs, false, 0)
		checkSkDeltas(t, deltas, res.Winners, 3, units, res)
		if res.Xiang != nil || res.Bonus != 0 || res.Capped != 0 {
			t.Fatalf("result %+v names 相 or a cap without those options", res)
		}
		for _, ev := range evs {
			if ev.Type != "CardsPlayed" {
				continue
			}
			cs := cardsOf(ev.Data)
			natural := slices.ContainsFunc(cs, func(c string) bool { return c != "BJ" && c != "RJ" })
			if natural && slices.Contains(cs, "BJ") {
				t.Fatalf("%v played under wild big: BJ is not wild (shuangkou.md, Table options, wild)", cs)
			}
		}
		if !refused {
			t.Fatal("no seat on turn held BJ and a natural card: the refusal was not tried")
		}
	})
	t.Run("hands", func(t *testing.T) {
		e := newEnv(t, 63)
		id, ps := e.openTable(map[string]any{"game": "shuangkou", "variant": "classic", "stake": 1, "options": map[string]any{"hands": 1}}, 4)
		e.checkSkShown(id, ps[0].Token, `{"bomb_bonus":false,"hands":1,"wild":"none"}`, `{"hands":1}`)
		evs, res, deltas := e.skPlayOut(id, ps, func() commandResp { _, cr := e.step1(id, ps); return cr })
		units, _, _ := skWantUnits(evs, false, 0)
		checkSkDeltas(t, deltas, res.Winners, 1, units, res)
		feed := e.feed(id, ps[1].Token)
		me, tc := feed[len(feed)-2], feed[len(feed)-1]
		if me.Type != "MatchEnded" || tc.Type != "TableClosed" || tc.Data["reason"] != "match_over" {
			t.Fatalf("the feed ends with %s %v, %s %v; want MatchEnded, TableClosed{match_over} (shuangkou.md, Table options, hands)", me.Type, me.Data, tc.Type, tc.Data)
		}
		sides := me.Data["sides"].([]any)
		won := sides[0].(map[string]any)
		if fmt.Sprint(won["seats"]) != fmt.Sprint([]any{float64(res.Winners[0]), float64(res.Winners[1])}) || won["total"] != float64(2*units) || won["place"] != float64(1) {
			t.Fatalf("MatchEnded %v, want the side %v first with %d", me.Data, res.Winners, 2*units)
		}
		var v struct {
			Closed    bool `json:"closed"`
			GameState struct {
				Match *struct {
					Hands, Played int
					Over          bool
				} `json:"match"`
			} `json:"game_state"`
		}
		e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[0].Token}).Decode(t, &v)
		if m := v.GameState.Match; !v.Closed || m == nil || m.Hands != 1 || m.Played != 1 || !m.Over {
			t.Fatalf("the closed table: closed %v, match %+v; want over after 1 hand", v.Closed, m)
		}
	})
	t.Run("quick play", func(t *testing.T) {
		e := newEnv(t, 65)
		quick := func(name string, options map[string]any) (int, tableView, player) {
			p := e.newPlayer(name)
			r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/quick", Token: p.Token,
				Body: map[string]any{"game": "shuangkou", "variant": "classic", "options": options}})
			var v tableView
			r.Decode(t, &v)
			return r.Status, v, p
		}
		s1, big, ann := quick("ann", map[string]any{"wild": "big"})
		// "none" is classic's default: the normalized options are {}, not
		// those of ann's table.
		s2, plain, _ := quick("ben", map[string]any{"wild": "none"})
		s3, again, _ := quick("cat", map[string]any{"wild": "big"})
		if s1 != http.StatusCreated || s2 != http.StatusCreated || plain.ID == big.ID || s3 != http.StatusOK || again.ID != big.ID {
			t.Fatalf("quick plays: %d %s, %d %s, %d %s; want ann and cat at one wild-big table, ben at another", s1, big.ID, s2, plain.ID, s3, again.ID)
		}
		e.checkSkShown(big.ID, ann.Token, `{"bomb_bonus":false,"wild":"big"}`, `{"wild":"big"}`)
	})
	t.Run("bad values", func(t *testing.T) {
		e := newEnv(t, 64)
		p := e.newPlayer("ann")
		for _, c := range []struct {
			options map[string]any
			key     string
		}{
			{map[string]any{"hands": 0}, "hands"},
			{map[string]any{"hands": "5"}, "hands"},
			{map[string]any{"wild": "half"}, "wild"},
			{map[string]any{"bomb_bonus": "yes"}, "bomb_bonus"},
			{map[string]any{"cap": 2}, "cap"},
			{map[string]any{"cap": 1000001}, "cap"},
			{map[string]any{"bomb_bonus": true, "chained_bombs": true}, "chained_bombs"},
		} {
			before := e.head()
			r := e.c.Unchecked().Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: p.Token,
				Body: map[string]any{"game": "shuangkou", "variant": "baibian", "options": c.options}})
			var prob struct {
				Code   string `json:"code"`
				Option string `json:"option"`
			}
			_ = json.Unmarshal(r.Body, &prob)
			if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "invalid_option" || prob.Option != c.key {
				t.Errorf("options %v: %d %s, want 422 invalid_option with option %q", c.options, r.Status, r.Body, c.key)
			}
			if e.head() != before {
				t.Errorf("options %v: a refused table was stored", c.options)
			}
		}
	})
}

// skRefuseBJWild posts, when the seat on turn holds BJ and a natural card
// and leads, that card with BJ as a pair: under wild big that is no
// combination (422 invalid_combination) and changes nothing. It reports
// whether it tried.
func (e *env) skRefuseBJWild(id string, ps []player) bool {
	e.t.Helper()
	v := e.view(id, ps[0].Token)
	seat := *v.Turn
	mine := e.view(id, ps[seat].Token)
	var lead struct {
		GameState struct {
			LastPlay any `json:"last_play"`
		} `json:"game_state"`
	}
	e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[seat].Token}).Decode(e.t, &lead)
	if lead.GameState.LastPlay != nil || !slices.Contains(mine.Hand, "BJ") || strings.HasPrefix(mine.Hand[0], "BJ") {
		return false
	}
	before := e.head()
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[seat].Token,
		Body: map[string]any{"type": "play", "cards": []string{mine.Hand[0], "BJ"}}})
	if r.Status != http.StatusUnprocessableEntity || r.Problem(e.t) != "invalid_combination" || e.head() != before {
		e.t.Fatalf("%s BJ under wild big: %d %s, want 422 invalid_combination (shuangkou.md, Table options, wild: BJ plays only as itself)", mine.Hand[0], r.Status, r.Body)
	}
	return true
}

// checkSkShown checks the options of table id as its view and the lobby
// show them (defaults filled in) and as TableOpened records them (defaults
// left out).
func (e *env) checkSkShown(id, token, shown, recorded string) {
	e.t.Helper()
	var v struct {
		Options json.RawMessage `json:"options"`
	}
	e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: token}).Decode(e.t, &v)
	if got := string(compact(e.t, v.Options)); got != shown {
		e.t.Errorf("the table view shows options %s, want %s", got, shown)
	}
	var lobby struct {
		Tables []struct {
			ID      string          `json:"id"`
			Options json.RawMessage `json:"options"`
		} `json:"tables"`
	}
	e.c.Do(apitest.Request{Method: "GET", Path: fmt.Sprintf("/v1/me/tables?min_position=%d", e.head()), Token: token}).Decode(e.t, &lobby)
	i := slices.IndexFunc(lobby.Tables, func(l struct {
		ID      string          `json:"id"`
		Options json.RawMessage `json:"options"`
	}) bool {
		return l.ID == id
	})
	if i < 0 {
		e.t.Fatalf("the table is not in the caller's lobby: %+v", lobby)
	}
	if got := string(compact(e.t, lobby.Tables[i].Options)); got != shown {
		e.t.Errorf("the lobby shows options %s, want %s", got, shown)
	}
	var opened struct {
		Options json.RawMessage `json:"options"`
	}
	mustUnmarshal(e.t, e.auditorEvents(id)[0].Data, &opened)
	if got := string(compact(e.t, opened.Options)); got != recorded {
		e.t.Errorf("TableOpened records options %s, want %s (defaults left out)", got, recorded)
	}
}
