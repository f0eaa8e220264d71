package table

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// BadOption is an ErrBadOption naming the option it refuses: the caller
// reads the key from the problem's "option" member, not from the prose.
func BadOption(key, format string, args ...any) *Error {
	e := ErrBadOption.With(format, args...)
	e.Option = key
	return e
}

// OptionReader reads a table's options object key by key, the way every
// game's Rules do (rules README, Table options): each typed read checks one
// key, Done refuses whatever key nothing read. The first error wins and
// later reads are no-ops, so a parser reads its keys in a fixed order and
// checks one error at the end.
type OptionReader struct {
	name string // "game/variant", for messages
	m    map[string]json.RawMessage
	read []string
	err  error
}

// ReadOptions starts reading raw, the options of name ("game/variant").
// Empty, null and {} options hold no key.
func ReadOptions(name string, raw json.RawMessage) *OptionReader {
	r := &OptionReader{name: name}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return r
	}
	if err := json.Unmarshal(raw, &r.m); err != nil || r.m == nil {
		r.err = ErrBadOption.With("%s options must be a JSON object", name)
	}
	return r
}

// Has reports whether the options hold key, and marks it read.
func (r *OptionReader) Has(key string) bool {
	r.read = append(r.read, key)
	_, ok := r.m[key]
	return ok && r.err == nil
}

// Raw returns key's JSON value for a parser of its own, and marks it read.
func (r *OptionReader) Raw(key string) (json.RawMessage, bool) {
	if !r.Has(key) {
		return nil, false
	}
	return r.m[key], true
}

// Fail records err (a BadOption, usually) unless an error is recorded.
func (r *OptionReader) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// Bool reads key into dst, which keeps its value when key is absent.
func (r *OptionReader) Bool(key string, dst *bool) bool {
	v, ok := r.Raw(key)
	if !ok {
		return false
	}
	switch string(bytes.TrimSpace(v)) {
	case "true":
		*dst = true
	case "false":
		*dst = false
	default:
		r.Fail(BadOption(key, "option %q of %s must be true or false, got %s", key, r.name, v))
		return false
	}
	return true
}

// Int reads key, a JSON integer literal from lo to hi, into dst.
func (r *OptionReader) Int(key string, lo, hi int, dst *int) bool {
	v, ok := r.Raw(key)
	if !ok {
		return false
	}
	k, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
	if err != nil || k < int64(lo) || k > int64(hi) {
		r.Fail(BadOption(key, "option %q of %s must be an integer from %d to %d, got %s", key, r.name, lo, hi, v))
		return false
	}
	*dst = int(k)
	return true
}

// Enum reads key, a JSON string among values, into dst.
func (r *OptionReader) Enum(key string, dst *string, values ...string) bool {
	v, ok := r.Raw(key)
	if !ok {
		return false
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil || !slices.Contains(values, s) {
		r.Fail(BadOption(key, "option %q of %s must be one of %s, got %s", key, r.name, quoteAll(values), v))
		return false
	}
	*dst = s
	return true
}

// IntMap reads key, a JSON object whose members are among names and each
// an integer from lo to hi, into dst (which it allocates when nil).
func (r *OptionReader) IntMap(key string, names []string, lo, hi int, dst *map[string]int) bool {
	v, ok := r.Raw(key)
	if !ok {
		return false
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(v, &m); err != nil || m == nil {
		r.Fail(BadOption(key, "option %q of %s must be a JSON object with the keys %s", key, r.name, quoteAll(names)))
		return false
	}
	if *dst == nil {
		*dst = make(map[string]int, len(m))
	}
	for _, name := range sortedKeys(m) {
		if !slices.Contains(names, name) {
			r.Fail(BadOption(key, "option %q of %s has no key %q (keys: %s)", key, r.name, name, quoteAll(names)))
			return false
		}
		k, err := strconv.ParseInt(string(bytes.TrimSpace(m[name])), 10, 64)
		if err != nil || k < int64(lo) || k > int64(hi) {
			r.Fail(BadOption(key, "option %q of %s: %q must be an integer from %d to %d, got %s", key, r.name, name, lo, hi, m[name]))
			return false
		}
		(*dst)[name] = int(k)
	}
	return true
}

// Done returns the first error of the reads, else refuses the first key
// (in sorted order) that nothing read, naming the keys the variant takes.
func (r *OptionReader) Done() error {
	if r.err != nil {
		return r.err
	}
	for _, k := range sortedKeys(r.m) {
		if !slices.Contains(r.read, k) {
			known := slices.Clone(r.read)
			slices.Sort(known)
			return BadOption(k, "unknown option %q: %s takes %s", k, r.name, quoteAll(slices.Compact(known)))
		}
	}
	return nil
}

// OptionsShown is Rules whose recorded options leave defaults out (rules
// README, Table options): ShownOptions is every option the variant takes
// that has a value, defaults filled in, for the lobby and the table view.
type OptionsShown interface {
	ShownOptions() json.RawMessage
}

// ShownOptions is r's options as the lobby and the table view show them.
func ShownOptions(r Rules) json.RawMessage {
	if s, ok := Adapted(r).(OptionsShown); ok {
		return s.ShownOptions()
	}
	return r.Options()
}

// OptionsJSON encodes normalized or shown options; a game's options are
// plain values, so failing to encode them is a programming error.
func OptionsJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("table: encode options: %v", err))
	}
	return b
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}
