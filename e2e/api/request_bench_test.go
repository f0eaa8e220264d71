package api_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"paiju/internal/app"
	"paiju/internal/cputime"
)

// The two requests of a move as a client that prefers minimal answers makes
// them (paiju loadtest): GET /legal of the seat the last answer named in
// Awaited-Seats, then POST /actions with Prefer: return=minimal and an
// Idempotency-Key. They go straight to the real server's router with
// httptest's recorder, so the figures are the server's handling of the
// request, not the network's; the store is SQLite in a temporary directory
// (synchronous=FULL), and its writer's work is counted in cpu-ns/op, with
// the relay's and the projections' that each commit sets off.

// moveTable is one 斗地主 table of three players, seated, driven through h.
type moveTable struct {
	b       *testing.B
	h       http.Handler
	id      string
	tokens  []string
	awaited int
	rng     *rand.Rand
	keys    int
}

func newMoveTable(b *testing.B) *moveTable {
	b.Helper()
	srv := benchServer(b, app.Config{Inputs: app.Inputs{Seeds: &seqSeeds{base: 21}}}, nil)
	t := &moveTable{b: b, rng: rand.New(rand.NewPCG(21, 1)), h: srv.Handler()}
	for _, n := range []string{"a", "b", "c"} {
		var p player
		t.decode(t.do("POST", "/v1/players", "", `{"name":"`+n+`"}`, nil), &p)
		t.tokens = append(t.tokens, p.Token)
	}
	var tv tableView
	t.decode(t.do("POST", "/v1/tables", t.tokens[0], `{"game":"doudizhu","variant":"classic"}`, nil), &tv)
	t.id = tv.ID
	for _, tok := range t.tokens {
		t.do("POST", "/v1/tables/"+t.id+"/join", tok, "", nil)
	}
	t.decode(t.do("GET", "/v1/tables/"+t.id, t.tokens[0], "", nil), &tv)
	if tv.Turn == nil {
		b.Fatalf("table %s: no turn after the last join", t.id)
	}
	t.awaited = *tv.Turn
	return t
}

func (t *moveTable) do(method, path, token, body string, hdr map[string]string) *httptest.ResponseRecorder {
	var rd *strings.Reader
	if body != "" {
		rd = strings.NewReader(body)
	} else {
		rd = strings.NewReader("")
	}
	req := httptest.NewRequest(method, path, rd)
	req.RemoteAddr = "192.0.2.1:40000"
	req.Header.Set("Accept-Encoding", "gzip")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	t.h.ServeHTTP(w, req)
	if w.Code >= 300 {
		t.b.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body)
	}
	return w
}

// decode reads an answer as Go's client does: it asks for gzip, and the
// server compresses what is larger than 1 KiB.
func (t *moveTable) decode(w *httptest.ResponseRecorder, v any) {
	body := w.Body.Bytes()
	if w.Header().Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(w.Body)
		if err != nil {
			t.b.Fatal(err)
		}
		if body, err = io.ReadAll(zr); err != nil {
			t.b.Fatal(err)
		}
	}
	if err := json.Unmarshal(body, v); err != nil {
		t.b.Fatalf("decode %s: %v", w.Body, err)
	}
}

// readAwaited keeps the first seat a command's answer names as awaited.
func (t *moveTable) readAwaited(w *httptest.ResponseRecorder) {
	seats := w.Header().Get("Awaited-Seats")
	first, _, _ := strings.Cut(seats, ",")
	n, err := strconv.Atoi(first)
	if err != nil {
		t.b.Fatalf("Awaited-Seats %q: no seat to act", seats)
	}
	t.awaited = n
}

// legal asks the awaited seat's legal actions and returns one of them at
// random (never escape or delegate: the hand goes on). When the page cannot
// list every play (a lead of many cards), it selects a card the page offers
// and asks again, as a client does.
func (t *moveTable) legal() []byte {
	var selected []string
	for {
		path := "/v1/tables/" + t.id + "/legal"
		if len(selected) > 0 {
			path += "?selected=" + strings.Join(selected, ",")
		}
		w := t.do("GET", path, t.tokens[t.awaited], "", nil)
		var page struct {
			Actions []json.RawMessage `json:"actions"`
			Extend  []string          `json:"extend"`
		}
		t.decode(w, &page)
		var choices []json.RawMessage
		for _, a := range page.Actions {
			if !bytes.Contains(a, []byte(`"escape"`)) && !bytes.Contains(a, []byte(`"delegate"`)) {
				choices = append(choices, a)
			}
		}
		if len(choices) > 0 {
			return choices[t.rng.IntN(len(choices))]
		}
		if len(page.Extend) == 0 {
			t.b.Fatalf("seat %d has nothing to play: %s", t.awaited, w.Body)
		}
		selected = append(selected, page.Extend[t.rng.IntN(len(page.Extend))])
	}
}

// act posts action as the awaited seat.
func (t *moveTable) act(action []byte) {
	t.keys++
	w := t.do("POST", "/v1/tables/"+t.id+"/actions", t.tokens[t.awaited], string(action),
		map[string]string{"Prefer": "return=minimal", "Idempotency-Key": "k" + strconv.Itoa(t.keys)})
	t.readAwaited(w)
}

// BenchmarkMoveRequests: one op is a move's two requests, GET /legal and
// POST /actions, the client's choice between them included.
func BenchmarkMoveRequests(b *testing.B) {
	t := newMoveTable(b)
	b.ReportAllocs()
	b.ResetTimer()
	start := cputime.Now()
	for range b.N {
		t.act(t.legal())
	}
	b.ReportMetric(float64(cputime.Now()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkLegalRequest: one op is GET /legal of the seat to act, the
// table standing still.
func BenchmarkLegalRequest(b *testing.B) {
	t := newMoveTable(b)
	path := "/v1/tables/" + t.id + "/legal"
	token := t.tokens[t.awaited]
	b.ReportAllocs()
	b.ResetTimer()
	start := cputime.Now()
	for range b.N {
		t.do("GET", path, token, "", nil)
	}
	b.ReportMetric(float64(cputime.Now()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkActionRequest: one op is POST /actions; the GET /legal that
// chooses the move runs with the timer stopped, and cpu-ns/op counts the
// CPU used from the POST's start to its answer only (the store's writer
// included, as it commits the move while the POST waits).
func BenchmarkActionRequest(b *testing.B) {
	t := newMoveTable(b)
	b.ReportAllocs()
	b.ResetTimer()
	var cpu int64
	for range b.N {
		b.StopTimer()
		a := t.legal()
		b.StartTimer()
		start := cputime.Now()
		t.act(a)
		cpu += cputime.Now() - start
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}
