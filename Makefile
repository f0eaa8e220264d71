# The checks CI runs (.ci/run calls `make test`).

GO ?= go
# Every build leaves the checkout's path out (-trimpath), so that the Go
# build cache serves a fresh clone anywhere on the machine: without it,
# each new directory compiles every package of the module again, in each
# of the test passes, vet, staticcheck and the fuzz targets.
GOFLAGS := $(strip $(filter-out -trimpath,$(GOFLAGS)) -trimpath)
export GOFLAGS
BIN := $(CURDIR)/bin
# The server binary, built once (make bin) for every stage that runs it: the
# TypeScript client check, the browser tests, the cluster test, and the
# tests of whole processes in the go test pass without -race, which read
# PAIJU_BIN.
PAIJU_BIN := $(BIN)/paiju
# The package of the cluster test (TestCluster).
CLUSTER_PKG ?= ./e2e/

.PHONY: test stages gotest gotest-full gotest-race bin client-types lint vet staticcheck fuzz openapi-lint client-check web-test serve bench bench-all benchstat check-tidy vulncheck cluster-test

# make test runs every check, as stages side by side, CI_JOBS at once, the
# longest first (the order of STAGES below). Each stage's output goes to
# $(CI_LOGS)/<stage>.log and is printed whole when the stage ends
# (.ci/stage), so that stages never mix their lines. At the end a table
# gives each stage's wall time, followed by the go test passes' verdicts
# (ok/FAIL lines) again, so that those close the output.
CI_JOBS ?= 4
CI_LOGS ?= $(BIN)/ci-logs
export CI_LOGS
STAGE := $(CURDIR)/.ci/stage

test:
	@$(STAGE) begin
	@$(MAKE) --no-print-directory -j$(CI_JOBS) stages; \
	rc=$$?; $(STAGE) report; exit $$rc

# The stages, in the order they should start: the race pass at once (it
# needs nothing built), then, once bin/paiju and the client's types are
# made (the stage prepare), the others in this order, CI_JOBS at once.
STAGES := stage-gotest-race stage-gotest-full stage-web-test stage-cluster-test stage-lint stage-client-check stage-fuzz stage-vulncheck stage-openapi-lint
stages: $(STAGES)
# Every stage but the race pass waits for prepare, even those that need
# neither: they all become ready at one moment and start in the order
# above, the long ones first (a short stage ready earlier would take a
# place before them).
$(filter-out stage-gotest-race,$(STAGES)): stage-prepare
# Each stage once: bin and client-types, made by prepare, are not made
# again in the stages that need them.
stage-%:
	@$(STAGE) run $(subst gotest-full,go-test,$(subst gotest-race,go-test-race,$*)) $(MAKE) --no-print-directory -o bin -o client-types $*
stage-prepare:
	@$(STAGE) run prepare $(MAKE) --no-print-directory -j2 bin client-types

bin:
	$(GO) build -o $(PAIJU_BIN) .

lint: vet staticcheck check-tidy
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# staticcheck is built from tools/go.mod so that it never touches the app's dependencies.
staticcheck:
	$(GO) -C tools build -o $(BIN)/staticcheck honnef.co/go/tools/cmd/staticcheck
	$(BIN)/staticcheck ./...

# go.mod and go.sum must be what "go mod tidy" makes them, in both modules.
check-tidy:
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; }
	@$(GO) -C tools mod tidy -diff || { echo "tools/go.mod/go.sum are not tidy: run go -C tools mod tidy"; exit 1; }

# Known vulnerabilities in the code paths paiju calls. govulncheck is pinned
# in tools/go.mod and needs its database; where the database cannot be
# reached (an offline build machine) the check is skipped, saying so, rather
# than failing every build. Set VULNDB to a mirror (file:// or https://).
VULNDB ?= https://vuln.go.dev
vulncheck:
	$(GO) -C tools build -o $(BIN)/govulncheck golang.org/x/vuln/cmd/govulncheck
	@case "$(VULNDB)" in \
	http*) if ! curl -fsS --max-time 15 -o /dev/null "$(VULNDB)/index/db.json" 2>&1; then \
		echo "vulncheck SKIPPED: the vulnerability database $(VULNDB) is unreachable from here"; exit 0; fi;; \
	esac; \
	$(BIN)/govulncheck -db "$(VULNDB)" ./...

# Two passes. The first, without the race detector, runs every package's
# tests in full: every request and response checked against openapi.yaml
# (api/apitest), the crawlers, the statistical suites. The second, under
# the race detector and -short, runs every concurrency test in full. It
# leaves out the rules packages (domain/...): they start no goroutine and
# synchronize none (domain's TestDomainStartsNoGoroutine), so the detector
# finds nothing in their own tests that the tests of their callers, which
# run many tables side by side under it, would not. The tests whose work is
# one sequence in one goroutine skip themselves (one client's crawl of
# whole games, e2e/api's crawlerSkipsUnderRace; a script or files checked
# in turn, e2e's sequentialSkipsUnderRace), and the test client checks no
# bodies against the schemas (api/apitest, Client.checkBodies;
# internal/race says whether -race is on): the first pass did all that. go
# vet runs in full in make lint, hence -vet=off.
gotest: gotest-full gotest-race
gotest-full: bin
	PAIJU_BIN=$(PAIJU_BIN) $(GO) test -vet=off -count=1 -timeout 20m ./...
