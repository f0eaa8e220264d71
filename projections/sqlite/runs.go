package sqlite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"paiju/eventstore"
	"paiju/projections"
)

// handRun is a row of hh_hand_event_runs being built: the events of one
// hand that one batch applied, as the JSON array the row holds, its
// closing bracket left out until flushRuns writes it.
type handRun struct {
	first  int64
	events []byte
}

// handEvent records ev as an event of hand hid, which flushRuns writes
// with the batch's other events of the hand as one row: a row an event
// was most of the hands projection's writes (docs/PERF.md).
func (t *wtx) handEvent(hid string, ev eventstore.Event) {
	r := t.runs[hid]
	if r == nil {
		if t.runs == nil {
			t.runs = map[string]*handRun{}
		}
		r = &handRun{first: ev.Position, events: make([]byte, 0, 512)}
		t.runs[hid] = r
		t.runOrder = append(t.runOrder, hid)
		r.events = append(r.events, '[')
	} else {
		r.events = append(r.events, ',')
	}
	r.events = appendHandEvent(r.events, ev.Position, ev.Version, ev.Type, ev.Data, ev.RecordedAt.UTC().UnixNano())
}

// appendHandEvent appends an element of a run's array:
// [position,version,"type","data",recorded_at], data as a JSON string.
func appendHandEvent(b []byte, position int64, version int, typ string, data []byte, at int64) []byte {
	b = append(b, '[')
	b = strconv.AppendInt(b, position, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(version), 10)
	b = append(b, ',')
	b = appendString(b, typ)
	b = append(b, ',')
	b = appendString(b, data)
	b = append(b, ',')
	b = strconv.AppendInt(b, at, 10)
	return append(b, ']')
}

// appendString appends s as a JSON string, escaping only what JSON
// requires (the quote, the backslash and the control characters), so that
// any bytes come back as they were (parseString); SQLite's JSON functions
// read it as the text it was (the down migration's ->>).
func appendString[S ~string | ~[]byte](b []byte, s S) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// flushRuns inserts the batch's runs.
func (t *wtx) flushRuns(ctx context.Context) error {
	if len(t.runOrder) == 0 {
		return nil
	}
	rows := make([]any, 0, 3*len(t.runOrder))
	for _, hid := range t.runOrder {
		r := t.runs[hid]
		rows = append(rows, hid, r.first, string(append(r.events, ']')))
	}
	return t.insertRows(ctx, `INSERT OR IGNORE INTO hh_hand_event_runs (hand_id, position, events) VALUES `, 3, rows)
}

// handEvents reads a hand's events from its runs, in position order, a
// position once (the first run's), as the row an event of hh_hand_events
// gave them.
func (d *DB) handEvents(ctx context.Context, handID string) ([]projections.HandEvent, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT events FROM hh_hand_event_runs WHERE hand_id = ? ORDER BY position`, handID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	evs := []projections.HandEvent{}
	for rows.Next() {
		var js string
		if err := rows.Scan(&js); err != nil {
			return nil, err
		}
		if evs, err = parseRun(evs, js); err != nil {
			return nil, fmt.Errorf("hand %s: events: %w", handID, err)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Runs never overlap as a batch writes them; should two, the
	// first-written event of a position is the one hh_hand_events kept.
	slices.SortStableFunc(evs, func(a, b projections.HandEvent) int { return compareInt(a.Position, b.Position) })
	return slices.CompactFunc(evs, func(a, b projections.HandEvent) bool { return a.Position == b.Position }), nil
}

func compareInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

var errRun = errors.New("malformed run")

// parseRun appends the events of a run's array js to evs. It reads the
// arrays appendHandEvent and the migration's json_array write (no space,
// but it skips JSON's whitespace anyway), and nothing else.
func parseRun(evs []projections.HandEvent, js string) ([]projections.HandEvent, error) {
	p := runParser{s: js}
	if !p.byte('[') {
		return evs, errRun
	}
	if p.byte(']') {
		return evs, p.end()
	}
	for {
		e, err := p.event()
		if err != nil {
			return evs, err
		}
		evs = append(evs, e)
		if p.byte(']') {
			return evs, p.end()
		}
		if !p.byte(',') {
			return evs, errRun
		}
	}
}

type runParser struct {
	s string
	i int
}

func (p *runParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

// byte consumes c, after any whitespace, if it is next.
func (p *runParser) byte(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *runParser) end() error {
	p.space()
	if p.i != len(p.s) {
		return errRun
	}
	return nil
}

// event reads [position,version,"type","data",recorded_at].
func (p *runParser) event() (projections.HandEvent, error) {
	var e projections.HandEvent
	if !p.byte('[') {
		return e, errRun
	}
	pos, err := p.int()
	if err != nil || !p.byte(',') {
		return e, errRun
	}
	version, err := p.int()
	if err != nil || !p.byte(',') {
		return e, errRun
	}
	typ, err := p.string()
	if err != nil || !p.byte(',') {
		return e, errRun
	}
	data, err := p.string()
	if err != nil || !p.byte(',') {
		return e, errRun
	}
	at, err := p.int()
	if err != nil || !p.byte(']') {
		return e, errRun
	}
	e.Position, e.Version, e.Type = pos, int(version), typ
	e.Data = json.RawMessage(data)
	e.RecordedAt = time.Unix(0, at).UTC()
	return e, nil
}

func (p *runParser) int() (int64, error) {
	p.space()
	j := p.i
	if j < len(p.s) && p.s[j] == '-' {
		j++
	}
	for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
		j++
	}
	n, err := strconv.ParseInt(p.s[p.i:j], 10, 64)
	if err != nil {
		return 0, errRun
	}
	p.i = j
	return n, nil
}

// string reads a JSON string. Bytes other than escapes are taken as they
// are, valid UTF-8 or not, as appendString wrote them.
func (p *runParser) string() (string, error) {
	p.space()
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return "", errRun
	}
	j := p.i + 1
	escaped := false
	for ; j < len(p.s) && p.s[j] != '"'; j++ {
		if p.s[j] == '\\' {
			escaped = true
			j++
		}
	}
	if j >= len(p.s) {
		return "", errRun
	}
	body := p.s[p.i+1 : j]
	p.i = j + 1
	if !escaped {
		return body, nil
	}
	return unescape(body)
}

// unescape reads the escapes of a JSON string's body as encoding/json
// does (a lone surrogate is U+FFFD).
func unescape(s string) (string, error) {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b = append(b, s[i])
			continue
		}
		i++
		if i >= len(s) {
			return "", errRun
		}
		switch c := s[i]; c {
		case '"', '\\', '/':
			b = append(b, c)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := hex4(s[i+1:])
			if !ok {
				return "", errRun
			}
			i += 4
			if utf16.IsSurrogate(r) {
				r2, ok := rune(-1), false
				if i+2 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
					r2, ok = hex4(s[i+3:])
				}
				if d := utf16.DecodeRune(r, r2); ok && d != utf8.RuneError {
					r = d
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			return "", errRun
		}
	}
	return string(b), nil
}

// hex4 reads the four hexadecimal digits at the start of s.
func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(s[:4], 16, 16)
	return rune(n), err == nil
}
