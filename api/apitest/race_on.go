//go:build race

package apitest

// checkBodies is false under the race detector: the client then checks no
// body against openapi.yaml's schemas (it still checks every route,
// parameter, status and declared header). make test runs every test once
// without -race, where every body is checked; under -race the schema
// checks, the largest part of a whole-hand test's work and all of it in
// the test's own goroutine, would slow the pass tenfold and find nothing
// the race detector looks for.
const checkBodies = false
