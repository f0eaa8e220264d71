// Package apitest is a test client for paiju's HTTP API that checks every
// request and response against openapi.yaml. openapi.yaml is loaded and its
// schemas compiled once per test binary, shared by every client. Under the
// race detector the bodies are not checked against the schemas (checkBodies):
// make test's pass without -race checks them all.
package apitest

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"paiju/internal/race"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/klauspost/compress/zstd"
)

// SpecPath is the path of openapi.yaml in the repository: beside the
// go.mod of the module the test runs in (a test's working directory is its
// package's). It does not ask the runtime where this file is: builds with
// -trimpath (make test's) record no such path.
func SpecPath() string {
	dir, err := os.Getwd()
	for err == nil {
		if _, statErr := os.Stat(filepath.Join(dir, "go.mod")); statErr == nil {
			return filepath.Join(dir, "openapi.yaml")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "openapi.yaml"
}

// Client sends requests to a server and validates them and their responses
// against the OpenAPI document.
type Client struct {
	t      testing.TB
	base   string
	router routers.Router
	http   *http.Client
	raw    bool
	bodies *bodies
	// checkBodies is off under the race detector, except for the tests of
	// the checks themselves: the client then checks no body against
	// openapi.yaml's schemas (it still checks every route, parameter,
	// status and declared header). make test runs every test once without
	// -race, where every body is checked; under -race the schema checks,
	// the largest part of a whole-hand test's work and all of it in the
	// test's own goroutine, would slow the pass tenfold and find nothing
	// the race detector looks for.
	checkBodies bool
	// validRequests holds the requests (method, URL and headers) kin-openapi
	// has passed: it compiles every parameter's schema again at each call,
	// the largest part of a long test's checks, and its verdict depends on
	// nothing else (bodies are checked apart, by bodies.check).
	validRequests *sync.Map
	// validResponses holds, likewise, the responses' status and declared
	// headers kin-openapi has passed (bodies are checked apart).
	validResponses *sync.Map
	// validData holds the SHA-256 of each (schema, data) CheckSchemaOnce passed.
	validData *sync.Map
}

// Base is the server's URL, for requests the client cannot make (one with
// no Accept-Encoding at all: Go's transport adds gzip to every request that
// names none).
func (c *Client) Base() string { return c.base }

// Unchecked returns a copy of c that skips the OpenAPI checks, for
// benchmarks, where the client's own cost would drown the server's.
func (c *Client) Unchecked() *Client {
	u := *c
	u.raw = true
	return &u
}

// New returns a client for the server at base (e.g. an httptest.Server's
// URL) that checks every request and response against openapi.yaml.
func New(t testing.TB, base string) *Client {
	t.Helper()
	s, err := loadSpec()
	if err != nil {
		t.Fatalf("%v", err)
	}
	return &Client{t: t, base: base, router: s.router, http: &http.Client{}, bodies: s.bodies, checkBodies: !race.Enabled, validRequests: &sync.Map{}, validResponses: &sync.Map{}, validData: &sync.Map{}}
}

// spec is openapi.yaml as the clients check against it: loaded, validated
// and its routes and body schemas built once per test binary (loadSpec),
// and shared by every client, side by side. The router and kin-openapi's
// checks only read the document; bodies compiles each schema once, under
// its lock, and a compiled schema validates from any goroutine.
type spec struct {
	router routers.Router
	bodies *bodies
}

var loadSpec = sync.OnceValues(func() (*spec, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(SpecPath())
	if err != nil {
		return nil, fmt.Errorf("load openapi.yaml: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("openapi.yaml is invalid: %w", err)
	}
	b, err := newBodies(doc)
	if err != nil {
		return nil, err
	}
	// No servers: the routes match whatever host a client's base names
	// (each test's server listens on a port of its own).
	doc.Servers = nil
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi router: %w", err)
	}
	return &spec{router: router, bodies: b}, nil
})

// CheckSchema validates JSON data against the component schema of the given
// name (e.g. each event of a live stream against "Event"), failing the test
// when it does not match.
func (c *Client) CheckSchema(name string, data []byte) {
	c.t.Helper()
	if c.raw || !c.checkBodies {
		return
	}
	if err := c.bodies.Schema(name, data); err != nil {
		c.t.Fatalf("%s does not match the schema %s of openapi.yaml: %v", data, name, err)
	}
}

// CheckSchemaOnce is CheckSchema for data a test reads again and again (a
// deal's events, read afresh at every step of a crawl): the same bytes
// are checked against the same schema once.
func (c *Client) CheckSchemaOnce(name string, data []byte) {
	c.t.Helper()
	if c.raw || !c.checkBodies {
		return
	}
	h := sha256.New()
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write(data)
	err := passOnce(c.validData, string(h.Sum(nil)), func() error { return c.bodies.Schema(name, data) })
	if err != nil {
		c.t.Fatalf("%s does not match the schema %s of openapi.yaml: %v", data, name, err)
	}
}

// Response is a validated response.
type Response struct {
	Status int
	Header http.Header
	// Body is decoded from its Content-Encoding, if any; WireBytes is its
	// size as sent.
	Body      []byte
	WireBytes int
}

// Decode unmarshals the body into v, failing the test on error.
func (r *Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// Problem decodes a problem+json body.
func (r *Response) Problem(t testing.TB) (code string) {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
		t.Fatalf("status %d with content type %q, want application/problem+json; body %s", r.Status, ct, r.Body)
	}
	var p struct {
		Code   string `json:"code"`
		Status int    `json:"status"`
	}
	r.Decode(t, &p)
	if p.Status != r.Status {
		t.Fatalf("problem status %d in a %d response", p.Status, r.Status)
	}
	return p.Code
}

// Request is one call.
type Request struct {
	Method string
	Path   string
	Token  string
	Body   any // marshalled to JSON unless it is []byte or string (sent as is)
	Header map[string]string
	// Raw skips request validation (for deliberately malformed requests); the
	// response is still validated.
	Raw bool
}

// Do sends r and returns the validated response.
func (c *Client) Do(r Request) *Response {
	c.t.Helper()
	resp, err := c.do(r)
	if err != nil {
		c.t.Fatalf("%v", err)
	}
	return resp
}

// WaitReady asks GET /readyz until it answers 200 (for 30s at most) and
// returns that answer. One probe is not enough: its checks have a second in
// all, and on a machine running the test suites beside each other a
// store's answer can take longer, when the node is rightly not ready.
func (c *Client) WaitReady() *Response {
	c.t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		r := c.Do(Request{Method: "GET", Path: "/readyz"})
		if r.Status == http.StatusOK {
			return r
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("GET /readyz: %d %s, want 200", r.Status, r.Body)
		}
	}
}

// do sends r, validating the request (unless r.Raw) and the response
// against openapi.yaml: the status, the headers and the parameters by
// kin-openapi, the bodies by JSON Schema 2020-12 (bodies.check; not under
// the race detector: see checkBodies). The error
// says what did not match.
func (c *Client) do(r Request) (*Response, error) {
	var body []byte
	switch b := r.Body.(type) {
	case nil:
	case []byte:
		body = b
	case string:
		body = []byte(b)
	default:
		var err error
		if body, err = json.Marshal(b); err != nil {
			return nil, fmt.Errorf("marshal request: %w", err)
		}
	}
	req, err := http.NewRequestWithContext(context.Background(), r.Method, c.base+r.Path, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.Token != "" {
		req.Header.Set("Authorization", "Bearer "+r.Token)
	}
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}

	if c.raw {
		return c.send(req), nil
	}
	route, params, err := c.router.FindRoute(req)
	if err != nil && !r.Raw {
		return nil, fmt.Errorf("%s %s is not in openapi.yaml: %w", r.Method, r.Path, err)
	}
	opts := &openapi3filter.Options{
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true, SkipSettingDefaults: true,
		ExcludeRequestBody: true, ExcludeResponseBody: true,
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	if !r.Raw {
		if err := c.validateRequest(in); err != nil {
			return nil, fmt.Errorf("%s %s: request does not match openapi.yaml: %w", r.Method, r.Path, err)
		}
		if err := c.checkBody(body, req.Header.Get("Content-Type"), "paths", route.Path, strings.ToLower(r.Method), "requestBody", "content"); err != nil {
			return nil, fmt.Errorf("%s %s: request body does not match openapi.yaml: %w\nbody: %s", r.Method, r.Path, err, body)
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
	}

	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", r.Method, r.Path, err)
	}
	defer resp.Body.Close()
	wire, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("read response: %w", err)
	}
	// A request that names its Accept-Encoding gets the encoded body (the
	// transport decodes only what it asked for itself): decode it to check
	// it against the spec, keeping the size that travelled.
	respBody, err := decodeBody(resp.Header.Get("Content-Encoding"), wire)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", r.Method, r.Path, err)
	}
	if route != nil {
		out := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: in,
			Status:                 resp.StatusCode,
			Header:                 resp.Header,
			Body:                   io.NopCloser(bytes.NewReader(respBody)),
			Options:                opts,
		}
		if err := c.validateResponse(out); err != nil {
			return nil, fmt.Errorf("%s %s: response %d does not match openapi.yaml: %w\nbody: %s", r.Method, r.Path, resp.StatusCode, err, respBody)
		}
		if err := c.checkBody(respBody, resp.Header.Get("Content-Type"), "paths", route.Path, strings.ToLower(r.Method), "responses", strconv.Itoa(resp.StatusCode), "content"); err != nil {
			return nil, fmt.Errorf("%s %s: response %d does not match openapi.yaml: %w\nbody: %s", r.Method, r.Path, resp.StatusCode, err, respBody)
		}
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: respBody, WireBytes: len(wire)}, nil
}

