package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"paiju/eventstore"
)

// ContentType is the media type of an export: JSON Lines, one JSON object per
// line, each line ending in "\n" (docs/AUDIT.md, Export format).
const ContentType = "application/x-ndjson"

// Line is one event line of an export: the stored event with its hash chain
// fields. Data is the event's JSON exactly as stored, byte for byte, because
// the hash covers those bytes.
type Line struct {
	Position   int64           `json:"position"`
	Stream     string          `json:"stream"`
	Version    int             `json:"version"`
	Type       string          `json:"type"`
	RecordedAt time.Time       `json:"recorded_at"`
	Data       json.RawMessage `json:"data"`
	PrevHash   string          `json:"prev_hash"`
	Hash       string          `json:"hash"`
}

// Head is the last line of an export: the store's chain head when the export
// was taken, so that whoever holds a head from elsewhere (the server's
// chain-head file, a published checkpoint) can compare.
type Head struct {
	ChainHead  ChainHead `json:"chain_head"`
	Stream     string    `json:"stream"`
	Events     int       `json:"events"`
	ExportedAt time.Time `json:"exported_at"`
}

// ChainHead is a position of the global log and the hash of its event.
type ChainHead struct {
	Position int64  `json:"position"`
	Hash     string `json:"hash"`
}

// WriteExport writes a table's events (in version order) and the chain head as
// JSON Lines. The data of each event is written verbatim; data that is not a
// single line of JSON is refused rather than re-encoded, since re-encoding
// would change the hashed bytes.
func WriteExport(w io.Writer, evs []eventstore.Event, head ChainHead, exportedAt time.Time) error {
	bw := bufio.NewWriter(w)
	q := func(s string) []byte { b, _ := json.Marshal(s); return b }
	for _, e := range evs {
		if !json.Valid(e.Data) || bytes.ContainsAny(e.Data, "\r\n") {
			return fmt.Errorf("audit: export %s version %d: stored data is not one line of JSON", e.Stream, e.Version)
		}
		bw.WriteString(`{"position":`)
		bw.WriteString(strconv.FormatInt(e.Position, 10))
		bw.WriteString(`,"stream":`)
		bw.Write(q(e.Stream))
		bw.WriteString(`,"version":`)
		bw.WriteString(strconv.Itoa(e.Version))
		bw.WriteString(`,"type":`)
		bw.Write(q(e.Type))
		bw.WriteString(`,"recorded_at":`)
		bw.Write(q(e.RecordedAt.UTC().Format(time.RFC3339Nano)))
		bw.WriteString(`,"data":`)
		bw.Write(e.Data)
		bw.WriteString(`,"prev_hash":`)
		bw.Write(q(e.PrevHash))
		bw.WriteString(`,"hash":`)
		bw.Write(q(e.Hash))
		bw.WriteString("}\n")
	}
	stream := ""
	if len(evs) > 0 {
		stream = evs[0].Stream
	}
	tail, err := json.Marshal(Head{ChainHead: head, Stream: stream, Events: len(evs), ExportedAt: exportedAt.UTC()})
	if err != nil {
		return err
	}
	bw.Write(tail)
	bw.WriteByte('\n')
	return bw.Flush()
}

// ExportFault is the first fault of an export file. Line counts from 1;
// Version is the event's version in its table (its event number), 0 when the
// fault is not in an event.
type ExportFault struct {
	Line    int
	Version int
	Reason  string
}

func (f *ExportFault) Error() string {
	if f.Version > 0 {
		return fmt.Sprintf("event %d (line %d): %s", f.Version, f.Line, f.Reason)
	}
	return fmt.Sprintf("line %d: %s", f.Line, f.Reason)
}

// Is makes errors.Is(err, ErrFault) true.
func (f *ExportFault) Is(target error) bool { return target == ErrFault }

// Export is a parsed export.
type Export struct {
	Events []eventstore.Event
	// Head is the trailing chain head line, nil when the file has none.
	Head *Head
}