# The race pass runs no test of a paiju process (those skip with -short),
# so it does not wait for make bin. SQLite's C, translated to Go
# (modernc.org/sqlite/lib and modernc.org/libc), is compiled without the
# detector's instrumentation, as the C of a cgo library always is: the
# detector then watches paiju's code and the Go libraries, and SQLite's
# memory traffic, most of the pass's time when it was instrumented, no
# longer counts. The driver (modernc.org/sqlite) and every other package
# stay instrumented.
RACE_UNINSTRUMENTED := modernc.org/sqlite/lib modernc.org/libc/...
gotest-race:
	@pkgs=$$($(GO) list ./...) || exit 1; \
	echo "$(GO) test -race -short -vet=off -count=1 -timeout 20m$(foreach p,$(RACE_UNINSTRUMENTED), -gcflags='$(p)=-race=false') (every package but domain/...)"; \
	$(GO) test -race -short -vet=off -count=1 -timeout 20m$(foreach p,$(RACE_UNINSTRUMENTED), -gcflags='$(p)=-race=false') $$(echo "$$pkgs" | grep -v '^paiju/domain\(/\|$$\)')

# The cluster test (cluster_test.go): a 3-server NATS JetStream cluster and
# 3 paiju nodes on one PostgreSQL database, under load, with SIGKILLs of
# nodes and of a NATS server; then the fault test (cluster_faults_test.go):
# the same cluster through toxiproxy, 60 s of load under 20 faults of 8
# kinds (partitions, latency, resets, SIGKILLs, pauses), each table's
# history checked linearizable (PAIJU_FAULTS=N runs N faults instead). It
# needs PostgreSQL (see README, Run it and test it) and builds nats-server (the version in go.mod); PAIJU_BIN names the
# server make bin built, for the test to run. It runs once, here, without
# the race detector: the go test passes skip it. CLUSTER_PKG is the package
# that holds it.
cluster-test: bin
	PAIJU_CLUSTER_TEST=1 PAIJU_BIN=$(PAIJU_BIN) $(GO) test -count=1 -run '^TestCluster(Faults)?$$' -timeout 15m -v $(CLUSTER_PKG)

# A short run of every fuzz target beyond its committed corpus. The run is
# bounded by executions, not time: a time bound can expire while the fuzzing
# workers are still starting on a busy machine, which go test reports as a
# failure ("context deadline exceeded").
FUZZTIME ?= 2000x
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./domain/cards/
	$(GO) test -run '^$$' -fuzz '^FuzzUnmarshalText$$' -fuzztime $(FUZZTIME) ./domain/cards/
	$(GO) test -run '^$$' -fuzz '^FuzzPatterns$$' -fuzztime $(FUZZTIME) ./domain/doudizhu/
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeCanonical$$' -fuzztime $(FUZZTIME) ./domain/doudizhu/
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeCanonical$$' -fuzztime $(FUZZTIME) ./domain/table/
	$(GO) test -run '^$$' -fuzz '^FuzzClassify$$' -fuzztime $(FUZZTIME) ./domain/doudizhu/
	$(GO) test -run '^$$' -fuzz '^FuzzClassifyTwoDecks$$' -fuzztime $(FUZZTIME) ./domain/doudizhu/
	$(GO) test -run '^$$' -fuzz '^FuzzFollow$$' -fuzztime $(FUZZTIME) ./domain/shengji/
	$(GO) test -run '^$$' -fuzz '^FuzzGuafengFollow$$' -fuzztime $(FUZZTIME) ./domain/shengji/
	$(GO) test -run '^$$' -fuzz '^FuzzClassify$$' -fuzztime $(FUZZTIME) ./domain/dadun/
	$(GO) test -run '^$$' -fuzz '^FuzzEvaluate$$' -fuzztime $(FUZZTIME) ./domain/niuniu/
	$(GO) test -run '^$$' -fuzz '^FuzzClassify$$' -fuzztime $(FUZZTIME) ./domain/shuangkou/
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./api/strictjson/
	$(GO) test -run '^$$' -fuzz '^FuzzActionFast$$' -fuzztime $(FUZZTIME) ./api/
	$(GO) test -run '^$$' -fuzz '^FuzzHandSettledOf$$' -fuzztime $(FUZZTIME) ./projections/

openapi-lint:
	@if command -v npx >/dev/null 2>&1; then npx --yes @redocly/cli@2.77.0 lint --format stylish openapi.yaml; \
	else echo "npx not found: skipping the OpenAPI lint"; fi

