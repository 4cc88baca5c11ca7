#!/usr/bin/env bash
# Regenerates testdata/gotrace/: each scenario of main.go run under Go 1.25,
# 1.26 and 1.27 (GOTOOLCHAIN), and leak and mutex under Go 1.22 and 1.23, its flight recorder's snapshot and a
# debug=2 dump (with its proto) at each second of the same run. COUNTS.tsv
# counts the goroutines of each debug=2 file with grep (independent of
# dumpdiff's parser). By hand only (`make fixtures`); about 80 s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../gotrace"
mkdir -p "$out"
cd "$here"
printf 'dir\tfile\tgoroutines\n' >"$out/COUNTS.tsv"
# Go 1.22 and 1.23 (the trace formats before the flight recorder: the whole
# run's trace) build from old/, a module of Go 1.22's holding the same files.
for v in go1.22.12 go1.23.12 go1.25.5 go1.26.8 go1.27.3; do
	src=.
	scenarios="leak mutex pool healthy"
	case $v in go1.22.* | go1.23.*) src=old scenarios="leak mutex" ;; esac
	for s in $scenarios; do
		d="$out/$s-${v%.*}"
		rm -rf "$d"
		mkdir -p "$d"
		(cd "$src" && GOTOOLCHAIN=$v go run . -scenario "$s" -out "$d" -seconds 5)
		for f in "$d"/debug2/*.txt; do
			printf '%s\t%s\t%s\n' "$(basename "$d")" "debug2/$(basename "$f")" "$(grep -c '^goroutine [0-9]* ' "$f")" >>"$out/COUNTS.tsv"
		done
	done
done
