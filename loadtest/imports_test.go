package loadtest

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsOnlyTheStandardLibrary: the load tool measures the server from
// outside, as a client would, so none of its files, tests included,
// imports a package of the server (or anything but the standard library).
func TestImportsOnlyTheStandardLibrary(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			// A standard package's path has no dot in its first element.
			if first, _, _ := strings.Cut(path, "/"); first == "paiju" || strings.Contains(first, ".") {
				t.Errorf("%s imports %s: the load client imports only the standard library", name, path)
			}
		}
	}
}
