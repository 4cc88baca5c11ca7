#!/usr/bin/env bash
# Regenerates testdata/libs/jvm-saturated-recovers and jvm-saturated-stays from the real
# Java 17 service of the watch tests (testdata/watch/JavaService.java): compiled and run
# here, its phases switched on its stdin, one `dumpdiff capture --pid` moment after each
# `phase NAME` line. By hand only (make fixtures), never in make test.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../../.." && pwd)
WORK=$(mktemp -d)
trap 'exec 3>&- 2>/dev/null; kill $(jobs -p) 2>/dev/null; rm -rf "$WORK"' EXIT
cd "$REPO"
go build -o "$WORK/dumpdiff" ./cmd/dumpdiff
javac -d "$WORK/classes" testdata/watch/JavaService.java

# case NAME PHASE... : one moment per phase, into testdata/libs/NAME/1.txt, 2.txt, ...
case_() {
	local name=$1
	shift
	mkfifo "$WORK/in"
	java -Xmx64m -XX:+UseSerialGC -cp "$WORK/classes" JavaService <"$WORK/in" >"$WORK/out" 2>&1 &
	local pid=$!
	exec 3>"$WORK/in"
	until grep -q '^ready' "$WORK/out"; do sleep 0.1; done
	local dir="$WORK/cap-$name" i=0
	for phase in "$@"; do
		i=$((i + 1))
		local before
		before=$(grep -c "^phase $phase" "$WORK/out" || true)
		echo "$phase" >&3
		until [ "$(grep -c "^phase $phase" "$WORK/out" || true)" -gt "$before" ]; do sleep 0.05; done
		sleep 0.5
		"$WORK/dumpdiff" capture --pid "$pid" --count 1 --out "$dir" --append >/dev/null 2>&1
	done
	echo quit >&3
	exec 3>&-
	wait "$pid" || true
	rm -f "$WORK/in"
	mkdir -p "testdata/libs/$name"
	i=0
	for f in $(python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(' '.join(f['path'] for f in m['files'] if f['primary'] and f.get('path')))" "$dir/manifest.json"); do
		i=$((i + 1))
		cp "$dir/$f" "testdata/libs/$name/$i.txt"
	done
	echo "testdata/libs/$name: $i moments"
}

case_ jvm-saturated-recovers healthy exhaust exhaust recover recover
case_ jvm-saturated-stays healthy healthy exhaust exhaust exhaust
