package shuangkou

import (
	"fmt"
	"slices"
	"strings"

	"paiju/domain/cards"
	"paiju/domain/climb"
)

// Type is a combination of shuangkou.md, Combinations. It is persisted by
// name, and clients name a play's reading with the same names.
type Type uint8

// The combinations, in the order of the rules file's table.
const (
	Single    Type = iota + 1 // one card
	Pair                      // two of a rank (BJ BJ, RJ RJ included)
	Trio                      // three of a rank, no kickers
	PairRun                   // 3+ consecutive pairs within 3..A (连对)
	TrioRun                   // 2+ consecutive trios within 3..A (飞机, no kickers)
	Straight                  // 5+ consecutive singles within 3..A
	Bomb                      // 4+ cards of one rank
	JokerBomb                 // all four jokers (天王炸)
)

var typeNames = climb.TypeNames{Game: "shuangkou", Names: []string{"", "single", "pair", "trio", "pair_run", "trio_run", "straight", "bomb", "joker_bomb"}}

func (t Type) String() string { return typeNames.Name(uint8(t)) }

// ParseType returns the type with the given name.
func ParseType(name string) (Type, bool) {
	t, ok := typeNames.Parse(name)
	return Type(t), ok
}

// MarshalText writes the type's name.
func (t Type) MarshalText() ([]byte, error) { return typeNames.Marshal(uint8(t)) }

// UnmarshalText reads a type's name.
func (t *Type) UnmarshalText(b []byte) error {
	v, err := typeNames.Unmarshal(b)
	*t = Type(v)
	return err
}

// group is how many cards of each rank a type takes.
func (t Type) group() int {
	switch t {
	case Pair, PairRun:
		return 2
	case Trio, TrioRun:
		return 3
	}
	return 1
}

// Reading is how a play is read: its type, its main rank (the rank of a
// single, pair, trio or bomb, the highest rank of a run; RJ for the joker
// bomb), its length (the ranks of a run, the cards of a bomb; 1 otherwise),
// and Wild, the ranks the jokers stand for in 百变 (sorted, empty when the
// jokers play as themselves or there are none). Type, Main and Length fix
// Wild: the jokers fill exactly what the natural cards lack.
type Reading struct {
	Type   Type         `json:"type"`
	Main   climb.Rank   `json:"main"`
	Length int          `json:"length"`
	Wild   []climb.Rank `json:"wild,omitempty"`
}

// Name is the reading as a client names it in an action's "as":
// "<type>:<main>", e.g. "straight:9", "bomb:7", "pair_run:A".
func (r Reading) Name() string { return r.Type.String() + ":" + r.Main.String() }

func (r Reading) String() string {
	s := r.Name()
	if r.Type == Bomb || isRun(r.Type) {
		s += fmt.Sprintf("×%d", r.Length)
	}
	if len(r.Wild) > 0 {
		w := make([]string, len(r.Wild))
		for i, x := range r.Wild {
			w[i] = x.String()
		}
		s += " (jokers as " + strings.Join(w, " ") + ")"
	}
	return s
}

// xiang is the 相 of a bomb (shuangkou.md, Table options, bomb_bonus): its
// card count, jokers included; 7 for the joker bomb (QB); 0 for a play
// that is no bomb.
func (r Reading) xiang() int {
	switch r.Type {
	case Bomb:
		return r.Length
	case JokerBomb:
		return 7
	}
	return 0
}

func isRun(t Type) bool { return t == PairRun || t == TrioRun || t == Straight }

// same reports whether two readings are the same (Wild follows from the rest).
func (r Reading) same(o Reading) bool {
	return r.Type == o.Type && r.Main == o.Main && r.Length == o.Length
}

// matches reports whether r is the reading a client's "as" names: "<type>" or
// "<type>:<main>".
func (r Reading) matches(as string) bool {
	t, m, hasMain := strings.Cut(as, ":")
	if t != r.Type.String() {
		return false
	}
	return !hasMain || m == r.Main.String()
}

