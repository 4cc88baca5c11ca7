#!/usr/bin/env bash
# Cuts testdata/verdicts/go-stream-paste-{stuck,healthy}{,-go113}/paste.txt
# from dumps/go{126,113}/dump.txt.gz (gen.sh): the one goroutine a person
# would paste, between prose and a Markdown fence, cut as a copy cuts it,
# in the middle of a frame line. stuck: the client's goroutine (in
# yamux.(*Stream).Read), cut after go-msgpack's frames, before main's;
# healthy: the session's (*Session).recvLoop, cut after recvLoop's frame,
# before its caller's. The READMEs were written first.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
for v in 126 113; do
	suffix=""; [[ $v == 113 ]] && suffix="-go113"
	for m in stuck healthy; do
		if [[ $m == stuck ]]; then pick='yamux\.\(\*Stream\)\.Read'; stop='^main\.'; else pick='\(\*Session\)\.recvLoop'; stop='\(\*Session\)\.recvLoop'; fi
		{
			echo "The agent hangs; the important goroutine is:"
			echo
			echo '```'
			# The goroutine whose stack holds $pick; its lines up to the
			# frame line of $stop: main's first frame is cut in its middle
			# (its first 20 characters kept), recvLoop's line kept whole
			# and the rest cut.
			zcat "$here/dumps/go$v/dump.txt.gz" | awk -v pick="$pick" -v stop="$stop" -v m="$m" '
				BEGIN { RS = ""; FS = "\n" }
				$0 ~ pick && $1 ~ /^goroutine / {
					for (i = 1; i <= NF; i++) {
						if ($i ~ stop) {
							if (m == "stuck") print substr($i, 1, 20); else print $i
							exit
						}
						print $i
					}
				}'
			echo '```'
		} >"$repo/testdata/verdicts/go-stream-paste-$m$suffix/paste.txt"
	done
done
