package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"paiju/api/apitest"
)

// Quick play matches tables by the options asked (rules README, Table
// options): the normalized options, so a default asked explicitly meets
// the tables opened without it, and a bad option is refused as opening
// would refuse it, naming the key.
func TestQuickPlayMatchesOptions(t *testing.T) {
	p := newProjEnv(t, 41)
	ann, ben, cat, dan := p.newPlayer("ann"), p.newPlayer("ben"), p.newPlayer("cat"), p.newPlayer("dan")
	match := map[string]any{"game": "doudizhu", "variant": "classic", "options": map[string]any{"hands": 3}}
	st, first, r := p.quick(ann, match, nil)
	if st != http.StatusCreated || handsOf(t, optionsOf(t, r)) != 3 {
		t.Fatalf("ann's quick play with hands 3: %d %s, want a new table with those options", st, r.Body)
	}
	if st, tv, r := p.quick(ben, match, nil); st != http.StatusOK || tv.ID != first.ID {
		t.Fatalf("ben's quick play with hands 3: %d %s, want ann's table %s", st, r.Body, first.ID)
	}
	if st, tv, r := p.quick(cat, map[string]any{"game": "doudizhu", "variant": "classic"}, nil); st != http.StatusCreated || tv.ID == first.ID {
		t.Fatalf("cat's quick play without options: %d %s, want a new table, not the match", st, r.Body)
	}
	if st, tv, r := p.quick(dan, map[string]any{"game": "doudizhu", "variant": "classic", "options": map[string]any{}}, nil); st != http.StatusOK || tv.ID == first.ID {
		t.Fatalf("dan's quick play with {}: %d %s, want cat's table", st, r.Body)
	}
	lp := p.page("/v1/tables?game=doudizhu", ann.Token)
	for _, e := range lp.Tables {
		if e.ID == first.ID && handsOf(t, e.Options) != 3 {
			t.Errorf("the lobby shows the match's options as %s", e.Options)
		}
	}

	for _, c := range []struct {
		name, option string
		body         map[string]any
	}{
		{"hands 0", "hands", map[string]any{"game": "doudizhu", "variant": "classic", "options": map[string]any{"hands": 0}}},
		{"an unknown key", "moon", map[string]any{"game": "doudizhu", "variant": "classic", "options": map[string]any{"moon": true}}},
		{"a tournament's option", "duplicate", map[string]any{"game": "shengji", "variant": "ningyang", "options": map[string]any{"duplicate": true}}},
	} {
		before := p.head()
		r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/quick", Token: dan.Token, Body: c.body})
		var pr struct {
			Code   string `json:"code"`
			Option string `json:"option"`
		}
		r.Decode(t, &pr)
		if r.Status != http.StatusUnprocessableEntity || pr.Code != "invalid_option" || pr.Option != c.option {
			t.Errorf("quick play with %s: %d %s, want 422 invalid_option naming %q", c.name, r.Status, r.Body, c.option)
		}
		if p.head() != before {
			t.Errorf("quick play with %s appended to the store", c.name)
		}
	}
}

// handsOf is the option "hands" of shown options (0 when absent).
func handsOf(t *testing.T, options json.RawMessage) int {
	t.Helper()
	var o struct {
		Hands int `json:"hands"`
	}
	if err := json.Unmarshal(options, &o); err != nil {
		t.Fatalf("options %s: %v", options, err)
	}
	return o.Hands
}

func optionsOf(t *testing.T, r *apitest.Response) json.RawMessage {
	t.Helper()
	var v struct {
		Options json.RawMessage `json:"options"`
	}
	r.Decode(t, &v)
	return v.Options
}
