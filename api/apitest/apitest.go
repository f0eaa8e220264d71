// Package apitest is a test client for paiju's HTTP API that checks every
// request and response against openapi.yaml.
package apitest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/klauspost/compress/zstd"
)

// SpecPath is the path of openapi.yaml in the repository.
func SpecPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "openapi.yaml")
}

// Client sends requests to a server and validates them and their responses
// against the OpenAPI document.
type Client struct {
	t      testing.TB
	base   string
	router routers.Router
	http   *http.Client
	raw    bool
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

// New loads and validates the OpenAPI document and returns a client for the
// server at base (e.g. an httptest.Server's URL).
func New(t testing.TB, base string) *Client {
	t.Helper()
	registerDecoders()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(SpecPath())
	if err != nil {
		t.Fatalf("load openapi.yaml: %v", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("openapi.yaml is invalid: %v", err)
	}
	doc.Servers = openapi3.Servers{{URL: base}}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatalf("openapi router: %v", err)
	}
	return &Client{t: t, base: base, router: router, http: &http.Client{}}
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
			c.t.Fatalf("marshal request: %v", err)
		}
	}
	req, err := http.NewRequestWithContext(context.Background(), r.Method, c.base+r.Path, bytes.NewReader(body))
	if err != nil {
		c.t.Fatalf("request: %v", err)
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
		return c.send(req)
	}
	route, params, err := c.router.FindRoute(req)
	if err != nil && !r.Raw {
		c.t.Fatalf("%s %s is not in openapi.yaml: %v", r.Method, r.Path, err)
	}
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true, SkipSettingDefaults: true}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	if !r.Raw {
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			c.t.Fatalf("%s %s: request does not match openapi.yaml: %v", r.Method, r.Path, err)
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
	}

	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", r.Method, r.Path, err)
	}
	defer resp.Body.Close()
	wire, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("read response: %v", err)
	}
	// A request that names its Accept-Encoding gets the encoded body (the
	// transport decodes only what it asked for itself): decode it to check
	// it against the spec, keeping the size that travelled.
	respBody := decodeBody(c.t, resp.Header.Get("Content-Encoding"), wire)
	if route != nil {
		out := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: in,
			Status:                 resp.StatusCode,
			Header:                 resp.Header,
			Body:                   io.NopCloser(bytes.NewReader(respBody)),
			Options:                opts,
		}
		if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
			c.t.Fatalf("%s %s: response %d does not match openapi.yaml: %v\nbody: %s", r.Method, r.Path, resp.StatusCode, err, respBody)
		}
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: respBody, WireBytes: len(wire)}
}

// decodeBody undoes a gzip or zstd Content-Encoding.
func decodeBody(t testing.TB, encoding string, wire []byte) []byte {
	t.Helper()
	var r io.Reader
	switch encoding {
	case "":
		return wire
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(wire))
		if err != nil {
			t.Fatalf("gzip body: %v", err)
		}
		r = zr
	case "zstd":
		zr, err := zstd.NewReader(bytes.NewReader(wire))
		if err != nil {
			t.Fatalf("zstd body: %v", err)
		}
		defer zr.Close()
		r = zr
	default:
		t.Fatalf("unexpected Content-Encoding %q", encoding)
	}
	body, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decode %s body: %v", encoding, err)
	}
	return body
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
