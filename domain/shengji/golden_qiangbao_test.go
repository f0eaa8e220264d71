package shengji

import (
	"bytes"
	"encoding/json"
	"testing"
)

// qiangbaoGoldenIDs are the seeds of the qiangbao golden hands, in the
// order of goldenCases; TestFindQiangbaoGolden finds them.
var qiangbaoGoldenIDs = [5]uint64{1, 10, 1, 17, 16}

// TestFindQiangbaoGolden searches, with -shengji.findgolden, the first seed
// whose random table shows what each qiangbao golden case is about.
func TestFindQiangbaoGolden(t *testing.T) {
	if !*findGolden {
		t.Skip("a seed search: run with -shengji.findgolden")
	}
	for _, c := range goldenCases {
		if c.variant != "qiangbao" {
			continue
		}
	search:
		for id := uint64(1); id < 3000; id++ {
			gf := recordGolden(t, c.variant, id, c.options, c.hands, c.noDeclare)
			raw, err := json.Marshal(gf)
			if err != nil {
				t.Fatal(err)
			}
			n := map[string]int{}
			for _, step := range gf.Steps {
				for _, e := range step.Events {
					n[e.Type]++
				}
			}
			for typ, want := range c.shows {
				if n[typ] != want {
					continue search
				}
			}
			for _, h := range c.has {
				if !bytes.Contains(raw, []byte(h)) {
					continue search
				}
			}
			t.Logf("%s: seed %d", c.name, id)
			break
		}
	}
}
