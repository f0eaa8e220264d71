package api_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"paiju/api/apitest"
)

// gameState reads the game_state of GET /v1/tables/{id} as token sees it.
func (e *env) gameState(id, token string) (phase string, g map[string]any) {
	e.t.Helper()
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: token})
	if r.Status != 200 {
		e.t.Fatalf("GET table: %d %s", r.Status, r.Body)
	}
	var v struct {
		Phase     string         `json:"phase"`
		GameState map[string]any `json:"game_state"`
	}
	r.Decode(e.t, &v)
	return v.Phase, v.GameState
}

// seatOf reads a JSON seat number (null: -1).
func seatOf(v any) int {
	if f, ok := v.(float64); ok {
		return int(f)
	}
	return -1
}

// ints reads a JSON array of numbers (null: nil).
func ints(v any) []int {
	a, ok := v.([]any)
	if !ok {
		return nil
	}
	out := []int{}
	for _, x := range a {
		out = append(out, int(x.(float64)))
	}
	return out
}

// TestShengjiViewOverREST reads the 升级 view's fields a client plays from
// through GET /v1/tables/{id} during a hand of each variant: no level or trump
// before the first deal; while the dealer buries, the trump and its order
// only for the final declarer (shengji.md, 暗亮: "others see who declared
// and its strength, not the suit, until the kitty is buried"); then for
// everyone, with the seat winning the running trick and the sides' roles
// and points (shengji.md: the defenders collect point cards). A flipped
// kitty and qiangbao's shown level card make the trump public at once
// (shengji.md, qiangbao: "any player may show a level card; its suit is
// trump").
func TestShengjiViewOverREST(t *testing.T) {
	crawlerSkipsUnderRace(t)
	for _, variant := range []string{"ningyang", "guafeng", "qiangbao"} {
		t.Run(variant, func(t *testing.T) { shengjiViewOverREST(t, variant) })
	}
}

func shengjiViewOverREST(t *testing.T, variant string) {
	e := newEnv(t, 36)
	id, ps := e.openTable(map[string]any{"game": "shengji", "variant": variant, "stake": 1}, 3)
	if _, g := e.gameState(id, ps[0].Token); g["level"] != nil || g["trump"] != nil || g["trump_order"] != nil || g["side_order"] != nil {
		t.Fatalf("a table with no deal shows level %v trump %v trump order %v side order %v, want null", g["level"], g["trump"], g["trump_order"], g["side_order"])
	}
	last := e.newPlayer("player3")
	if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/join", Token: last.Token, Body: map[string]any{"seat": 3}}); r.Status != 200 {
		t.Fatalf("join: %d %s", r.Status, r.Body)
	}
	ps = append(ps, last)
	viewers := append(slices.Clone(ps), e.newPlayer("sam"))
	sawBury, sawTrick := false, false
	for step := 0; step < 200 && !sawTrick; step++ {
		phase, truth := e.gameState(id, auditorToken)
		declarer := seatOf(truth["declarer"])
		for i, p := range viewers {
			seat := i
			if i == seats4 {
				seat = -1
			}
			_, g := e.gameState(id, p.Token)
			if g["level"] != truth["level"] || g["level"] == nil {
				t.Fatalf("seat %d sees level %v, the hand is at %v", seat, g["level"], truth["level"])
			}
			// Public: from the bury on; at once when the kitty is flipped
			// or (qiangbao) a level card is shown. Before, the final
			// declarer knows its suit from the kitty being taken.
			public := phase == "playing" || phase == "exchanging" ||
				(truth["trump"] != nil && (truth["flipped"] != nil || variant == "qiangbao"))
			knows := public || (phase == "burying" && seat == declarer && declarer >= 0)
			if (g["trump"] != nil) != knows || (g["trump_order"] != nil) != knows {
				t.Fatalf("phase %s, declarer %d: seat %d sees trump %v order %v (shengji.md, 暗亮)", phase, declarer, seat, g["trump"], g["trump_order"])
			}
			if knows && (g["trump"] != truth["trump"] || fmt.Sprint(g["trump_order"]) != fmt.Sprint(truth["trump_order"])) {
				t.Fatalf("seat %d sees trump %v, the hand's is %v", seat, g["trump"], truth["trump"])
			}
			sides := g["sides"].([]any)
			dealer := seatOf(g["dealer"])
			for side, s := range sides {
				sm := s.(map[string]any)
				if dealer < 0 {
					if sm["role"] != nil {
						t.Fatalf("side %d has role %v before the dealer is known", side, sm["role"])
					}
					continue
				}
				want := "defenders"
				if side == dealer%2 {
					want = "dealer"
				}
				if sm["role"] != want || (want == "defenders" && sm["points"] != g["defender_points"]) {
					t.Fatalf("dealer %d: side %d shows %v, want role %s and the defenders' %v points", dealer, side, sm, want, g["defender_points"])
				}
			}
			trick, _ := g["trick"].([]any)
			winner := seatOf(g["trick_winner"])
			if (len(trick) > 0) != (winner >= 0) {
				t.Fatalf("trick %v, winner %v", trick, g["trick_winner"])
			}
			if len(trick) == 1 && winner != seatOf(trick[0].(map[string]any)["seat"]) {
				t.Fatalf("a lone lead %v: the winner so far is %d, want the leader", trick, winner)
			}
			if len(trick) > 1 {
				sawTrick = true
			}
		}
		sawBury = sawBury || (phase == "burying" && (declarer >= 0 || variant == "qiangbao"))
		e.shengjiStep(id, ps)
	}
	if !sawBury || !sawTrick {
		t.Fatalf("saw a declared hand's bury %v, a trick of two plays %v: the seed must reach both", sawBury, sawTrick)
	}
}

