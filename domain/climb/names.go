package climb

import (
	"fmt"
	"slices"
)

// TypeNames names a climbing game's combination types. Index 0 is no type;
// the games persist their types by these names and clients name readings
// with them, so a name never changes once shipped.
type TypeNames struct {
	// Game prefixes the errors ("doudizhu").
	Game string
	// Names by type; Names[0] is unused.
	Names []string
}

// Name is type t's name, or "Type(t)" when t names no type.
func (n TypeNames) Name(t uint8) string {
	if t > 0 && int(t) < len(n.Names) {
		return n.Names[t]
	}
	return fmt.Sprintf("Type(%d)", t)
}

// Parse returns the type with the given name.
func (n TypeNames) Parse(name string) (uint8, bool) {
	i := slices.Index(n.Names, name)
	if i <= 0 {
		return 0, false
	}
	return uint8(i), true
}

// Marshal writes type t's name, for MarshalText.
func (n TypeNames) Marshal(t uint8) ([]byte, error) {
	if t == 0 || int(t) >= len(n.Names) {
		return nil, fmt.Errorf("%s: cannot encode combination %d", n.Game, t)
	}
	return []byte(n.Names[t]), nil
}

// Unmarshal reads a type's name, for UnmarshalText.
func (n TypeNames) Unmarshal(b []byte) (uint8, error) {
	t, ok := n.Parse(string(b))
	if !ok {
		return 0, fmt.Errorf("%s: unknown combination %q", n.Game, b)
	}
	return t, nil
}
