package projections

import (
	"encoding/json"
	"fmt"
)

// The projections read two fields of the table events they see most:
// HandDealt's hand number and HandSettled's hand and deltas. encoding/json's
// reflection was most of what decoding them cost. Both events are stored as
// json.Marshal writes their structs, with those fields first: the readers
// below take them from that prefix when the text is valid JSON whose other
// top-level keys cannot be those fields, and otherwise decode with
// encoding/json, so that what is accepted, and every error, stays its own.

type handNumber struct {
	Hand int `json:"hand"`
}

type settlement struct {
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
func Settlement(data []byte) (hand int, deltas []int, err error) {
	if hand, deltas, ok := settlementFast(data); ok {
		return hand, deltas, nil
	}
	var s settlement
	if err := json.Unmarshal(data, &s); err != nil {
		return 0, nil, fmt.Errorf("decode HandSettled: %w", err)
	}
	return s.Hand, s.Deltas, nil
}

func handNumberFast(data []byte) (int, bool) {
	r := prefix{b: data}
	r.lit(`{"hand":`)
	hand := r.int()
	return hand, r.rest(data, "hand")
}

func settlementFast(data []byte) (int, []int, bool) {
	r := prefix{b: data}
	r.lit(`{"hand":`)
	hand := r.int()
	r.lit(`,"deltas":[`)
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
	return hand, deltas, r.rest(data, "hand", "deltas")
}

// prefix reads the canonical start of a JSON object.
type prefix struct {
	b      []byte
	i      int
	failed bool
}

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

// rest reports whether the prefix was read, data is valid JSON, and none of
// the object's other top-level keys is one encoding/json would match to
// fields (it matches keys without regard to case). A key with an escape
// or a byte outside ASCII fails: its folding is left to encoding/json.
func (r *prefix) rest(data []byte, fields ...string) bool {
	if r.failed || !json.Valid(data) {
		return false
	}
	b, i := r.b, r.i
	// Valid JSON: the prefix ends the object or a member is next.
	for i < len(b) && b[i] == ',' {
		i = skipSpace(b, i+1)
		if i >= len(b) || b[i] != '"' {
			return false
		}
		start := i + 1
		i = start
		for i < len(b) && b[i] != '"' {
			if b[i] == '\\' || b[i] >= 0x80 {
				return false
			}
			i++
		}
		key := string(b[start:i])
		for _, f := range fields {
			if equalFoldASCII(key, f) {
				return false
			}
		}
		i = skipSpace(b, i+1)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipValue(b, skipSpace(b, i+1))
		i = skipSpace(b, i)
	}
	return i < len(b) && b[i] == '}'
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
