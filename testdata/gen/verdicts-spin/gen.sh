#!/usr/bin/env bash
# Regenerates the runaway-thread fixtures of testdata/verdicts/ (issue 27) from small real
# Java programs (src/com/example/spin, one main per case) dumped twice with `jstack -l PID`,
# on the installed JDK 17 (folders jvm-spin-*, jvm-busy-*) and on Temurin 25 (jdk25-spin-*,
# jdk25-busy-*; skipped when /usr/lib/jvm/temurin-25-jdk-amd64 is absent):
#
#   *-spin-regex     RegexApp      a backreference regex backtracking for ever on validator-1;
#                                  req-1..3 wait for its Futures
#   *-spin-monitor   MonitorApp    registry-sync retries without back-off inside a monitor;
#                                  worker-1..6 are BLOCKED on it
#   *-spin-parser    ParserApp     parser-1..4 loop in a tokenizer that does not advance;
#                                  import-job waits in invokeAll
#   *-spin-latch     ParserLatchApp  the same parser pool, waited for on a CountDownLatch by
#                                  latch-job
#   *-busy-batch     BatchApp      healthy: a scheduled batch job and an export that compute
#                                  and finish
#   *-busy-eventloop EventLoopApp  healthy: a java.nio selector loop busy serving 4 clients
#
# Each program runs alone (the spins share the machine's cores with nothing of ours). The dumps
# are GAP seconds apart (default 30) and each README.md says, from the program's source, what
# dumpdiff must conclude, then the grep counts and cpu=/elapsed= of the named threads.
# Every JVM started here is killed on exit. Usage: bash gen.sh [CASE...] (~6 min for all).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out_root=$(cd "$here/../../verdicts" && pwd)
GAP=${GAP:-30}
JDK25=/usr/lib/jvm/temurin-25-jdk-amd64
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-spin.XXXXXX)
pid=
cleanup() {
	if [[ -n $pid ]]; then kill -KILL "$pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# run JAVA_HOME-BIN FOLDER MAIN START-S [JAVA ARGS...]: starts MAIN, dumps it START-S seconds
# after it printed "ready" and GAP seconds later, writes FOLDER (1.txt, 2.txt, README.md).
run() {
	local bin=$1 folder=$2 main=$3 start=$4
	shift 4
	local classes=$tmp/classes-$(basename "$(dirname "$bin")")
	if [[ ! -d $classes ]]; then
		"$bin/javac" -d "$classes" "$here"/src/com/example/spin/*.java
	fi
	log "$folder: $main"
	"$bin/java" -Xmx64m -XX:+UseSerialGC "$@" -cp "$classes" "com.example.spin.$main" >"$tmp/app.log" 2>&1 &
	pid=$!
	local i
	for i in $(seq 100); do
		grep -q '^ready$' "$tmp/app.log" && break
		sleep 0.1
	done
	grep -q '^ready$' "$tmp/app.log" || { cat "$tmp/app.log" >&2; exit 1; }
	local dir=$tmp/$folder
	mkdir -p "$dir"
	sleep "$start"
	local t1=$EPOCHREALTIME
	LOAD1=$(cut -d' ' -f1 /proc/loadavg)
	"$bin/jstack" -l "$pid" >"$dir/1.txt"
	sleep "$(awk -v a="$t1" -v g="$GAP" -v now="$EPOCHREALTIME" 'BEGIN { d = a + g - now; print (d > 0 ? d : 0) }')"
	LOAD2=$(cut -d' ' -f1 /proc/loadavg)
	"$bin/jstack" -l "$pid" >"$dir/2.txt"
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	pid=
	local version
	version=$("$bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p')
	readme "$dir" "$main" "$start" "$version" "$@" >"$dir/README.md"
	rm -rf "${out_root:?}/$folder"
	mv "$dir" "$out_root/$folder"
	log "$folder: written"
}

# expected MAIN: what the program's source says dumpdiff must conclude (written from the
# source before dumpdiff ran on the dumps).
expected() {
	case $1 in
	RegexApp) cat <<'T'
**spinning** (critical): `validator-1`, the validation executor's one thread, is `RUNNABLE`
in `java.util.regex.Pattern` frames (the JDK's code: the loop is the library's) under
`Validator.check`, matching `^(\w|\w?)+\1=` (a backreference: the JDK cannot memoize it) on
64 word characters: it backtracks for ever, and its CPU time grows with the wall clock.
`req-1` waits for that check's Future, `req-2` and `req-3` for checks queued behind it
(`FutureTask.get` from `RequestHandler.handle`, whose lambda is the validator's task): they
wait for it. Nothing else is wrong.
T
		;;
	MonitorApp) cat <<'T'
**spinning** (critical): `registry-sync` is `RUNNABLE` in the synchronized
`Registry.reconnect`, retrying `tryConnect` (pure CPU, always false) with no back-off, and
holds the `Registry` monitor all along. `worker-1`..`worker-6` (a fixed pool of 6) are
`BLOCKED` entering the synchronized `Registry.lookup` on that monitor: their contention is
caused by the spinning thread, one story.
T
		;;
	ParserApp) cat <<'T'
**spinning** (critical): `parser-1`..`parser-4`, a fixed pool of 4, each loop for ever in
`Tokenizer.count`/`skipComment` (a comment skip that does not advance when the comment is
unterminated; the JIT may inline `skipComment` and `String.indexOf` into `count`), their CPU
time growing with the wall clock (4 spinning threads share the machine's cores, so each gets
a share of the wall clock, not all of it). `import-job` waits in `invokeAll` for their
results (`FutureTask.get`, culprit `ImportJob.run`, whose lambda is the parsers' task).
T
		;;
	ParserLatchApp) cat <<'T'
**spinning** (critical): `parser-1`..`parser-4`, a fixed pool of 4, each loop for ever in
`Tokenizer.count`/`skipComment`, as in ParserApp, their CPU time growing with the wall clock.
`latch-job` handed them the four documents with `execute`, each task counting a
`CountDownLatch` down when done, and waits on it (`latch-wait`, culprit `LatchJob.run`, whose
lambda is the parsers' task): it waits on a latch the spinning pool would count down.
T
		;;
	BatchApp) cat <<'T'
**healthy** (no hang): `nightly-1` has waited (idle) since the JVM started and computes a
SHA-256 batch job from 20 s to 35 s after start (on the scheduled executor's thread), then waits again;
`export-1` is started 22 s after start, computes for 10 s and ends. At 1.txt both compute, but `nightly-1` has been alive longer
than it has computed and `export-1` is young; at 2.txt the job is done (`nightly-1` waits,
`export-1` is gone). At most busy work, never a hang.
T
		;;
	EventLoopApp) cat <<'T'
**healthy** (no hang): `io-loop`, a `java.nio` selector loop, serves 4 clients over kept-alive
connections on 127.0.0.1 and digests each request (1000 SHA-256 rounds) before answering; it
returns to its selector (`EPoll.wait`) between requests, so its CPU time grows by less than
the wall clock. `client-1`..`client-4` wait for replies (socket reads) or pause 1 ms.
T
		;;
	esac
}

# cpu FILE NAME-REGEX: the cpu= and elapsed= of the threads whose name matches.
cpu() {
	grep -E "^\"$2\" " "$1" | sed -E 's/^"([^"]*)".* cpu=([0-9.]+ms) elapsed=([0-9.]+s).*/`\1` cpu=\2 elapsed=\3/' | paste -sd ';' | sed 's/;/; /g'
}

readme() {
	local dir=$1 main=$2 start=$3 version=$4 f
	shift 4
	printf '# %s\n\n' "$(basename "$dir")"
	printf 'Issue 27 (runaway threads): `com.example.spin.%s` (`testdata/gen/verdicts-spin/src`).\n\n' "$main"
	printf '## What dumpdiff must conclude (from the source)\n\n'
	expected "$main"
	printf '\n## How it was made\n\n'
	printf '`bash testdata/gen/verdicts-spin/gen.sh`, which ran `java -Xmx64m -XX:+UseSerialGC %s-cp $CLASSES com.example.spin.%s`,\n' "${*:+$* }" "$main"
	printf 'then `jstack -l PID > 1.txt` %s s after it printed `ready` and `jstack -l PID > 2.txt` %s s after\n' "$start" "$GAP"
	printf '1.txt started; then the JVM was killed. Runtime: %s.\n\n' "$version"
	printf '## Counts (grep over the dumps)\n\n| | 1.txt | 2.txt |\n|---|---:|---:|\n'
	printf '| date line (first line) | %s | %s |\n' "$(head -1 "$dir/1.txt")" "$(head -1 "$dir/2.txt")"
	printf '| load average of the machine (2 cores, shared; `/proc/loadavg`) | %s | %s |\n' "$LOAD1" "$LOAD2"
	printf '| threads (`grep -c '"'"'^"'"'"'`) | %s | %s |\n' "$(grep -c '^"' "$dir/1.txt")" "$(grep -c '^"' "$dir/2.txt")"
	for s in RUNNABLE BLOCKED WAITING TIMED_WAITING; do
		printf '| `java.lang.Thread.State: %s` | %s | %s |\n' "$s" "$(grep -c "State: $s\b" "$dir/1.txt" || true)" "$(grep -c "State: $s\b" "$dir/2.txt" || true)"
	done
	printf '\nCPU and elapsed time of the program'"'"'s threads, from their headers:\n\n'
	for f in 1.txt 2.txt; do
		printf -- '- %s: %s\n' "$f" "$(cpu "$dir/$f" '(validator|req|registry-sync|worker|parser|import-job|latch-job|nightly|export|io-loop|client)-?[0-9]*')"
	done
}

cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=(spin-regex spin-monitor spin-parser spin-latch busy-batch busy-eventloop)
jdks=("jvm:$(dirname "$(command -v javac)")")
if [[ -x $JDK25/bin/javac ]]; then jdks+=("jdk25:$JDK25/bin"); else log "no Temurin 25 at $JDK25: its folders are skipped"; fi
for jdk in "${jdks[@]}"; do
	prefix=${jdk%%:*} bin=${jdk#*:}
	for c in "${cases[@]}"; do
		case $c in
		spin-regex) run "$bin" "$prefix-$c" RegexApp 3 ;;
		spin-monitor) run "$bin" "$prefix-$c" MonitorApp 3 ;;
		spin-parser) run "$bin" "$prefix-$c" ParserApp 3 ;;
		spin-latch) run "$bin" "$prefix-$c" ParserLatchApp 3 ;;
		busy-batch) run "$bin" "$prefix-$c" BatchApp 24 ;;
		busy-eventloop) run "$bin" "$prefix-$c" EventLoopApp 5 ;;
		*) log "unknown case $c"; exit 2 ;;
		esac
	done
done