// validAs reports whether as is well formed: a type name, optionally ":" and
// a rank name.
func validAs(as string) bool {
	t, m, hasMain := strings.Cut(as, ":")
	if _, ok := ParseType(t); !ok {
		return false
	}
	if hasMain {
		_, ok := climb.ParseRank(m)
		return ok
	}
	return true
}

// Beats reports whether r may be played on lead (shuangkou.md, Combinations):
// the joker bomb beats everything; a bomb beats any non-bomb and a bomb of
// fewer cards, or of as many cards and a lower rank; any other combination
// beats only the same type and length with a higher main rank.
func (r Reading) Beats(lead Reading) bool {
	switch {
	case lead.Type == JokerBomb:
		return false
	case r.Type == JokerBomb:
		return true
	case r.Type == Bomb && lead.Type == Bomb:
		return r.Length > lead.Length || (r.Length == lead.Length && r.Main > lead.Main)
	case r.Type == Bomb:
		return true
	}
	return r.Type == lead.Type && r.Length == lead.Length && r.Main > lead.Main
}

// Outranks orders the readings of one play, to choose the reading of a play
// whose client names none (doc.go, Reading a play): the stronger bomb, then
// the higher main rank, then the later type in the rules file's table.
func (r Reading) Outranks(o Reading) bool {
	rb, ob := r.Type >= Bomb, o.Type >= Bomb
	switch {
	case rb != ob:
		return rb
	case rb:
		return r.Beats(o)
	case r.Main != o.Main:
		return r.Main > o.Main
	}
	return r.Type > o.Type
}

// Wild is which jokers stand in for natural cards: the variant's, or the
// option "wild" (shuangkou.md, 百变 and Table options). Persisted by name.
type Wild string

const (
	WildAll  Wild = "all"  // both jokers wild (千变; baibian's default)
	WildBig  Wild = "big"  // only RJ wild, BJ plays only as itself (WZ's 百变)
	WildNone Wild = "none" // no wilds (classic's default)
)

// wilds reports which jokers may join natural cards.
func (w Wild) wilds() (bj, rj bool) { return w == WildAll, w == WildAll || w == WildBig }

// why explains, for a play of several cards that is no combination, a joker
// in it that is not wild; "" when there is none.
func (w Wild) why(cs []cards.Card) string {
	if len(cs) < 2 || !slices.ContainsFunc(cs, func(c cards.Card) bool { return !c.IsJoker() }) {
		return ""
	}
	bj, _ := w.wilds()
	switch {
	case w == WildNone && slices.ContainsFunc(cs, cards.Card.IsJoker):
		return "; jokers are not wild at this table"
	case !bj && slices.Contains(cs, cards.BJ):
		return "; only RJ are wild at this table (wild: big)"
	}
	return ""
}

// Classify lists every reading of the cards cs (shuangkou.md, Combinations;
// 百变 as wild says). Without natural cards, jokers play as themselves: a
// single joker, a pair of the same joker, or all four as the joker bomb.
// With natural cards, a wild joker stands for any rank 3 … 2, and a joker
// that is not wild makes the play invalid. It returns nil when cs is no
// combination.
func Classify(cs []cards.Card, wild Wild) []Reading {
	return cardTypes{wild: wild}.read(cs)
}

// cardTypes is what a variant changes in the combinations: the classifier
// and the legal-play generator read it, so that one value, not a flag handed
// down every call, says which plays exist. Both variants share every type;
// they differ in the jokers alone.
type cardTypes struct {
	// wild: which jokers join natural cards, each standing for any rank
	// 3 … 2 (百变); the others play only as themselves.
	wild Wild
}

// cardTypes returns the combinations of the table: the variant's, with the
// option "wild".
func (v *variant) cardTypes() cardTypes { return cardTypes{wild: v.wild} }

