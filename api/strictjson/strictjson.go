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
	"reflect"
	"strings"
)

// Error describes why a body was refused, in words fit for the caller.
type Error struct{ Reason string }

func (e *Error) Error() string { return e.Reason }

// Decode decodes body into v strictly. Errors are *Error.
//
// It reads body twice: once as tokens, for the duplicate keys and the keys'
// case against v's type, then with the decoder.
func Decode(body []byte, v any) error {
	if err := checkKeys(body, reflect.TypeOf(v)); err != nil {
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
	return checkKeys(body, nil)
}

// checkKeys walks the JSON token stream once and fails on an object that
// names a key twice, at any depth, and on an object key that matches a
// field of the type t it decodes into only when case is ignored: Go's
// decoder would fill the field from it, so {"BID":3} and {"bid":3} would
// mean the same to us and, to a case-sensitive reader, not. Keys that
// match no field at all are left to the decoder's unknown-field check;
// syntax errors are left to the decoder too. t nil checks duplicates only.
func checkKeys(body []byte, t reflect.Type) error {
	// A frame is an object or an array being read. The types say what its
	// values decode into, as far as the case check needs: a struct's
	// fields, a map's or a slice's element; nil where nothing is checked.
	type frame struct {
		keys      map[string]bool // an object's keys so far; nil for an array
		expectKey bool
		fields    map[string]reflect.Type
		elem      reflect.Type
		next      reflect.Type // the value after an object's last key
		at        string       // where the container is, for the error
		key       string       // an object's last key
		index     int          // an array's next element
	}
	var stack []*frame
	// valueDone marks the end of a value inside the enclosing container.
	valueDone := func() {
		if n := len(stack); n > 0 {
			if f := stack[n-1]; f.keys != nil {
				f.expectKey = true
			} else {
				f.index++
			}
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
				f := stack[n-1]
				if f.keys[key] {
					return fmt.Errorf("duplicate key %q", key)
				}
				f.keys[key] = true
				f.expectKey = false
				f.next, f.key = f.elem, key
				if f.fields != nil {
					ft, ok := f.fields[key]
					if !ok {
						for name := range f.fields {
							if strings.EqualFold(name, key) {
								return fmt.Errorf("key %q%s is not %q: keys are case-sensitive", key, where(f.at), name)
							}
						}
					}
					f.next = ft
				}
				continue
			}
		}
		// The type this value decodes into, and where it is (only a
		// container needs to know).
		vt := t
		at := func() string { return "" }
		if n > 0 {
			if f := stack[n-1]; f.keys != nil {
				vt, at = f.next, func() string { return f.at + "." + f.key }
			} else {
				vt, at = f.elem, func() string { return fmt.Sprintf("%s[%d]", f.at, f.index) }
			}
		}
		for vt != nil && vt.Kind() == reflect.Pointer {
			vt = vt.Elem()
		}
		switch tok {
		case json.Delim('{'):
			f := &frame{keys: map[string]bool{}, expectKey: true, at: at()}
			switch {
			case vt == nil:
			case vt.Kind() == reflect.Struct:
				f.fields = jsonFields(vt)
			case vt.Kind() == reflect.Map:
				f.elem = vt.Elem()
			}
			stack = append(stack, f)
		case json.Delim('['):
			f := &frame{at: at()}
			if vt != nil && (vt.Kind() == reflect.Slice || vt.Kind() == reflect.Array) {
				f.elem = vt.Elem()
			}
			stack = append(stack, f)
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:n-1]
			valueDone()
		default:
			valueDone()
		}
	}
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
