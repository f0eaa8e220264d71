package dadun

import (
	"fmt"
	"strconv"
	"strings"

	"paiju/domain/cards"
	"paiju/domain/climb"
)

// Type is a combination of dadun.md, Combinations. It is persisted by name,
// and clients name a play's reading with the same names.
type Type uint8

// The combinations: the ordinary ones first, then the special ones (510K and
// bombs), which beat every ordinary combination.
const (
	Single    Type = iota + 1 // one card
	Pair                      // two of a rank; BJ BJ and RJ RJ included
	PairRun                   // 2+ consecutive pairs within 3..A (连对)
	Trio                      // a trio with two kickers (三带二); fewer only as the last cards
	TrioRun                   // 2+ consecutive trios with 2 kickers each (连三张); fewer only as the last cards
	Straight                  // 5+ consecutive singles within 3..A
	Plain510K                 // 5, 10, K of mixed suits (副 510K)
	Pure510K                  // 5, 10, K of one suit (正 510K)
	Multi510K                 // k ≥ 3 sets of 510K played together
	Bomb                      // 4 to 8 cards of one rank
	JokerBomb                 // 3 or 4 jokers
)

var typeNames = climb.TypeNames{Game: "dadun", Names: []string{"", "single", "pair", "pair_run", "trio", "trio_run", "straight",
	"plain_510k", "pure_510k", "multi_510k", "bomb", "joker_bomb"}}

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

// Special reports whether t is a 510K or a bomb: those beat every ordinary
// combination (dadun.md, Combinations Decision).
func (t Type) Special() bool { return t >= Plain510K }

// Reading is how a play is read. Main is the rank of a single, pair, trio or
// bomb, the top rank of a run, K for a 510K and RJ for a joker bomb. Length
// is the ranks of a run, the cards of a bomb or joker bomb, the sets of a
// multi-510K, and 1 otherwise. Kickers counts the kicker cards of a trio or
// trio run.
type Reading struct {
	Type    Type       `json:"type"`
	Main    climb.Rank `json:"main"`
	Length  int        `json:"length"`
	Kickers int        `json:"kickers,omitempty"`
	// sub orders two plays of one type and size that the fields above do
	// not: a pure 510K's suit under pure_suits "suit" (suitOrder) and the
	// jokers of a two-joker bomb (jokerPairOrder). The played cards give it
	// (variant.refine), so it is not recorded; 0 when nothing orders them.
	sub int8
}

// Name is the reading as a client names it in an action's "as": the type for
// 510Ks and joker bombs, "<type>:<main>" otherwise, and
// "trio_run:<main>:<length>" for trio runs, where one set of cards can hold
// runs of different lengths with the same top rank.
func (r Reading) Name() string {
	switch r.Type {
	case Plain510K, Pure510K, Multi510K, JokerBomb:
		return r.Type.String()
	case TrioRun:
		return fmt.Sprintf("%s:%s:%d", r.Type, r.Main, r.Length)
	}
	return r.Type.String() + ":" + r.Main.String()
}

func (r Reading) String() string {
	s := r.Name()
	switch r.Type {
	case Bomb, JokerBomb, Multi510K, PairRun, Straight:
		s += fmt.Sprintf("×%d", r.Length)
	}
	if r.Type == Trio || r.Type == TrioRun {
		s += fmt.Sprintf("+%d", r.Kickers)
	}
	return s
}

// matches reports whether r is the reading a client's "as" names:
// "<type>", "<type>:<main>" or "<type>:<main>:<length>".
func (r Reading) matches(as string) bool {
	parts := strings.Split(as, ":")
	if parts[0] != r.Type.String() {
		return false
	}
	if len(parts) > 1 && parts[1] != r.Main.String() {
		return false
	}
	return len(parts) < 3 || parts[2] == strconv.Itoa(r.Length)
}

// validAs reports whether as is well formed.
func validAs(as string) bool {
	parts := strings.Split(as, ":")
	if len(parts) > 3 {
		return false
	}
	if _, ok := ParseType(parts[0]); !ok {
		return false
	}
	if len(parts) > 1 {
		if _, ok := climb.ParseRank(parts[1]); !ok {
			return false
		}
	}
	if len(parts) > 2 {
		if n, err := strconv.Atoi(parts[2]); err != nil || n < 1 || strconv.Itoa(n) != parts[2] {
			return false
		}
	}
	return true
}

