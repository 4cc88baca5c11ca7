#!/bin/sh
# Writes testdata/formats/cockroach-go-debug3.pb.gz and
# cockroach-go-debug2.txt: CockroachDB's goroutine?debug=3 and the
# debug=2 of the same moment, served by net/http/pprof of main.go run
# under the runtime of cockroachdb/go pull request 9 ("runtime/pprof: add
# debug=3 goroutine profile with goid and labels", commit
# c53723972d83930241475c0eb0231751158872fc, on Go's development tree of
# 1.26). Not run by make test: it takes about 2.5 minutes (a wait is
# counted in whole minutes) and a built toolchain of that fork.
#
# Build the toolchain first (a few minutes), with Go 1.26 as bootstrap:
#
#	git -C COCKROACHDB_GO archive c53723972d | tar -x -C DIR
#	echo 'devel +c53723972d cockroachdb/go pull 9 (runtime/pprof: debug=3)' >DIR/VERSION
#	cd DIR/src && GOROOT_BOOTSTRAP=$(go env GOROOT) ./make.bash
#
# then: CRDB_GOROOT=DIR testdata/gen/debug3/gen.sh
#
# The two are fetched by one curl over one connection, a few milliseconds
# apart; the script checks that the state and wait of every goroutine in
# both agree (go tool pprof -raw, grep) and takes them again if not.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/../../formats
: "${CRDB_GOROOT:?set CRDB_GOROOT to the built cockroachdb/go toolchain}"
GO=$CRDB_GOROOT/bin/go
tmp=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
cd "$here"
GOTOOLCHAIN=local GOROOT=$CRDB_GOROOT "$GO" build -o "$tmp/debug3gen" .
"$GO" version >"$tmp/version"

# The late goroutines block 130 s after the start, the dump is at 140 s:
# the idle workers have waited 2 minutes, the ledger's 1, the late ones 0.
"$tmp/debug3gen" 130s >"$tmp/stdout" &
pid=$!
until grep -q '^ready listen' "$tmp/stdout"; do sleep 0.2; done
addr=$(sed -n 's/^ready listen //p' "$tmp/stdout")
until grep -q '^ready late' "$tmp/stdout"; do sleep 1; done
sleep 10
for try in 1 2 3; do
	curl -sS -o "$tmp/debug3.pb.gz" "http://$addr/debug/pprof/goroutine?debug=3" \
		-o "$tmp/debug2.txt" "http://$addr/debug/pprof/goroutine?debug=2"
	# Each goroutine's state and wait as debug=2 prints them, and as
	# debug=3's labels carry them (pprof -raw prints a sample's labels).
	sed -n 's/^goroutine \([0-9]*\) \[\([^],]*\)\(, \([0-9]*\) minutes\)\{0,1\}\]:$/\1 \2 \4/p' "$tmp/debug2.txt" | sort >"$tmp/from2"
	"$GO" tool pprof -raw "$tmp/debug3.pb.gz" 2>/dev/null | awk '
		function label(k,   v) {
			if (index($0, k ":[") == 0) return ""
			v = substr($0, index($0, k ":[") + length(k) + 2); sub(/\].*/, "", v); return v
		}
		function flush() { if (id != "") print id, st, w; id = st = w = "" }
		/^Samples:/ { s = 1; next }
		/^Locations/ { flush(); s = 0 }
		s && /^ +[0-9]+: / { flush(); next }
		s && /go::goroutine_state:\[/ { st = label("go::goroutine_state") }
		s && /go::goroutine:\[/ { id = label("go::goroutine"); w = label("go::goroutine_wait_minutes") }
		END { flush() }' | sort >"$tmp/from3"
	# Each request is served by goroutines of its own (net/http's reader of
	# the connection): those are in one of the two only. The goroutines in
	# both must agree.
	differ=$(awk 'NR == FNR { two[$1] = $0; next } ($1 in two) && two[$1] != $0 { n++ } END { print n + 0 }' "$tmp/from2" "$tmp/from3")
	if [ "$differ" = 0 ]; then
		break
	fi
	echo "try $try: $differ goroutines differ between debug=2 and debug=3:" >&2
	diff "$tmp/from2" "$tmp/from3" >&2 || true
	[ "$try" = 3 ] && exit 1
	sleep 1
done
cp "$tmp/debug3.pb.gz" "$out/cockroach-go-debug3.pb.gz"
cp "$tmp/debug2.txt" "$out/cockroach-go-debug2.txt"
cat "$tmp/version"
printf 'cockroach-go-debug2.txt\t%s\n' "$(grep -c '^goroutine [0-9]* \[' "$out/cockroach-go-debug2.txt")"
printf 'cockroach-go-debug3.pb.gz\t%s\n' "$(wc -l <"$tmp/from3")"
echo "in debug=2 only: $(comm -23 "$tmp/from2" "$tmp/from3" | tr '\n' ';')" >&2
echo "in debug=3 only: $(comm -13 "$tmp/from2" "$tmp/from3" | tr '\n' ';')" >&2
