# stormlab: `make report` regenerates every report, `make test` proves the
# committed baselines still hold.
GO          ?= go
BIN         := bin/stormlab
EXPERIMENTS := $(sort $(wildcard experiments/*.toml))

.PHONY: build install report test check bench fuzz clean

# A static binary (no cgo, so no dynamic loader and no libc to map at start),
# stripped and with reproducible paths. The race detector needs cgo, so
# `go test -race` below keeps the default; `make build BUILDFLAGS=` keeps the
# symbols for a debugger or a profiler.
BUILDFLAGS  ?= -trimpath -ldflags='-s -w'

build:
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -o $(BIN) ./cmd/stormlab

# Put stormlab into GOBIN (or GOPATH/bin), built as above.
install:
	CGO_ENABLED=0 $(GO) install $(BUILDFLAGS) ./cmd/stormlab

# Regenerate reports/<experiment>/ for every experiment, and reports/README.md.
report: build
	$(BIN) run $(EXPERIMENTS)

# Vet, race-enabled tests, then compare regenerated CSVs with the baselines
# (stormlab check: the README's command, which its test leaves to this line).
# The model's long tests run in one goroutine, where the race detector finds
# nothing and slows them tenfold: they skip under it, and the model's package
# runs again without it. The plots package starts no goroutine and runs its
# tests one at a time (a test of it fails if that changes), so it runs
# without the detector only. The lab's tests run real gRPC in real time,
# which the race detector slows: the lab's package runs again without it,
# where those that compare counts with the model's compare them all (and
# skip, saying why, on a machine too busy to keep up).
# The browser test of stormlab serve needs Chromium; without it, it is
# skipped and this says so (STORMLAB_BROWSER=required makes it a failure).
BROWSERS    := chromium chromium-browser google-chrome google-chrome-stable
test: build
	$(GO) vet ./...
	@for b in $(BROWSERS); do command -v $$b >/dev/null 2>&1 && exit 0; done; \
	echo "make test: no chromium on PATH, so the browser test of stormlab serve is skipped (apt-get install -y chromium runs it)"
	$(GO) test -race -timeout 30m $$($(GO) list ./... | grep -v '/plots$$')
	$(GO) test -count=1 ./model ./plots
	$(GO) test -count=1 ./cmd/stormlab/lab
	$(BIN) check

# Compare regenerated CSVs with the committed baselines only.
check: build
	$(BIN) check

# Benchmarks, six runs each for benchstat: make bench > new.txt; benchstat old.txt new.txt
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 6 ./...

# Fuzz the experiment loader for a minute.
fuzz:
	$(GO) test ./experiments -run '^$$' -fuzz FuzzLoad -fuzztime 1m

clean:
	rm -rf bin
