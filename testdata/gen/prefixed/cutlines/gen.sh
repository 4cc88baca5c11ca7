#!/usr/bin/env bash
# Regenerates testdata/prefixed/cut-concurrently.{go,jvm}.log: dumps whose lines npm's
# concurrently cut in two. concurrently prefixes each process's output chunk by chunk; when
# another process's chunk comes between two chunks of one line, it ends the line there and
# prints its rest, prefixed again, as a line of its own. Here a second process ("orders")
# prints a line every 2 ms while the dump is written:
#
#   go   testdata/gen/pasted's Go program, its stderr straight to concurrently (no relay: the
#        runtime writes a traceback in many small writes), SIGQUIT under GOTRACEBACK=all
#   jvm  LongLines.java (thread names of 150-300 characters, frames of nested classes), its
#        dump by jstack, which writes what it reads from the attach stream in chunks
#
# Cuts fall where the scheduler puts them: a run may have none. Each is run until its log
# holds at least one cut (a line joined by dumpdiff's parse; its count is in COUNTS.tsv,
# made by grep: see README.md). Needs go, java, javac, jstack, and concurrently 10.0.7 in
# $NPM_BIN (`npm install concurrently@10.0.7`).
# Usage: NPM_BIN=node_modules/.bin testdata/gen/prefixed/cutlines/gen.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
out=$repo/testdata/prefixed
npm=${NPM_BIN:?set NPM_BIN to the node_modules/.bin holding concurrently}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$repo/testdata/gen/pasted/goapp" && go build -o "$tmp/checkout" .)
javac -d "$tmp/java" "$here/LongLines.java"
(cd "$repo" && go build -o "$tmp/dumpdiff" ./cmd/dumpdiff)
cat >"$tmp/go.sh" <<'SH'
#!/usr/bin/env bash
GOTRACEBACK=all "$1/checkout" | while IFS= read -r l; do
	if [ "$l" = ready ]; then printf '%s\n' "$l"; (sleep 0.2; pkill -QUIT -x checkout) & fi
done
SH
cat >"$tmp/jvm.sh" <<'SH'
#!/usr/bin/env bash
java -Xmx64m -cp "$1/java" com.example.cutlines.LongLines | while IFS= read -r l; do
	if [ "$l" = ready ]; then
		printf '%s\n' "$l"
		jstack "$(pgrep -f com.example.cutlines.LongLines)"
		pkill -f com.example.cutlines.LongLines
	fi
done
SH
chmod +x "$tmp/go.sh" "$tmp/jvm.sh"
other='for i in $(seq 1 600); do echo "GET /health 200 ${i}ms"; sleep 0.002; done'
for kind in go jvm; do
	for try in $(seq 1 10); do
		"$npm/concurrently" -n checkout,orders "$tmp/$kind.sh $tmp" "$other" >"$tmp/$kind.log" 2>&1 || true
		if "$tmp/dumpdiff" parse "$tmp/$kind.log" 2>/dev/null | grep -q ' joined='; then
			break
		fi
	done
	cp "$tmp/$kind.log" "$out/cut-concurrently.$kind.log"
done
