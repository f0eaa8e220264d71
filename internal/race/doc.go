// Package race tells whether the build has the race detector, for the
// tests that do less under it: the detector slows single-goroutine work
// tenfold and can find nothing there, and make test runs every test once
// without it (Makefile, gotest).
package race
