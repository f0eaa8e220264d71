package cards

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// FuzzParse checks the card notation parser (rules/README.md, Cards and
// notation): it never panics; what it accepts formats to canonical notation
// that parses back to the same cards; what it rejects is a *ParseError that
// names a token of the input and its position.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := Parse(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q): %T %v, want *ParseError", s, err, err)
			}
			toks := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
			if pe.Index < 0 || pe.Index >= len(toks) {
				t.Fatalf("Parse(%q): error at token %d of %d", s, pe.Index, len(toks))
			}
			tok := strings.ToValidUTF8(toks[pe.Index], "\uFFFD")
			if !strings.HasPrefix(tok, strings.TrimSuffix(pe.Token, "…")) || pe.Token == "" {
				t.Fatalf("Parse(%q): error names %q, token %d is %q", s, pe.Token, pe.Index, toks[pe.Index])
			}
			if !strings.Contains(pe.Error(), fmt.Sprintf("%q", pe.Token)) {
				t.Fatalf("the message %q does not name the token %q", pe.Error(), pe.Token)
			}
			return
		}
		for _, c := range cs {
			if !c.Valid() {
				t.Fatalf("Parse(%q) returned the invalid card %v", s, c)
			}
		}
		canon := Format(cs)
		again, err := Parse(canon)
		if err != nil || !slices.Equal(again, cs) {
			t.Fatalf("Parse(%q) = %v; its canonical form %q parses as %v, %v", s, cs, canon, again, err)
		}
		if Format(again) != canon {
			t.Fatalf("canonical form %q is not stable", canon)
		}
	})
}

// FuzzUnmarshalText holds UnmarshalText's shortcut for the canonical
// notation to ParseCard: the same card, or an error, for any token.
func FuzzUnmarshalText(f *testing.F) {
	for _, tok := range []string{"S10", "HA", "BJ", "RJ", "D2", "s10", "ST", "S1", "S100", "BJJ", "C0", "♠A", ""} {
		f.Add(tok)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		want, werr := ParseCard(tok)
		var got Card
		gerr := got.UnmarshalText([]byte(tok))
		if (werr == nil) != (gerr == nil) || got != want {
			t.Fatalf("UnmarshalText(%q) = %v, %v; ParseCard: %v, %v", tok, got, gerr, want, werr)
		}
	})
}

// TestUnmarshalTextEveryCard decodes the canonical notation of every card,
// and every two- and three-byte token of letters and digits, as ParseCard
// does.
func TestUnmarshalTextEveryCard(t *testing.T) {
	for i := range DeckSize {
		c := FromIndex(i)
		var got Card
		if err := got.UnmarshalText([]byte(c.String())); err != nil || got != c {
			t.Fatalf("UnmarshalText(%q) = %v, %v", c.String(), got, err)
		}
	}
	const alphabet = "SHCDBRJQKAT0123456789shcdbrjqkat"
	for _, a := range alphabet {
		for _, b := range alphabet {
			for _, c := range " " + alphabet {
				tok := strings.TrimSpace(string([]rune{a, b, c}))
				want, werr := ParseCard(tok)
				var got Card
				gerr := got.UnmarshalText([]byte(tok))
				if (werr == nil) != (gerr == nil) || got != want {
					t.Fatalf("UnmarshalText(%q) = %v, %v; ParseCard: %v, %v", tok, got, gerr, want, werr)
				}
			}
		}
	}
}