// power places a special combination on the one scale of the variant's
// bomb_order (dadun.md, Combinations Decision, and Table options). "seed":
// plain 510K < pure 510K < 4-card bomb < … < 8-card bomb < 3-joker bomb <
// 4-joker bomb, bombs of one size by rank, and k sets of 510K as a bomb of
// k+1 cards above every natural bomb of that size. "high": 4-card bomb < …
// < 8-card bomb < plain 510K < pure 510K < multi-510K of 3 sets < … < of 8
// sets < the joker bombs. Under joker_bombs 2 the two-joker bombs sit just
// below the 3-joker bomb in both. Equal powers tie, and a tie does not beat.
func (v variant) power(r Reading) (tier, sub int) {
	switch r.Type {
	case Plain510K:
		if v.opts.highBombs {
			return 20, 0
		}
		return 1, 0
	case Pure510K:
		if v.opts.highBombs {
			return 21, int(r.sub)
		}
		return 2, int(r.sub)
	case Bomb:
		return 10 + r.Length, int(r.Main)
	case Multi510K:
		if v.opts.highBombs {
			// Decision (Table options): k sets above the pure 510K, by k.
			return 20 + r.Length, 0
		}
		// Decision: eight sets (a 9-card bomb) still rank below the joker
		// bombs, which the rules file puts above every bomb.
		return 10 + r.Length + 1, climb.NumRanks
	case JokerBomb:
		return 30 + r.Length, int(r.sub)
	}
	return 0, 0
}

// Beats reports whether r may be played on lead under the current rules
// and the default options; see variant.beats.
func (r Reading) Beats(lead Reading) bool { return variant{}.beats(r, lead) }

// following keeps the readings of rs, the readings of the cards cs, that
// this variant lets follow lead (nil: leading, when all may), each refined
// by the cards (variant.refine).
func (v variant) following(rs []Reading, cs []cards.Card, lead *Reading) []Reading {
	out := make([]Reading, 0, len(rs))
	for _, r := range rs {
		r = v.refine(r, cs)
		if lead == nil || v.beats(r, *lead) {
			out = append(out, r)
		}
	}
	return out
}

// beats reports whether r may be played on lead (dadun.md, Combinations
// Decision): a special combination beats every ordinary one and a weaker
// special one (variant.power); an ordinary combination beats only the same
// type with the same length, the same number of kickers (so the same card
// count) and a higher main rank. One exception (dadun.md, Rulings: 最后一
// 手牌只剩下三张牌的话，可以不带): a trio or trio run short of kickers, which
// only a player's last cards can be, may follow a full one (two kickers a
// trio) of the same length and beats it by rank; not under rules /1
// (sameKickersToFollow), where it followed only one with as many kickers.
func (v variant) beats(r, lead Reading) bool {
	rs, ls := r.Type.Special(), lead.Type.Special()
	switch {
	case rs && ls:
		rt, rsub := v.power(r)
		lt, lsub := v.power(lead)
		return rt > lt || (rt == lt && rsub > lsub)
	case rs:
		return true
	case ls:
		return false
	}
	if r.Type != lead.Type || r.Length != lead.Length || r.Main <= lead.Main {
		return false
	}
	if r.Kickers == lead.Kickers {
		return true
	}
	return !v.sameKickersToFollow && r.Type.takesKickers() && lead.Kickers == 2*lead.Length && r.Kickers < lead.Kickers
}

// refine sets r.sub from the cards cs that play r, where an option orders
// plays the reading alone does not: a pure 510K by suit under pure_suits
// "suit", a two-joker bomb by its jokers.
func (v variant) refine(r Reading, cs []cards.Card) Reading {
	switch {
	case r.Type == Pure510K && v.opts.pureSuits && len(cs) > 0:
		r.sub = suitOrder(cs[0].Suit)
	case r.Type == JokerBomb && r.Length == 2:
		r.sub = jokerPairOrder(cs)
	}
	return r
}

// refines reports whether refine may change r: its cards must be known
// before it is compared.
func (v variant) refines(r Reading) bool {
	return (r.Type == Pure510K && v.opts.pureSuits) || (r.Type == JokerBomb && r.Length == 2)
}

// recorded is r as CardsPlayed records it, without what the cards give.
func (r Reading) recorded() Reading {
	r.sub = 0
	return r
}

