#!/bin/sh
# Writes the aggregated goroutine listings of testdata/formats/ (issue 32):
# real Go dumps of this repository grouped by the tools people run on a
# dump before they paste it.
#
#   panicparse__go-long-wait-leak.txt    pp v2.5.0 (github.com/maruel/panicparse, Apache-2.0)
#                                        on testdata/verdicts/go-long-wait-leak/2.txt
#   panicparse__go1.26.8-debug2.txt      pp v2.5.0 on testdata/go/go1.26.8-debug2.txt
#   gotraceanalyzer__go-long-wait-leak.txt  gotraceanalyzer at commit 1111fe6 (github.com/felixge/
#                                        gotraceanalyzer; no license file: built in a temporary
#                                        folder, none of it is in this repository, only its
#                                        output on our dump) on testdata/verdicts/go-long-wait-leak/2.txt
#
# Both run with colours off (pp -no-color) and pp without reading sources
# (-parse=false: the dumps' sources are not on this machine).
#
# Usage: testdata/gen/excerpts/aggregated.sh GTA_SRC
#        GTA_SRC is a checkout of gotraceanalyzer (its main.go); pp is fetched
#        by the go command (module proxy).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out=$repo/testdata/formats
gta_src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
GOBIN=$tmp go install github.com/maruel/panicparse/v2/cmd/pp@v2.5.0
mkdir "$tmp/gta"
cp "$gta_src/main.go" "$tmp/gta/"
(cd "$tmp/gta" && go mod init gotraceanalyzer >/dev/null 2>&1 && go build -o "$tmp/gotraceanalyzer" .)
"$tmp/pp" -no-color -parse=false "$repo/testdata/verdicts/go-long-wait-leak/2.txt" >"$out/panicparse__go-long-wait-leak.txt" 2>&1
"$tmp/pp" -no-color -parse=false "$repo/testdata/go/go1.26.8-debug2.txt" >"$out/panicparse__go1.26.8-debug2.txt" 2>&1
"$tmp/gotraceanalyzer" "$repo/testdata/verdicts/go-long-wait-leak/2.txt" >"$out/gotraceanalyzer__go-long-wait-leak.txt"
# Goroutines, summed from the group headers (not by dumpdiff).
for f in panicparse__go-long-wait-leak.txt panicparse__go1.26.8-debug2.txt; do
	printf '%s\t%s\n' "$f" "$(awk -F: '/^[0-9]+: /{s+=$1} END{print s}' "$out/$f")"
done
f=gotraceanalyzer__go-long-wait-leak.txt
printf '%s\t%s\n' "$f" "$(awk '/^[0-9]+ goroutines \[/{s+=$1} END{print s}' "$out/$f")"