// maxLine bounds one line of an export (a deal of several decks with its
// hands stays far below it).
const maxLine = 4 << 20

// ReadExport parses an export and checks what it can without the rules: every
// line's hash, the chain between lines whose positions are consecutive, one
// stream with versions 1, 2, 3, … and rising positions, and the trailing head.
func ReadExport(r io.Reader) (*Export, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	var (
		x    Export
		n    int
		prev *eventstore.Event
	)
	for sc.Scan() {
		n++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			return nil, &ExportFault{Line: n, Reason: "empty line"}
		}
		if x.Head != nil {
			return nil, &ExportFault{Line: n, Reason: "a line follows the chain head line, which must be last"}
		}
		var l wireLine
		if err := strictUnmarshal(raw, &l); err != nil {
			return nil, &ExportFault{Line: n, Reason: fmt.Sprintf("not a JSON export line: %v", err)}
		}
		if l.ChainHead != nil {
			h, err := l.head()
			if err == nil {
				err = checkHead(h, x.Events)
			}
			if err != nil {
				return nil, &ExportFault{Line: n, Reason: "chain head line: " + err.Error()}
			}
			x.Head = &h
			continue
		}
		e, err := l.event()
		if err != nil {
			return nil, &ExportFault{Line: n, Version: e.Version, Reason: err.Error()}
		}
		if err := checkLine(e, prev); err != nil {
			f := &ExportFault{Line: n, Version: e.Version, Reason: err.Error()}
			var gap missing
			if errors.As(err, &gap) {
				f.Version = int(gap)
			}
			return nil, f
		}
		x.Events = append(x.Events, e)
		prev = &x.Events[len(x.Events)-1]
	}
	if err := sc.Err(); err != nil {
		return nil, &ExportFault{Line: n + 1, Reason: fmt.Sprintf("read: %v", err)}
	}
	if len(x.Events) == 0 {
		return nil, &ExportFault{Line: n, Reason: "the export holds no event"}
	}
	return &x, nil
}

// wireLine is either kind of line, decoded in one pass; the fields present
// say which it is.
type wireLine struct {
	Position   *int64          `json:"position"`
	Stream     *string         `json:"stream"`
	Version    *int            `json:"version"`
	Type       *string         `json:"type"`
	RecordedAt *time.Time      `json:"recorded_at"`
	Data       json.RawMessage `json:"data"`
	PrevHash   *string         `json:"prev_hash"`
	Hash       *string         `json:"hash"`
	ChainHead  *ChainHead      `json:"chain_head"`
	Events     *int            `json:"events"`
	ExportedAt *time.Time      `json:"exported_at"`
}

func (l wireLine) event() (eventstore.Event, error) {
	var e eventstore.Event
	if l.Version != nil {
		e.Version = *l.Version
	}
	if l.Position == nil || l.Stream == nil || l.Version == nil || l.Type == nil || l.RecordedAt == nil ||
		l.Data == nil || l.PrevHash == nil || l.Hash == nil {
		return e, errors.New("an event line needs position, stream, version, type, recorded_at, data, prev_hash and hash")
	}
	if l.Events != nil || l.ExportedAt != nil {
		return e, errors.New("an event line with fields of the chain head line")
	}
	e = eventstore.Event{Position: *l.Position, Stream: *l.Stream, Version: *l.Version, Type: *l.Type,
		Data: []byte(l.Data), RecordedAt: *l.RecordedAt, PrevHash: *l.PrevHash, Hash: *l.Hash}
	return e, nil
}

func (l wireLine) head() (Head, error) {
	if l.Stream == nil || l.Events == nil || l.ExportedAt == nil {
		return Head{}, errors.New("needs chain_head, stream, events and exported_at")
	}
	if l.Position != nil || l.Version != nil || l.Type != nil || l.RecordedAt != nil || l.Data != nil || l.PrevHash != nil || l.Hash != nil {
		return Head{}, errors.New("fields of an event line in the chain head line")
	}
	return Head{ChainHead: *l.ChainHead, Stream: *l.Stream, Events: *l.Events, ExportedAt: *l.ExportedAt}, nil
}

