package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// Client speaks to the API of one server or of the nodes of a cluster, as
// any HTTP client would. Set its fields before its first request; Addrs
// may be changed again while no request is under way (a test that
// restarts its server on another port).
type Client struct {
	// Addrs are the servers' base URLs (a cluster's nodes, or one
	// server). A request goes to the node it is given, counted round
	// Addrs: node n is Addrs[n%len(Addrs)].
	Addrs []string
	// RetryFor, when positive, sends a request again, to the next node
	// each time, when its node is down (no connection, 502, 503, 504,
	// 500) or the same idempotent request is still in progress there,
	// until RetryFor has passed. Zero sends every request once.
	RetryFor time.Duration
	// HTTP sends the requests.
	HTTP *http.Client

	retries atomic.Int64
	// full asks for the whole view in every move's answer.
	full bool
	// askLegal: a --per-seat client asks /legal rather than take its
	// stream's legal messages.
	askLegal bool
	// requests, notModified and misses count the moves' requests (see
	// Result).
	requests, notModified, misses atomic.Int64
	// onOp receives every move's command for the history (Config.OnOp).
	onOp func(Op)
}

// NewClient returns a client of the servers at addrs (base URLs such as
// http://127.0.0.1:8080) that sends every request once, with a timeout of
// 30 seconds.
func NewClient(addrs ...string) *Client {
	return &Client{Addrs: addrs, HTTP: &http.Client{Timeout: 30 * time.Second}}
}

func (c *Client) server(node int) string {
	return c.Addrs[node%len(c.Addrs)]
}

// Do sends a request to the first server with token as its bearer token
// (none if empty) and body as its JSON body (none if nil; a
// json.RawMessage is sent as it is), decodes a 2xx answer into out unless
// out is nil, and returns the answer's status. An answer of 300 or above
// is an error naming the status and the body.
func (c *Client) Do(ctx context.Context, method, path, token string, body, out any) (int, error) {
	_, status, err := c.DoOn(ctx, 0, method, path, token, "", body, out)
	return status, err
}

// DoOn is Do sent to node (see Client.Addrs), with key as its
// Idempotency-Key if not empty. Its Reply says which node answered and
// whether its answer was a replay of an earlier attempt.
func (c *Client) DoOn(ctx context.Context, node int, method, path, token, key string, body, out any) (answered Reply, status int, err error) {
	return c.doWith(ctx, node, method, path, token, key, nil, body, out)
}

// doWith is DoOn with more request headers. A 304 answer leaves out alone.
func (c *Client) doWith(ctx context.Context, node int, method, path, token, key string, hdr http.Header, body, out any) (answered Reply, status int, err error) {
	if len(c.Addrs) == 0 {
		return Reply{}, 0, errors.New("loadtest: the client has no server address")
	}
	var b []byte
	switch body := body.(type) {
	case nil:
	case json.RawMessage: // a legal action, sent as the server wrote it
		b = body
	default:
		if b, err = json.Marshal(body); err != nil {
			return Reply{}, 0, err
		}
	}
	var deadline time.Time
	for attempt := 0; ; attempt++ {
		base := c.server(node)
		resp, status, data, err := c.once(ctx, base, method, path, token, key, hdr, b)
		retry := c.RetryFor > 0 && ctx.Err() == nil && retryable(status, data, err)
		if retry && deadline.IsZero() {
			deadline = time.Now().Add(c.RetryFor)
		}
		if !retry || time.Now().After(deadline) {
			if err != nil {
				return Reply{Node: base}, status, err
			}
			r := Reply{Node: base, Replayed: resp.Header.Get("Idempotent-Replayed") == "true", awaited: resp.Header.Values("Awaited-Seats"), etag: resp.Header.Get("ETag")}
			if status >= 300 {
				return r, status, fmt.Errorf("%s %s%s: %d %s", method, base, path, status, bytes.TrimSpace(data))
			}
			if out != nil && status != http.StatusNotModified {
				return r, status, json.Unmarshal(data, out)
			}
			return r, status, nil
		}
		c.retries.Add(1)
		node++
		if !sleep(ctx, time.Duration(min(attempt+1, 20))*50*time.Millisecond) {
			return Reply{Node: base}, 0, ctx.Err()
		}
	}
}

// Reply is which node answered a request and whether it answered from the
// idempotency record of an earlier attempt.
type Reply struct {
	// Node is the base URL of the server that answered (or, after an
	// error, the last one asked).
	Node string
	// Replayed is the answer's Idempotent-Replayed: the request's key had
	// been committed by an earlier attempt.
	Replayed bool
	// awaited is the answer's Awaited-Seats (nil when absent).
	awaited []string
	// etag is the answer's ETag.
	etag string
}

// retryable says whether another node may well answer where this one did
// not: the node is down or restarting, or the request is in progress there.
func retryable(status int, body []byte, err error) bool {
	if err != nil {
		return true
	}
	switch status {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	case http.StatusConflict:
		return bytes.Contains(body, []byte(`"request_in_progress"`))
	}
	return false
}

// once sends one request to base and reads the whole answer.
func (c *Client) once(ctx context.Context, base, method, path, token, key string, hdr http.Header, body []byte) (*http.Response, int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, base+path, rd)
	if err != nil {
		return nil, 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp, resp.StatusCode, nil, err
	}
	return resp, resp.StatusCode, data, nil
}

// sleep waits for d, or less if ctx ends first; it reports whether the
// whole of d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
