package climb

import "testing"

func TestTypeNames(t *testing.T) {
	n := TypeNames{Game: "g", Names: []string{"", "single", "pair"}}
	if got, ok := n.Parse("pair"); !ok || got != 2 || n.Name(got) != "pair" {
		t.Errorf("Parse(pair) = %d, %v", got, ok)
	}
	for _, bad := range []string{"", "bomb"} {
		if _, ok := n.Parse(bad); ok {
			t.Errorf("Parse(%q) succeeded", bad)
		}
		if _, err := n.Unmarshal([]byte(bad)); err == nil {
			t.Errorf("Unmarshal(%q) succeeded", bad)
		}
	}
	if _, err := n.Marshal(0); err == nil {
		t.Error("Marshal(0) succeeded: type 0 is no type")
	}
	if b, err := n.Marshal(1); err != nil || string(b) != "single" {
		t.Errorf("Marshal(1) = %s, %v", b, err)
	}
	if n.Name(9) != "Type(9)" {
		t.Errorf("Name(9) = %s", n.Name(9))
	}
}

// 接风 (dadun.md, Play; shuangkou.md): the lead passes to the next seat that
// still holds cards.
func TestNextHolding(t *testing.T) {
	out := func(outs ...int) func(int) bool {
		return func(s int) bool {
			for _, o := range outs {
				if o == s {
					return true
				}
			}
			return false
		}
	}
	for _, tc := range []struct {
		seat   int
		outs   []int
		next   int
		others int
	}{
		{0, nil, 1, 3},
		{3, nil, 0, 3},
		{1, []int{1, 2}, 3, 2},
		{2, []int{3, 0}, 1, 1},
		{2, []int{0, 1, 3}, 2, 0},
	} {
		if got := NextHolding(tc.seat, 4, out(tc.outs...)); got != tc.next {
			t.Errorf("NextHolding(%d) with %v out = %d, want %d", tc.seat, tc.outs, got, tc.next)
		}
		if got := OthersHolding(tc.seat, 4, out(tc.outs...)); got != tc.others {
			t.Errorf("OthersHolding(%d) with %v out = %d, want %d", tc.seat, tc.outs, got, tc.others)
		}
	}
}