// jokerPairOrder orders the two-joker bombs of joker_bombs 2 (dadun.md,
// Table options): BJ RJ 1 < BJ BJ 2 < RJ RJ 3.
func jokerPairOrder(cs []cards.Card) int8 {
	rj := 0
	for _, c := range cs {
		if climb.RankOf(c) == climb.RankRJ {
			rj++
		}
	}
	return [3]int8{2, 1, 3}[min(rj, 2)]
}

// takesKickers reports a type with kickers: the trio and the trio run.
func (t Type) takesKickers() bool { return t == Trio || t == TrioRun }

// Outranks orders the readings of one play, to choose the reading of a play
// whose client names none: the stronger special combination, then the
// higher main rank, then the longer run, then the later type.
func (r Reading) Outranks(o Reading) bool {
	// The readings of one play differ in kind (at most one is special), so
	// the default order decides among them under every bomb_order.
	rt, rsub := variant{}.power(r)
	ot, osub := variant{}.power(o)
	switch {
	case rt != ot:
		return rt > ot
	case rsub != osub:
		return rsub > osub
	case r.Main != o.Main:
		return r.Main > o.Main
	case r.Length != o.Length:
		return r.Length > o.Length
	}
	return r.Type > o.Type
}

// isRed reports a red card (♥ ♦); jokers are neither red nor black here.
func isRed(c cards.Card) bool { return c.Suit == cards.Hearts || c.Suit == cards.Diamonds }

// Classify lists every reading of the cards cs (dadun.md, Combinations)
// under the default options. last reports that cs are the player's last
// cards, which alone allows a bare trio, a trio with one kicker and a trio
// run with fewer kickers than two per trio. It returns nil when cs is no
// combination.
func Classify(cs []cards.Card, last bool) []Reading { return variant{}.classify(cs, last) }

