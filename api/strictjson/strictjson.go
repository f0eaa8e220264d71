// Package strictjson decodes a JSON request body strictly: exactly one value,
// no unknown fields, no duplicate keys at any depth, no trailing data. Go's
// decoder accepts all of these by default, and each is a way for two readers
// of the same request to disagree about what it says.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Error describes why a body was refused, in words fit for the caller.
type Error struct{ Reason string }

func (e *Error) Error() string { return e.Reason }

// Decode decodes body into v strictly. Errors are *Error.
func Decode(body []byte, v any) error {
	if err := CheckDuplicateKeys(body); err != nil {
		return &Error{Reason: err.Error()}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &Error{Reason: describe(err)}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &Error{Reason: "unexpected data after the JSON value"}
	}
	return nil
}

func describe(err error) string {
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
	// The decoder words unknown fields as `json: unknown field "x"`.
	return err.Error()
}

// CheckDuplicateKeys walks the JSON token stream and fails on an object that
// names a key twice, at any depth. Syntax errors are left to the decoder.
func CheckDuplicateKeys(body []byte) error {
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
