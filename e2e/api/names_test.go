package api_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"paiju/api/apitest"
)

// register posts a registration of name and returns the answer.
func (e *env) register(name string) *apitest.Response {
	e.t.Helper()
	return e.c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": name}})
}

// TestNamesThatCannotHide: registration and renames refuse names that show
// as blank or pass for another text (issue #35, part 3): invisible,
// default-ignorable and private-use characters, line separators and names
// without a letter or digit are 422 invalid_name, and nothing is
// registered (the name stays free).
func TestNamesThatCannotHide(t *testing.T) {
	e := newEnv(t, 1)
	p := e.newPlayer("小王")
	for _, bad := range []struct{ what, name string }{
		{"the Hangul filler", "\u3164"},
		{"the Hangul filler after a letter", "a\u3164"},
		{"the blank Braille pattern", "\u2800"},
		{"the blank Braille pattern after a letter", "ann\u2800"},
		{"a soft hyphen", "an\u00ADn"},
		{"the Mongolian vowel separator", "ann\u180E"},
		{"a private-use character", "\uE000ann"},
		{"a tag character", "ann\U000E0041"},
		{"a variation selector", "ann\uFE0F"},
		{"a line separator", "an\u2028n"},
		{"a paragraph separator", "an\u2029n"},
		{"no letter or digit", "!!! ..."},
		{"only spaces of another kind", "\u3000\u00A0"},
	} {
		t.Run(bad.what, func(t *testing.T) {
			if r := e.register(bad.name); r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "invalid_name" {
				t.Errorf("register %q (%s): %d %s, want 422 invalid_name", bad.name, bad.what, r.Status, r.Body)
			}
			r := e.c.Do(apitest.Request{Method: "PATCH", Path: "/v1/me", Token: p.Token, Body: map[string]any{"name": bad.name}})
			if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "invalid_name" {
				t.Errorf("rename to %q (%s): %d %s, want 422 invalid_name", bad.name, bad.what, r.Status, r.Body)
			}
		})
	}
	if st, name := e.meStatus(p.Token); st != http.StatusOK || name != "小王" {
		t.Errorf("name after refused renames = %d %s, want 小王", st, name)
	}
}

// TestNamesAreUnique: names compare by the PRECIS Nickname profile (RFC
// 8266): width, case and spacing aside, two players cannot hold one name,
// whether they register or rename (issue #35, part 3).
func TestNamesAreUnique(t *testing.T) {
	e := newEnv(t, 1)
	first := e.register("玩家1")
	if first.Status != http.StatusCreated {
		t.Fatalf("register 玩家1: %d %s", first.Status, first.Body)
	}
	var p player
	first.Decode(t, &p)
	alice := e.newPlayer("Alice")
	for _, twin := range []string{"玩家１", " 玩家1 ", "ALICE", "alice", "Ａｌｉｃｅ"} {
		if r := e.register(twin); r.Status != http.StatusConflict || r.Problem(t) != "name_taken" {
			t.Errorf("register %q beside 玩家1 and Alice: %d %s, want 409 name_taken", twin, r.Status, r.Body)
		}
	}
	r := e.c.Do(apitest.Request{Method: "PATCH", Path: "/v1/me", Token: alice.Token, Body: map[string]any{"name": "玩家１"}})
	if r.Status != http.StatusConflict || r.Problem(t) != "name_taken" {
		t.Errorf("rename Alice to 玩家１: %d %s, want 409 name_taken", r.Status, r.Body)
	}
	if st, name := e.meStatus(alice.Token); st != http.StatusOK || name != "Alice" {
		t.Errorf("Alice after a refused rename = %d %s, want Alice", st, name)
	}
	// A player's own name in another spelling is still its own; it is kept
	// as the profile enforces it (NFKC: the fullwidth digit is a digit).
	r = e.c.Do(apitest.Request{Method: "PATCH", Path: "/v1/me", Token: p.Token, Body: map[string]any{"name": "玩家１"}})
	if r.Status != http.StatusOK {
		t.Fatalf("rename 玩家1 to 玩家１: %d %s, want 200", r.Status, r.Body)
	}
	if st, name := e.meStatus(p.Token); st != http.StatusOK || name != "玩家1" {
		t.Errorf("玩家1 renamed to 玩家１ = %d %q, want 玩家1 (NFKC)", st, name)
	}
	// A name given up is free again.
	if r := e.c.Do(apitest.Request{Method: "PATCH", Path: "/v1/me", Token: alice.Token, Body: map[string]any{"name": "Alicia"}}); r.Status != http.StatusOK {
		t.Fatalf("rename Alice to Alicia: %d %s", r.Status, r.Body)
	}
	if r := e.register("alice"); r.Status != http.StatusCreated {
		t.Errorf("register alice after Alice became Alicia: %d %s, want 201", r.Status, r.Body)
	}
}

// TestNamesUniqueUnderConcurrentRegistrations: registrations of one name
// at once store exactly one player; the others are 409 name_taken (the
// store's unique key decides, not a check before the insert).
func TestNamesUniqueUnderConcurrentRegistrations(t *testing.T) {
	e := newEnv(t, 1)
	const n = 8
	statuses := make([]int, n)
	codes := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			// Width and case differ; the comparison key does not.
			name := []string{"Racer", "racer", "ＲＡＣＥＲ", "RACER"}[i%4]
			r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/players", Body: map[string]string{"name": name}})
			statuses[i] = r.Status
			if r.Status != http.StatusCreated {
				codes[i] = r.Problem(t)
			}
		})
	}
	wg.Wait()
	created := 0
	for i := range n {
		switch {
		case statuses[i] == http.StatusCreated:
			created++
		case statuses[i] != http.StatusConflict || codes[i] != "name_taken":
			t.Errorf("registration %d: %d %s, want 201 or 409 name_taken", i, statuses[i], codes[i])
		}
	}
	if created != 1 {
		t.Errorf("%d of %d concurrent registrations of one name succeeded, want exactly 1", created, n)
	}
}

// TestNamesAreText: a name that reads as markup has visible letters, so it
// is a name like any other, stored and answered exactly as given: clients
// show it as text (the web app sets names with textContent, never as HTML).
func TestNamesAreText(t *testing.T) {
	e := newEnv(t, 1)
	const markup = `<img src=x onerror=alert(1)>`
	r := e.register(markup)
	if r.Status != http.StatusCreated {
		t.Fatalf("register %s: %d %s", markup, r.Status, r.Body)
	}
	var p player
	r.Decode(t, &p)
	if p.Name != markup {
		t.Errorf("registered name = %q, want %q as given", p.Name, markup)
	}
	if st, name := e.meStatus(p.Token); st != http.StatusOK || name != markup {
		t.Errorf("GET /v1/me = %d %q, want %q", st, name, markup)
	}
	var pub struct {
		Name string `json:"name"`
	}
	e.c.Do(apitest.Request{Method: "GET", Path: fmt.Sprintf("/v1/players/%s", p.ID), Token: p.Token}).Decode(t, &pub)
	if pub.Name != markup {
		t.Errorf("GET /v1/players/{id} name = %q, want %q", pub.Name, markup)
	}
}