# The TypeScript client of clients/typescript: its types are generated from
# openapi.yaml (openapi-typescript, pinned with openapi-fetch and typescript
# in its package-lock.json), its program is type-checked strictly and must
# not use `any`, and it then plays a hand of 斗地主 against a real server,
# which it starts on a free port with a temporary data directory. npm ci
# prefers its cache, so that a machine that has run it once needs no
# network. schema.d.ts is generated, never committed.
CLIENT := clients/typescript
CLIENT_SRC = $(filter-out %.d.ts,$(wildcard $(CLIENT)/src/*.ts))
client-check: bin client-types
	@if ! command -v npm >/dev/null 2>&1; then echo "npm not found: skipping the TypeScript client check"; exit 0; fi; \
	set -e; \
	cd $(CLIENT); \
	if grep -nw any $(patsubst $(CLIENT)/%,%,$(CLIENT_SRC)); then echo "$(CLIENT): the program must not use any"; exit 1; fi; \
	npx --no-install tsc --noEmit -p . ; \
	npx --no-install tsc -p . ; \
	node dist/play.js $(PAIJU_BIN)

# The client's packages, and its types generated from openapi.yaml, which
# the web app's type check uses too: installed once for both (make test
# runs client-check and web-test side by side).
client-types:
	@if ! command -v npm >/dev/null 2>&1; then echo "npm not found: no TypeScript client types"; exit 0; fi; \
	set -e; \
	cd $(CLIENT); \
	npm ci --prefer-offline --no-audit --no-fund --loglevel=error; \
	npm run --silent generate

# The web app (web/) in a real browser: its modules and the browser tests
# are type-checked (tsc --checkJs against the types generated from
# openapi.yaml; no JSDoc type may be `any`),
# then the tests of web/e2e (node --test, playwright-core pinned in its
# package-lock.json) drive chromium against bin/paiju. Without chromium
# (PAIJU_CHROMIUM, default /usr/bin/chromium) the browser tests are
# skipped, saying so, unless CI or PAIJU_REQUIRE_CHROMIUM is set (.ci/run
# sets it): then they fail.
WEB_CHROMIUM ?= $(or $(PAIJU_CHROMIUM),/usr/bin/chromium)
# Test files at once. node --test runs one file at a time on a 2-core machine
# (the CPUs less one), while a browser test spends most of its time waiting
# on its server and its browser: three at once keep the cores busy.
WEB_TEST_JOBS ?= 3
web-test: bin client-types
	@if ! command -v npm >/dev/null 2>&1; then \
		if [ -n "$$CI$$PAIJU_REQUIRE_CHROMIUM" ]; then echo "web-test: npm not found"; exit 1; fi; \
		echo "web-test SKIPPED: npm not found"; exit 0; fi; \
	set -e; \
	(cd web/e2e && npm ci --prefer-offline --no-audit --no-fund --loglevel=error); \
	if grep -rnE '\{[^}]*\<any\>[^}]*\}' web/static/js web/e2e/*.mjs; then echo "web: no type may be any"; exit 1; fi; \
	web/e2e/node_modules/.bin/tsc -p web; \
	web/e2e/node_modules/.bin/tsc -p web/e2e; \
	if [ ! -x "$(WEB_CHROMIUM)" ]; then \
		if [ -n "$$CI$$PAIJU_REQUIRE_CHROMIUM" ]; then echo "web-test: no chromium at $(WEB_CHROMIUM) (install Debian's chromium or set PAIJU_CHROMIUM)"; exit 1; fi; \
		echo "web-test SKIPPED the browser tests: no chromium at $(WEB_CHROMIUM)"; exit 0; fi; \
	PAIJU_BIN=$(PAIJU_BIN) PAIJU_CHROMIUM=$(WEB_CHROMIUM) node --test --test-concurrency=$(WEB_TEST_JOBS) web/e2e/

# bench runs the benchmarks of the committed position sets and the cold
# replay (docs/PERF.md), a few runs each; compare two outputs with
# $(BIN)/benchstat (make benchstat). bench-all runs every benchmark once.
BENCH_SET := '^(BenchmarkPatterns|BenchmarkCheckPlay|BenchmarkLegalSet|BenchmarkSummarySet|BenchmarkColdReplay)$$'
BENCH_COUNT ?= 3

bench:
	$(GO) test -run '^$$' -bench $(BENCH_SET) -benchmem -count $(BENCH_COUNT) ./domain/doudizhu/ ./domain/dadun/ ./domain/shuangkou/
	$(GO) test -run '^$$' -bench '^BenchmarkLegalPage$$/state/' -benchmem -count $(BENCH_COUNT) ./service/
	$(GO) test -run '^$$' -bench '^(BenchmarkSuiteApplyBatch|BenchmarkSuiteApplyBatchLongHands)$$' -benchtime 50000x -benchmem -count $(BENCH_COUNT) ./projections/sqlite/

bench-all:
	$(GO) test -run '^$$' -bench . -benchmem ./...

benchstat:
	$(GO) -C tools build -o $(BIN)/benchstat golang.org/x/perf/cmd/benchstat

serve:
	$(GO) run . serve
