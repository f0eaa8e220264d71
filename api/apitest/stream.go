package apitest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3filter"
)

// Stream sends a GET whose answer may be an endless event stream. The
// request and the response status and headers are validated against
// openapi.yaml (the body of a 200 cannot be: it never ends); an error
// response is read and validated in full and returned with a nil stream.
// The caller closes the returned response's body.
func (c *Client) Stream(ctx context.Context, r Request) (*http.Response, *Response) {
	c.t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", c.base+r.Path, nil)
	if err != nil {
		c.t.Fatalf("request: %v", err)
	}
	if r.Token != "" {
		req.Header.Set("Authorization", "Bearer "+r.Token)
	}
	req.Header.Set("Accept", "text/event-stream")
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		c.t.Fatalf("GET %s is not in openapi.yaml: %v", r.Path, err)
	}
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true, SkipSettingDefaults: true, ExcludeResponseBody: true}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		c.t.Fatalf("GET %s: request does not match openapi.yaml: %v", r.Path, err)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("GET %s: %v", r.Path, err)
	}
	var body []byte
	if resp.StatusCode != http.StatusOK {
		body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                in.Options,
	}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		c.t.Fatalf("GET %s: response %d does not match openapi.yaml: %v\nbody: %s", r.Path, resp.StatusCode, err, body)
	}
	if resp.StatusCode != http.StatusOK {
		if err := c.checkBody(body, resp.Header.Get("Content-Type"), "paths", route.Path, "get", "responses", strconv.Itoa(resp.StatusCode), "content"); err != nil {
			c.t.Fatalf("GET %s: response %d does not match openapi.yaml: %v\nbody: %s", r.Path, resp.StatusCode, err, body)
		}
		return nil, &Response{Status: resp.StatusCode, Header: resp.Header, Body: body}
	}
	return resp, nil
}
