// Package canonjson reads the JSON that encoding/json's Marshal writes for
// a known struct, and nothing else: its fields in their order, no space, no
// escapes in strings. A replay decodes thousands of stored events, which
// are all in that form, and encoding/json's reflection was most of its
// cost. Anything else makes the reader fail, and the caller then decodes
// with encoding/json, so that what is accepted, and every error, stays
// encoding/json's.
package canonjson

import (
	"encoding"
	"encoding/json"

	"paiju/domain/cards"
)

// Reader reads one JSON text. Its methods do nothing once one has failed;
// OK reports whether all did and the text is read to its end.
type Reader struct {
	b      []byte
	i      int
	failed bool
}

// New returns a reader of b.
func New(b []byte) Reader { return Reader{b: b} }

// OK reports whether every read matched and nothing is left.
func (r *Reader) OK() bool { return !r.failed && r.i == len(r.b) }

// Failed reports whether a read failed.
func (r *Reader) Failed() bool { return r.failed }

// Fail makes the reader fail.
func (r *Reader) Fail() { r.failed = true }

// Lit reads s exactly.
func (r *Reader) Lit(s string) {
	if r.failed {
		return
	}
	if len(r.b)-r.i < len(s) || string(r.b[r.i:r.i+len(s)]) != s {
		r.failed = true
		return
	}
	r.i += len(s)
}

// Next reports whether s comes next, reading it if so.
func (r *Reader) Next(s string) bool {
	if r.failed || len(r.b)-r.i < len(s) || string(r.b[r.i:r.i+len(s)]) != s {
		return false
	}
	r.i += len(s)
	return true
}

// Int reads an integer as Marshal writes an int: no plus sign, no leading
// zero, no fraction or exponent, at most 18 digits (so it cannot overflow).
func (r *Reader) Int() int {
	if r.failed {
		return 0
	}
	neg := r.i < len(r.b) && r.b[r.i] == '-'
	if neg {
		r.i++
	}
	start := r.i
	n := 0
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		n = n*10 + int(r.b[r.i]-'0')
		r.i++
	}
	digits := r.i - start
	if digits == 0 || digits > 18 || digits > 1 && r.b[start] == '0' || neg && n == 0 {
		r.failed = true
		return 0
	}
	if neg {
		return -n
	}
	return n
}

// Bool reads true or false.
func (r *Reader) Bool() bool {
	if r.Next("true") {
		return true
	}
	r.Lit("false")
	return false
}

// Str reads a string of printable ASCII without escapes and returns its
// bytes (a part of the text, not a copy). Marshal escapes <, > and &, and
// any other string may hold escapes or bytes encoding/json would replace:
// those fail.
func (r *Reader) Str() []byte {
	if r.failed {
		return nil
	}
	if r.i >= len(r.b) || r.b[r.i] != '"' {
		r.failed = true
		return nil
	}
	start := r.i + 1
	for j := start; j < len(r.b); j++ {
		c := r.b[j]
		switch {
		case c == '"':
			r.i = j + 1
			return r.b[start:j]
		case c < 0x20 || c > 0x7e || c == '\\' || c == '<' || c == '>' || c == '&':
			r.failed = true
			return nil
		}
	}
	r.failed = true
	return nil
}

// String reads a string as Str does and makes it a Go string.
func (r *Reader) String() string { return string(r.Str()) }

// Text reads a string into v with its UnmarshalText, as encoding/json does.
func (r *Reader) Text(v encoding.TextUnmarshaler) {
	s := r.Str()
	if r.failed {
		return
	}
	if err := v.UnmarshalText(s); err != nil {
		r.failed = true
	}
}

// JSON reads a string into v with its UnmarshalJSON, given the string with
// its quotes, as encoding/json does (time.Time).
func (r *Reader) JSON(v json.Unmarshaler) {
	start := r.i
	r.Str()
	if r.failed {
		return
	}
	if err := v.UnmarshalJSON(r.b[start:r.i]); err != nil {
		r.failed = true
	}
}

// Cards reads an array of cards, or null (a nil slice); [] is an empty
// slice that is not nil, as encoding/json makes it.
func (r *Reader) Cards() []cards.Card {
	if r.failed || r.Next("null") {
		return nil
	}
	r.Lit("[")
	if r.failed {
		return nil
	}
	// Count the elements first, so that the slice is made once, with the
	// capacity encoding/json would not give it (not observable).
	n := 0
	if r.i < len(r.b) && r.b[r.i] != ']' {
		n = 1
		for j := r.i; j < len(r.b) && r.b[j] != ']'; j++ {
			if r.b[j] == ',' {
				n++
			}
		}
	}
	out := make([]cards.Card, n)
	for k := range out {
		if k > 0 {
			r.Lit(",")
		}
		r.Text(&out[k])
	}
	r.Lit("]")
	if r.failed {
		return nil
	}
	return out
}