const seats4 = 4

// shengjiStep takes a random legal action of any seat (any seat may draw),
// a declaration two times in three when there is one, never an escape.
func (e *env) shengjiStep(id string, ps []player) {
	e.t.Helper()
	type choice struct {
		seat int
		a    map[string]any
	}
	var decl, other []choice
	for seat, p := range ps {
		for _, a := range e.legal(id, p.Token) {
			switch a["type"] {
			case "escape", "leave", "delegate":
			case "declare":
				decl = append(decl, choice{seat, a})
			default:
				other = append(other, choice{seat, a})
			}
		}
	}
	var c choice
	switch {
	case len(decl) > 0 && e.rng.IntN(3) > 0:
		c = decl[e.rng.IntN(len(decl))]
	case len(other) > 0:
		c = other[e.rng.IntN(len(other))]
	default:
		e.t.Fatalf("no seat may act")
	}
	if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[c.seat].Token, Body: c.a}); r.Status != 200 {
		e.t.Fatalf("seat %d posting its legal %v: %d %s", c.seat, c.a, r.Status, r.Body)
	}
}

// TestShuangkouViewOverREST: the partnerships are fixed (shuangkou.md: "two
// partnerships (0&2, 1&3)"): every view lists them, a seat sees its partner.
func TestShuangkouViewOverREST(t *testing.T) {
	e := newEnv(t, 3)
	id, ps := e.openTable(map[string]any{"game": "shuangkou", "variant": "baibian", "stake": 1}, 4)
	e.step(id, ps)
	for i, p := range append(slices.Clone(ps), e.newPlayer("sam")) {
		_, g := e.gameState(id, p.Token)
		if fmt.Sprint(g["sides"]) != "[[0 2] [1 3]]" {
			t.Fatalf("viewer %d sees sides %v", i, g["sides"])
		}
		want := -1
		if i < seats4 {
			want = (i + 2) % seats4
		}
		if seatOf(g["partner"]) != want {
			t.Fatalf("viewer %d sees partner %v, want %d", i, g["partner"], want)
		}
	}
}

