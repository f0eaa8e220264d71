package projections

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestRankPage: rows rank by score, then fewer hands, then player id, each
// with its title; a page is limit rows after the cursor, or centred on a
// player and kept inside the board.
func TestRankPage(t *testing.T) {
	rows := func() []Row {
		return []Row{
			{PlayerID: "d", Score: 5, Hands: 2},
			{PlayerID: "a", Score: 40, Hands: 9},
			{PlayerID: "c", Score: 5, Hands: 2},
			{PlayerID: "b", Score: 5, Hands: 1},
			{PlayerID: "e", Score: -3, Hands: 4},
		}
	}
	page, next, err := RankPage(rows(), "", 0, 10)
	if err != nil || next != "" {
		t.Fatalf("RankPage of the whole board: next %q, %v", next, err)
	}
	var got []string
	for _, r := range page {
		got = append(got, fmt.Sprintf("%d:%s:%s", r.Rank, r.PlayerID, r.Title))
	}
	if want := "[1:a:村长 2:b:农民 3:c:农民 4:d:农民 5:e:农民]"; fmt.Sprint(got) != want {
		t.Errorf("ranked %v, want %v: score, then fewer hands, then player id", got, want)
	}

	ids := func(page []Row) string {
		var s []string
		for _, r := range page {
			s = append(s, r.PlayerID)
		}
		return fmt.Sprint(s)
	}
	tests := []struct {
		around      string
		after       int64
		limit       int
		want        string
		wantNextPos int64 // 0: no next page
	}{
		{"", 0, 2, "[a b]", 2},
		{"", 2, 2, "[c d]", 4},
		{"", 4, 2, "[e]", 0},
		{"", 9, 2, "[]", 0},
		{"c", 0, 3, "[b c d]", 4},
		{"a", 9, 3, "[a b c]", 3}, // the cursor is ignored; the page starts at the top
		{"e", 0, 3, "[c d e]", 0}, // and ends at the bottom
	}
	for _, tt := range tests {
		page, next, err := RankPage(rows(), tt.around, tt.after, tt.limit)
		wantNext := ""
		if tt.wantNextPos > 0 {
			wantNext = EncodeCursor(tt.wantNextPos)
		}
		if err != nil || ids(page) != tt.want || next != wantNext {
			t.Errorf("RankPage(around %q, after %d, limit %d) = %s %q %v, want %s %q", tt.around, tt.after, tt.limit, ids(page), next, err, tt.want, wantNext)
		}
	}
	if _, _, err := RankPage(rows(), "nobody", 0, 3); !errors.Is(err, ErrNotFound) {
		t.Errorf("RankPage around a player without a row: %v, want ErrNotFound", err)
	}
}

// TestStatusOf: each projection's checkpoint, and its lag behind the log's
// head (never negative).
func TestStatusOf(t *testing.T) {
	st, err := StatusOf(context.Background(), &memStore{cp: 7}, memLog(10))
	if err != nil || st.Head != 10 || len(st.Projections) != len(Names) {
		t.Fatalf("StatusOf = %+v %v, want head 10 and every projection", st, err)
	}
	for i, p := range st.Projections {
		if p.Name != Names[i] || p.Position != 7 || p.Lag != 3 {
			t.Errorf("projection %d = %+v, want %s at 7, 3 behind", i, p, Names[i])
		}
	}
	if st, _ := StatusOf(context.Background(), &memStore{cp: 12}, memLog(10)); st.Projections[0].Lag != 0 {
		t.Errorf("a checkpoint past the head lags %d, want 0", st.Projections[0].Lag)
	}
}
