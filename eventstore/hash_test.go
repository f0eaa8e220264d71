package eventstore_test

import (
	"math/rand/v2"
	"testing"

	"paiju/eventstore"
)

// TestHasherMatchesHash: the writer's reusable Hasher gives Hash's value
// for every event, whatever the sizes of the events hashed before it
// (its buffer is reused), and the golden values of TestHashGolden.
func TestHasherMatchesHash(t *testing.T) {
	var h eventstore.Hasher
	first := h.Sum("", "table-1", 1, "TableOpened", []byte(`{}`))
	if want := "f8d36030e179449aec761a194779004c8d12e7f9e0b6355dd1e1fc3223cabc52"; first != want {
		t.Fatalf("Hasher: first event %s, want %s", first, want)
	}
	if got, want := h.Sum(first, "table-1", 2, "PlayerSeated", []byte(`{"seat":0}`)), "8a4f10ffb4ea95854406327af4e983ec187a32fce27d55355009e14e9ecdb445"; got != want {
		t.Fatalf("Hasher: second event %s, want %s", got, want)
	}
	rng := rand.New(rand.NewPCG(21, 1))
	text := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return string(b)
	}
	prev := ""
	for i := range 2000 {
		stream, typ, data := text(rng.IntN(40)), text(rng.IntN(30)), []byte(text(rng.IntN(3000)))
		version := rng.IntN(1 << 30)
		if i%7 == 0 {
			version = -version // not a version a store writes, but Hash defines it
		}
		want := eventstore.Hash(prev, stream, version, typ, data)
		if got := h.Sum(prev, stream, version, typ, data); got != want {
			t.Fatalf("event %d: Hasher %s, Hash %s", i, got, want)
		}
		prev = want
		if i%5 == 0 {
			prev = text(rng.IntN(70))
		}
	}
}
