package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"paiju/api/apitest"
	"paiju/audit"
	"paiju/domain/cards"
	"paiju/domain/dadun"
	"paiju/domain/table"
	"paiju/games"
	"paiju/service"
)

// dadunDefaults are the options of 打盾 with every default filled in, as
// the lobby and the table view show them (dadun.md, Table options).
var dadunDefaults = map[string]any{"bomb_order": "seed", "pure_suits": "tie", "joker_bombs": 3.0, "dun_awards": true, "lead_after_out": "next"}

// dadunHand is the events of one hand of 打盾 as the test reads them.
type dadunHand struct {
	plays   []dadun.CardsPlayed
	tricks  []dadunTrick // each trick's plays, in order, as indexes into plays
	revealT int          // the index in tricks of the trick in which the friend was revealed; -1: never
	jiefeng []dadun.TrickEnded
	// jiefengAfterReveal: the TrickEnded with 接风 once the sides were public.
	jiefengAfterReveal []dadun.TrickEnded
	hs                 table.HandSettled
	res                dadun.Result
}

type dadunTrick []int

// dadunOptionCase is one switch of dadun.md, Table options, played over
// REST: the options asked for, the plays the seats take when they can (so
// that the switch comes into play), and the checks of the hand against the
// rules file; check reports whether the switch made a difference in the
// hand.
type dadunOptionCase struct {
	name    string
	options map[string]any
	prefer  func(cs []string) bool
	check   func(t *testing.T, h *dadunHand) bool
}

// TestDadunOptionsOverREST opens a table with each switch of dadun.md,
// Table options, through POST /v1/tables, plays hands until the switch has
// come into play (the seats preferring the plays it is about), and checks
// each settlement against the rules file's arithmetic (Points and result,
// 盾 awards) and the hand's plays against the switch; the table view shows
// the options with the defaults filled in, TableOpened records only the
// keys set otherwise, and the stored stream and the auditor's export verify
// under the recorded options.
func TestDadunOptionsOverREST(t *testing.T) {
	crawlerSkipsUnderRace(t)
	t.Parallel()
	for i, c := range []dadunOptionCase{
		{"bomb_order high", map[string]any{"bomb_order": "high"}, isSpecialPlay, checkHighOrder},
		{"pure_suits suit", map[string]any{"pure_suits": "suit"}, isPure510K, checkPureSuits},
		{"joker_bombs 2", map[string]any{"joker_bombs": 2}, func(cs []string) bool { return len(cs) == 2 && allJokers(cs) }, checkJokerBombs},
		{"dun_awards false", map[string]any{"dun_awards": false}, isSpecialPlay, checkNoAwards},
		{"lead_after_out partner", map[string]any{"lead_after_out": "partner"}, func(cs []string) bool { return len(cs) == 1 }, checkPartnerLead},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, 700+uint64(i))
			id, ps := e.openTable(map[string]any{"game": "dadun", "variant": "lean", "stake": 2, "options": c.options}, 4)
			want := map[string]any{}
			for k, v := range dadunDefaults {
				want[k] = v
			}
			for k, v := range c.options {
				want[k] = v
			}
			checkShownOptions(t, "the table view", dadunViewOptions(e, id, ps[0].Token), want)
			showed := false
			for hand := 1; !showed; hand++ {
				if hand > 8 {
					t.Fatalf("%s did not come into play in 8 hands", c.name)
				}
				h := playDadunHand(e, id, ps, c.prefer)
				checkDadunSettlement(t, h, 2, c.options["dun_awards"] == false)
				showed = c.check(t, h)
				t.Logf("hand %d: %s %v, deltas %v; %s in play: %v", hand, h.res.Outcome, h.res.Finish, h.hs.Deltas, c.name, showed)
			}
			evs, err := e.store.Load(context.Background(), service.StreamID(id), 0)
			if err != nil {
				t.Fatal(err)
			}
			var opened table.TableOpened
			mustUnmarshal(t, evs[0].Data, &opened)
			if rec, _ := json.Marshal(c.options); string(opened.Options) != string(rec) {
				t.Fatalf("TableOpened records options %s, want %s", opened.Options, rec)
			}
			if _, err := audit.VerifyTable(games.All().Rules, evs); err != nil {
				t.Fatalf("the stream of a table with %v does not verify: %v", c.options, err)
			}
			full := e.export(id, auditorToken)
			if _, err := audit.VerifyExport(games.All().Rules, bytes.NewReader(full.Body)); full.Status != http.StatusOK || err != nil {
				t.Fatalf("the auditor's export of a table with %v: %d, verify %v", c.options, full.Status, err)
			}
		})
	}
}

