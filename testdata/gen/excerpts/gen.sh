#!/bin/sh
# Writes the JVM excerpt fixtures of testdata/formats/ (issue 32) from one
# real jstack -l of Deadlocks.java (the JDK on PATH; OpenJDK 17.0.15 for
# the committed files), cut as people paste a jstack into a ticket:
#
#   jstack-jdk17__deadlocks-whole.txt         the whole dump: the oracle
#   jstack-jdk17__deadlock-report.txt         the deadlock report alone, from
#                                             "Found one Java-level deadlock:" to
#                                             "Found 2 deadlocks."
#   jstack-jdk17__deadlock-summary.md         the reports' summaries alone (no
#                                             "Java stack information" part), indented
#                                             in a Markdown list item, prose around
#   jstack-jdk17__from-state-line.txt         ring-0's entry from its state line down,
#                                             then the threads after it (a paste that
#                                             lost the first thread's header)
#
# Usage: testdata/gen/excerpts/gen.sh   (from anywhere; ~3 s).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/../../formats
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
javac -d "$tmp" "$here/Deadlocks.java"
java -cp "$tmp" Deadlocks >"$tmp/pid" &
jpid=$!
while [ ! -s "$tmp/pid" ]; do sleep 0.1; done
pid=$(cat "$tmp/pid")
[ "$pid" = "$jpid" ] || { echo "pid $pid is not the java started ($jpid)" >&2; exit 1; }
whole=$out/jstack-jdk17__deadlocks-whole.txt
jstack -l "$pid" >"$whole"
kill "$pid"
pid=
# The report alone: from its first line to "Found N deadlocks."
awk '/^Found one Java-level deadlock:/{on=1} on{print} /^Found [0-9]+ deadlocks?\./{exit}' "$whole" \
	>"$out/jstack-jdk17__deadlock-report.txt"
# The summaries alone, in a Markdown list item (3 spaces), with prose.
{
	printf 'Our service stopped answering. Steps:\n\n1. `jstack -l` shows:\n\n   ```\n'
	awk '/^Found one Java-level deadlock:/{on=1} /^Java stack information/{on=0} on{print}' "$whole" |
		sed 's/^\(.\)/   \1/'
	printf '   ```\n\n2. We restarted it.\n'
} >"$out/jstack-jdk17__deadlock-summary.md"
# From ring-0's state line down to the line before the deadlock report.
awk '/^"ring-0"/{on=1; next} on && /^Found one Java-level deadlock:/{exit} on{print}' "$whole" |
	sed '1s/^ *//' >"$out/jstack-jdk17__from-state-line.txt"
for f in deadlocks-whole deadlock-report from-state-line; do
	printf 'jstack-jdk17__%s.txt\t%s\n' "$f" "$(grep -c '^"' "$out/jstack-jdk17__$f.txt")"
done
