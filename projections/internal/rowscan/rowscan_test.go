package rowscan

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"paiju/projections"
)

// rows are a query's rows held in memory; Scan sets each destination to
// its column's value, as a driver would (nil, SQL's NULL, to a nil
// pointer).
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
		return errors.New("no rows")
	}
	for j, v := range r.values[r.i-1] {
		d := reflect.ValueOf(dest[j]).Elem()
		if v == nil {
			d.SetZero()
			continue
		}
		if d.Kind() == reflect.Pointer && reflect.TypeOf(v) != d.Type() {
			p := reflect.New(d.Type().Elem())
			p.Elem().Set(reflect.ValueOf(v).Convert(d.Type().Elem()))
			d.Set(p)
			continue
		}
		d.Set(reflect.ValueOf(v).Convert(d.Type()))
	}
	return nil
}

func (r *rows) Err() error { return nil }

func TestTablesWithSeats(t *testing.T) {
	ts, err := Tables(&rows{values: [][]any{
		{"T1", "doudizhu", "classic", 10, `{"x":1}`, 3, 3, 2, "open", 0, int64(1e9), int64(2e9), int64(7)},
		{"T2", "shengji", "classic", 5, `{}`, 1, 4, 4, "running", 2, int64(3e9), int64(4e9), int64(9)},
	}})
	if err != nil || len(ts) != 2 {
		t.Fatalf("Tables = %+v %v, want two", ts, err)
	}
	if ts[0].FreeSeats != 1 || ts[0].Opened != 7 || string(ts[0].Options) != `{"x":1}` || !ts[0].UpdatedAt.Equal(time.Unix(2, 0)) {
		t.Errorf("first table = %+v, want one free seat, opened at 7, its options and times", ts[0])
	}
	entries, err := Seats(&rows{values: [][]any{
		{"T2", 0, "p1", "One", false},
		{"T2", 1, "p2", "Two", true},
	}}, ts)
	if err != nil || len(entries) != 2 {
		t.Fatalf("Seats = %+v %v", entries, err)
	}
	if len(entries[0].Players) != 0 || entries[0].Players == nil || fmt.Sprint(entries[1].Players) != "[{0 p1 One false} {1 p2 Two true}]" {
		t.Errorf("seats = %+v and %+v, want none (an empty list) for T1 and both for T2", entries[0].Players, entries[1].Players)
	}
}

func TestTournament(t *testing.T) {
	row := []any{"N1", "doudizhu", "classic", "elimination", 9, 3, 2, 10, "open", 0, nil, int64(4), int64(1e9), int64(1e9)}
	tn, err := Tournament(&rows{values: [][]any{row}})
	if err != nil || tn.Winner != nil || tn.ID != "N1" || tn.OpenedPosition != 4 {
		t.Errorf("Tournament without a winner = %+v %v, want a nil winner", tn, err)
	}
	row[10] = "p1"
	tn, err = Tournament(&rows{values: [][]any{row}})
	if err != nil || tn.Winner == nil || *tn.Winner != "p1" {
		t.Errorf("Tournament won by p1 = %+v %v", tn, err)
	}
	if got, err := Tournaments(&rows{}); err != nil || got == nil {
		t.Errorf("Tournaments of no rows = %#v %v, want an empty slice", got, err)
	}
}

func TestSummaries(t *testing.T) {
	page, err := Summaries(&rows{values: [][]any{
		{"H1", "T1", 1, "doudizhu", "classic", `[2,-1,-1]`, int64(5e9), int64(12), 0, 2},
	}}, true)
	want := projections.HandSummary{HandID: "H1", TableID: "T1", Hand: 1, Game: "doudizhu", Variant: "classic", Deltas: []int{2, -1, -1},
		SettledAt: time.Unix(5, 0).UTC(), SettledPosition: 12}
	if err != nil || len(page.Hands) != 1 {
		t.Fatalf("Summaries = %+v %v", page, err)
	}
	got := page.Hands[0]
	if got.Seat == nil || *got.Seat != 0 || *got.Delta != 2 {
		t.Errorf("seat and delta = %v %v, want 0 and 2", got.Seat, got.Delta)
	}
	got.Seat, got.Delta = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("summary = %+v, want %+v", got, want)
	}
}
