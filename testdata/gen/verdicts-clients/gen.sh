#!/usr/bin/env bash
# Regenerates testdata/verdicts/client-waits-{stuck,healthy} (issue 33: an application's own client
# reads and DNS lookups, none under a server's request) from src/, on the installed Java 17, dumped
# three times with `jstack -l PID`, 5 s apart, 3 s after the program printed "ready".
# JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 makes the jdk25-client-waits-* cases.
# The READMEs were written by hand from the source before dumpdiff ran; the JVM is killed on exit.
#
# backlog-busy and backlog-keepup (com.example.clients.BacklogApp backlog|keepup: a bounded queue
# whose consumers are busy at every instant, and its control) and executor-busy, executor-keepup
# (com.example.clients.BlockingExecutorApp busy|keepup: a ThreadPoolExecutor whose rejection handler
# waits for room in its queue) are made the same way.
#
# Usage: bash testdata/gen/verdicts-clients/gen.sh [CASE...]   (default: every case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
. "$here/../jstack3.sh"
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-clients.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
bin=${JAVA_HOME:+$JAVA_HOME/bin/}
cases=("$@")
((${#cases[@]})) || cases=(client-waits-stuck client-waits-healthy backlog-busy backlog-keepup executor-busy executor-keepup)
declare -A MAIN=([client-waits]=ClientWaitsApp [backlog]=BacklogApp [executor]=BlockingExecutorApp)
declare -A MODE=([client-waits-stuck]=stuck [client-waits-healthy]=healthy [backlog-busy]=backlog [backlog-keepup]=keepup [executor-busy]=busy [executor-keepup]=keepup)
"${bin}javac" -nowarn -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	base=${c#jdk25-}
	"${bin}java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes" "com.example.clients.${MAIN[${base%-*}]}" "${MODE[$base]}" >"$tmp/out.log" 2>&1 &
	pid=$!
	dir=$repo/testdata/verdicts/$c
	dump_started "$tmp/out.log" "$dir"
done
