#!/usr/bin/env bash
# Regenerates testdata/libs/go113-sync/1.txt: the goroutine dump (runtime.Stack, all) of
# sync/main.go as Go 1.13.15 prints it, every sync wait as "[semacquire]". The toolchain
# comes from the Go module proxy (GOTOOLCHAIN=go1.13.15 downloads it into the module cache
# on first use); it is then run directly, without modules and without the machine's go env
# (GOENV=off: its -buildvcs flag is unknown before Go 1.18).
# Usage: bash testdata/gen/go-old/gen.sh (~10 s the first time).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out=$repo/testdata/libs/go113-sync
GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true # fetches the toolchain
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
[[ -x $g13/bin/go ]] || { echo "no Go 1.13.15 toolchain in the module cache" >&2; exit 1; }
mkdir -p "$out"
(cd "$here/sync" && GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" run main.go) >"$out/1.txt"
# The checks: 9 goroutines in [semacquire] (3 Mutex, 3 RWMutex, 3 WaitGroup) and 3 in
# [sync.Cond.Wait] (1.13 already names a Cond's wait).
[[ $(grep -c '^goroutine [0-9]* \[semacquire\]:$' "$out/1.txt") == 9 ]] || { echo "want 9 semacquire" >&2; exit 1; }
[[ $(grep -c '^goroutine [0-9]* \[sync.Cond.Wait\]:$' "$out/1.txt") == 3 ]] || { echo "want 3 sync.Cond.Wait" >&2; exit 1; }
cat >"$out/README.md" <<README
# go113-sync

\`testdata/gen/go-old/sync/main.go\` run by Go 1.13.15 (\`bash testdata/gen/go-old/gen.sh\`):
three goroutines on each of a locked \`sync.Mutex\` (\`main.main.func1\`), an \`RWMutex\` held for
writing (\`func2\`, \`RLock\`), a \`WaitGroup\` of 1 (\`func3\`) and a \`Cond\` (\`func4\`), then
\`runtime.Stack(all)\`. Go 1.13 prints the first nine as \`[semacquire]\`
($(grep -c '^goroutine [0-9]* \[semacquire\]:$' "$out/1.txt") in the file, counted with grep) and the
Cond's as \`[sync.Cond.Wait]\` ($(grep -c '^goroutine [0-9]* \[sync.Cond.Wait\]:$' "$out/1.txt")). The right answer: mutex-wait,
rwmutex-wait, waitgroup-wait and cond-wait, three each, by their frames.
README
echo "wrote $out" >&2
