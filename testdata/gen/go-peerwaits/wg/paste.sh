#!/usr/bin/env bash
# Cuts testdata/verdicts/go-wg-paste-{stuck,healthy}{,-go113}/paste.txt from
# the first real dump of go-wg-stuck{,-go113} (made by gen.sh): the
# goroutines a person would paste into an issue, between prose and a
# Markdown fence. stuck: the goroutine waiting in main.runBatch, alone;
# healthy: main.exportAll's waiter and the exporters it started. The
# READMEs were written first.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../../.." && pwd)
for v in "" -go113; do
	src=$repo/testdata/verdicts/go-wg-stuck$v/1.txt.gz
	for m in stuck healthy; do
		if [[ $m == stuck ]]; then pick='/\nmain\.runBatch\(/'; else pick='/\nmain\.exportAll\(\)|created by main\.exportAll/'; fi
		{
			echo "The batch job never finishes. Here is what hangs, from the goroutine dump:"
			echo
			echo '```'
			zcat "$src" | awk 'BEGIN { RS = ""; ORS = "\n\n" } '"$pick" | sed -e '$ { /^$/d }'
			echo '```'
			echo
			echo "Any idea what is going on?"
		} >"$repo/testdata/verdicts/go-wg-paste-$m$v/paste.txt"
	done
done
