package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"unicode/utf8"
)

// maxBody bounds every request body; a card game never needs more.
const maxBody = 64 << 10

// readBody reads a JSON request body: the right content type, at most maxBody
// bytes, valid UTF-8. An empty body is returned as "{}" when allowEmpty.
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
	if len(bytes.TrimSpace(body)) == 0 {
		if allowEmpty {
			return []byte("{}"), nil
		}
		return nil, problem(http.StatusBadRequest, "malformed_json", "the request body is empty; send a JSON object")
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return nil, problem(http.StatusUnsupportedMediaType, "unsupported_media_type", "send the body as application/json")
		}
	}
	if !utf8.Valid(body) {
		return nil, problem(http.StatusBadRequest, "malformed_json", "the request body is not valid UTF-8")
	}
	return body, nil
}

// decodeStrict decodes one JSON object into v, rejecting what Go's decoder
// lets through by default: unknown fields, duplicate keys and trailing data.
func decodeStrict(body []byte, v any) error {
	if err := checkDuplicateKeys(body); err != nil {
		return problem(http.StatusBadRequest, "malformed_json", err.Error())
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return problem(http.StatusBadRequest, "malformed_json", describeJSONError(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return problem(http.StatusBadRequest, "malformed_json", "unexpected data after the JSON object")
	}
	return nil
}

func describeJSONError(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("invalid JSON at byte %d: %v", syn.Offset, syn)
	case errors.As(err, &typ):
		if typ.Field != "" {
			return fmt.Sprintf("field %q must be %s, not %s", typ.Field, typ.Type, typ.Value)
		}
		return fmt.Sprintf("expected %s, not %s", typ.Type, typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "the JSON is cut short"
	}
	// json reports unknown fields as `json: unknown field "x"`.
	return err.Error()
}

// checkDuplicateKeys walks the JSON token stream and fails on an object that
// names a key twice, at any depth. Syntax errors are left to the decoder.
func checkDuplicateKeys(body []byte) error {
	type frame struct {
		keys      map[string]bool // nil for an array
		expectKey bool
	}
	var stack []*frame
	// valueDone marks the end of a value inside the enclosing container.
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].keys != nil {
			stack[n-1].expectKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		n := len(stack)
		if n > 0 && stack[n-1].keys != nil && stack[n-1].expectKey {
			if key, ok := tok.(string); ok {
				if stack[n-1].keys[key] {
					return fmt.Errorf("duplicate key %q", key)
				}
				stack[n-1].keys[key] = true
				stack[n-1].expectKey = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{keys: map[string]bool{}, expectKey: true})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:n-1]
			valueDone()
		default:
			valueDone()
		}
	}
}
