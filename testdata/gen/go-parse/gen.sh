#!/usr/bin/env bash
# Regenerates testdata/go/: goroutine dumps of the goparse program (main.go)
# written by real Go runtimes, and testdata/go/COUNTS.tsv, which counts each
# file's dumps and goroutines with grep/awk/`go tool pprof -raw` (independent
# of dumpdiff's parser).
#
#   Go 1.26 (the installed go):  plain, and GODEBUG=tracebacklabels=1
#   Go 1.27 (GOTOOLCHAIN=go1.27.3, go127.mod says `go 1.27`): plain, plus
#   the goroutineleak profile (debug=0/1/2), which 1.27 registers by default.
#
# Each run writes debug=0/1/2 via pprof.Lookup(...).WriteTo, then sends
# itself SIGQUIT under GOTRACEBACK=all; its stderr is the -sigquit.txt file.
# Usage: testdata/gen/go-parse/gen.sh   (from anywhere; takes ~10 s)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "$here/../../go" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here"

# run TOOLCHAIN PREFIX [ENV...]: build goparse with that toolchain and dump.
run() {
	local toolchain=$1 prefix=$2
	shift 2
	local modfile=go.mod
	[ "$toolchain" = go1.27.3 ] && modfile=go127.mod
	GOTOOLCHAIN=$toolchain go build -modfile="$modfile" -o "$tmp/goparse-$toolchain" .
	# SIGQUIT exits with status 2; anything else is a failure.
	local rc=0
	env "$@" GOTRACEBACK=all "$tmp/goparse-$toolchain" -out "$tmp" -prefix "$prefix" \
		2>"$tmp/$prefix-sigquit.raw" || rc=$?
	if [ "$rc" -ne 2 ]; then
		echo "goparse ($prefix) exited $rc, want 2 (SIGQUIT)" >&2
		cat "$tmp/$prefix-sigquit.raw" >&2
		exit 1
	fi
	# Drop our own "sending SIGQUIT" note: the file is what the runtime wrote.
	grep -v '^goparse: ' "$tmp/$prefix-sigquit.raw" >"$tmp/$prefix-sigquit.txt"
	rm "$tmp/$prefix-sigquit.raw"
}

v126=$(GOTOOLCHAIN=local go env GOVERSION)
run local "$v126"
run local "$v126-tracebacklabels" GODEBUG=tracebacklabels=1
# With tracebacklabels only the text tracebacks differ; keep those.
rm "$tmp/$v126-tracebacklabels-debug0.pb.gz" "$tmp/$v126-tracebacklabels-debug1.txt"
run go1.27.3 go1.27.3

rm -f "$out"/go1.2*
cp "$tmp"/go1.2* "$out"/

# COUNTS.tsv: one row per file.
{
	printf '# file\tdumps\tgoroutines\thow counted (independent of dumpdiff)\n'
	cd "$out"
	for f in go1.2*; do
		case $f in
		*.pb.gz)
			n=$(go tool pprof -raw "$f" 2>/dev/null |
				awk '/^Samples:/{s=1;next} s&&/^ *[0-9]+:/{sub(":","",$1); t+=$1} /^Locations/{s=0} END{print t+0}')
			printf '%s\t1\t%s\tgo tool pprof -raw: sum of sample values\n' "$f" "$n" ;;
		*-debug1.txt)
			total=$(sed -n '1s/.*profile: total \([0-9]*\)$/\1/p' "$f")
			sum=$(awk '/^[0-9]+ @ /{t+=$1} END{print t+0}' "$f")
			recs=$(grep -c '^[0-9]* @ ' "$f")
			[ "$total" = "$sum" ] || { echo "$f: header total $total != record sum $sum" >&2; exit 1; }
			printf '%s\t1\t%s\tdebug=1 header total=%s, %s records summing to %s\n' "$f" "$total" "$total" "$recs" "$sum" ;;
		*)
			n=$(grep -cE '^goroutine [0-9]+ .*\[.*:$' "$f")
			how='grep -cE "^goroutine N .*[.*:$"'
			case $f in *-sigquit.txt) how="$how (incl. goroutine 0 and runtime goroutines)" ;; esac
			leaked=$(grep -cE '^goroutine [0-9]+ .*\(leaked\)\]' "$f" || true)
			[ "$leaked" -gt 0 ] && how="$how; $leaked of them marked (leaked)"
			printf '%s\t1\t%s\t%s\n' "$f" "$n" "$how" ;;
		esac
	done
} >"$out/COUNTS.tsv"
column -t -s $'\t' "$out/COUNTS.tsv"