// read lists every reading of the cards cs, Wild filled in: what Decide
// records.
func (t cardTypes) read(cs []cards.Card) []Reading {
	c := climb.CountsOf(cs)
	return t.classify(&c, true, nil)
}

// classify appends the readings of the cards with rank counts s to out; Wild
// is filled in only when withWild (Legal needs no more than type, main rank
// and length).
func (t cardTypes) classify(s *climb.Counts, withWild bool, out []Reading) []Reading {
	n, j := s.Total(), s.Jokers()
	bj, rj := s[climb.RankBJ], s[climb.RankRJ]
	if n == j {
		switch {
		case n == 1 && bj == 1:
			return append(out, Reading{Type: Single, Main: climb.RankBJ, Length: 1})
		case n == 1:
			return append(out, Reading{Type: Single, Main: climb.RankRJ, Length: 1})
		case n == 2 && bj == 2:
			return append(out, Reading{Type: Pair, Main: climb.RankBJ, Length: 1})
		case n == 2 && rj == 2:
			return append(out, Reading{Type: Pair, Main: climb.RankRJ, Length: 1})
		case n == 4 && bj == 2:
			return append(out, Reading{Type: JokerBomb, Main: climb.RankRJ, Length: 4})
		}
		return out
	}
	if wildBJ, wildRJ := t.wild.wilds(); bj > 0 && !wildBJ || rj > 0 && !wildRJ {
		return out // a joker that is not wild never joins natural cards
	}
	lo, hi, maxCount := -1, -1, 0
	for r, k := range s[:climb.NumNatural] {
		if k > 0 {
			if lo < 0 {
				lo = r
			}
			hi = r
			maxCount = max(maxCount, int(k))
		}
	}
	fill := func(t Type, main climb.Rank, length int) Reading { return fillWild(s, t, main, length) }
	if !withWild {
		fill = func(t Type, main climb.Rank, length int) Reading { return Reading{Type: t, Main: main, Length: length} }
	}
	if lo == hi { // one natural rank, the jokers join it
		r := climb.Rank(lo)
		switch {
		case n == 1:
			out = append(out, Reading{Type: Single, Main: r, Length: 1})
		case n == 2:
			out = append(out, fill(Pair, r, 1))
		case n == 3:
			out = append(out, fill(Trio, r, 1))
		default:
			out = append(out, fill(Bomb, r, n))
		}
	}
	if hi > int(climb.TopRun) {
		return out // a 2 never sits in a run
	}
	for _, t := range [...]Type{PairRun, TrioRun, Straight} {
		g := t.group()
		if n%g != 0 || maxCount > g {
			continue
		}
		length := n / g
		if length < minRun(t) || length > int(climb.TopRun)+1 {
			continue
		}
		// Every window of length ranks inside 3..A that holds every natural
		// rank; the jokers fill the rest.
		for first := max(0, hi-length+1); first <= lo && first+length-1 <= int(climb.TopRun); first++ {
			out = append(out, fill(t, climb.Rank(first+length-1), length))
		}
	}
	return out
}

func minRun(t Type) int {
	switch t {
	case PairRun:
		return 3
	case TrioRun:
		return 2
	}
	return 5
}

// fillWild is the reading of the cards with rank counts s as type t with
// main rank main and the given length, the jokers standing for what the
// natural cards lack. The caller has checked that the natural cards fit.
func fillWild(s *climb.Counts, t Type, main climb.Rank, length int) Reading {
	rd := Reading{Type: t, Main: main, Length: length}
	j := s.Jokers()
	if j == 0 {
		return rd
	}
	rd.Wild = make([]climb.Rank, 0, j)
	switch t {
	case Pair, Trio, Bomb:
		for range j {
			rd.Wild = append(rd.Wild, main)
		}
	default:
		g := t.group()
		for r := int(main) - length + 1; r <= int(main); r++ {
			for k := int(s[r]); k < g; k++ {
				rd.Wild = append(rd.Wild, climb.Rank(r))
			}
		}
	}
	return rd
}