// checkBody is bodies.check unless the client checks no bodies (under the
// race detector).
func (c *Client) checkBody(body []byte, ct string, content ...string) error {
	if !c.checkBodies {
		return nil
	}
	return c.bodies.check(body, ct, content...)
}

// validateRequest checks in's method, path, query and headers (not its
// body) against the document, once for each distinct request.
func (c *Client) validateRequest(in *openapi3filter.RequestValidationInput) error {
	req := in.Request
	var key strings.Builder
	key.WriteString(req.Method)
	key.WriteByte(0)
	key.WriteString(req.URL.String())
	writeHeaders(&key, req.Header, slices.Sorted(maps.Keys(req.Header)))
	return passOnce(c.validRequests, key.String(), func() error {
		return openapi3filter.ValidateRequest(context.Background(), in)
	})
}

// validateResponse checks out's status and the headers its operation
// declares for that status (not its body) against the document, once for
// each distinct answer: kin-openapi's verdict depends on nothing else.
func (c *Client) validateResponse(out *openapi3filter.ResponseValidationInput) error {
	route := out.RequestValidationInput.Route
	ref := route.Operation.Responses.Status(out.Status)
	if ref == nil {
		ref = route.Operation.Responses.Default()
	}
	if ref == nil || ref.Value == nil {
		return openapi3filter.ValidateResponse(context.Background(), out)
	}
	var key strings.Builder
	fmt.Fprintf(&key, "%s\x00%s\x00%d", route.Method, route.Path, out.Status)
	writeHeaders(&key, out.Header, slices.Sorted(maps.Keys(ref.Value.Headers)))
	return passOnce(c.validResponses, key.String(), func() error {
		return openapi3filter.ValidateResponse(context.Background(), out)
	})
}

