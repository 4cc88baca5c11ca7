#!/usr/bin/env bash
# Writes testdata/hprof/COUNTS.tsv from the jstack -l files beside the heap dumps, by awk (not
# dumpdiff): per dump, the Java threads jstack printed (a "#N" thread number in the header), those
# HotSpot leaves out of a heap dump (JavaThread::is_hidden_from_external_view: the compiler
# threads, the sweeper, the service thread, the monitor deflation thread), the rest (the threads
# the heap dump must hold), their states, and the threads of each pool of HeapScenes.java.
#
# Usage: testdata/gen/hprof/counts.sh   (gen.sh runs it)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(cd "$here/../../hprof" && pwd)
{
	printf '# file\tjava threads in jstack\thidden from heap dumps\texpected in the heap dump\tRUNNABLE\tBLOCKED\tWAITING\tTIMED_WAITING\ttask-N\treport-N\tworker-N\thttp-N\n'
	for f in "$dir"/*.jstack.txt; do
		case $f in *.before.jstack.txt) continue ;; esac
		name=$(basename "$f" .jstack.txt).hprof.gz
		awk -v file="$name" '
			/^"[^"]*" #[0-9]+ / {
				java++
				n = $0; sub(/^"/, "", n); sub(/" #.*/, "", n)
				hide = n ~ /^(C1|C2) CompilerThread[0-9]+$|^Sweeper thread$|^Service Thread$|^Monitor Deflation Thread$/
				if (hide) { hidden++; cur = ""; next }
				cur = n
				if (n ~ /^task-[0-9]+$/) task++
				if (n ~ /^report-[0-9]+$/) report++
				if (n ~ /^worker-[0-9]+$/) worker++
				if (n ~ /^http-[0-9]+$/) http++
				next
			}
			/^"/ { cur = ""; next }   # a thread of the VM without a Java object ("VM Thread", "GC Thread#0")
			cur != "" && /java.lang.Thread.State: / { st[$2]++; cur = "" }
			END {
				printf "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", file, java, hidden, java - hidden,
					st["RUNNABLE"], st["BLOCKED"], st["WAITING"], st["TIMED_WAITING"], task, report, worker, http
			}' "$f"
	done
} >"$dir/COUNTS.tsv"
