// Package strictjson decodes a JSON request body strictly: exactly one value,
// no unknown fields, no duplicate keys at any depth, no key that names a field
// in another case, no trailing data. Go's decoder accepts all of these by
// default, and each is a way for two readers of the same request to disagree
// about what it says ({"bid":1,"BID":3} is one bid of 3 to Go, and either of
// two bids, or an error, to another reader).
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Error describes why a body was refused, in words fit for the caller.
type Error struct{ Reason string }

func (e *Error) Error() string { return e.Reason }

// Decode decodes body into v strictly. Errors are *Error.
func Decode(body []byte, v any) error {
	if err := CheckDuplicateKeys(body); err != nil {
		return &Error{Reason: err.Error()}
	}
	if err := checkKeyCase(body, v); err != nil {
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

// checkKeyCase fails on an object key that matches a field of v's type only
// when case is ignored: Go's decoder would fill the field from it, so
// {"BID":3} and {"bid":3} would mean the same to us and, to a case-sensitive
// reader, not. Keys that match no field at all are left to the decoder's
// unknown-field check; syntax errors are left to the decoder too.
func checkKeyCase(body []byte, v any) error {
	var doc any
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil
	}
	return walkKeys(doc, reflect.TypeOf(v), "")
}

// walkKeys checks the keys of the decoded value doc against the type t it
// will be decoded into; at names where doc is, for the error.
func walkKeys(doc any, t reflect.Type, at string) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return nil
	}
	switch d := doc.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Struct:
			fields := jsonFields(t)
			// In the body's key order would be best; sorted at least names
			// the same key on every run.
			for _, key := range slices.Sorted(maps.Keys(d)) {
				val := d[key]
				f, ok := fields[key]
				if !ok {
					for name := range fields {
						if strings.EqualFold(name, key) {
							return fmt.Errorf("key %q%s is not %q: keys are case-sensitive", key, where(at), name)
						}
					}
					continue
				}
				if err := walkKeys(val, f, at+"."+key); err != nil {
					return err
				}
			}
		case reflect.Map:
			for key, val := range d {
				if err := walkKeys(val, t.Elem(), at+"."+key); err != nil {
					return err
				}
			}
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for i, val := range d {
				if err := walkKeys(val, t.Elem(), fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func where(at string) string {
	if at == "" {
		return ""
	}
	return " in " + strings.TrimPrefix(at, ".")
}

// jsonFields maps the JSON names of struct type t's fields, as
// encoding/json names them, to their types; embedded structs are flattened.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				for n, ft := range jsonFields(et) {
					if _, taken := out[n]; !taken {
						out[n] = ft
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}
