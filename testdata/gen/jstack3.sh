# Sourced by the verdict generators that run a small Java program until it
# prints "ready" and dump it three times (verdicts-peers, verdicts-twosided,
# verdicts-holders, verdicts-borrow, verdicts-keptalive, verdicts-clients).
# Uses the caller's $bin (the JDK's bin/ with its slash, or empty for the
# PATH's).

# wait_ready LOG: waits up to 20 s for a line "ready" in LOG; fails with
# the log when none comes.
wait_ready() {
	for _ in $(seq 1 200); do
		grep -q '^ready$' "$1" && return 0
		sleep 0.1
	done
	cat "$1" >&2
	return 1
}

# jstack3 PID DIR: 3 s after ready, DIR/1.txt, 2.txt and 3.txt by
# `jstack -l PID`, 5 s apart.
jstack3() {
	sleep 3
	mkdir -p "$2"
	for i in 1 2 3; do
		"${bin:-}jstack" -l "$1" >"$2/$i.txt"
		[[ $i == 3 ]] || sleep 5
	done
}

# dump_started LOG DIR: the program started in the background as $pid
# (the caller's, which its cleanup kills on exit) prints "ready" in LOG;
# then jstack3 into DIR, the program killed (a stuck program's shutdown
# hooks would wait) and $pid cleared, and the threads of a dump said.
dump_started() {
	wait_ready "$1"
	jstack3 "$pid" "$2"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	echo "$(basename "$2"): $(grep -c '^"' "$2/1.txt") threads a dump" >&2
}
