# dumpdiff. `make test` is what CI runs (.ci/run); it reads committed fixtures only.
GO ?= go
PKGS := ./...
FUZZTIME ?= 20s

.PHONY: build test bench fuzz lint fixtures fixtures-tools bench-peers bench-1m bench-hprof

# The commit is stamped by the linker too: a build with -buildvcs=false (or
# from a tree the toolchain cannot read as a repository) still says which
# commit it is (dumpdiff version).
COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null)$(shell git diff --quiet HEAD 2>/dev/null || echo +modified)
COMMIT_TIME := $(shell git log -1 --format=%cI 2>/dev/null)
LDFLAGS := -X main.commit=$(COMMIT) -X main.commitTime=$(COMMIT_TIME)

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/dumpdiff ./cmd/dumpdiff

# The packages that run goroutines of their own (capture's schedules and
# processes, the TUI's program, the commands wiring them) also run under the
# race detector.
RACE_PKGS := ./capture ./tui ./watch ./cmd/...

# -timeout is a budget against a hang, not a speed check: alone, analyze's tests take ~3 min
# on the 2 cores, and past go test's default 10 min when other work loads the cores to 30.
test: lint
	$(GO) test -count=1 -timeout 30m $(PKGS)
	$(GO) test -race -count=1 -timeout 30m $(RACE_PKGS)

# gofmt, go vet and staticcheck (.ci/run installs staticcheck through the
# module proxy; locally it runs when found on PATH or in GOPATH/bin).
STATICCHECK ?= $(shell command -v staticcheck 2>/dev/null || ls $$($(GO) env GOPATH)/bin/staticcheck 2>/dev/null)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	@if [ -n "$(STATICCHECK)" ]; then echo "$(STATICCHECK) ./..."; $(STATICCHECK) ./...; else echo "staticcheck not installed: skipped (.ci/run installs it)"; fi

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

# Each fuzz target runs for FUZZTIME; their seeds run in `make test`.
fuzz:
	@for t in $$($(GO) test -list '^Fuzz' ./parse | grep '^Fuzz'); do \
		echo "== $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) ./parse || exit 1; \
	done

