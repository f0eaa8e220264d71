package shengji

import (
	"fmt"

	"paiju/domain/cards"
)

// Shape is the structure of a play (shengji.md, Plays, ningyang): a single,
// a pair (two identical cards), or a tractor (2+ pairs at consecutive
// positions of one suit-class). Pairs is 0 for a single, 1 for a pair, the
// number of pairs for a tractor. No throws (不能甩牌): nothing else leads.
//
// guafeng (combo_guafeng.go) adds Kind: a rain of Len cards holding Pairs
// pairs, and a thunder; its pairs and tractors are the winds (风).
type Shape struct {
	Kind  shapeKind
	Pairs int
	Len   int // rain only: its number of cards
}

type shapeKind uint8

const (
	kindPairs   shapeKind = iota // single, pair, tractor (风 in guafeng)
	kindRain                     // 雨: 5+ consecutive ranks of one suit, some paired
	kindThunder                  // 雷: one rank of 2, 3, 5 or the level in four suits
)

// String names the shape as events record it.
func (s Shape) String() string {
	switch s.Kind {
	case kindRain:
		return fmt.Sprintf("rain%d_%d", s.Len, s.Pairs)
	case kindThunder:
		return "thunder"
	}
	switch s.Pairs {
	case 0:
		return "single"
	case 1:
		return "pair"
	}
	return fmt.Sprintf("tractor%d", s.Pairs)
}

// Size is the number of cards of the shape.
func (s Shape) Size() int {
	switch s.Kind {
	case kindRain:
		return s.Len
	case kindThunder:
		return 4
	}
	if s.Pairs == 0 {
		return 1
	}
	return 2 * s.Pairs
}

// reading is a play read as a combination: its class, shape and top position.
type reading struct {
	class cards.Suit
	shape Shape
	top   int
}

// read reads cs as one combination; ok is false when cs is not a single,
// pair or tractor of one suit-class.
func (o Order) read(cs []cards.Card) (reading, bool) {
	if len(cs) == 0 {
		return reading{}, false
	}
	if o.Fixed {
		return o.guafengRead(cs)
	}
	class := o.Class(cs[0])
	for _, c := range cs[1:] {
		if o.Class(c) != class {
			return reading{}, false
		}
	}
	if len(cs) == 1 {
		return reading{class: class, top: o.Pos(cs[0])}, true
	}
	if len(cs)%2 != 0 {
		return reading{}, false
	}
	m := cards.Of(cs)
	// Every distinct card twice, at pairwise distinct and consecutive
	// positions. Two different cards at one position (H7 H7 D7 D7 with level
	// 7) are not consecutive.
	var seen [posRJ + 1]bool
	lo, hi, pairs := posRJ+1, -1, 0
	for i, k := range m {
		if k == 0 {
			continue
		}
		if k != 2 {
			return reading{}, false
		}
		p := o.Pos(cards.FromIndex(i))
		if seen[p] {
			return reading{}, false
		}
		seen[p] = true
		pairs++
		lo, hi = min(lo, p), max(hi, p)
	}
	if hi-lo+1 != pairs {
		return reading{}, false
	}
	return reading{class: class, shape: Shape{Pairs: pairs}, top: hi}, true
}

// beats reports whether play p (already read) beats the best play so far b
// of a trick led in class lead with b's shape (shengji.md, Plays): same
// shape; a trump play beats a side play; within one class the higher top
// wins; equal tops go to the earlier play, so strictly higher only.
func beats(p reading, pok bool, b reading, lead cards.Suit) bool {
	if !pok || p.shape != b.shape {
		return false
	}
	if p.class != lead && p.class != trumpClass {
		return false
	}
	if p.class != b.class {
		return p.class == trumpClass
	}
	return p.top > b.top
}

// points sums the point cards of cs (5 = 5, 10 = 10, K = 10).
func points(cs []cards.Card) int {
	n := 0
	for _, c := range cs {
		n += c.Points()
	}
	return n
}
