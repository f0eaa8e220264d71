package climb

// NextHolding is the first seat after seat, of n seats in turn order, that
// still holds cards (out reports a seat that has none), or seat itself when
// no other does: who leads when a trick ends on a player who went out (接风).
func NextHolding(seat, n int, out func(int) bool) int {
	for i := 1; i <= n; i++ {
		if next := (seat + i) % n; !out(next) {
			return next
		}
	}
	return seat
}

// OthersHolding counts the seats of n other than seat that still hold cards:
// how many passes end a trick.
func OthersHolding(seat, n int, out func(int) bool) int {
	k := 0
	for i := range n {
		if i != seat && !out(i) {
			k++
		}
	}
	return k
}
