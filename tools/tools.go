//go:build tools

// Package tools pins the development tools in a module of their own, so that
// they never change the application's dependencies.
package tools

import (
	_ "golang.org/x/perf/cmd/benchstat"
	_ "golang.org/x/vuln/cmd/govulncheck"
	_ "honnef.co/go/tools/cmd/staticcheck"
)
