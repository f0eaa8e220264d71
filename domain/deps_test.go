package domain_test

import (
	"os/exec"
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
