package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"paiju/api/apitest"
	"paiju/domain/cards"
	"paiju/domain/table"
)

// maxLegalBody is the bound on a /legal answer (DESIGN.md, HTTP API).
const maxLegalBody = 64 << 10

// getLegal asks /legal with a selection and checks the bounds of the answer.
func (e *env) getLegal(id, token string, selected []cards.Card) (legalPage, *apitest.Response) {
	e.t.Helper()
	path := "/v1/tables/" + id + "/legal"
	if selected != nil {
		path += "?selected=" + strings.Join(cards.Strings(selected), ",")
	}
	r := e.c.Do(apitest.Request{Method: "GET", Path: path, Token: token})
	var l legalPage
	if r.Status != http.StatusOK {
		return l, r
	}
	r.Decode(e.t, &l)
	if len(r.Body) > maxLegalBody || len(l.Actions) > 500 {
		e.t.Fatalf("GET %s: %d actions in %d bytes, over 500 actions or 64 KiB", path, len(l.Actions), len(r.Body))
	}
	return l, r
}

// toPlaying plays random actions until the cards are played (斗地主's
// "playing" phase) and returns the view of seat 0.
func (e *env) toPlaying(id string, ps []player) tableView {
	e.t.Helper()
	for range 200 {
		v := e.view(id, ps[0].Token)
		if v.Phase == "playing" {
			return v
		}
		e.step(id, ps)
	}
	e.t.Fatal("no playing phase after 200 actions")
	return tableView{}
}

func wireAction(a table.Action) map[string]any {
	m := map[string]any{"type": a.Type}
	if len(a.Cards) > 0 {
		m["cards"] = cards.Strings(a.Cards)
	}
	if a.As != "" {
		m["as"] = a.As
	}
	if a.Bid != nil {
		m["bid"] = *a.Bid
	}
	return m
}

func sameAction(m map[string]any, a table.Action) bool {
	b, _ := json.Marshal(m)
	c, _ := json.Marshal(wireAction(a))
	var x, y table.Action
	_ = json.Unmarshal(b, &x)
	_ = json.Unmarshal(c, &y)
	cards.SortCanonical(x.Cards)
	cards.SortCanonical(y.Cards)
	return x.Type == y.Type && x.As == y.As && cards.Format(x.Cards) == cards.Format(y.Cards) && (x.Bid == nil) == (y.Bid == nil)
}

