package rowscan

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"paiju/eventstore"
)

// errNoRows is the fake driver's "no row".
var errNoRows = errors.New("no rows")

// rows are a query's rows held in memory; Scan sets each destination to
// its column's value, as a driver would.
type rows struct {
	values [][]any
	i      int
}

func (r *rows) Next() bool {
	r.i++
	return r.i <= len(r.values)
}

func (r *rows) Scan(dest ...any) error {
	if r.i == 0 {
		r.i = 1 // a single row read without Next
	}
	if r.i > len(r.values) {
		return errNoRows
	}
	for j, v := range r.values[r.i-1] {
		reflect.ValueOf(dest[j]).Elem().Set(reflect.ValueOf(v))
	}
	return nil
}

func (r *rows) Err() error { return nil }

// nanos is a driver that keeps times as Unix nanoseconds, NULL as 0.
var nanos = Driver[int64, int64]{
	Time: func(n int64) time.Time { return time.Unix(0, n).UTC() },
	NullTime: func(n int64) time.Time {
		if n == 0 {
			return time.Time{}
		}
		return time.Unix(0, n).UTC()
	},
	NoRows: func(err error) bool { return errors.Is(err, errNoRows) },
}

func TestEvents(t *testing.T) {
	got, err := nanos.Events(&rows{values: [][]any{
		{int64(1), "table-a", 1, "A", []byte(`{"a":1}`), int64(5e9), "", "h1"},
		{int64(2), "table-b", 1, "B", []byte(`{}`), int64(6e9), "h1", "h2"},
	}})
	want := []eventstore.Event{
		{Position: 1, Stream: "table-a", Version: 1, Type: "A", Data: []byte(`{"a":1}`), RecordedAt: time.Unix(5, 0).UTC(), Hash: "h1"},
		{Position: 2, Stream: "table-b", Version: 1, Type: "B", Data: []byte(`{}`), RecordedAt: time.Unix(6, 0).UTC(), PrevHash: "h1", Hash: "h2"},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Events = %+v %v, want %+v", got, err, want)
	}
	if got, err := nanos.Events(&rows{}); err != nil || got == nil || len(got) != 0 {
		t.Errorf("Events of no rows = %#v %v, want an empty slice", got, err)
	}
}

func TestNoRow(t *testing.T) {
	if _, err := nanos.Player(&rows{}); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("Player of no row: %v, want ErrNotFound", err)
	}
	if _, err := nanos.Token(&rows{}); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("Token of no row: %v, want ErrNotFound", err)
	}
	if _, _, err := nanos.PlayerToken(&rows{}); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("PlayerToken of no row: %v, want ErrNotFound", err)
	}
	if _, err := nanos.Room(&rows{}); !errors.Is(err, eventstore.ErrNotFound) {
		t.Errorf("Room of no row: %v, want ErrNotFound", err)
	}
	if rec, found, err := nanos.Idempotency(&rows{}, "p1", "k"); found || err != nil || rec != (eventstore.IdempotencyRecord{}) {
		t.Errorf("Idempotency of no row = %+v %v %v, want not found and no error", rec, found, err)
	}
}

func TestPlayerToken(t *testing.T) {
	p, tok, err := nanos.PlayerToken(&rows{values: [][]any{
		{"tk-1", "p-1", "phone", "h", int64(1e9), int64(0), int64(3e9), int64(0), "p-1", "One", int64(2e9)},
	}})
	wantP := eventstore.Player{ID: "p-1", Name: "One", CreatedAt: time.Unix(2, 0).UTC()}
	wantT := eventstore.Token{ID: "tk-1", PlayerID: "p-1", Label: "phone", Hash: "h", CreatedAt: time.Unix(1, 0).UTC(), ExpiresAt: time.Unix(3, 0).UTC()}
	if err != nil || p != wantP || tok != wantT {
		t.Errorf("PlayerToken = %+v %+v %v, want %+v %+v: NULL times are zero", p, tok, err, wantP, wantT)
	}
}

func TestIdempotency(t *testing.T) {
	rec, found, err := nanos.Idempotency(&rows{values: [][]any{{"rh", "table-a", 2, 3, int64(4e9)}}}, "p1", "k")
	want := eventstore.IdempotencyRecord{Scope: "p1", Key: "k", RequestHash: "rh", Stream: "table-a", FirstVersion: 2, LastVersion: 3, CreatedAt: time.Unix(4, 0).UTC()}
	if !found || err != nil || rec != want {
		t.Errorf("Idempotency = %+v %v %v, want %+v", rec, found, err, want)
	}
}