// TestDadunViewOverREST: the friend alone knows its partner, the banker,
// until it plays the friend card; then everyone sees the sides and the
// points each side took (dadun.md: "nobody but the friend knows who it is
// until that copy is played (then the sides are public)"; "Every trick's
// point cards (5, 10, K) go to the side of the player who won it").
func TestDadunViewOverREST(t *testing.T) {
	s := findDadunSetup(t)
	e := newEnv(t, s.base)
	id, ps := e.openTable(map[string]any{"game": "dadun", "variant": "lean", "stake": 1}, 4)
	viewers := append(slices.Clone(ps), e.newPlayer("sam"))
	revealed := false
	for step := 0; step < 400 && !revealed; step++ {
		phase, truth := e.gameState(id, auditorToken)
		if phase == "waiting" {
			break
		}
		for i, p := range viewers {
			_, g := e.gameState(id, p.Token)
			revealed = g["sides"] != nil
			var want []int
			switch {
			case i == seats4:
			case revealed:
				for _, side := range truth["sides"].([]any) {
					if mates := ints(side); slices.Contains(mates, i) {
						want = slices.DeleteFunc(mates, func(x int) bool { return x == i })
					}
				}
			case i == s.friend:
				want = []int{s.banker}
			}
			if got := ints(g["partners"]); (got == nil) != (want == nil) || !slices.Equal(got, want) {
				t.Fatalf("revealed %v: viewer %d sees partners %v, want %v (friend %d, banker %d)", revealed, i, g["partners"], want, s.friend, s.banker)
			}
			if !revealed {
				if g["side_points"] != nil {
					t.Fatalf("viewer %d sees side points %v before the sides are public", i, g["side_points"])
				}
				continue
			}
			captured := ints(g["captured"])
			for k, side := range g["sides"].([]any) {
				sum := 0
				for _, seat := range ints(side) {
					sum += captured[seat]
				}
				if ints(g["side_points"])[k] != sum {
					t.Fatalf("side %v took %d points in tricks (captured %v), the view says %v", side, sum, captured, g["side_points"])
				}
			}
		}
		if !revealed {
			e.dadunStep(id, ps)
		}
	}
	if !revealed {
		t.Fatal("the friend card was never played: the seed must reach it")
	}
}

// dadunStep has the seat on turn take a random legal action, never going
// alone (which would make the sides public at once) nor escaping.
func (e *env) dadunStep(id string, ps []player) {
	e.t.Helper()
	v := e.view(id, ps[0].Token)
	p := ps[*v.Turn]
	var choices []map[string]any
	for _, a := range e.legal(id, p.Token) {
		if a["type"] != "escape" && a["type"] != "delegate" && a["type"] != "alone" {
			choices = append(choices, a)
		}
	}
	a := choices[e.rng.IntN(len(choices))]
	if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: p.Token, Body: a}); r.Status != 200 {
		e.t.Fatalf("posting %v: %d %s", a, r.Status, r.Body)
	}
}

// TestGameStateSchemas: openapi.yaml's Table really holds a 升级, 双扣 or
// 打盾 game_state to its game's schema: a real view validates, the same
// view with a value outside the schema does not.
func TestGameStateSchemas(t *testing.T) {
	crawlerSkipsUnderRace(t)
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(apitest.SpecPath())
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatal(err)
	}
	schema := doc.Components.Schemas["Table"].Value
	e := newEnv(t, 36)
	for _, c := range []struct {
		game, variant string
		players       int
		field         string
		bad           any
	}{
		{"shengji", "ningyang", 4, "trump", "X"},
		{"shengji", "guafeng", 4, "sides", []any{}},
		{"shuangkou", "baibian", 4, "partner", 7},
		{"dadun", "lean", 4, "role", "king"},
	} {
		id, ps := e.openTable(map[string]any{"game": c.game, "variant": c.variant, "stake": 1}, c.players)
		r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: ps[0].Token})
		var body map[string]any
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		if err := schema.VisitJSON(body, openapi3.EnableJSONSchema2020()); err != nil {
			t.Fatalf("%s: the served table does not validate: %v", c.game, err)
		}
		body["game_state"].(map[string]any)[c.field] = c.bad
		if err := schema.VisitJSON(body, openapi3.EnableJSONSchema2020()); err == nil {
			t.Errorf("%s: game_state.%s = %v validates: the game's schema is not applied", c.game, c.field, c.bad)
		}
		body["game_state"] = map[string]any{"unknown": true}
		if err := schema.VisitJSON(body, openapi3.EnableJSONSchema2020()); err == nil {
			t.Errorf("%s: a game_state of unknown fields validates", c.game)
		}
	}
}