// TestDadunOptionsRefused: a bad value of each key, a key of another game
// and an unknown key are 422 invalid_option naming the key; nothing opens.
func TestDadunOptionsRefused(t *testing.T) {
	e := newEnv(t, 751)
	p := e.newPlayer("host")
	for _, c := range []struct {
		options map[string]any
		key     string
	}{
		{map[string]any{"bomb_order": "low"}, "bomb_order"},
		{map[string]any{"pure_suits": true}, "pure_suits"},
		{map[string]any{"joker_bombs": 4}, "joker_bombs"},
		{map[string]any{"joker_bombs": "2"}, "joker_bombs"},
		{map[string]any{"dun_awards": "no"}, "dun_awards"},
		{map[string]any{"lead_after_out": "friend"}, "lead_after_out"},
		{map[string]any{"bomb_order": "high", "hands": 3}, "hands"},
	} {
		before := e.head()
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables", Token: p.Token, Raw: true,
			Body: map[string]any{"game": "dadun", "variant": "lean", "options": c.options}})
		var prob struct {
			Option string `json:"option"`
		}
		if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "invalid_option" {
			t.Fatalf("options %v: %d %s, want 422 invalid_option", c.options, r.Status, r.Body)
		}
		if r.Decode(t, &prob); prob.Option != c.key || e.head() != before {
			t.Fatalf("options %v: problem option %q, want %q, and nothing recorded", c.options, prob.Option, c.key)
		}
	}
}

// TestDadunOptionsShown: the lobby (GET /v1/tables, /v1/me/tables) and the
// table view show a 打盾 table's options with the defaults filled in;
// TableOpened records only the keys not at their defaults, so a table asked
// for the defaults records {} as before options existed.
func TestDadunOptionsShown(t *testing.T) {
	p := newProjEnv(t, 752)
	ann := p.newPlayer("ann")
	asked := map[string]any{"joker_bombs": 2, "lead_after_out": "partner", "bomb_order": "seed"}
	withOpts := p.open(ann, map[string]any{"game": "dadun", "variant": "lean", "options": asked})
	plain := p.open(ann, map[string]any{"game": "dadun", "variant": "lean", "options": dadunDefaults})
	want := map[string]any{}
	for k, v := range dadunDefaults {
		want[k] = v
	}
	want["joker_bombs"], want["lead_after_out"] = 2.0, "partner"
	for _, path := range []string{"/v1/tables?game=dadun", "/v1/me/tables"} {
		var page struct {
			Tables []struct {
				ID      string         `json:"id"`
				Options map[string]any `json:"options"`
			} `json:"tables"`
		}
		p.get(path, ann.Token).Decode(t, &page)
		found := 0
		for _, tb := range page.Tables {
			switch tb.ID {
			case withOpts:
				checkShownOptions(t, "GET "+path, tb.Options, want)
				found++
			case plain:
				checkShownOptions(t, "GET "+path, tb.Options, dadunDefaults)
				found++
			}
		}
		if found != 2 {
			t.Fatalf("GET %s lists %d of the two tables", path, found)
		}
	}
	checkShownOptions(t, "the table view", dadunViewOptions(p.env, withOpts, ann.Token), want)
	// Quick play matches the tables by their normalized options: asking
	// for joker_bombs 2 opens a table, the same ask again joins it, the
	// defaults spelled out are another kind.
	quick := map[string]any{"game": "dadun", "variant": "lean", "stake": 3, "options": map[string]any{"joker_bombs": 2}}
	st1, first, _ := p.quick(p.newPlayer("bo"), quick, nil)
	st2, second, _ := p.quick(p.newPlayer("cy"), quick, nil)
	quick["options"] = map[string]any{"joker_bombs": 3}
	st3, third, _ := p.quick(p.newPlayer("di"), quick, nil)
	if st1 != http.StatusCreated || st2 != http.StatusOK || second.ID != first.ID || st3 != http.StatusCreated || third.ID == first.ID {
		t.Fatalf("quick play with options: %d %s, %d %s, %d %s; want a table, the same, another", st1, first.ID, st2, second.ID, st3, third.ID)
	}
	for id, rec := range map[string]string{withOpts: `{"joker_bombs":2,"lead_after_out":"partner"}`, plain: `{}`} {
		evs, err := p.store.Load(context.Background(), service.StreamID(id), 0)
		if err != nil {
			t.Fatal(err)
		}
		var opened table.TableOpened
		mustUnmarshal(t, evs[0].Data, &opened)
		if string(opened.Options) != rec {
			t.Errorf("TableOpened of %s records options %s, want %s (defaults left out)", id, opened.Options, rec)
		}
	}
}