// TestLegalBoundedLead: a 斗地主 fourplayer lead has tens of thousands of
// legal plays. /legal answers within 500 actions and 64 KiB, incomplete; a
// client that follows extend card by card reaches the largest play, which
// is then listed, posted as it is, and accepted.
func TestLegalBoundedLead(t *testing.T) {
	e := newEnv(t, 41)
	id, ps := e.openTable(map[string]any{"game": "doudizhu", "variant": "fourplayer", "stake": 1}, 4)
	v := e.toPlaying(id, ps)
	seat := *v.Turn
	p := ps[seat]
	hand := e.view(id, p.Token).Hand

	l, _ := e.getLegal(id, p.Token, nil)
	loaded, err := e.svc.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	legal := table.Legal(loaded.State, seat)
	if len(legal) <= 500 {
		t.Fatalf("the lead has only %d legal actions: the test needs a position over the bound", len(legal))
	}
	t.Logf("seat %d leads with %d legal actions; /legal lists %d and extends by %d cards", seat, len(legal), len(l.Actions), len(l.Extend))
	if l.Complete || len(l.Selected) != 0 {
		t.Fatalf("a lead of %d plays answers complete=%v selected=%v, want an incomplete answer", len(legal), l.Complete, l.Selected)
	}
	for _, a := range l.Actions {
		if a["cards"] != nil {
			t.Fatalf("the empty selection lists the play %v; only card-less actions are exact for it", a)
		}
	}
	checkOwnCards(t, "extend", l.Extend, hand)

	// The largest play, reached card by card from the empty selection.
	target := legal[0]
	for _, a := range legal {
		if len(a.Cards) > len(target.Cards) {
			target = a
		}
	}
	var sel []cards.Card
	for _, c := range target.Cards {
		l, r := e.getLegal(id, p.Token, sel)
		if r.Status != http.StatusOK {
			t.Fatalf("selected %s on the way to %v: %d %s", cards.Format(sel), target, r.Status, r.Body)
		}
		if !slices.Contains(l.Extend, c.String()) {
			t.Fatalf("selected %s on the way to %v: extend %v lacks %s", cards.Format(sel), target, l.Extend, c)
		}
		checkOwnCards(t, "extend", l.Extend, hand)
		sel = append(sel, c)
	}
	l, _ = e.getLegal(id, p.Token, sel)
	i := slices.IndexFunc(l.Actions, func(m map[string]any) bool { return sameAction(m, target) })
	if i < 0 {
		t.Fatalf("selected the cards of %v (%d legal plays contain them): it is not listed in %v", target, len(legal), l.Actions)
	}
	if len(l.Selected) != len(sel) {
		t.Fatalf("selected echoes %v for %s", l.Selected, cards.Format(sel))
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions", Token: p.Token, Body: l.Actions[i]})
	if r.Status != http.StatusOK {
		t.Fatalf("posting %v as /legal listed it: %d %s", l.Actions[i], r.Status, r.Body)
	}
}

// checkOwnCards fails unless every card of got is in the seat's hand.
func checkOwnCards(t *testing.T, what string, got []string, hand []string) {
	t.Helper()
	for _, c := range got {
		if !slices.Contains(hand, c) {
			t.Fatalf("%s names %s, which the seat does not hold (hand %v)", what, c, hand)
		}
	}
}

// TestLegalSelectionRefused: a selection that no legal action holds is 422
// selection_not_legal and changes nothing; another seat's card, a card in
// the kitty and three copies of a card of two decks get the same answer,
// word for word, so the refusal tells nothing about where a card is. A bad
// token is 400 invalid_card.
func TestLegalSelectionRefused(t *testing.T) {
	e := newEnv(t, 42)
	id, ps := e.openTable(map[string]any{"game": "doudizhu", "variant": "fourplayer", "stake": 1}, 4)
	v := e.toPlaying(id, ps)
	seat := *v.Turn
	own := e.view(id, ps[seat].Token).Hand
	other := e.view(id, ps[(seat+1)%4].Token).Hand
	var theirs string
	for _, c := range other {
		if !slices.Contains(own, c) {
			theirs = c
			break
		}
	}
	if theirs == "" {
		t.Fatal("the next seat holds no card this seat lacks")
	}
	// With two decks every card is dealt somewhere; three copies are nowhere.
	three := own[0] + "," + own[0] + "," + own[0]
	head, version := e.head(), v.Version

	var answers []string
	for _, sel := range []string{theirs, own[0] + "," + theirs, three} {
		r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/legal?selected=" + sel, Token: ps[seat].Token})
		if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "selection_not_legal" {
			t.Fatalf("selected %s: %d %s, want 422 selection_not_legal", sel, r.Status, r.Body)
		}
		var p struct {
			Title, Detail string
			Status        int
		}
		r.Decode(t, &p)
		answers = append(answers, fmt.Sprintf("%s|%s|%d", p.Title, p.Detail, p.Status))
		// The request id is random: a ULID can hold a card's letters
		// (…RAH6KF…) without naming it.
		var body map[string]any
		r.Decode(t, &body)
		delete(body, "request_id")
		if b, _ := json.Marshal(body); strings.Contains(string(b), theirs) {
			t.Fatalf("the refusal of %s names the card: %s", sel, r.Body)
		}
	}
	if answers[0] != answers[1] || answers[1] != answers[2] {
		t.Fatalf("another seat's card and a card nobody holds are refused differently: %q", answers)
	}
	// A spectator and a seat not to act have no cards to select.
	spectator := e.newPlayer("sam")
	for _, tok := range []string{spectator.Token, ps[(seat+1)%4].Token} {
		r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/legal?selected=" + own[0], Token: tok})
		if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != "selection_not_legal" {
			t.Fatalf("a caller who may not play selects %s: %d %s", own[0], r.Status, r.Body)
		}
	}
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/legal?selected=S3,X9", Token: ps[seat].Token})
	if r.Status != http.StatusBadRequest || r.Problem(t) != "invalid_card" {
		t.Fatalf("selected=S3,X9: %d %s, want 400 invalid_card", r.Status, r.Body)
	}
	if e.head() != head || e.view(id, ps[0].Token).Version != version {
		t.Fatal("a refused selection changed the store")
	}
	// The ETag names the version, the seat and the selection; a client
	// revalidates the URL it fetched.
	l, r := e.getLegal(id, ps[seat].Token, cards.MustParse(own[0]))
	if !strings.HasPrefix(r.Header.Get("ETag"), fmt.Sprintf(`"%d.%d.`, version, seat)) || l.Version != version {
		t.Fatalf("ETag %s for version %d", r.Header.Get("ETag"), version)
	}
	r = e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/legal?selected=" + own[0], Token: ps[seat].Token,
		Header: map[string]string{"If-None-Match": r.Header.Get("ETag")}})
	if r.Status != http.StatusNotModified {
		t.Fatalf("revalidating /legal?selected=%s at its version: %d", own[0], r.Status)
	}
}