# Regenerate the real-server fixtures in testdata/ (JVM, PostgreSQL, load, Go
# services and runtimes). Slow (~5 min); by hand only, never in `make test`.
fixtures:
	./testdata/gen/run-all.sh
	./testdata/gen/go-slow-upstream/gen.sh
	bash ./testdata/gen/go-rwlock/gen.sh
	bash ./testdata/gen/verdicts-rwlock/gen.sh
	./testdata/gen/go-parse/gen.sh
	./testdata/gen/jvm-parse/gen.sh
	bash ./testdata/gen/verdicts-jvm/gen.sh
	bash ./testdata/gen/verdicts-go/gen.sh
	bash ./testdata/gen/libs-jvm/gen.sh
	bash ./testdata/gen/libs-go/gen.sh
	bash ./testdata/gen/libs-jdk25/gen.sh
	bash ./testdata/gen/actuator/gen.sh
	bash ./testdata/gen/go-gone/gen.sh
	bash ./testdata/gen/go-gonewaits/gen.sh
	bash ./testdata/gen/go-dotless/gen.sh
	bash ./testdata/gen/jfr/gen.sh
	bash ./testdata/gen/pasted/gen.sh
	bash ./testdata/gen/java-live/gen.sh
	bash ./testdata/gen/java-vsched/gen.sh
	bash ./testdata/gen/go-old/gen.sh
	bash ./testdata/gen/go-mass-leak/gen.sh
	bash ./testdata/gen/go-idle-long/gen.sh
	bash ./testdata/gen/go-rest-leak/gen.sh
	bash ./testdata/gen/verdicts-spin/gen.sh
	bash ./testdata/gen/verdicts-spin/gen-go.sh
	./testdata/gen/watchdog/gen.sh
	./testdata/gen/pprof-text/gen.sh
	bash ./testdata/gen/verdicts-crowd/gen.sh
	bash ./testdata/gen/verdicts-crowd/gen-go.sh
	bash ./testdata/gen/verdicts-goshapes/gen.sh
	bash ./testdata/gen/go-handlers-chan/gen.sh
	bash ./testdata/gen/go-cgo/gen.sh
	bash ./testdata/gen/verdicts-goshapes/gen-pipeline.sh
	bash ./testdata/gen/verdicts-pools/gen.sh
	bash ./testdata/gen/verdicts-poolholders/gen.sh
	bash ./testdata/gen/verdicts-onedump/gen.sh
	bash ./testdata/gen/verdicts-borrow/gen.sh
	bash ./testdata/gen/verdicts-hotloop/gen.sh
	bash ./testdata/gen/watch/gen.sh
	bash ./testdata/gen/verdicts-cycles/gen.sh
	bash ./testdata/gen/verdicts-jcycles/gen.sh
	bash ./testdata/gen/verdicts-handoff/gen.sh
	bash ./testdata/gen/verdicts-holders/gen.sh
	bash ./testdata/gen/sources-real/gen.sh
	bash ./testdata/gen/sources-real/gen-go.sh
	bash ./testdata/gen/verdicts-holderfirst/gen.sh
	bash ./testdata/gen/verdicts-peers/gen.sh
	bash ./testdata/gen/verdicts-orphans/gen.sh
	bash ./testdata/gen/verdicts-unserved/gen.sh
	JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 bash ./testdata/gen/verdicts-peers/gen.sh jdk25-peers-stuck
	bash ./testdata/gen/verdicts-twosided/gen.sh
	JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 bash ./testdata/gen/verdicts-twosided/gen.sh jdk25-twosided-stuck
	bash ./testdata/gen/verdicts-keptalive/gen.sh
	bash ./testdata/gen/verdicts-execleak/gen.sh
	bash ./testdata/gen/verdicts-progress/gen.sh
	JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 bash ./testdata/gen/verdicts-progress/gen.sh jdk25-throttle-healthy jdk25-batch-healthy jdk25-livelock-yield-stuck
	JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 bash ./testdata/gen/verdicts-keptalive/gen.sh jdk25-keptalive-leaked jdk25-keptalive-prodcons jdk25-keptalive-waitnotify jdk25-keptalive-scheduled jdk25-keptalive-timer jdk25-missed-signal-stuck jdk25-missed-signal-healthy jdk25-missed-notify-stuck jdk25-missed-notify-healthy jdk25-pool-barrier-stuck jdk25-pool-barrier-healthy
	sh ./testdata/gen/karaf-threads/gen.sh
	sh ./testdata/gen/dropwizard-threads/gen.sh
	bash ./testdata/gen/go-livesets/gen.sh
	bash ./testdata/gen/go-livesets/gen.sh go113
	bash ./testdata/gen/verdicts-spin-edges/gen.sh
	bash ./testdata/gen/verdicts-spin-cpu/gen.sh
	bash ./testdata/gen/verdicts-scalamap/gen.sh
	bash ./testdata/gen/roles/gen.sh
	bash ./testdata/gen/go-lock-held/gen.sh
	bash ./testdata/gen/go-lock-chan/gen.sh
	bash ./testdata/gen/go-mutex-cycles/gen.sh
	bash ./testdata/gen/go-held-expvar/gen.sh
	bash ./testdata/gen/go-waits/gen.sh
	bash ./testdata/gen/gotimeout/gen.sh
	bash ./testdata/gen/go-stalls/gen.sh
	bash ./testdata/gen/goleak/gen.sh
	bash ./testdata/gen/gotrace/gen.sh
	bash ./testdata/gen/threadinfo/gen.sh
	bash ./testdata/gen/jhsdb/gen.sh
	bash ./testdata/gen/excerpts/gen.sh
	bash ./testdata/gen/prefixed/shapes.sh
	bash ./testdata/gen/hprof/gen.sh
	bash ./testdata/gen/go-stream-paste/gen.sh
	sh ./testdata/gen/pasted-cut/gen.sh
	bash ./testdata/gen/verdicts-peerread/gen.sh
	JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 bash ./testdata/gen/verdicts-peerread/gen.sh
	bash ./testdata/gen/go-peerread/gen.sh
	bash ./testdata/gen/go-pushclient/gen.sh
	bash ./testdata/gen/jvm-tpcserver/gen.sh

# Fixtures that need a tool fetched or built first, each as its script
# says: Delve from the module proxy (delve/gen.sh, then delve/goland.sh),
# CockroachDB's Go fork built from its source (debug3/gen.sh), npm's
# concurrently, foreman and pm2 in NPM_BIN (prefixed/gen.sh and
# prefixed/cutlines/gen.sh), gotraceanalyzer's source
# (excerpts/aggregated.sh GTA_SRC), systemd-journal-remote (journal/gen.sh).
# By hand only.
fixtures-tools:
	bash ./testdata/gen/delve/gen.sh
	bash ./testdata/gen/delve/goland.sh
	bash ./testdata/gen/debug3/gen.sh
	bash ./testdata/gen/prefixed/gen.sh
	bash ./testdata/gen/journal/gen.sh
	bash ./testdata/gen/prefixed/cutlines/gen.sh

# Compare parse speed and peak RSS against peers (bench/ is its own module).
bench-peers:
	cd bench && ./compare.sh

# The reader at 3 × 1M goroutines against issue 11's targets (by hand:
# ~4 GB of disk, minutes).
bench-1m:
	cd bench && ./reader-1m.sh

# The heap dump reader on a generated 4 GiB HPROF file: GB/s beside grep -c
# and peak RSS (by hand: 4 GiB of disk, minutes; GIB=N for another size).
bench-hprof:
	cd bench && ./hprof.sh
