# The checks CI runs (.ci/run calls `make test`).

GO ?= go
BIN := $(CURDIR)/bin

.PHONY: test lint vet staticcheck gotest fuzz openapi-lint serve bench

# go test runs last, so that its lines close the output.
test: lint fuzz openapi-lint gotest

lint: vet staticcheck
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# staticcheck is built from tools/go.mod so that it never touches the app's dependencies.
staticcheck:
	$(GO) -C tools build -o $(BIN)/staticcheck honnef.co/go/tools/cmd/staticcheck
	$(BIN)/staticcheck ./...

# The rules packages first without the race detector: their long statistical
# tests (random hands, bot strength, timed-out hands) share no memory between
# goroutines and skip themselves under -race (gametest.SkipUnderRace). Then
# everything under the race detector.
gotest:
	$(GO) test -count=1 ./domain/...
	$(GO) test -race -count=1 -timeout 20m ./...

# A short run of every fuzz target beyond its committed corpus. The run is
# bounded by executions, not time: a time bound can expire while the fuzzing
# workers are still starting on a busy machine, which go test reports as a
# failure ("context deadline exceeded").
FUZZTIME ?= 2000x
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./domain/cards/
	$(GO) test -run '^$$' -fuzz '^FuzzClassify$$' -fuzztime $(FUZZTIME) ./domain/doudizhu/
	$(GO) test -run '^$$' -fuzz '^FuzzClassifyTwoDecks$$' -fuzztime $(FUZZTIME) ./domain/doudizhu/
	$(GO) test -run '^$$' -fuzz '^FuzzFollow$$' -fuzztime $(FUZZTIME) ./domain/shengji/
	$(GO) test -run '^$$' -fuzz '^FuzzGuafengFollow$$' -fuzztime $(FUZZTIME) ./domain/shengji/
	$(GO) test -run '^$$' -fuzz '^FuzzClassify$$' -fuzztime $(FUZZTIME) ./domain/dadun/
	$(GO) test -run '^$$' -fuzz '^FuzzEvaluate$$' -fuzztime $(FUZZTIME) ./domain/niuniu/
	$(GO) test -run '^$$' -fuzz '^FuzzClassify$$' -fuzztime $(FUZZTIME) ./domain/shuangkou/
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./api/strictjson/

openapi-lint:
	@if command -v npx >/dev/null 2>&1; then npx --yes @redocly/cli@2.77.0 lint --format stylish openapi.yaml; \
	else echo "npx not found: skipping the OpenAPI lint"; fi

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

serve:
	$(GO) run . serve
