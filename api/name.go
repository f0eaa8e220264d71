package api

import (
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

const maxNameLen = 40

// playerName normalises a player name and refuses one that would not read as
// what it is. Names are shown to other players, so a name that reorders the
// text around it (bidi controls), hides characters (zero-width ones) or is
// not text at all (control characters, invalid UTF-8 or a lone surrogate,
// which the JSON decoder turns into U+FFFD) could pass for someone else's.
// The name is kept in NFC, so that two spellings of one name are one name.
func playerName(raw string) (string, error) {
	return visibleText(raw, maxNameLen, func(why string) error {
		return problem(http.StatusUnprocessableEntity, "invalid_name",
			fmt.Sprintf("name must be 1 to %d characters of visible text: %s", maxNameLen, why))
	})
}

// visibleText is raw normalised as playerName normalises a name, at most
// maxLen characters, or the error bad makes of why it is refused.
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
	}
	return ""
}
