package cards

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ParseError reports a token that is not a card. Its message names the token
// and its position, so it can be shown to the player as it is.
type ParseError struct {
	Token string // the offending token as written (truncated when very long)
	Index int    // 0-based position of the token in the input
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("card %d: %q is not a card (want suit S/H/C/D then rank 2-10/J/Q/K/A, or BJ/RJ)", e.Index+1, e.Token)
}

// maxTokenEcho bounds how much of a bad token is echoed back in errors.
const maxTokenEcho = 16

// ParseCard parses one card. It accepts the canonical notation ("S10", "RJ"),
// T for 10, lower case, and the suit symbols ♠♥♣♦ in place of the letter.
func ParseCard(tok string) (Card, error) {
	c, ok := parseCard(tok)
	if !ok {
		return Card{}, &ParseError{Token: echo(tok)}
	}
	return c, nil
}

func echo(tok string) string {
	if !utf8.ValidString(tok) {
		tok = strings.ToValidUTF8(tok, "\uFFFD")
	}
	if utf8.RuneCountInString(tok) > maxTokenEcho {
		r := []rune(tok)
		return string(r[:maxTokenEcho]) + "…"
	}
	return tok
}

func parseCard(tok string) (Card, bool) {
	switch strings.ToUpper(tok) {
	case "BJ":
		return BJ, true
	case "RJ":
		return RJ, true
	}
	r, size := utf8.DecodeRuneInString(tok)
	var s Suit
	switch r {
	case 'S', 's', '♠':
		s = Spades
	case 'H', 'h', '♥':
		s = Hearts
	case 'C', 'c', '♣':
		s = Clubs
	case 'D', 'd', '♦':
		s = Diamonds
	default:
		return Card{}, false
	}
	rank, ok := parseRank(tok[size:])
	if !ok {
		return Card{}, false
	}
	return Card{Suit: s, Rank: rank}, true
}

func parseRank(s string) (Rank, bool) {
	switch strings.ToUpper(s) {
	case "2", "3", "4", "5", "6", "7", "8", "9":
		return Rank(s[0] - '0'), true
	case "10", "T":
		return 10, true
	case "J":
		return Jack, true
	case "Q":
		return Queen, true
	case "K":
		return King, true
	case "A":
		return Ace, true
	}
	return 0, false
}

// Parse parses cards separated by white space or commas ("S10 HA, RJ"). The
// empty string is an empty list. Errors are *ParseError.
func Parse(s string) ([]Card, error) {
	toks := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	out := make([]Card, 0, len(toks))
	for i, tok := range toks {
		c, ok := parseCard(tok)
		if !ok {
			return nil, &ParseError{Token: echo(tok), Index: i}
		}
		out = append(out, c)
	}
	return out, nil
}

// ParseList parses a list of single-card tokens, as a JSON array carries them.
func ParseList(toks []string) ([]Card, error) {
	out := make([]Card, 0, len(toks))
	for i, tok := range toks {
		c, ok := parseCard(strings.TrimSpace(tok))
		if !ok {
			return nil, &ParseError{Token: echo(tok), Index: i}
		}
		out = append(out, c)
	}
	return out, nil
}

// MustParse is Parse for tests and fixtures; it panics on error.
func MustParse(s string) []Card {
	cs, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return cs
}

// Format writes cards in canonical notation separated by single spaces, in the
// order given.
func Format(cs []Card) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// Strings returns the canonical notation of each card.
func Strings(cs []Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}