func dadunViewOptions(e *env, id, token string) map[string]any {
	e.t.Helper()
	var v struct {
		Options map[string]any `json:"options"`
	}
	e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: token}).Decode(e.t, &v)
	return v.Options
}

func checkShownOptions(t *testing.T, where string, got, want map[string]any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if !bytes.Equal(g, w) {
		t.Fatalf("%s shows options %s, want %s (defaults filled in)", where, g, w)
	}
}

// playDadunHand plays the running hand to its settlement: every seat
// declines going alone (a banker holding both turned copies calls), and in
// play takes a legal play prefer likes when it can, else a random legal
// action. It returns the hand's events.
func playDadunHand(e *env, id string, ps []player, prefer func(cs []string) bool) *dadunHand {
	t := e.t
	t.Helper()
	h := &dadunHand{revealT: -1}
	trick := dadunTrick{}
	for step := 0; ; step++ {
		if step > 1500 {
			t.Fatalf("the hand did not settle in 1500 actions")
		}
		seat := *e.view(id, ps[0].Token).Turn
		var liked, others []map[string]any
		for _, a := range e.legal(id, ps[seat].Token) {
			switch a["type"] {
			case "pass", "call":
				if v := e.view(id, ps[0].Token); v.Phase == "declaring" {
					liked = append(liked, a)
					continue
				}
				others = append(others, a)
			case "play":
				if prefer(dadunCards(a)) {
					liked = append(liked, a)
					continue
				}
				others = append(others, a)
			}
		}
		pick := liked
		if len(pick) == 0 {
			pick = others
		}
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[seat].Token, Body: pick[e.rng.IntN(len(pick))]})
		if r.Status != http.StatusOK {
			t.Fatalf("seat %d: %d %s", seat, r.Status, r.Body)
		}
		var cr commandResp
		r.Decode(t, &cr)
		for _, ev := range cr.Events {
			data, _ := json.Marshal(ev.Data)
			switch ev.Type {
			case "CardsPlayed":
				var cp dadun.CardsPlayed
				mustUnmarshal(t, data, &cp)
				trick = append(trick, len(h.plays))
				h.plays = append(h.plays, cp)
			case "FriendRevealed":
				h.revealT = len(h.tricks)
			case "TrickEnded":
				var te dadun.TrickEnded
				mustUnmarshal(t, data, &te)
				h.tricks, trick = append(h.tricks, trick), dadunTrick{}
				if te.Jiefeng {
					h.jiefeng = append(h.jiefeng, te)
					if h.revealT >= 0 {
						h.jiefengAfterReveal = append(h.jiefengAfterReveal, te)
					}
				}
			case "HandSettled":
				h.tricks = append(h.tricks, trick)
				h.hs = *cr.Table.LastSettlement
				mustUnmarshal(t, h.hs.Result, &h.res)
				return h
			}
		}
	}
}

func dadunCards(a map[string]any) []string {
	var out []string
	for _, c := range a["cards"].([]any) {
		out = append(out, c.(string))
	}
	return out
}