// postAction posts a to table id as token, with query appended to the path
// and an Idempotency-Key when key is not empty.
func (e *env) postAction(id, token, query, key string, a map[string]any) *apitest.Response {
	e.t.Helper()
	req := apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions" + query, Token: token, Body: a}
	if key != "" {
		req.Header = map[string]string{"Idempotency-Key": key}
	}
	return e.c.Do(req)
}

// eventsOf is the events of a command's answer without their positions,
// which only a stored command has.
func eventsOf(t *testing.T, r *apitest.Response) []string {
	t.Helper()
	var cr struct {
		Version int `json:"version"`
		Events  []struct {
			Version int             `json:"version"`
			Type    string          `json:"type"`
			Data    json.RawMessage `json:"data"`
		} `json:"events"`
	}
	r.Decode(t, &cr)
	out := []string{fmt.Sprint(cr.Version)}
	for _, ev := range cr.Events {
		out = append(out, fmt.Sprintf("%d %s %s", ev.Version, ev.Type, ev.Data))
	}
	return out
}

// TestDryRunAction: a dry run answers what the post would — the events with
// the versions they would get, or the same problem — and stores nothing; the
// Idempotency-Key it carried is still free, and the real post after it
// appends the same events.
func TestDryRunAction(t *testing.T) {
	e := newEnv(t, 43)
	id, ps := e.openFull()
	v := e.view(id, ps[0].Token)
	seat := *v.Turn
	head := e.head()

	// Refused the same way: out of turn, and a play while bidding.
	for _, c := range []struct {
		token string
		a     map[string]any
	}{
		{ps[(seat+1)%3].Token, map[string]any{"type": "pass"}},
		{ps[seat].Token, map[string]any{"type": "play", "cards": []string{v.Hand[0]}}},
		{ps[seat].Token, map[string]any{"type": "grab"}}, // no grabbing in classic
	} {
		dry := e.postAction(id, c.token, "?dry_run=true", "", c.a)
		real := e.postAction(id, c.token, "", "", c.a)
		if dry.Status != real.Status || dry.Status == http.StatusOK || dry.Problem(t) != real.Problem(t) {
			t.Fatalf("%v: dry run %d %s, post %d %s", c.a, dry.Status, dry.Body, real.Status, real.Body)
		}
	}

	bid := map[string]any{"type": "bid", "bid": 1}
	dry := e.postAction(id, ps[seat].Token, "?dry_run=true", "k1", bid)
	if dry.Status != http.StatusOK || dry.Header.Get("Dry-Run") != "true" || dry.Header.Get("ETag") != "" {
		t.Fatalf("dry run of a legal bid: %d Dry-Run=%q ETag=%q %s", dry.Status, dry.Header.Get("Dry-Run"), dry.Header.Get("ETag"), dry.Body)
	}
	if e.head() != head || e.view(id, ps[0].Token).Version != v.Version {
		t.Fatal("a dry run changed the store")
	}
	if l, _ := e.getLegal(id, ps[seat].Token, nil); !slices.ContainsFunc(l.Actions, func(a map[string]any) bool { return a["type"] == "bid" }) {
		t.Fatalf("after a dry run the seat may no longer bid: %v", l.Actions)
	}
	real := e.postAction(id, ps[seat].Token, "", "k1", bid)
	if real.Status != http.StatusOK || real.Header.Get("Idempotent-Replayed") != "" || real.Header.Get("Dry-Run") != "" {
		t.Fatalf("the post after its dry run, same key: %d replayed=%q %s", real.Status, real.Header.Get("Idempotent-Replayed"), real.Body)
	}
	if d, r := eventsOf(t, dry), eventsOf(t, real); !slices.Equal(d, r) {
		t.Fatalf("dry run answered\n%v\nthe post appended\n%v", d, r)
	}
	// Now the key is recorded: a dry run with it answers the first result.
	again := e.postAction(id, ps[seat].Token, "?dry_run=true", "k1", bid)
	if again.Status != http.StatusOK || again.Header.Get("Idempotent-Replayed") != "true" || !slices.Equal(eventsOf(t, again), eventsOf(t, real)) {
		t.Fatalf("a dry run with a recorded key: %d replayed=%q %s", again.Status, again.Header.Get("Idempotent-Replayed"), again.Body)
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + id + "/actions?dry_run=maybe", Token: ps[seat].Token, Body: bid, Raw: true})
	if r.Status != http.StatusBadRequest || r.Problem(t) != "invalid_query" {
		t.Fatalf("dry_run=maybe: %d %s", r.Status, r.Body)
	}
}

