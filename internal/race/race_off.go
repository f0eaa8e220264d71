//go:build !race

package race

// Enabled reports that the program was built with -race.
const Enabled = false
