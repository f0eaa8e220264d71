//go:build race

package gametest

// RaceEnabled reports that the tests run under the race detector.
const RaceEnabled = true