// TestDryRunShowsNothingHidden: a dry run must not let a seat peek at what
// only the stored action reveals. The last pass of a bidding everyone
// passes would throw the deal in (publishing its seed) and deal again; the
// final bid would show the kitty; an escape would settle the hand with its
// seed. Each dry run stops before that, draws no seed (the table deals what
// it would have without dry runs), and the posts after them go on as usual.
func TestDryRunShowsNothingHidden(t *testing.T) {
	pass := map[string]any{"type": "pass"}
	hands := make([][]string, 2)
	for run, dryFirst := range []bool{false, true} {
		e := newEnv(t, 44)
		id, ps := e.openFull()
		voided := false
		for range 3 {
			v := e.view(id, ps[0].Token)
			seat := *v.Turn
			tr := e.auditorTruth(id)
			if dryFirst {
				dry := e.postAction(id, ps[seat].Token, "?dry_run=true", "", pass)
				if dry.Status != http.StatusOK {
					t.Fatalf("dry pass: %d %s", dry.Status, dry.Body)
				}
				checkNoLeak(t, fmt.Sprintf("seat %d", seat), "a dry run's answer", dry.Body, tr.secrets(seat), tr.seed)
				if evs := eventsOf(t, dry); len(evs) != 2 || !strings.Contains(evs[1], "BidPassed") {
					t.Fatalf("dry pass shows %v, want the pass alone", evs)
				}
			}
			r := e.postAction(id, ps[seat].Token, "", "", pass)
			if r.Status != http.StatusOK {
				t.Fatalf("pass: %d %s", r.Status, r.Body)
			}
			voided = strings.Contains(string(r.Body), `"DealVoided"`)
			if voided && !strings.Contains(string(r.Body), tr.seed) {
				t.Fatal("the post that voids the deal does not publish its seed: the test checks nothing")
			}
		}
		if !voided {
			t.Fatal("three passes did not throw the deal in (doudizhu.md, Bidding)")
		}
		hands[run] = e.view(id, ps[0].Token).Hand
	}
	if !slices.Equal(hands[0], hands[1]) {
		t.Fatalf("dry runs changed the next deal: %v, without them %v", hands[1], hands[0])
	}

	e := newEnv(t, 45)
	id, ps := e.openFull()
	seat := *e.view(id, ps[0].Token).Turn
	bid3 := map[string]any{"type": "bid", "bid": 3}
	tr := e.auditorTruth(id)
	dry := e.postAction(id, ps[seat].Token, "?dry_run=true", "", bid3)
	if dry.Status != http.StatusOK || strings.Contains(string(dry.Body), "LandlordChosen") {
		t.Fatalf("dry run of the bid that ends the bidding: %d %s", dry.Status, dry.Body)
	}
	checkNoLeak(t, fmt.Sprintf("seat %d", seat), "the dry run of the final bid", dry.Body, tr.secrets(seat), tr.seed)
	if r := e.postAction(id, ps[seat].Token, "", "", bid3); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "LandlordChosen") {
		t.Fatalf("bid 3: %d %s", r.Status, r.Body)
	}
	other := (seat + 1) % 3
	tr = e.auditorTruth(id)
	dry = e.postAction(id, ps[other].Token, "?dry_run=true", "", map[string]any{"type": "escape"})
	if dry.Status != http.StatusOK || strings.Contains(string(dry.Body), "HandSettled") {
		t.Fatalf("dry run of an escape: %d %s", dry.Status, dry.Body)
	}
	checkNoLeak(t, fmt.Sprintf("seat %d", other), "the dry run of an escape", dry.Body, tr.secrets(other), tr.seed)
}
