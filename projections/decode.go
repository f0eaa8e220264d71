package projections

import (
	"encoding/json"
	"fmt"
)

// The projections read two fields of the table events they see most:
// HandDealt's hand number and HandSettled's hand and deltas. encoding/json's
// reflection was most of what decoding them cost. The readers below take
// the fields from the object's top-level members when the text is valid
// JSON, holds each field once as json.Marshal writes it (an integer, a
// list of integers without space) and no other key that could match them;
// otherwise they decode with encoding/json, so that what is accepted, and
// every error, stays its own.

type handNumber struct {
	Hand int `json:"hand"`
}

// Settled is the part of a HandSettled the projections read: decoding the
// whole event would copy its result and seed.
type Settled struct {
	Hand   int   `json:"hand"`
	Deltas []int `json:"deltas"`
}

// HandNumber returns the hand number of a HandDealt's data.
func HandNumber(data []byte) (int, error) {
	if hand, ok := handNumberFast(data); ok {
		return hand, nil
	}
	var d handNumber
	if err := json.Unmarshal(data, &d); err != nil {
		return 0, fmt.Errorf("decode HandDealt: %w", err)
	}
	return d.Hand, nil
}

// Settlement returns the hand and the deltas of a HandSettled's data.
func Settlement(data []byte) (Settled, error) {
	if hand, deltas, ok := settlementFast(data); ok {
		return Settled{Hand: hand, Deltas: deltas}, nil
	}
	var s Settled
	if err := json.Unmarshal(data, &s); err != nil {
		return Settled{}, fmt.Errorf("decode HandSettled: %w", err)
	}
	return s, nil
}

func handNumberFast(data []byte) (int, bool) {
	var spans [1][]byte
	if !members(data, []string{"hand"}, spans[:]) {
		return 0, false
	}
	r := prefix{b: spans[0]}
	hand := r.int()
	return hand, r.end()
}

func settlementFast(data []byte) (int, []int, bool) {
	var spans [2][]byte
	if !members(data, []string{"hand", "deltas"}, spans[:]) {
		return 0, nil, false
	}
	r := prefix{b: spans[0]}
	hand := r.int()
	if !r.end() {
		return 0, nil, false
	}
	r = prefix{b: spans[1]}
	r.lit("[")
	deltas := []int{}
	if !r.next(']') {
		for !r.failed {
			deltas = append(deltas, r.int())
			if r.next(']') {
				break
			}
			r.lit(",")
		}
	}
	return hand, deltas, r.end()
}

// prefix reads an integer or a list of them as Marshal writes them.
type prefix struct {
	b      []byte
	i      int
	failed bool
}

func (r *prefix) end() bool { return !r.failed && r.i == len(r.b) }

func (r *prefix) lit(s string) {
	if r.failed || len(r.b)-r.i < len(s) || string(r.b[r.i:r.i+len(s)]) != s {
		r.failed = true
		return
	}
	r.i += len(s)
}

func (r *prefix) next(c byte) bool {
	if r.failed || r.i >= len(r.b) || r.b[r.i] != c {
		return false
	}
	r.i++
	return true
}

// int reads an integer as Marshal writes an int: an optional minus, no
// leading zero, at most 18 digits (so that it cannot overflow).
func (r *prefix) int() int {
	if r.failed {
		return 0
	}
	neg := r.next('-')
	start, n := r.i, 0
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		n = n*10 + int(r.b[r.i]-'0')
		r.i++
	}
	if d := r.i - start; d == 0 || d > 18 || (d > 1 && r.b[start] == '0') {
		r.failed = true
		return 0
	}
	if neg {
		return -n
	}
	return n
}

// members sets spans[i] to the value of the top-level key fields[i] of
// data, and reports whether data is valid JSON, an object holding each of
// fields once, spelled as given, and no other key encoding/json would
// match to one of them (it matches keys without regard to case). A key
// with an escape or a byte outside ASCII fails: its folding is left to
// encoding/json.
func members(data []byte, fields []string, spans [][]byte) bool {
	if !json.Valid(data) {
		return false
	}
	b := data
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	for i < len(b) && b[i] == '"' {
		start := i + 1
		i = start
		for i < len(b) && b[i] != '"' {
			if b[i] == '\\' || b[i] >= 0x80 {
				return false
			}
			i++
		}
		key := string(b[start:i])
		field := -1
		for f, name := range fields {
			if equalFoldASCII(key, name) {
				if key != name || spans[f] != nil {
					return false
				}
				field = f
			}
		}
		i = skipSpace(b, skipSpace(b, i+1)+1) // the colon, then the value
		end := skipValue(b, i)
		if field >= 0 {
			spans[field] = b[i:end]
		}
		i = skipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	for _, s := range spans {
		if s == nil {
			return false
		}
	}
	return true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index after the value at b[i], which valid JSON
// holds.
func skipValue(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
			continue
		case '}', ']':
			if depth == 0 {
				return i
			}
			depth--
		case ',':
			if depth == 0 {
				return i
			}
			continue
		default:
			continue
		}
		if depth == 0 {
			return i + 1
		}
	}
	return i
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
