package shengji

import (
	"testing"

	"paiju/domain/cards"
)

// FuzzFollow reads a position from bytes — level, trump, a leader's and a
// follower's cards drawn from a small pool so that pairs and tractors are
// common — and checks that every listed lead reads as one, and that the
// follows listed to a lead are exactly what checkFollow accepts. The corpus
// is under testdata/fuzz/FuzzFollow.
func FuzzFollow(f *testing.F) {
	f.Add([]byte{5, 0, 1, 1, 2, 2, 3, 9, 9, 10, 1, 1, 4, 4, 11, 12, 13})
	f.Add([]byte{7, 2, 0, 0, 12, 12, 13, 13, 5, 0, 6, 12, 13, 1, 2, 3})
	f.Add([]byte{12, 3, 8, 8, 9, 9, 10, 10, 0, 8, 9, 10, 11, 12, 13, 0, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 4 || len(b) > 40 {
			return
		}
		o := Order{Level: cards.Rank(2 + int(b[0])%13), Trump: cards.Suit(b[1] % 4)}
		pool := cards.MustParse("S2 S3 S4 S5 S7 S8 H5 H6 H7 H8 C7 D7 D9 BJ RJ")
		var leader, hand cards.Multiset
		split := 2 + int(b[2])%8
		for i, x := range b[3:] {
			c := pool[int(x)%len(pool)]
			m := &hand
			if i < split {
				m = &leader
			}
			if leader.Count(c)+hand.Count(c) < 2 {
				m.Add(c)
			}
		}
		leads := o.leads(leader)
		for _, l := range leads {
			if _, ok := o.read(l); !ok {
				t.Fatalf("lead %s does not read as a combination", cards.Format(l))
			}
		}
		for _, l := range leads {
			if hand.Len() >= len(l) && len(l) <= 6 {
				crossCheck(t, o, hand, l)
			}
		}
	})
}

// FuzzGuafengFollow is FuzzFollow on guafeng's order and combinations
// (shengji.md, Plays, guafeng: winds, rains, thunders; fixed trumps 2, 3,
// 5): every listed lead reads as one, and the follows listed to a lead are
// exactly what checkFollow accepts. The corpus is under
// testdata/fuzz/FuzzGuafengFollow.
func FuzzGuafengFollow(f *testing.F) {
	f.Add([]byte{5, 0, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 9, 10, 11, 12, 13})
	f.Add([]byte{7, 1, 4, 14, 15, 16, 17, 0, 1, 2, 3, 14, 15})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 4 || len(b) > 40 {
			return
		}
		o := Order{Level: cards.Rank(2 + int(b[0])%13), Trump: cards.Suit(b[1] % 4), Fixed: true}
		pool := cards.MustParse("S2 S3 S4 S5 S6 S7 S8 H5 H6 H7 H8 H9 H10 C5 C7 D5 D7 BJ RJ")
		var leader, hand cards.Multiset
		split := 2 + int(b[2])%10
		for i, x := range b[3:] {
			c := pool[int(x)%len(pool)]
			m := &hand
			if i < split {
				m = &leader
			}
			if leader.Count(c)+hand.Count(c) < 2 {
				m.Add(c)
			}
		}
		leads := o.leads(leader)
		for _, l := range leads {
			if _, ok := o.read(l); !ok {
				t.Fatalf("lead %s does not read as a combination", cards.Format(l))
			}
		}
		for _, l := range leads {
			if hand.Len() >= len(l) && len(l) <= 6 {
				crossCheck(t, o, hand, l)
			}
		}
	})
}
