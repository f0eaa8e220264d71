package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/secure/precis"
	"golang.org/x/text/unicode/norm"
)

const maxNameLen = 40

// playerName enforces the PRECIS Nickname profile (RFC 8266) on a player
// name and returns the name as it is kept and shown, and its comparison
// key: two names with one key are one name, and the store keeps keys
// unique (so "玩家1" and "玩家１", or "Alice" and "alice", cannot both be
// taken). Names are shown to other players, so a name that could pass for
// someone else's or for no name at all is refused: one without a letter or
// digit, one holding characters that display as nothing (default-ignorable
// and format characters, the Hangul and Braille blanks), that reorder the
// text around them (bidi controls), that break lines, that mean nothing
// outside a private agreement (private use) or that are not text at all
// (control characters, invalid UTF-8, a lone surrogate, which the JSON
// decoder turns into U+FFFD).
func playerName(raw string) (name, key string, err error) {
	bad := func(why string) error {
		return problem(http.StatusUnprocessableEntity, "invalid_name",
			fmt.Sprintf("name must be 1 to %d characters of visible text with a letter or digit: %s", maxNameLen, why))
	}
	if _, err := visibleText(raw, maxNameLen, bad); err != nil {
		return "", "", err
	}
	name, err = precis.Nickname.String(raw)
	if err != nil {
		return "", "", bad("the PRECIS Nickname profile refuses it (" + err.Error() + ")")
	}
	key, err = precis.Nickname.CompareKey(name)
	if err != nil {
		return "", "", bad("the PRECIS Nickname profile refuses it (" + err.Error() + ")")
	}
	if n := utf8.RuneCountInString(name); n == 0 || n > maxNameLen {
		return "", "", bad(fmt.Sprintf("it has %d once normalised", n))
	}
	if !strings.ContainsFunc(name, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) {
		return "", "", bad("it has no letter or digit")
	}
	return name, key, nil
}

// visibleText is raw in NFC and trimmed, at most maxLen characters, none of
// them refused (refusedRune), or the error bad makes of why it is refused.
func visibleText(raw string, maxLen int, bad func(why string) error) (string, error) {
	if !utf8.ValidString(raw) {
		return "", bad("it is not valid UTF-8")
	}
	name := strings.TrimSpace(norm.NFC.String(raw))
	if name == "" {
		return "", bad("it is empty")
	}
	if n := utf8.RuneCountInString(name); n > maxLen {
		return "", bad(fmt.Sprintf("it has %d", n))
	}
	for i, r := range name {
		if why := refusedRune(r); why != "" {
			return "", bad(fmt.Sprintf("%s U+%04X at byte %d", why, r, i))
		}
	}
	return name, nil
}

// refusedRune says why r may not appear in a name, or "" if it may.
func refusedRune(r rune) string {
	switch {
	case r == utf8.RuneError:
		return "a lone surrogate or invalid character"
	case unicode.IsControl(r):
		return "the control character"
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return "the bidirectional control"
	case r >= 0x200B && r <= 0x200D, r == 0x2060, r == 0xFEFF:
		return "the zero-width character"
	case unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
		return "the line or paragraph separator"
	case unicode.Is(unicode.Co, r):
		return "the private-use character"
	case r == 0x2800:
		return "the blank Braille pattern"
	case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r), unicode.Is(unicode.Variation_Selector, r):
		// Default_Ignorable_Code_Point is (nearly) these three: characters a
		// renderer draws as nothing, such as U+3164 or U+00AD.
		return "the invisible (default-ignorable or format) character"
	}
	return ""
}

// nameTaken is err as the caller sees it: 409 name_taken when the store
// refused name because another player holds its key.
func nameTaken(name string, err error) error {
	if errors.Is(err, ErrNameTaken) {
		return problem(http.StatusConflict, "name_taken",
			fmt.Sprintf("another player's name compares equal to %q (names are compared by the PRECIS Nickname profile: case, width and spacing aside)", name))
	}
	return err
}