// checkDadunSettlement holds a settlement to dadun.md, Points and result
// and 盾 awards: the winners take multiplier × stake from each loser (the
// soloist three times), each award is paid by the three others, the deltas
// sum to zero; with no awards (dun_awards false) nothing but the result.
func checkDadunSettlement(t *testing.T, h *dadunHand, stake int, noAwards bool) {
	t.Helper()
	res, hs := h.res, h.hs
	mult := map[string]int{dadun.OutcomeShuangying: 3, dadun.OutcomeTie: 2, dadun.OutcomeAloneWon: 4, dadun.OutcomeAloneLost: 4}[res.Outcome]
	if res.Outcome == dadun.OutcomePoints {
		mult = 2
		if slices.Contains(res.Points, 200) {
			mult = 3
		}
		if w := slices.IndexFunc(res.Sides, func(side []int) bool { return slices.Equal(side, res.Winners) }); w < 0 || res.Points[w] <= res.Points[1-w] {
			t.Fatalf("result %s: the winners do not have more points (dadun.md, Points and result)", hs.Result)
		}
	}
	if res.End != "played_out" || res.Multiplier != mult {
		t.Fatalf("result %s: want a hand played out, multiplier %d", hs.Result, mult)
	}
	if noAwards && (len(res.Awards) != 0 || slices.ContainsFunc(h.plays, func(cp dadun.CardsPlayed) bool { return cp.Awards != 0 })) {
		t.Fatalf("dun_awards false: awards %v earned (dadun.md, Table options: no awards)", res.Awards)
	}
	award := make([]int, 4)
	for _, a := range res.Awards {
		for i := range award {
			if i == a.Seat {
				award[i] += 3 * a.Awards * stake
			} else {
				award[i] -= a.Awards * stake
			}
		}
	}
	sum := 0
	for i, d := range hs.Deltas {
		want := mult * stake
		if res.Soloist != nil && *res.Soloist == i {
			want *= 3
		}
		if !slices.Contains(res.Winners, i) {
			want = -want
		}
		if res.ResultDeltas[i] != want || res.AwardDeltas[i] != award[i] || d != want+award[i] {
			t.Fatalf("seat %d: result %d, awards %d, delta %d; want %d, %d, %d (dadun.md, Points and result; 盾 awards)",
				i, res.ResultDeltas[i], res.AwardDeltas[i], d, want, award[i], want+award[i])
		}
		sum += d
	}
	if sum != 0 || hs.House != 0 {
		t.Fatalf("deltas %v sum to %d, house %d", hs.Deltas, sum, hs.House)
	}
}

func allJokers(cs []string) bool {
	return !slices.ContainsFunc(cs, func(c string) bool { return c != "BJ" && c != "RJ" })
}

func isPure510K(cs []string) bool {
	if len(cs) != 3 {
		return false
	}
	s := cs[0][:1]
	ranks := []string{}
	for _, c := range cs {
		if c[:1] != s || allJokers([]string{c}) {
			return false
		}
		ranks = append(ranks, c[1:])
	}
	slices.Sort(ranks)
	return slices.Equal(ranks, []string{"10", "5", "K"})
}

// isSpecialPlay: four or more cards of a rank, jokers alone (two or more),
// or sets of 5, 10 and K.
func isSpecialPlay(cs []string) bool {
	if len(cs) >= 2 && allJokers(cs) {
		return true
	}
	n := map[string]int{}
	for _, c := range cs {
		n[c[1:]]++
	}
	if len(n) == 1 && len(cs) >= 4 {
		return true
	}
	return len(n) == 3 && n["5"] > 0 && n["5"] == n["10"] && n["5"] == n["K"]
}

// specialsInTrick lists the pairs (play, the play it answered) of a hand in
// which both are special combinations.
func specialsInTrick(h *dadunHand) [][2]dadun.CardsPlayed {
	var out [][2]dadun.CardsPlayed
	for _, tr := range h.tricks {
		for k := 1; k < len(tr); k++ {
			p, l := h.plays[tr[k]], h.plays[tr[k-1]]
			if p.Reading.Type.Special() && l.Reading.Type.Special() {
				out = append(out, [2]dadun.CardsPlayed{p, l})
			}
		}
	}
	return out
}

// highPower is the place of a special combination under bomb_order high
// (dadun.md, Table options): 4-card < … < 8-card bomb (by rank within a
// size) < plain 510K < pure 510K < multi-510K of 3 < … < 8 sets < 3-joker
// < 4-joker bomb.
func highPower(r dadun.Reading) (int, int) {
	switch r.Type {
	case dadun.Bomb:
		return r.Length, int(r.Main)
	case dadun.Plain510K:
		return 20, 0
	case dadun.Pure510K:
		return 21, 0
	case dadun.Multi510K:
		return 20 + r.Length, 0
	}
	return 40 + r.Length, 0
}

