package audit_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"

	"paiju/domain/cards"
	"paiju/eventstore"
)

// TestAuditDocExample recomputes every figure of docs/AUDIT.md's worked
// examples (The hash chain; The shuffle, Worked example) and checks that the
// document shows it, so an auditor's independent verifier can be tested
// against the document.
func TestAuditDocExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/AUDIT.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	shows := func(what, want string) {
		t.Helper()
		if !strings.Contains(text, want) {
			t.Errorf("docs/AUDIT.md, worked example: %s is %q, which the document does not show", what, want)
		}
	}

	shows("the example hash", eventstore.Hash("", "table-T1", 1, "TableOpened", []byte(`{"a":1}`)))

	var seed cards.Seed
	for i := range seed {
		seed[i] = byte(i)
	}
	shows("the seed", seed.String())
	shows("the commitment", seed.Commitment())
	for k := range uint64(2) {
		var in [40]byte
		copy(in[:], seed[:])
		binary.BigEndian.PutUint64(in[32:], k)
		sum := sha256.Sum256(in[:])
		shows("a stream block", hex.EncodeToString(sum[:]))
	}
	st := cards.NewStream(seed)
	for i := 0; i < 5; i++ {
		x := st.Uint64()
		shows("a stream value", strconv.FormatUint(x, 10))
		if i == 0 {
			shows("the first value in hex", hex.EncodeToString(binary.BigEndian.AppendUint64(nil, x))[:16])
		}
	}
	deck, rest := cards.Shuffled(seed, 1)
	names := strings.Fields(cards.Format(deck))
	shows("the shuffled deck", strings.Join(names, " "))
	for seat := range 3 {
		var hand []string
		for i := seat; i < 51; i += 3 {
			hand = append(hand, names[i])
		}
		shows("a seat's dealt cards", strings.Join(hand, " "))
	}
	shows("the kitty", strings.Join(names[51:], " "))
	if first := rest.Below(3); !strings.Contains(text, "seat "+strconv.FormatUint(first, 10)+" bids first") {
		t.Errorf("docs/AUDIT.md, worked example: the first bidder is seat %d", first)
	}
}
