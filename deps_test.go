package main

import (
	"os"
	"os/exec"
	"slices"
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

	{"paiju/projections/postgres", "paiju/eventstore"}: "it applies stored events, as the projections contract says",

	// The command line reads flags into the configuration types of the
	// packages they configure; internal/app wires the packages.
	{"paiju/internal/cli", "paiju/api"}:                       "the quota flags fill api.Quotas",
	{"paiju/internal/cli", "paiju/natsbus"}:                   "the stream and lease flags fill natsbus's limits",
	{"paiju/internal/cli", "paiju/projections"}:               "replay names the projections",
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

// wirers may import every adapter: internal/app wires them (the only
// package that does), and the whole-stack tests under e2e run the real
// thing.
func wirer(pkg string) bool {
	return pkg == "paiju/internal/app" || strings.HasPrefix(pkg, "paiju/internal/app/") ||
		pkg == "paiju/e2e" || strings.HasPrefix(pkg, "paiju/e2e/")
}

// TestAdaptersImportNoAdapter keeps the ports and adapters apart: an adapter
// never imports another adapter, a contract is imported from outside its
// family only where contractUsers says why, and only internal/app wires
// adapters together (STYLE.md, The shape of the tree; DESIGN.md, Layout).
// api's tests keep the same rules: they use fakes of its interfaces, and
// the whole-stack tests live in e2e. Other packages' tests may use a real
// adapter as a fixture (the service's tests run on a real store).
func TestAdaptersImportNoAdapter(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}} |{{range .TestImports}} {{.}}{{end}}{{range .XTestImports}} {{.}}{{end}}`, "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	edges := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg, imports := f[0], f[1:]
		if wirer(pkg) {
			continue
		}
		pfam, padapter := family(pkg)
		for i, imp := range imports {
			if imp == "|" {
				if pfam != "api" {
					break
				}
				continue
			}
			who := pkg
			if i > 0 && slices.Contains(imports[:i], "|") {
				who = pkg + " (its tests)"
			}
			if imp == "paiju/internal/app" || strings.HasPrefix(imp, "paiju/internal/app/") {
				if pkg != "paiju/internal/cli" {
					t.Errorf("%s imports %s: only the command line (internal/cli) and the whole-stack tests (e2e) start the application", pkg, imp)
				}
				continue
			}
			ifam, iadapter := family(imp)
			if ifam == "" || ifam == pfam {
				continue
			}
			edges++
			switch {
			case contractUsers[[2]string{pkg, imp}] != "":
			case iadapter && pfam == "":
				t.Errorf("%s imports the adapter %s: only internal/app may wire adapters", who, imp)
			case iadapter:
				t.Errorf("the %s package %s imports the %s adapter %s: adapters never import each other; declare an interface where it is consumed and wire it in internal/app", pfam, who, ifam, imp)
			case pfam != "":
				kind := "contract"
				if padapter {
					kind = "adapter"
				}
				t.Errorf("the %s %s imports %s, the %s family's contract: only that family may, unless contractUsers says why", kind, who, imp, ifam)
			}
		}
	}
	if edges == 0 {
		t.Fatal("no import across families found: the package list no longer matches the tree")
	}
}

// TestMainOnlyCallsTheCommandLine: the root package is the program's entry
// and nothing else; the commands live in internal/cli.
func TestMainOnlyCallsTheCommandLine(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, imp := range strings.Fields(string(out)) {
		if strings.HasPrefix(imp, "paiju/") && imp != "paiju/internal/cli" {
			t.Errorf("main imports %s: it should only call internal/cli", imp)
		}
	}
	b, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > 60 {
		t.Errorf("main.go has %d lines; keep it to the entry point (≤ 60)", n)
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
