package api

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/service"
)

// encodeLegalJSON is what writeJSON writes for resp.
func encodeLegalJSON(t *testing.T, resp *legalResponse) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(resp); err != nil {
		return nil // writeJSON writes nothing either
	}
	return buf.Bytes()
}

// randomLegalResponse makes answers of every shape: nil and empty lists,
// bids, readings, deadlines, and now and then an invalid card, a string
// encoding/json escapes or a deadline it refuses.
func randomLegalResponse(rng *rand.Rand) *legalResponse {
	strs := []string{"play", "pass", "bid", "airplane_pairs", "", "a<b", "x&y", `q"uote`, `back\\slash`, "tab\t", "é", "\u2028", "\x7f", "\xff"}
	card := func() cards.Card {
		if rng.IntN(200) == 0 {
			return cards.Card{Suit: cards.Suit(rng.IntN(6)), Rank: cards.Rank(rng.IntN(20))}
		}
		return cards.FromIndex(rng.IntN(cards.DeckSize))
	}
	list := func() []cards.Card {
		switch rng.IntN(4) {
		case 0:
			return nil
		case 1:
			return []cards.Card{}
		}
		cs := make([]cards.Card, 1+rng.IntN(20))
		for i := range cs {
			cs[i] = card()
		}
		return cs
	}
	str := func() string {
		if rng.IntN(10) == 0 {
			return strs[rng.IntN(len(strs))]
		}
		return strs[rng.IntN(4)]
	}
	resp := &legalResponse{Version: rng.IntN(100000), LegalPage: service.LegalPage{Complete: rng.IntN(2) == 0, Selected: list(), Extend: list()}}
	if rng.IntN(10) > 0 {
		resp.Actions = []table.Action{}
		for range rng.IntN(30) {
			a := table.Action{Type: str(), As: str(), Cards: list()}
			if rng.IntN(3) == 0 {
				bid := rng.IntN(7) - 2
				a.Bid = &bid
			}
			resp.Actions = append(resp.Actions, a)
		}
	}
	switch rng.IntN(4) {
	case 0:
	case 1:
		dl := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
		resp.Deadline = &dl
	default:
		dl := time.UnixMilli(rng.Int64N(4e12)).UTC()
		resp.Deadline = &dl
	}
	if rng.IntN(3) == 0 {
		resp.Hint = &table.Action{Type: str(), As: str(), Cards: list()}
	}
	return resp
}

// TestLegalJSONMatchesEncoding holds the /legal answer's appender to
// encoding/json, byte for byte, on random answers: where it writes, it
// writes what json.Encoder does; where it does not, writeLegal leaves the
// answer to writeJSON.
func TestLegalJSONMatchesEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 7))
	s := &server{}
	s.buffers.New = newBuffer
	appended := 0
	for i := range 20000 {
		resp := randomLegalResponse(rng)
		want := encodeLegalJSON(t, resp)
		if got, ok := appendLegal(nil, resp); ok {
			appended++
			if !bytes.Equal(got, want) {
				t.Fatalf("answer %d:\nappended %s\nencoding/json %s", i, got, want)
			}
		}
		w := httptest.NewRecorder()
		s.writeLegal(w, resp)
		if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "application/json" || !bytes.Equal(w.Body.Bytes(), want) {
			t.Fatalf("answer %d: writeLegal wrote %d %q %s, want 200 application/json %s", i, w.Code, w.Header().Get("Content-Type"), w.Body, want)
		}
	}
	if appended < 2000 {
		t.Errorf("the appender wrote %d answers of 20000: too few to hold it to encoding/json", appended)
	}
}

// TestSetETag holds setETag to the quoted version it always wrote.
func TestSetETag(t *testing.T) {
	for _, v := range []int{0, 1, 9, 10, 12, 999999999, -1, 1 << 62} {
		w := httptest.NewRecorder()
		setETag(w, v)
		if got, want := w.Header().Get("ETag"), strconv.Quote(strconv.Itoa(v)); got != want {
			t.Errorf("version %d: ETag %s, want %s", v, got, want)
		}
	}
}
