package cards

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// slowRankString and slowCardString are String as it was written before
// the tables: the reference the tables must agree with.
func slowRankString(r Rank) string {
	switch {
	case r >= 2 && r <= 10:
		return fmt.Sprint(int(r))
	case r == Jack:
		return "J"
	case r == Queen:
		return "Q"
	case r == King:
		return "K"
	case r == Ace:
		return "A"
	case r == BlackJoker:
		return "BJ"
	case r == RedJoker:
		return "RJ"
	}
	return fmt.Sprintf("Rank(%d)", int(r))
}

func slowCardString(c Card) string {
	if c.Suit == Joker {
		return slowRankString(c.Rank)
	}
	if !c.Valid() {
		return fmt.Sprintf("Card(%d,%d)", c.Suit, c.Rank)
	}
	return c.Suit.Letter() + slowRankString(c.Rank)
}

// TestEncodingTables: for every suit and rank value, valid or not, String,
// MarshalText and MarshalJSON agree with the formatting they replace, and
// MarshalJSON writes the bytes encoding/json writes from MarshalText.
func TestEncodingTables(t *testing.T) {
	for s := range 256 {
		for r := range 256 {
			c := Card{Suit: Suit(s), Rank: Rank(r)}
			if got, want := Rank(r).String(), slowRankString(Rank(r)); got != want {
				t.Fatalf("Rank(%d).String() = %q, want %q", r, got, want)
			}
			if got, want := c.String(), slowCardString(c); got != want {
				t.Fatalf("%d,%d: String() = %q, want %q", s, r, got, want)
			}
			text, terr := c.MarshalText()
			js, jerr := c.MarshalJSON()
			if (terr != nil) != !c.Valid() || (jerr != nil) != (terr != nil) {
				t.Fatalf("%d,%d: MarshalText error %v, MarshalJSON error %v, valid %v", s, r, terr, jerr, c.Valid())
			}
			if terr != nil {
				continue
			}
			if string(text) != slowCardString(c) {
				t.Fatalf("%v: MarshalText = %q", c, text)
			}
			want, err := json.Marshal(string(text))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(js, want) {
				t.Fatalf("%v: MarshalJSON = %s, want %s", c, js, want)
			}
		}
	}
}

// TestEncodingNoAlloc: String and MarshalJSON of a valid card allocate
// nothing, which is why they are tables.
func TestEncodingNoAlloc(t *testing.T) {
	c := Card{Suit: Hearts, Rank: 10}
	if n := testing.AllocsPerRun(100, func() { _ = c.String() }); n != 0 {
		t.Errorf("String: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = c.MarshalJSON() }); n != 0 {
		t.Errorf("MarshalJSON: %v allocations", n)
	}
}

// TestCardsJSONUnchanged: lists and structs of cards encode as they did
// through MarshalText, and read back.
func TestCardsJSONUnchanged(t *testing.T) {
	deck := Deck(2)
	got, err := json.Marshal(struct {
		Cards []Card       `json:"cards"`
		One   Card         `json:"one"`
		Ptr   *Card        `json:"ptr"`
		Map   map[Card]int `json:"map"`
		Any   any          `json:"any"`
	}{deck, RJ, &deck[3], map[Card]int{BJ: 1, {Suit: Spades, Rank: 10}: 2}, deck[:3]})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString(`{"cards":[`)
	for i, c := range deck {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q", slowCardString(c))
	}
	b.WriteString(`],"one":"RJ","ptr":"S5","map":{"BJ":1,"S10":2},"any":["S2","S3","S4"]}`)
	if string(got) != b.String() {
		t.Fatalf("got  %s\nwant %s", got, b.String())
	}
	var back struct {
		Cards []Card `json:"cards"`
	}
	if err := json.Unmarshal(got, &back); err != nil || len(back.Cards) != len(deck) || back.Cards[53] != deck[53] {
		t.Fatalf("read back: %v %v", err, back.Cards)
	}
}
