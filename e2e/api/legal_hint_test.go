package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"paiju/api/apitest"
)

// hintPage is a /legal answer with its hint.
type hintPage struct {
	legalPage
	Hint map[string]any `json:"hint"`
}

// TestLegalHint: /legal?hint=true gives the seat to act the bot's choice
// (提示), one of its legal actions, with the answer narrowed to the hint's
// cards, and the hint posted as it is is accepted. Nobody else gets a hint:
// not another seat, the watcher of the seat to act, a spectator or the
// auditor, and none of them learns a card of the seat's hand from the
// answer. The plays and passes of the trick are public in every view
// (trick_moves).
func TestLegalHint(t *testing.T) {
	e := newEnv(t, 33)
	id, ps := e.openFull()
	w := e.newPlayer("w")
	sam := e.newPlayer("sam")
	get := func(token, query string) (hintPage, *apitest.Response) {
		t.Helper()
		r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/legal" + query, Token: token, Raw: query == "?hint=maybe"})
		var p hintPage
		if r.Status == http.StatusOK {
			r.Decode(t, &p)
		}
		return p, r
	}
	if _, r := get(ps[0].Token, "?hint=maybe"); r.Status != http.StatusBadRequest || !json.Valid(r.Body) {
		t.Fatalf("hint=maybe: %d %s, want 400 invalid_query", r.Status, r.Body)
	}
	watched := false
	plays := 0
	for i := 0; plays < 4; i++ {
		if i == 80 {
			t.Fatalf("only %d hinted plays in 80 moves", plays)
		}
		v := e.view(id, ps[0].Token)
		if v.Turn == nil {
			t.Fatalf("no seat to act in phase %s", v.Phase)
		}
		turn := *v.Turn
		if !watched {
			if r := e.watch(ps[turn], id, w.ID); r.Status != http.StatusOK {
				t.Fatal(r.Status, string(r.Body))
			}
			watched = true
		}
		p, r := get(ps[turn].Token, "?hint=true")
		if r.Status != http.StatusOK || p.Hint == nil {
			t.Fatalf("seat %d to act in phase %s asking a hint: %d %s, want a hint", turn, v.Phase, r.Status, r.Body)
		}
		plain, pr := get(ps[turn].Token, "")
		if pr.Header.Get("ETag") == r.Header.Get("ETag") {
			t.Fatalf("the hinted and the plain answer share the ETag %s", r.Header.Get("ETag"))
		}
		if bytes.Contains(pr.Body, []byte(`"hint"`)) {
			t.Fatalf("a plain /legal answer carries a hint: %s", pr.Body)
		}
		// The hint is one of the legal actions of its selection, which is its cards.
		var hintCards []string
		if cs, ok := p.Hint["cards"].([]any); ok {
			for _, c := range cs {
				hintCards = append(hintCards, c.(string))
			}
		}
		if !sameMultiset(p.Selected, hintCards) {
			t.Fatalf("hint %v: the answer's selection is %v, want the hint's cards", p.Hint, p.Selected)
		}
		if !slices.ContainsFunc(p.Actions, func(a map[string]any) bool { return reflect.DeepEqual(a, p.Hint) }) {
			t.Fatalf("hint %v is not among the answer's actions %v", p.Hint, p.Actions)
		}
		if len(hintCards) == 0 && !reflect.DeepEqual(p.legalPage, plain.legalPage) {
			t.Fatalf("a card-less hint %v changed the answer: %+v, plain %+v", p.Hint, p.legalPage, plain.legalPage)
		}
		// Nobody else gets a hint, nor the hand's cards through one.
		for _, o := range []struct {
			who, token string
		}{
			{"the next seat", ps[(turn+1)%3].Token},
			{"a watcher", w.Token},
			{"a spectator", sam.Token},
			{"the auditor", auditorToken},
		} {
			op, or := get(o.token, "?hint=true")
			if or.Status != http.StatusOK {
				t.Fatalf("%s asking a hint: %d %s", o.who, or.Status, or.Body)
			}
			if op.Hint != nil || len(op.Selected) != 0 {
				t.Fatalf("%s asking a hint got hint %v, selected %v; want neither", o.who, op.Hint, op.Selected)
			}
		}
		post := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: ps[turn].Token, Body: p.Hint})
		if post.Status != http.StatusOK {
			t.Fatalf("seat %d posting its hint %v: %d %s", turn, p.Hint, post.Status, post.Body)
		}
		if p.Hint["type"] != "play" {
			continue
		}
		plays++
		// The play is public: every viewer's trick_moves shows it at the seat.
		for _, token := range []string{ps[(turn+1)%3].Token, sam.Token} {
			r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id, Token: token})
			var tv struct {
				GameState struct {
					TrickMoves []*struct {
						Cards []string `json:"cards"`
						Pass  bool     `json:"pass"`
					} `json:"trick_moves"`
				} `json:"game_state"`
			}
			r.Decode(t, &tv)
			if m := tv.GameState.TrickMoves; len(m) != 3 || m[turn] == nil || !sameMultiset(m[turn].Cards, hintCards) {
				t.Fatalf("after seat %d played %v, trick_moves reads %s", turn, hintCards, r.Body)
			}
		}
	}
}

func sameMultiset(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}