func strictUnmarshal(raw []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

// checkLine checks one event against itself and the line before it.
func checkLine(e eventstore.Event, prev *eventstore.Event) error {
	if want := eventstore.Hash(e.PrevHash, e.Stream, e.Version, e.Type, e.Data); e.Hash != want {
		return fmt.Errorf("hash %s, but the event's fields hash to %s: the event was changed after it was recorded", e.Hash, want)
	}
	if e.Position < 1 {
		return fmt.Errorf("position %d is not ≥ 1", e.Position)
	}
	if (e.Position == 1) != (e.PrevHash == "") {
		return fmt.Errorf("position %d with previous hash %q: only the first event of the log has none", e.Position, e.PrevHash)
	}
	if prev == nil {
		if e.Version != 1 {
			return missing(1)
		}
		return nil
	}
	if e.Stream != prev.Stream {
		return fmt.Errorf("stream %s in an export of %s", e.Stream, prev.Stream)
	}
	if e.Version > prev.Version+1 {
		return missing(prev.Version + 1)
	}
	if e.Version != prev.Version+1 {
		return fmt.Errorf("version %d follows version %d: the event is out of place", e.Version, prev.Version)
	}
	if e.Position <= prev.Position {
		return fmt.Errorf("position %d does not follow position %d", e.Position, prev.Position)
	}
	// The global chain links this event to the previous one of any table: it
	// can be checked here only when that is the line before.
	if e.Position == prev.Position+1 && e.PrevHash != prev.Hash {
		return fmt.Errorf("previous hash %s, but the event at position %d (the line before) has hash %s", e.PrevHash, prev.Position, prev.Hash)
	}
	return nil
}

// missing is the version of an event missing from an export.
type missing int

func (m missing) Error() string {
	return fmt.Sprintf("event %d is missing: the line holding it is not there (the next line holds a later event)", int(m))
}

func checkHead(h Head, evs []eventstore.Event) error {
	if len(evs) == 0 {
		return errors.New("chain head line before any event")
	}
	last := evs[len(evs)-1]
	if h.Stream != last.Stream || h.Events != len(evs) {
		return fmt.Errorf("chain head line names %d events of %s, the export holds %d of %s", h.Events, h.Stream, len(evs), last.Stream)
	}
	if h.ChainHead.Position < last.Position {
		return fmt.Errorf("chain head at position %d is before the last event's position %d", h.ChainHead.Position, last.Position)
	}
	if h.ChainHead.Position == last.Position && h.ChainHead.Hash != last.Hash {
		return fmt.Errorf("chain head at position %d has hash %s, the event there has %s", h.ChainHead.Position, h.ChainHead.Hash, last.Hash)
	}
	return nil
}

// ExportReport is what VerifyExport proved.
type ExportReport struct {
	Report
	Stream string
	Head   *Head
}

// VerifyExport checks an export with no store and no server: ReadExport's
// checks, then VerifyTable (every command re-decided by the rules, every
// deal recomputed from its revealed seed and commitment, every settlement
// recomputed). The first fault is an *ExportFault naming the line and event.
func VerifyExport(rulesOf RulesFunc, r io.Reader) (ExportReport, error) {
	x, err := ReadExport(r)
	if err != nil {
		return ExportReport{}, err
	}
	rep, err := VerifyTable(rulesOf, x.Events)
	out := ExportReport{Report: rep, Stream: x.Events[0].Stream, Head: x.Head}
	var f *Fault
	if errors.As(err, &f) {
		// Versions run 1, 2, 3, … (ReadExport checked), so event v is line v.
		return out, &ExportFault{Line: f.Version, Version: f.Version, Reason: f.Reason}
	}
	return out, err
}