// writeHeaders writes h's values of the names, in their order, to key.
func writeHeaders(key *strings.Builder, h http.Header, names []string) {
	for _, name := range names {
		for _, v := range h.Values(name) {
			key.WriteByte(0)
			key.WriteString(name)
			key.WriteByte(':')
			key.WriteString(v)
		}
	}
}

// passOnce runs check unless passed holds key, and records key when check
// passes: a failure is checked again, and reported, each time.
func passOnce(passed *sync.Map, key string, check func() error) error {
	if _, ok := passed.Load(key); ok {
		return nil
	}
	if err := check(); err != nil {
		return err
	}
	passed.Store(key, struct{}{})
	return nil
}

// decodeBody undoes a gzip or zstd Content-Encoding.
func decodeBody(encoding string, wire []byte) ([]byte, error) {
	var r io.Reader
	switch encoding {
	case "":
		return wire, nil
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(wire))
		if err != nil {
			return nil, fmt.Errorf("gzip body: %w", err)
		}
		r = zr
	case "zstd":
		zr, err := zstd.NewReader(bytes.NewReader(wire))
		if err != nil {
			return nil, fmt.Errorf("zstd body: %w", err)
		}
		defer zr.Close()
		r = zr
	default:
		return nil, fmt.Errorf("unexpected Content-Encoding %q", encoding)
	}
	body, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("decode %s body: %w", encoding, err)
	}
	return body, nil
}

func (c *Client) send(req *http.Request) *Response {
	c.t.Helper()
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("read response: %v", err)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: body}
}
