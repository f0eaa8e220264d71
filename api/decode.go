package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"unicode/utf8"

	"paiju/api/strictjson"
)

// singleValuedQuery refuses a request whose query repeats a parameter
// (?legal=true&legal=false) or cannot be parsed: every query parameter of
// the API takes one value, and a handler reading the first of two would
// answer a request another reader (a cache, a proxy, a log) takes for the
// other. It runs for every route, so that no handler can forget it.
func (s *server) singleValuedQuery(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery != "" {
			if err := checkQuery(r.URL.RawQuery); err != nil {
				s.writeError(w, r, err)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// checkQuery returns 400 invalid_query for a raw query that does not parse
// or names a parameter twice.
func checkQuery(raw string) error {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return problem(http.StatusBadRequest, "invalid_query", "the query string cannot be parsed: "+err.Error())
	}
	for name, vals := range q {
		if len(vals) > 1 {
			return problem(http.StatusBadRequest, "invalid_query", fmt.Sprintf("query parameter %q is given %d times; every parameter takes one value", name, len(vals)))
		}
	}
	return nil
}

// maxBody bounds every request body; a card game never needs more.
const maxBody = 64 << 10

// readBody reads a JSON request body: at most maxBody bytes, valid UTF-8, and
// sent as application/json (a body without a Content-Type is refused with
// 415). An empty body needs no type and is returned as "{}" when allowEmpty.
func readBody(w http.ResponseWriter, r *http.Request, allowEmpty bool) ([]byte, error) {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	body, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, problem(http.StatusRequestEntityTooLarge, "body_too_large", fmt.Sprintf("the request body is larger than %d bytes", maxBody))
	}
	if err != nil {
		return nil, problem(http.StatusBadRequest, "unreadable_body", "the request body could not be read")
	}
	if len(body) == 0 {
		if allowEmpty {
			return []byte("{}"), nil
		}
		return nil, problem(http.StatusBadRequest, "malformed_json", "the request body is empty; send a JSON object")
	}
	// A body without its type is refused like one of the wrong type: a
	// client that leaves it out may not be sending what it thinks.
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return nil, problem(http.StatusUnsupportedMediaType, "unsupported_media_type", "send the body as application/json, with Content-Type: application/json")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		if allowEmpty {
			return []byte("{}"), nil
		}
		return nil, problem(http.StatusBadRequest, "malformed_json", "the request body is blank; send a JSON object")
	}
	if !utf8.Valid(body) {
		return nil, problem(http.StatusBadRequest, "malformed_json", "the request body is not valid UTF-8")
	}
	return body, nil
}

// decodeStrict decodes one JSON object into v, rejecting what Go's decoder
// lets through by default (see strictjson). Every request body of the API
// is an object: null, which Go's decoder takes as "leave v as it is", and
// any other value are refused.
func decodeStrict(body []byte, v any) error {
	if f, ok := v.(fastDecoder); ok && f.decodeFast(body) {
		return nil
	}
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return problem(http.StatusBadRequest, "malformed_json", "the request body must be a JSON object")
	}
	if err := strictjson.Decode(body, v); err != nil {
		return problem(http.StatusBadRequest, "malformed_json", err.Error())
	}
	return nil
}

// fastDecoder is a request body type with a one-pass reader for the shape
// clients send. decodeFast fills the value and reports true only when the
// body is one the strict decoder accepts and decodes to the same value;
// for anything else it leaves the value zero and reports false, and the
// strict decoder reads the body and words the refusal.
type fastDecoder interface {
	decodeFast(body []byte) bool
}

// decodeFast reads an action: one object with no key twice among type,
// bid, cards and as, each null or of its type (bid an integer without
// fraction or exponent), strings without escapes, nothing after the
// object. A move is posted once or more a second per seat, and strictjson
// reads a body twice, once as tokens; this reads it once, without tokens.
func (a *actionRequest) decodeFast(body []byte) bool {
	if a.readFast(body) {
		return true
	}
	*a = actionRequest{}
	return false
}

