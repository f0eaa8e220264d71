package main

import (
	"os/exec"
	"strings"
	"testing"
)

// adapters are the packages that talk to one outside thing each, with the
// family each belongs to. A package under one of them belongs to it too
// (api/apitest is api's). A new storage sibling (eventstore/postgres,
// projections/postgres) is an adapter of its family by being under it.
var adapters = map[string]string{
	"paiju/api":                "api",
	"paiju/audit":              "audit",
	"paiju/natsbus":            "natsbus",
	"paiju/eventstore/sqlite":  "eventstore",
	"paiju/projections/sqlite": "projections",
	"paiju/metrics":            "metrics", // Prometheus: only main wires it to the producers
}

// contracts are pure packages (no I/O) that a family's adapters implement.
var contracts = map[string]string{
	"paiju/eventstore":                "eventstore",
	"paiju/eventstore/eventstoretest": "eventstore",
	"paiju/projections":               "projections",

	"paiju/projections/projectionstest": "projections",
}

// contractUsers are the imports of a contract from outside its family that
// the layout allows, with the reason.
var contractUsers = map[[2]string]string{
	{"paiju/audit", "paiju/eventstore"}:              "audit re-executes stored streams: the store's event type is its input",
	{"paiju/natsbus", "paiju/eventstore"}:            "the relay is the store's outbox: it reads the log and publishes stored events",
	{"paiju/projections", "paiju/eventstore"}:        "the read model is built from stored events",
	{"paiju/projections/sqlite", "paiju/eventstore"}: "it applies stored events, as the projections contract says",
	{"paiju/api", "paiju/projections"}:               "the read model's types are the bodies of the read routes (api declares the interfaces that serve them)",

	{"paiju/projections/postgres", "paiju/eventstore"}:        "it applies stored events, as the projections contract says",
	{"paiju/projections/projectionstest", "paiju/eventstore"}: "its logs are of stored events, as the projections contract says",
}

// family is the adapter family of pkg, and whether pkg is an adapter (false
// with a family for a contract; "" for neither).
func family(pkg string) (fam string, adapter bool) {
	if f, ok := contracts[pkg]; ok {
		return f, false
	}
	for root, f := range adapters {
		if pkg == root || strings.HasPrefix(pkg, root+"/") {
			return f, true
		}
	}
	for root, f := range map[string]string{"paiju/eventstore": "eventstore", "paiju/projections": "projections"} {
		if strings.HasPrefix(pkg, root+"/") {
			return f, true // a storage sibling not listed yet
		}
	}
	return "", false
}

// TestAdaptersImportNoAdapter keeps the ports and adapters apart: an adapter
// never imports another adapter, a contract is imported from outside its
// family only where contractUsers says why, and only main wires adapters
// together (STYLE.md, The shape of the tree; DESIGN.md, Layout).
func TestAdaptersImportNoAdapter(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	edges := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg, imports := f[0], f[1:]
		if pkg == "paiju" {
			continue // main wires everything
		}
		pfam, padapter := family(pkg)
		for _, imp := range imports {
			ifam, iadapter := family(imp)
			if ifam == "" || ifam == pfam {
				continue
			}
			edges++
			switch {
			case iadapter && pfam == "":
				t.Errorf("%s imports the adapter %s: only main may wire adapters", pkg, imp)
			case iadapter:
				t.Errorf("the %s package %s imports the %s adapter %s: adapters never import each other; declare an interface where it is consumed and wire it in main", pfam, pkg, ifam, imp)
			case pfam != "" && contractUsers[[2]string{pkg, imp}] == "":
				kind := "contract"
				if padapter {
					kind = "adapter"
				}
				t.Errorf("the %s %s imports %s, the %s family's contract: only that family may, unless contractUsers says why", kind, pkg, imp, ifam)
			}
		}
	}
	if edges == 0 {
		t.Fatal("no import across families found: the package list no longer matches the tree")
	}
}

// TestAPIBuildsWithoutTheServer: the HTTP layer builds, and is tested with
// fakes, without NATS, a database driver or migrations.
func TestAPIBuildsWithoutTheServer(t *testing.T) {
	for _, pkg := range []string{"./api", "./projections", "./eventstore"} {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 10 {
			t.Fatalf("go list -deps %s listed only %d packages", pkg, len(deps))
		}
		for _, dep := range deps {
			for _, f := range []string{"github.com/nats-io/", "modernc.org/sqlite", "github.com/golang-migrate/", "github.com/jackc/", "database/sql"} {
				// database/sql/driver is only interfaces (ulid implements them).
				if dep == f || strings.HasPrefix(dep, strings.TrimSuffix(f, "/")+"/") && dep != "database/sql/driver" {
					t.Errorf("%s depends on %s: it must build without NATS, SQL drivers and migrations", pkg, dep)
				}
			}
		}
	}
}
