package cards

import "slices"

// Multiset counts cards by their canonical Index. It serves one or more decks:
// with two decks a count may be 2. The zero value is empty.
type Multiset [DeckSize]uint8

// Of returns the multiset of cs.
func Of(cs []Card) Multiset {
	var m Multiset
	for _, c := range cs {
		m[c.Index()]++
	}
	return m
}

// Count is how many copies of c m holds.
func (m *Multiset) Count(c Card) int { return int(m[c.Index()]) }

// Len is the number of cards in m.
func (m *Multiset) Len() int {
	n := 0
	for _, k := range m {
		n += int(k)
	}
	return n
}

// Add puts cs into m.
func (m *Multiset) Add(cs ...Card) {
	for _, c := range cs {
		m[c.Index()]++
	}
}

// Contains reports whether every card of cs, counted with multiplicity, is in m.
func (m *Multiset) Contains(cs []Card) bool {
	need := Of(cs)
	for i, k := range need {
		if k > m[i] {
			return false
		}
	}
	return true
}

// Missing returns the cards of cs (with multiplicity) that m does not hold.
func (m *Multiset) Missing(cs []Card) []Card {
	var have = *m
	var out []Card
	for _, c := range cs {
		if have[c.Index()] == 0 {
			out = append(out, c)
			continue
		}
		have[c.Index()]--
	}
	return out
}

// Remove takes cs out of m and reports whether all of them were there; when
// they were not, m is unchanged.
func (m *Multiset) Remove(cs []Card) bool {
	if !m.Contains(cs) {
		return false
	}
	for _, c := range cs {
		m[c.Index()]--
	}
	return true
}

// Cards lists m's cards in canonical Index order.
func (m *Multiset) Cards() []Card {
	out := make([]Card, 0, m.Len())
	for i, k := range m {
		for range k {
			out = append(out, FromIndex(i))
		}
	}
	return out
}

// SortCanonical sorts cs in place in canonical Index order.
func SortCanonical(cs []Card) {
	slices.SortFunc(cs, func(a, b Card) int { return a.Index() - b.Index() })
}
