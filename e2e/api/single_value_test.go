package api_test

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"paiju/api/apitest"
)

// specOperation is one operation of openapi.yaml.
type specOperation struct {
	method, path string
	op           *openapi3.Operation
}

// v1Operations lists openapi.yaml's /v1 operations, in a fixed order.
func v1Operations(t *testing.T) []specOperation {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromFile(apitest.SpecPath())
	if err != nil {
		t.Fatal(err)
	}
	var ops []specOperation
	for _, path := range doc.Paths.InMatchingOrder() {
		if !strings.HasPrefix(path, "/v1/") {
			continue
		}
		for method, op := range doc.Paths.Value(path).Operations() {
			ops = append(ops, specOperation{method, path, op})
		}
	}
	slices.SortFunc(ops, func(a, b specOperation) int { return strings.Compare(a.method+" "+a.path, b.method+" "+b.path) })
	if len(ops) < 30 {
		t.Fatalf("openapi.yaml lists %d /v1 operations, fewer than it has", len(ops))
	}
	return ops
}

// concrete fills the path's parameters: a real table and player where the
// path names one, made-up values elsewhere.
func concrete(path, tableID, playerID string) string {
	r := strings.NewReplacer("{playerID}", playerID, "{tokenID}", "tk_none", "{code}", "123456", "{handID}", "h-none", "{game}", "doudizhu")
	path = r.Replace(path)
	if strings.HasPrefix(path, "/v1/tables/{id}") {
		return strings.Replace(path, "{id}", tableID, 1)
	}
	if strings.HasPrefix(path, "/v1/players/{id}") {
		return strings.Replace(path, "{id}", playerID, 1)
	}
	return strings.Replace(path, "{id}", "none", 1)
}

// TestRepeatedQueryParameterRefused: on every route, a query parameter
// given twice (?legal=true&legal=false) is 400 invalid_query instead of
// being read as its first value (issue #35, part 5b), whether the route
// reads that parameter or not.
func TestRepeatedQueryParameterRefused(t *testing.T) {
	e := newEnv(t, 1)
	id, ps := e.openFull()
	for _, o := range v1Operations(t) {
		name := "x"
		for _, p := range o.op.Parameters {
			if p.Value != nil && p.Value.In == "query" {
				name = p.Value.Name
				break
			}
		}
		path := concrete(o.path, id, ps[0].ID) + "?" + name + "=true&" + name + "=false"
		t.Run(o.method+" "+o.path, func(t *testing.T) {
			before := e.head()
			req := apitest.Request{Method: o.method, Path: path, Token: ps[0].Token, Raw: true}
			if strings.HasSuffix(o.path, "/stream") {
				// A stream that opened would never end by itself: its
				// headers are read, not its body.
				hr, err := http.NewRequestWithContext(t.Context(), "GET", e.c.Base()+path, nil)
				if err != nil {
					t.Fatal(err)
				}
				hr.Header.Set("Authorization", "Bearer "+ps[0].Token)
				resp, err := http.DefaultClient.Do(hr)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				if resp.StatusCode != http.StatusBadRequest {
					t.Fatalf("GET %s: %d, want 400 invalid_query", path, resp.StatusCode)
				}
				if body, err := io.ReadAll(resp.Body); err != nil || !strings.Contains(string(body), `"code":"invalid_query"`) {
					t.Errorf("GET %s: %s %v, want the problem invalid_query", path, body, err)
				}
				return
			}
			r := e.c.Do(req)
			if r.Status != http.StatusBadRequest || r.Problem(t) != "invalid_query" {
				t.Errorf("%s %s: %d %s, want 400 invalid_query", o.method, path, r.Status, r.Body)
			}
			if after := e.head(); after != before {
				t.Errorf("the store moved from position %d to %d", before, after)
			}
		})
	}
	// One value each is still read: the legal list, with its parameters.
	if r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + id + "/events?after=0&limit=5", Token: ps[0].Token}); r.Status != http.StatusOK {
		t.Errorf("events with two parameters once each: %d %s", r.Status, r.Body)
	}
}

// TestNullBodyRefused: every operation that takes a body refuses null, and
// any other JSON value than an object, with 400 malformed_json (issue #35,
// part 5b: POST …/stream-tickets took null as an empty object).
func TestNullBodyRefused(t *testing.T) {
	e := newEnv(t, 1)
	id, ps := e.openFull()
	seen := 0
	for _, o := range v1Operations(t) {
		if o.op.RequestBody == nil {
			continue
		}
		seen++
		path := concrete(o.path, id, ps[0].ID)
		for _, body := range []string{"null", " null ", "[]", `"x"`, "1"} {
			t.Run(o.method+" "+o.path+" "+body, func(t *testing.T) {
				before := e.head()
				r := e.c.Do(apitest.Request{Method: o.method, Path: path, Token: ps[0].Token, Body: body, Raw: true})
				if r.Status != http.StatusBadRequest || r.Problem(t) != "malformed_json" {
					t.Errorf("%s %s with body %s: %d %s, want 400 malformed_json", o.method, path, body, r.Status, r.Body)
				}
				if after := e.head(); after != before {
					t.Errorf("the store moved from position %d to %d", before, after)
				}
			})
		}
	}
	if seen < 10 {
		t.Fatalf("%d operations take a body, fewer than openapi.yaml has", seen)
	}
}
