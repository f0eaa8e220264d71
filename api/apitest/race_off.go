//go:build !race

package apitest

// checkBodies is true without the race detector: every request and
// response body is checked against openapi.yaml (see race_on.go).
const checkBodies = true
