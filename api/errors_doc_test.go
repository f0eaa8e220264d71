package api_test

import (
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestErrorCodesDocumented keeps docs/ERRORS.md the complete list of the
// stable error codes clients branch on: every code the server can answer
// with is listed there, and nothing is listed that the server lost.
func TestErrorCodesDocumented(t *testing.T) {
	defined := regexp.MustCompile(`Kind:\s*(?:table\.)?(Kind\w+),\s*Code:\s*"([a-z_]+)"|problem\(http\.(Status\w+),\s*"([a-z_]+)"`)
	// The statuses api/problem.go gives the domain's kinds, and net/http's
	// constants by name.
	status := map[string]int{"KindInvalid": 422, "KindRule": 422, "KindConflict": 409, "KindForbidden": 403, "KindNotFound": 404}
	for code := 100; code < 600; code++ {
		if text := http.StatusText(code); text != "" {
			status["Status"+strings.NewReplacer(" ", "", "-", "").Replace(text)] = code
		}
	}
	inSource := map[string]string{}
	wantStatus := map[string]int{}
	for _, dir := range []string{"../domain", "../service", "."} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range defined.FindAllStringSubmatch(string(b), -1) {
				code := m[2] + m[4]
				inSource[code] = path
				st, ok := status[m[1]+m[3]]
				if !ok {
					t.Errorf("%s: code %s has the unknown status %s", path, code, m[1]+m[3])
				}
				wantStatus[code] = st
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(inSource) < 40 {
		t.Fatalf("found only %d error codes in the source: the pattern no longer matches how codes are defined", len(inSource))
	}
	b, err := os.ReadFile("../docs/ERRORS.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| (\\d+) \\|").FindAllStringSubmatch(string(b), -1) {
		listed[m[1]] = true
		if want, ok := wantStatus[m[1]]; ok && m[2] != strconv.Itoa(want) {
			t.Errorf("docs/ERRORS.md gives %s the status %s; the server answers %d", m[1], m[2], want)
		}
	}
	var missing, stale []string
	for code, path := range inSource {
		if !listed[code] {
			missing = append(missing, code+" ("+path+")")
		}
	}
	for code := range listed {
		if _, ok := inSource[code]; !ok {
			stale = append(stale, code)
		}
	}
	slices.Sort(missing)
	slices.Sort(stale)
	if len(missing) > 0 {
		t.Errorf("codes the server answers with that docs/ERRORS.md does not list: %v", missing)
	}
	if len(stale) > 0 {
		t.Errorf("codes docs/ERRORS.md lists that nothing defines any more: %v", stale)
	}
}
