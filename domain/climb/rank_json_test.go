package climb

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestRankJSON: MarshalJSON writes what encoding/json writes from
// MarshalText, for every rank and past them, in lists and as map keys.
func TestRankJSON(t *testing.T) {
	for r := range 256 {
		text, terr := Rank(r).MarshalText()
		js, jerr := Rank(r).MarshalJSON()
		if (terr != nil) != (jerr != nil) || (terr != nil) != (r >= NumRanks) {
			t.Fatalf("rank %d: MarshalText error %v, MarshalJSON error %v", r, terr, jerr)
		}
		if terr != nil {
			continue
		}
		want, _ := json.Marshal(string(text))
		if !bytes.Equal(js, want) {
			t.Fatalf("rank %d: MarshalJSON %s, want %s", r, js, want)
		}
	}
	got, err := json.Marshal(struct {
		L []Rank       `json:"l"`
		M map[Rank]int `json:"m"`
	}{[]Rank{RankBJ, 0, 7}, map[Rank]int{RankRJ: 1}})
	if err != nil || string(got) != `{"l":["BJ","3","10"],"m":{"RJ":1}}` {
		t.Fatalf("got %s, %v", got, err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = RankBJ.MarshalJSON() }); n != 0 {
		t.Errorf("MarshalJSON: %v allocations", n)
	}
}