func (a *actionRequest) readFast(body []byte) bool {
	p := jsonReader{b: body}
	if !p.skip('{') {
		return false
	}
	const (
		seenType = 1 << iota
		seenBid
		seenCards
		seenAs
	)
	seen := 0
	if p.skip('}') {
		return p.end()
	}
	for {
		key, ok := p.str()
		if !ok || !p.skip(':') {
			return false
		}
		var bit int
		switch key {
		case "type":
			bit = seenType
			if a.Type, ok = p.strOrNull(); !ok {
				return false
			}
		case "as":
			bit = seenAs
			if a.As, ok = p.strOrNull(); !ok {
				return false
			}
		case "bid":
			bit = seenBid
			if a.Bid, ok = p.intOrNull(); !ok {
				return false
			}
		case "cards":
			bit = seenCards
			if a.Cards, ok = p.strsOrNull(); !ok {
				return false
			}
		default:
			return false // an unknown key, or one in another case
		}
		if seen&bit != 0 {
			return false // a duplicate key
		}
		seen |= bit
		if p.skip(',') {
			continue
		}
		return p.skip('}') && p.end()
	}
}

// jsonReader reads the few JSON forms decodeFast accepts. Its methods skip
// the white space before what they read, and report false on anything
// else.
type jsonReader struct {
	b []byte
	i int
}

func (p *jsonReader) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// skip reads the byte c.
func (p *jsonReader) skip(c byte) bool {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// end reports whether only white space is left.
func (p *jsonReader) end() bool {
	p.ws()
	return p.i == len(p.b)
}

func (p *jsonReader) null() bool {
	p.ws()
	if len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "null" {
		p.i += 4
		return true
	}
	return false
}

// str reads a string without escapes: its bytes are the value, as
// encoding/json reads them when they are valid UTF-8 with no control
// character.
func (p *jsonReader) str() (string, bool) {
	if !p.skip('"') {
		return "", false
	}
	start, ascii := p.i, true
	for ; p.i < len(p.b); p.i++ {
		switch c := p.b[p.i]; {
		case c == '"':
			s := p.b[start:p.i]
			p.i++
			if !ascii && !utf8.Valid(s) {
				return "", false
			}
			return string(s), true
		case c == '\\' || c < 0x20:
			return "", false
		case c >= 0x80:
			ascii = false
		}
	}
	return "", false
}

// strOrNull reads a string or null (which leaves a string empty).
func (p *jsonReader) strOrNull() (string, bool) {
	if p.null() {
		return "", true
	}
	return p.str()
}

// intOrNull reads null or an integer of at most 18 digits, the forms
// encoding/json decodes into an *int without error.
func (p *jsonReader) intOrNull() (*int, bool) {
	if p.null() {
		return nil, true
	}
	neg := p.i < len(p.b) && p.b[p.i] == '-'
	if neg {
		p.i++
	}
	digits := p.i
	n := 0
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		n = n*10 + int(p.b[p.i]-'0')
		p.i++
	}
	count := p.i - digits
	if count == 0 || count > 18 || count > 1 && p.b[digits] == '0' {
		return nil, false
	}
	if p.i < len(p.b) {
		switch p.b[p.i] {
		case '.', 'e', 'E':
			return nil, false // encoding/json refuses these for an int
		}
	}
	if neg {
		n = -n
	}
	return &n, true
}

// strsOrNull reads null or an array of strings; [] is an empty slice, not
// nil, as encoding/json makes it.
func (p *jsonReader) strsOrNull() ([]string, bool) {
	if p.null() {
		return nil, true
	}
	if !p.skip('[') {
		return nil, false
	}
	out := []string{}
	if p.skip(']') {
		return out, true
	}
	for {
		s, ok := p.str()
		if !ok {
			return nil, false
		}
		out = append(out, s)
		if p.skip(',') {
			continue
		}
		if p.skip(']') {
			return out, true
		}
		return nil, false
	}
}
