package projections

import (
	"encoding/json"
	"fmt"

	"paiju/domain/table"
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

// HandSettledOf decodes a HandSettled's data whole, as the ratings read it
// (the game's contests take the result): as encoding/json does, without
// its reflection over the result, which was most of a settlement's cost to
// the ratings' fold.
func HandSettledOf(data []byte) (table.HandSettled, error) {
	if hs, ok := handSettledFast(data); ok {
		return hs, nil
	}
	var hs table.HandSettled
	if err := json.Unmarshal(data, &hs); err != nil {
		return table.HandSettled{}, fmt.Errorf("decode HandSettled: %w", err)
	}
	return hs, nil
}

func handSettledFast(data []byte) (table.HandSettled, bool) {
	// house is omitted when zero; the others are always written.
	var spans [5][]byte
	if !someMembers(data, []string{"hand", "deltas", "result", "seed", "house"}, spans[:], 4) {
		return table.HandSettled{}, false
	}
	hand, deltas, ok := settledFields(spans[0], spans[1])
	if !ok {
		return table.HandSettled{}, false
	}
	hs := table.HandSettled{Hand: hand, Deltas: deltas}
	if spans[4] != nil {
		r := prefix{b: spans[4]}
		hs.House = r.int()
		if !r.end() {
			return table.HandSettled{}, false
		}
	}
	// A null result is left to encoding/json; any other value is copied
	// as it stands, as json.RawMessage copies it.
	if string(spans[2]) == "null" {
		return table.HandSettled{}, false
	}
	hs.Result = append(json.RawMessage(nil), spans[2]...)
	// A seed of plain ASCII, no escape: its bytes between the quotes.
	seed := spans[3]
	if len(seed) < 2 || seed[0] != '"' || seed[len(seed)-1] != '"' {
		return table.HandSettled{}, false
	}
	for _, c := range seed[1 : len(seed)-1] {
		if c == '\\' || c < 0x20 || c >= 0x80 {
			return table.HandSettled{}, false
		}
	}
	hs.Seed = string(seed[1 : len(seed)-1])
	return hs, true
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
	return settledFields(spans[0], spans[1])
}

// settledFields reads a HandSettled's hand and deltas from their values.
func settledFields(handJSON, deltasJSON []byte) (int, []int, bool) {
	r := prefix{b: handJSON}
	hand := r.int()
	if !r.end() {
		return 0, nil, false
	}
	r = prefix{b: deltasJSON}
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
	return someMembers(data, fields, spans, len(fields))
}

// someMembers is members where only the first required of fields must be
// there: spans[i] is nil for a later one data does not hold.
func someMembers(data []byte, fields []string, spans [][]byte, required int) bool {
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
	for _, s := range spans[:required] {
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