// classify is Classify under this variant's options (joker_bombs).
func (v variant) classify(cs []cards.Card, last bool) []Reading {
	c := climb.CountsOf(cs)
	rs := v.classifyCounts(&c, last, nil)
	out := rs[:0]
	for _, r := range rs {
		switch r.Type {
		case Plain510K:
			if oneSuit(cs) {
				continue
			}
		case Pure510K:
			if !oneSuit(cs) {
				continue
			}
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func oneSuit(cs []cards.Card) bool {
	for _, c := range cs[1:] {
		if c.Suit != cs[0].Suit {
			return false
		}
	}
	return true
}

// classifyCounts appends to out the readings of a multiset given by its rank
// counts. Suits decide only between a plain and a pure 510K, so a single set
// of 5, 10, K yields both; Classify keeps the one its suits make. Under
// joker_bombs 2 any two jokers are a joker bomb and never a pair (dadun.md,
// Table options).
func (v variant) classifyCounts(c *climb.Counts, last bool, out []Reading) []Reading {
	n := c.Total()
	if n == 0 {
		return out
	}
	lo, hi, ranks := -1, -1, 0
	for r, k := range c {
		if k > 0 {
			if lo < 0 {
				lo = r
			}
			hi = r
			ranks++
		}
	}
	jokers := int(c[climb.RankBJ]) + int(c[climb.RankRJ])
	switch {
	case n == 1:
		return append(out, Reading{Type: Single, Main: climb.Rank(lo), Length: 1})
	case jokers == n && n >= v.jokerBombMin() && n <= 4:
		return append(out, Reading{Type: JokerBomb, Main: climb.RankRJ, Length: n})
	case n == 2 && ranks == 1:
		return append(out, Reading{Type: Pair, Main: climb.Rank(lo), Length: 1})
	}
	if ranks == 1 && n >= 4 && n <= 8 && !climb.Rank(lo).IsJoker() {
		out = append(out, Reading{Type: Bomb, Main: climb.Rank(lo), Length: n})
	}
	if k := c[climb.Rank5]; k > 0 && ranks == 3 && c[climb.Rank10] == k && c[climb.RankK] == k {
		switch {
		case k == 1:
			out = append(out, Reading{Type: Plain510K, Main: climb.RankK, Length: 1},
				Reading{Type: Pure510K, Main: climb.RankK, Length: 1})
		case k >= 3: // dadun.md: never exactly two sets together
			out = append(out, Reading{Type: Multi510K, Main: climb.RankK, Length: int(k)})
		}
	}
	if hi <= int(climb.TopRun) && lo != hi {
		length := hi - lo + 1
		switch {
		case n >= 5 && c.Run(climb.Rank(lo), climb.Rank(hi), 1):
			out = append(out, Reading{Type: Straight, Main: climb.Rank(hi), Length: length})
		case c.Run(climb.Rank(lo), climb.Rank(hi), 2):
			out = append(out, Reading{Type: PairRun, Main: climb.Rank(hi), Length: length})
		}
	}
	// A trio with kickers: two kickers, or fewer as the last cards.
	if n >= 3 && n <= 5 && (n == 5 || last) {
		for r := range climb.NumNatural {
			if c[r] >= 3 {
				out = append(out, Reading{Type: Trio, Main: climb.Rank(r), Length: 1, Kickers: n - 3})
			}
		}
	}
	// Trio runs: every window of 2+ ranks within 3..A holding three cards
	// each, the rest of the cards its kickers.
	for length := 2; 3*length <= n; length++ {
		kickers := n - 3*length
		if kickers > 2*length || (kickers < 2*length && !last) {
			continue
		}
		for first := 0; first+length-1 <= int(climb.TopRun); first++ {
			ok := true
			for r := first; r < first+length; r++ {
				if c[r] < 3 {
					ok = false
					break
				}
			}
			if ok {
				out = append(out, Reading{Type: TrioRun, Main: climb.Rank(first + length - 1), Length: length, Kickers: kickers})
			}
		}
	}
	return out
}

// jokerBombMin is the fewest jokers that make a bomb: 3, or 2 under
// joker_bombs 2.
func (v variant) jokerBombMin() int {
	if v.opts.twoJokerBombs {
		return jokerBombsTwo
	}
	return jokerBombsSeed
}

// Awards is the 盾 awards a play earns (dadun.md, 盾 awards): a pair of RJ
// or of BJ 1, three jokers 3, four 6; k sets of 510K k; a bomb of 5, 6, 7, 8
// cards 1, 2, 4, 6, plus 1 for each 四红 (the four red cards of its rank) and
// 1 for each 四黑 (the four black ones) it holds, as the awards stack (revised
// Decision; seed: "如果同时存在其他的奖励，则叠加"): a 7-card bomb always holds
// exactly one of them (5), an 8-card bomb both (8), a 6-card bomb with 四红
// (双刀) 3. Kickers never earn (Decision: the awards go to the combinations
// the rules file lists, not to cards riding along).
func Awards(cs []cards.Card, r Reading) int {
	switch r.Type {
	case Pair:
		if r.Main.IsJoker() {
			return 1
		}
	case JokerBomb:
		switch r.Length {
		case 4:
			return 6
		case 3:
			return 3
		}
		// joker_bombs 2 (dadun.md, Table options): the awards are
		// unchanged, BJ BJ and RJ RJ 1 each, BJ RJ nothing.
		if climb.RankOf(cs[0]) == climb.RankOf(cs[1]) {
			return 1
		}
	case Multi510K:
		return r.Length
	case Bomb:
		return [9]int{4: 0, 5: 1, 6: 2, 7: 4, 8: 6}[r.Length] + foursOfAColour(cs)
	}
	return 0
}

// awards is Awards under this variant's rules. Under dun_awards false
// (dadun.md, Table options) nothing earns. Under rules /1 (unstackedAwards)
// a bomb of 4 to 6 cards with four cards of one colour earned one more,
// once, and a 7- or 8-card bomb nothing more.
func (v variant) awards(cs []cards.Card, r Reading) int {
	if v.opts.noAwards {
		return 0
	}
	if !v.unstackedAwards || r.Type != Bomb {
		return Awards(cs, r)
	}
	base := [9]int{4: 0, 5: 1, 6: 2, 7: 4, 8: 6}[r.Length]
	if r.Length <= 6 && foursOfAColour(cs) > 0 {
		base++
	}
	return base
}

// foursOfAColour counts the colours of which cs holds four cards: 1 for 四红
// (four red), 1 for 四黑 (four black). Two decks hold exactly four cards of
// each colour in a rank.
func foursOfAColour(cs []cards.Card) int {
	red, black := 0, 0
	for _, c := range cs {
		switch {
		case c.IsJoker():
		case isRed(c):
			red++
		default:
			black++
		}
	}
	n := 0
	if red >= 4 {
		n++
	}
	if black >= 4 {
		n++
	}
	return n
}
