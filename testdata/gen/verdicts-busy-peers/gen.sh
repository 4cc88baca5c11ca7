#!/usr/bin/env bash
# Regenerates the busy-peers fixtures of testdata/verdicts/ (issue 33: busy work over several
# moments against a runaway among busy peers) from com.example.peers.ValidatorPool (src/), run
# on Java 17 and dumped three times by `jstack -l`, 5 s apart, 3 s after it printed "ready"
# (testdata/gen/jstack3.sh):
#
#   busy-peers-runaway   ValidatorPool runaway   validator-1 backtracks for ever in one matches
#   busy-peers-healthy   ValidatorPool healthy   four validators checking short fields (control)
#
# Each README.md was written by hand from the source before dumpdiff ran on the dumps; this
# script only replaces the dumps. The JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-busy-peers/gen.sh [CASE...]   (default: both; ~20 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-busy-peers.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
bin=$JDK17/bin/
source "$repo/testdata/gen/jstack3.sh"
cases=("$@")
((${#cases[@]})) || cases=(busy-peers-runaway busy-peers-healthy)
"${bin}javac" -nowarn --release 17 -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	"${bin}java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes" com.example.peers.ValidatorPool "${c#busy-peers-}" >"$tmp/out.log" 2>&1 &
	pid=$!
	dump_started "$tmp/out.log" "$repo/testdata/verdicts/$c"
done
