package domain_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDomainImportsNoAdapters keeps the domain the root of the tree: nothing
// under domain/ may reach the network, a database, the HTTP router or NATS.
func TestDomainImportsNoAdapters(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	forbidden := []string{"net/http", "database/sql", "net", "os/exec", "github.com/", "modernc.org/", "paiju/api", "paiju/eventstore", "paiju/service", "paiju/natsbus"}
	for _, dep := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if dep == f || strings.HasPrefix(dep, f+"/") || (strings.HasSuffix(f, "/") && strings.HasPrefix(dep, f)) {
				t.Errorf("the domain depends on %s: domain packages must not do I/O (STYLE.md, The shape of the tree)", dep)
			}
		}
	}
}

// TestDomainStartsNoGoroutine keeps the rules single-threaded: no package
// under domain/ starts a goroutine or synchronizes one (sync, sync/atomic).
// A rules value is then only ever used by one goroutine at a time, the
// caller's, which is why make test's race pass leaves these packages out:
// the detector can find nothing in them that the tests of their callers
// (service, api, e2e), which run many tables side by side under it, would
// not.
func TestDomainStartsNoGoroutine(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "sync" || p == "sync/atomic" {
				t.Errorf("%s imports %s: the rules packages run in their caller's goroutine and share nothing", fset.Position(imp.Pos()), p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok {
				t.Errorf("%s starts a goroutine: the rules packages run in their caller's goroutine", fset.Position(g.Pos()))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