func checkHighOrder(t *testing.T, h *dadunHand) bool {
	t.Helper()
	pairs := specialsInTrick(h)
	for _, pl := range pairs {
		pt, ps := highPower(pl[0].Reading)
		lt, ls := highPower(pl[1].Reading)
		if pt < lt || (pt == lt && ps <= ls) {
			t.Fatalf("%s (%v) answered %s (%v) under bomb_order high (dadun.md, Table options)", cards.Format(pl[0].Cards), pl[0].Reading, cards.Format(pl[1].Cards), pl[1].Reading)
		}
	}
	// The switch shows where a plain or pure 510K beat a bomb, which
	// "seed" refuses (the rules file's example).
	return slices.ContainsFunc(pairs, func(pl [2]dadun.CardsPlayed) bool {
		t := pl[0].Reading.Type
		return pl[1].Reading.Type == dadun.Bomb && (t == dadun.Plain510K || t == dadun.Pure510K)
	})
}

func checkPureSuits(t *testing.T, h *dadunHand) bool {
	t.Helper()
	order := map[cards.Suit]int{cards.Spades: 4, cards.Hearts: 3, cards.Clubs: 2, cards.Diamonds: 1}
	showed := false
	for _, pl := range specialsInTrick(h) {
		if pl[0].Reading.Type == dadun.Pure510K && pl[1].Reading.Type == dadun.Pure510K {
			if order[pl[0].Cards[0].Suit] <= order[pl[1].Cards[0].Suit] {
				t.Fatalf("%s answered %s under pure_suits suit: ♠ > ♥ > ♣ > ♦ (dadun.md, Table options)", cards.Format(pl[0].Cards), cards.Format(pl[1].Cards))
			}
			showed = true
		}
	}
	return showed
}

func checkJokerBombs(t *testing.T, h *dadunHand) bool {
	t.Helper()
	showed := false
	for _, cp := range h.plays {
		if len(cp.Cards) != 2 || !cp.Cards[0].IsJoker() || !cp.Cards[1].IsJoker() {
			continue
		}
		want := 0
		if cp.Cards[0] == cp.Cards[1] {
			want = 1 // 盾 awards unchanged: BJ BJ, RJ RJ 1 each, BJ RJ 0
		}
		if cp.Reading.Type != dadun.JokerBomb || cp.Awards != want {
			t.Fatalf("%s played as %v earning %d under joker_bombs 2, want a joker bomb earning %d (dadun.md, Table options)", cards.Format(cp.Cards), cp.Reading, cp.Awards, want)
		}
		showed = true
	}
	return showed
}

// checkNoAwards: the settlement checked there are none; the switch shows
// where a play would have earned one under the default (dadun.md, 盾
// awards).
func checkNoAwards(t *testing.T, h *dadunHand) bool {
	return slices.ContainsFunc(h.plays, func(cp dadun.CardsPlayed) bool { return dadun.Awards(cp.Cards, cp.Reading) > 0 })
}

// checkPartnerLead: every 接风 once the sides are public goes to the
// partner of the seat out when it holds cards (dadun.md, Table options,
// lead_after_out partner); the switch shows where that is not the next
// seat.
func checkPartnerLead(t *testing.T, h *dadunHand) bool {
	t.Helper()
	showed := false
	for _, te := range h.jiefengAfterReveal {
		for _, side := range h.res.Sides {
			if !slices.Contains(side, te.Winner) {
				continue
			}
			partner := side[0]
			if partner == te.Winner {
				partner = side[1]
			}
			outBefore := slices.Index(h.res.Finish, partner)
			winnerOut := slices.Index(h.res.Finish, te.Winner)
			if outBefore >= 0 && outBefore < winnerOut {
				continue // the partner was out before: the next seat leads
			}
			if te.Leader != partner {
				t.Fatalf("接风 %+v with the sides %v public: want the lead to the partner %d", te, h.res.Sides, partner)
			}
			showed = showed || partner != (te.Winner+1)%4
		}
	}
	return showed
}
