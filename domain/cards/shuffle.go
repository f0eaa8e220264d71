package cards

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
)

// Seed is the 32-byte secret a deal is shuffled from.
type Seed [32]byte

// String is the seed in lower-case hex.
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// Commitment is SHA-256(seed) in lower-case hex: published with the deal, it
// binds the server to the seed it reveals when the hand ends.
func (s Seed) Commitment() string {
	sum := sha256.Sum256(s[:])
	return hex.EncodeToString(sum[:])
}

// ParseSeed decodes a 64-digit hex seed.
func ParseSeed(h string) (Seed, error) {
	var s Seed
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != len(s) {
		return s, fmt.Errorf("cards: seed must be 64 hex digits")
	}
	copy(s[:], b)
	return s, nil
}

// Stream is the deterministic random stream of a seed. Its bytes are the
// concatenation of SHA-256(seed ‖ counter) for counter = 0, 1, 2, …, where
// counter is 8 bytes big-endian; values are read from it 8 bytes at a time as
// big-endian unsigned 64-bit integers.
//
// The construction is chosen so that an auditor can re-implement it in any
// language with nothing but SHA-256 (see docs/AUDIT.md).
type Stream struct {
	seed    Seed
	counter uint64
	block   [sha256.Size]byte
	used    int
}

// NewStream starts the stream of seed.
func NewStream(seed Seed) *Stream {
	return &Stream{seed: seed, used: sha256.Size}
}

// Uint64 returns the next 8 bytes of the stream as a big-endian integer.
func (s *Stream) Uint64() uint64 {
	if s.used == sha256.Size {
		var in [len(Seed{}) + 8]byte
		copy(in[:], s.seed[:])
		binary.BigEndian.PutUint64(in[len(Seed{}):], s.counter)
		s.block = sha256.Sum256(in[:])
		s.counter++
		s.used = 0
	}
	v := binary.BigEndian.Uint64(s.block[s.used:])
	s.used += 8
	return v
}

// Below returns a uniform integer in [0, n) by rejection sampling: draw x =
// Uint64(); reject and draw again while x ≥ 2^64 − (2^64 mod n); return x mod n.
// It panics if n is 0.
func (s *Stream) Below(n uint64) uint64 {
	if n == 0 {
		panic("cards: Below(0)")
	}
	// limit = 2^64 - (2^64 mod n), computed without overflow.
	rem := (-n) % n // (2^64 - n) mod n == 2^64 mod n
	for {
		x := s.Uint64()
		if rem == 0 || x < -rem {
			return x % n
		}
	}
}

// Shuffle permutes cs in place with the Fisher–Yates shuffle driven by st: for
// i from len(cs)-1 down to 1, j = st.Below(i+1), swap cs[i] and cs[j].
func Shuffle(st *Stream, cs []Card) {
	for i := len(cs) - 1; i > 0; i-- {
		j := int(st.Below(uint64(i + 1)))
		cs[i], cs[j] = cs[j], cs[i]
	}
}

// Shuffled returns n decks in canonical order shuffled from seed, together
// with the stream positioned after the shuffle, from which a game may draw
// further choices (for example who bids first).
func Shuffled(seed Seed, decks int) ([]Card, *Stream) {
	d := Deck(decks)
	st := NewStream(seed)
	Shuffle(st, d)
	return d, st
}
