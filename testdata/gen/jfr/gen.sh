#!/usr/bin/env bash
# Regenerates testdata/jfr/: a JDK Flight Recorder recording of a real Java 17 report service
# (src/com/example/reports/ReportService.java) whose pool gets stuck, with a jdk.ThreadDump
# event every second (threaddump.jfc), and what the JDK's jfr tool prints of it:
#
#   stuck-pool.jfr          the recording (~5 s: two healthy dumps, then the pool stuck)
#   stuck-pool.jfr.txt      jfr print --events jdk.ThreadDump stuck-pool.jfr
#   stuck-pool.jfr.json     jfr print --json --events jdk.ThreadDump stuck-pool.jfr
#   README.md               the states of the report-N workers in each dump, by awk (not dumpdiff)
#
# Usage: testdata/gen/jfr/gen.sh   (from anywhere; ~10 s). Needs java, javac and jfr (17).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out=$repo/testdata/jfr
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

javac -d "$tmp/classes" "$here/src/com/example/reports/ReportService.java"
TZ=UTC java -Xmx64m -XX:StartFlightRecording:settings="$here/threaddump.jfc",filename="$tmp/stuck-pool.jfr" \
	-cp "$tmp/classes" com.example.reports.ReportService >"$tmp/run.log" 2>&1 || { cat "$tmp/run.log" >&2; exit 1; }
TZ=UTC jfr print --events jdk.ThreadDump "$tmp/stuck-pool.jfr" >"$tmp/stuck-pool.jfr.txt"
TZ=UTC jfr print --json --events jdk.ThreadDump "$tmp/stuck-pool.jfr" >"$tmp/stuck-pool.jfr.json"

jdk=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p')
events=$(grep -c '^jdk.ThreadDump {' "$tmp/stuck-pool.jfr.txt")
rows=$(awk '
	/^jdk.ThreadDump \{/ { n++ }
	/^  startTime = / { t[n] = $3 }
	/^"report-[0-9]+"/ { getline; st = $2; c[n, st]++ }
	END {
		for (i = 1; i <= n; i++)
			printf "| %d | %s | %d | %d | %d |\n", i, t[i], c[i, "BLOCKED"] + 0, c[i, "WAITING"] + c[i, "TIMED_WAITING"] + 0, c[i, "RUNNABLE"] + 0
	}' "$tmp/stuck-pool.jfr.txt")
cat >"$tmp/README.md" <<MD
# A JFR recording with thread dumps (real JVM)

Written by \`testdata/gen/jfr/gen.sh\`: OpenJDK $jdk running
\`testdata/gen/jfr/src/com/example/reports/ReportService.java\` under
\`-XX:StartFlightRecording:settings=threaddump.jfc\` (\`testdata/gen/jfr/threaddump.jfc\`: only
\`jdk.ThreadDump\`, every second), for about 5 s. Six \`report-N\` workers render reports; after
2 s \`cache-refresh\` takes the TemplateCache monitor and reads from a template server that never
answers (a socket read without timeout), and every worker blocks behind it for good.

| file | what |
|---|---|
| \`stuck-pool.jfr\` | the recording, $events \`jdk.ThreadDump\` events |
| \`stuck-pool.jfr.txt\` | \`jfr print --events jdk.ThreadDump stuck-pool.jfr\` (TZ=UTC) |
| \`stuck-pool.jfr.json\` | \`jfr print --json --events jdk.ThreadDump stuck-pool.jfr\` |

States of the \`report-N\` workers in each event, by awk over \`stuck-pool.jfr.txt\` (not by
dumpdiff):

| event | startTime (UTC) | BLOCKED | WAITING, TIMED_WAITING | RUNNABLE |
|---|---|---|---|---|
$rows

dumpdiff reads \`stuck-pool.jfr\` by running \`jfr print --json\` (the JDK's jfr tool must be on
the PATH or in \`\$JAVA_HOME/bin\`); the two printed forms are read without it.
MD
mkdir -p "$out"
rm -f "$out"/*
cp "$tmp"/stuck-pool.jfr "$tmp"/stuck-pool.jfr.txt "$tmp"/stuck-pool.jfr.json "$tmp"/README.md "$out"/
echo "wrote $out" >&2
