#!/usr/bin/env bash
# Regenerates the JDK 25 fixtures in testdata/libs/jdk25-*/ from small real programs (src/)
# run on a Temurin JDK 25, each dumped four ways by the same JDK:
#
#   jstack.txt      jstack -l PID
#   jcmd-print.txt  jcmd PID Thread.print -l
#   dump.txt        jcmd PID Thread.dump_to_file -format=plain FILE
#   dump.json       jcmd PID Thread.dump_to_file -format=json FILE
#
#   jdk25-vthreads  com.example.shop.ShopApp virtual   (virtual threads that unmount while they wait)
#   jdk25-pinned    com.example.pinned.PinnedApp       (virtual threads pinned to their carrier)
#   jdk25-platform  com.example.shop.ShopApp platform  (the same waits on platform threads)
#
# Each program puts its threads in place and parks its main thread. This script polls the JVM
# with Thread.dump_to_file (jstack shows no unmounted virtual thread) until every check of the
# case passes, takes the four dumps one after the other, checks each one again (the checks of
# its format, listed in the case's README.md), writes README.md and replaces the case's folder.
# Sockets go to com.example.upstream.SilentUpstream, a separate JVM (so its threads are in no
# dump) that accepts on 127.0.0.1 and never answers. Every JVM started here is ended by the EXIT
# trap; nothing else is touched.
#
# Usage: bash testdata/gen/libs-jdk25/gen.sh [CASE...]   (from anywhere; default: all three;
#        ~30 s). Needs a JDK 25 (JDK25_HOME, default /usr/lib/jvm/temurin-25-jdk-amd64) and jq;
#        without them it says so and exits 0 without touching the fixtures.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out_root=$repo/testdata/libs
JDK=${JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
ALL_CASES=(jdk25-vthreads jdk25-pinned jdk25-platform)

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() {
	log "$*"
	exit 1
}

# ---- what is needed -------------------------------------------------------------------

for tool in java javac jcmd jstack; do
	if [[ ! -x $JDK/bin/$tool ]]; then
		log "skipping the JDK 25 fixtures: no $JDK/bin/$tool (install Temurin 25 or set JDK25_HOME)"
		exit 0
	fi
done
JDK_MAJOR=$("$JDK/bin/java" -version 2>&1 | sed -n '1s/^[^"]*"\([0-9]*\).*/\1/p')
if [[ $JDK_MAJOR != 25 ]]; then
	log "skipping the JDK 25 fixtures: $JDK is Java ${JDK_MAJOR:-?}, not 25 (set JDK25_HOME)"
	exit 0
fi
if ! command -v jq >/dev/null; then
	log "skipping the JDK 25 fixtures: jq is needed to check dump.json (apt-get install jq)"
	exit 0
fi
JAVA=$JDK/bin/java
JCMD=$JDK/bin/jcmd
JSTACK=$JDK/bin/jstack
JDK_DESC="$("$JAVA" -version 2>&1 | sed -n 2p) on $(uname -sm)"

cases=("$@")
((${#cases[@]})) || cases=("${ALL_CASES[@]}")
for c in "${cases[@]}"; do
	[[ " ${ALL_CASES[*]} " == *" $c "* ]] || die "unknown case $c (cases: ${ALL_CASES[*]})"
done

tmp=$(mktemp -d /tmp/dumpdiff-libs-jdk25.XXXXXX)
classes=$tmp/classes
pids=()

cleanup() {
	local pid i alive
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for i in $(seq 1 25); do
		alive=0
		for pid in "${pids[@]}"; do
			kill -0 "$pid" 2>/dev/null && alive=1
		done
		((alive)) || break
		sleep 0.2
	done
	for pid in "${pids[@]}"; do
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	pids=()
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- the JVMs -------------------------------------------------------------------------

# ActiveProcessorCount=2: the default scheduler parallelism (2) and the number of the JDK's
# SubPoller threads (3) do not depend on the machine.
BASE_OPTS=(-Xmx128m -XX:+UseSerialGC -XX:ActiveProcessorCount=2)

# start_upstream starts the silent upstream and sets UPSTREAM_PORT.
start_upstream() {
	"$JAVA" "${BASE_OPTS[@]}" -cp "$classes" com.example.upstream.SilentUpstream >"$tmp/upstream.log" 2>&1 &
	pids+=($!)
	UPSTREAM_CMD="java ${BASE_OPTS[*]} -cp \$CLASSES com.example.upstream.SilentUpstream &"
	local i
	for i in $(seq 1 100); do
		UPSTREAM_PORT=$(sed -n 's/^listening \([0-9]*\)$/\1/p' "$tmp/upstream.log")
		[[ -n $UPSTREAM_PORT ]] && return 0
		sleep 0.1
	done
	cat "$tmp/upstream.log" >&2
	die "the silent upstream did not start"
}

# start_app JAVA-ARGS... starts the program under test; sets APP_PID and APP_CMD (the command
# line as the README shows it: the class directory as $CLASSES, the upstream port as $PORT).
start_app() {
	"$JAVA" "$@" >"$tmp/app.log" 2>&1 &
	APP_PID=$!
	pids+=("$APP_PID")
	APP_CMD="java $*"
	APP_CMD=${APP_CMD//$classes/\$CLASSES}
	APP_CMD=${APP_CMD//$UPSTREAM_PORT/\$PORT}
	local i
	for i in $(seq 1 100); do
		grep -qx ready "$tmp/app.log" && return 0
		kill -0 "$APP_PID" 2>/dev/null || break
		sleep 0.1
	done
	cat "$tmp/app.log" >&2
	die "the program did not print ready"
}

# stop_app ends the program under test.
stop_app() {
	kill "$APP_PID" 2>/dev/null || true
	wait "$APP_PID" 2>/dev/null || true
	local p keep=()
	for p in "${pids[@]}"; do
		[[ $p == "$APP_PID" ]] || keep+=("$p")
	done
	pids=("${keep[@]}")
}

# ---- one line per thread --------------------------------------------------------------

# flatten_jstack FILE prints one line per thread of a jstack -l or jcmd Thread.print dump:
# the header, then every other line of the thread (state, "Carrying virtual thread #N",
# frames, "Mounted virtual thread #N", lock lines, "Locked ownable synchronizers:") with its
# indent removed, joined with " | ". It stops at "JNI global refs".
flatten_jstack() {
	awk '/^"/ { if (t) print t; t = $0; next }
	     /^JNI global refs/ { if (t) print t; t = ""; exit }
	     /^[[:space:]]*$/ { next }
	     t { sub(/^[[:space:]]+/, ""); t = t " | " $0 }
	     END { if (t) print t }' "$1"
}

# flatten_text FILE does the same for a Thread.dump_to_file plain text dump: the header
# `#TID "NAME" [virtual ]STATE` (the time at its end removed), then each frame and lock line.
flatten_text() {
	awk '/^#[0-9]+ "/ { if (t) print t; t = $0; sub(/ [0-9T:.Z-]+$/, "", t); next }
	     /^[[:space:]]*$/ { next }
	     t { sub(/^[[:space:]]+/, ""); t = t " | " $0 }
	     END { if (t) print t }' "$1"
}

# flatten_json FILE prints the threads of a Thread.dump_to_file JSON dump as flatten_text
# prints the plain text one (frames as "at FRAME", lock lines where ThreadDumper puts them in
# the text form), plus " | carrier #TID" at the end of a mounted virtual thread, which only
# the JSON form records.
flatten_json() {
	jq -r '.threadDump.threadContainers[].threads[] as $t
	  | ($t.monitorsOwned // []) as $m
	  | ["#\($t.tid) \"\($t.name)\"\(if $t.virtual then " virtual" else "" end) \($t.state)"]
	    + [range(0; $t.stack | length) as $i
	       | ("at " + $t.stack[$i]),
	         ($m[] | select(.depth == $i) | .locks[]
	          | if . == null then "- lock is eliminated" else "- locked <\(.)>" end),
	         (if $i == 0 then
	            (if $t.parkBlocker then "- parking to wait for <\($t.parkBlocker.object)>" else empty end),
	            (if $t.blockedOn then "- waiting to lock <\($t.blockedOn)>" else empty end),
	            (if $t.waitingOn then "- waiting on <\($t.waitingOn)>" else empty end)
	          else empty end)]
	    + (if $t.carrier then ["carrier #\($t.carrier)"] else [] end)
	  | join(" | ")' "$1"
}

# flat FILE flattens FILE by its name: *.json, dump*.txt and poll.txt (dump_to_file), else
# jstack.
flat() {
	case $(basename "$1") in
	*.json) flatten_json "$1" ;;
	dump*.txt | poll.txt) flatten_text "$1" ;;
	*) flatten_jstack "$1" ;;
	esac
}

# ---- the checks -----------------------------------------------------------------------

# A case's checks: check KIND LABEL WANT REGEX [x] counts the threads whose flattened line
# matches REGEX (grep -E). KIND says which files it applies to: jstack (jstack.txt,
# jcmd-print.txt), text (dump.txt, dump.json) or json (dump.json only). A trailing x asks the
# README for the first matching thread as the dump prints it. distinct KIND LABEL WANT REGEX
# counts the distinct strings REGEX matches instead. @NAME@ in a REGEX is replaced by
# ADDR[NAME], which the case's ADDR_FN reads from the same file.
CK_KIND=() CK_HOW=() CK_LABEL=() CK_WANT=() CK_RE=() CK_SHOW=()
ADDR_FN=
ADDR_NOTE=
declare -A ADDR
new_case() {
	CK_KIND=() CK_HOW=() CK_LABEL=() CK_WANT=() CK_RE=() CK_SHOW=()
	ADDR_FN= ADDR_NOTE=
}
check() { CK_HOW+=(threads) CK_KIND+=("$1") CK_LABEL+=("$2") CK_WANT+=("$3") CK_RE+=("$4") CK_SHOW+=("${5:-}"); }
distinct() { CK_HOW+=(distinct) CK_KIND+=("$1") CK_LABEL+=("$2") CK_WANT+=("$3") CK_RE+=("$4") CK_SHOW+=(""); }

# applies I FILE succeeds when check I is about FILE's format.
applies() {
	case ${CK_KIND[$1]}:$(basename "$2") in
	jstack:jstack.txt | jstack:jcmd-print.txt) return 0 ;;
	text:dump.txt | text:dump.json | text:poll.txt | json:dump.json) return 0 ;;
	esac
	return 1
}

# expand FILE REGEX fills in REGEX's @NAME@ addresses from FILE.
expand() {
	local re=$2 k
	ADDR=()
	[[ -n $ADDR_FN ]] && "$ADDR_FN" "$1"
	for k in "${!ADDR[@]}"; do
		re=${re//@$k@/${ADDR[$k]:-MISSING}}
	done
	printf '%s' "$re"
}

# held FILE THREAD REGEX prints the first 0x address in the part of THREAD's flattened line
# that REGEX matches.
held() {
	flat "$1" | grep -E "^\"$2\" " | grep -oE -- "$3" | head -1 | grep -oE '0x[0-9a-f]+' || true
}

# count FILE I prints the count of check I in FILE.
count() {
	local re
	re=$(expand "$1" "${CK_RE[$2]}")
	if [[ ${CK_HOW[$2]} == distinct ]]; then
		flat "$1" | grep -oE -- "$re" | sort -u | wc -l
	else
		flat "$1" | grep -cE -- "$re" || true
	fi
}

# verify FILE [quiet] succeeds when every check about FILE has its wanted count.
verify() {
	local i n ok=0
	for i in "${!CK_LABEL[@]}"; do
		applies "$i" "$1" || continue
		n=$(count "$1" "$i")
		if [[ $n != "${CK_WANT[$i]}" ]]; then
			ok=1
			[[ ${2:-} == quiet ]] || log "$(basename "$1"): ${CK_LABEL[$i]}: $n, want ${CK_WANT[$i]}"
		fi
	done
	return $ok
}

# wait_ready polls the program with Thread.dump_to_file until the text checks pass (30 s).
wait_ready() {
	local i
	for i in $(seq 1 60); do
		rm -f "$tmp/poll.txt"
		if "$JCMD" "$APP_PID" Thread.dump_to_file -format=plain "$tmp/poll.txt" >/dev/null 2>&1 &&
			[[ -s $tmp/poll.txt ]] && verify "$tmp/poll.txt" quiet; then
			log "threads in place after $i poll(s)"
			return 0
		fi
		kill -0 "$APP_PID" 2>/dev/null || { cat "$tmp/app.log" >&2; die "the program exited"; }
		sleep 0.5
	done
	verify "$tmp/poll.txt" || true
	cp "$tmp/poll.txt" /tmp/dumpdiff-libs-jdk25-last-poll.txt
	die "the threads did not get in place (last poll: /tmp/dumpdiff-libs-jdk25-last-poll.txt)"
}

# take DIR writes the four dumps of the program into DIR, one after the other, and checks
# each; DUMP_AT[NAME] is the wall-clock time its command started.
DUMPS=(jstack.txt jcmd-print.txt dump.txt dump.json)
declare -A DUMP_AT
take() {
	local dir=$1 f
	DUMP_AT[jstack.txt]=${EPOCHREALTIME}
	"$JSTACK" -l "$APP_PID" >"$dir/jstack.txt"
	DUMP_AT[jcmd-print.txt]=${EPOCHREALTIME}
	"$JCMD" "$APP_PID" Thread.print -l >"$dir/jcmd-print.txt"
	DUMP_AT[dump.txt]=${EPOCHREALTIME}
	"$JCMD" "$APP_PID" Thread.dump_to_file -format=plain "$dir/dump.txt" >"$tmp/jcmd.out"
	DUMP_AT[dump.json]=${EPOCHREALTIME}
	"$JCMD" "$APP_PID" Thread.dump_to_file -format=json "$dir/dump.json" >>"$tmp/jcmd.out"
	for f in "${DUMPS[@]}"; do
		[[ -s $dir/$f ]] || { cat "$tmp/jcmd.out" >&2; die "$f was not written"; }
		verify "$dir/$f" || die "$f is not what was wanted (see above)"
		log "$f: $(wc -c <"$dir/$f") bytes"
	done
	SCHEDULER=$("$JCMD" "$APP_PID" Thread.vthread_scheduler | sed 1d)
}

# ---- README ---------------------------------------------------------------------------

# states_section DIR prints the thread counts per state in each of the four dumps.
states_section() {
	local dir=$1 f s row
	echo "Thread counts per dump, from grep:"
	echo
	echo "| | jstack.txt | jcmd-print.txt |"
	echo "|---|---:|---:|"
	row="| thread headers (\`grep -c '^\"'\`) |"
	for f in jstack.txt jcmd-print.txt; do row+=" $(grep -c '^"' "$dir/$f") |"; done
	echo "$row"
	for s in 'RUNNABLE' 'BLOCKED (on object monitor)' 'WAITING (parking)' 'WAITING (on object monitor)' \
		'TIMED_WAITING (sleeping)' 'TIMED_WAITING (parking)' 'TIMED_WAITING (on object monitor)'; do
		row="| \`java.lang.Thread.State: $s\` |"
		for f in jstack.txt jcmd-print.txt; do row+=" $(grep -cF "java.lang.Thread.State: $s" "$dir/$f" || true) |"; done
		echo "$row"
	done
	row="| \`Carrying virtual thread #\` |"
	for f in jstack.txt jcmd-print.txt; do row+=" $(grep -c 'Carrying virtual thread #' "$dir/$f" || true) |"; done
	echo "$row"
	row="| \`Mounted virtual thread #\` |"
	for f in jstack.txt jcmd-print.txt; do row+=" $(grep -c 'Mounted virtual thread #' "$dir/$f" || true) |"; done
	echo "$row"
	echo
	echo "| | dump.txt | dump.json |"
	echo "|---|---:|---:|"
	row="| threads |"
	for f in dump.txt dump.json; do row+=" $(flat "$dir/$f" | wc -l) |"; done
	echo "$row"
	for s in RUNNABLE BLOCKED WAITING TIMED_WAITING; do
		row="| virtual $s |"
		for f in dump.txt dump.json; do row+=" $(flat "$dir/$f" | grep -cE "^#[0-9]+ \"[^\"]*\" virtual $s( |\$)" || true) |"; done
		echo "$row"
		row="| platform $s |"
		for f in dump.txt dump.json; do row+=" $(flat "$dir/$f" | grep -cE "^#[0-9]+ \"[^\"]*\" $s( |\$)" || true) |"; done
		echo "$row"
	done
	row="| mounted virtual threads (\`\"carrier\"\`, JSON only) |"
	for f in dump.txt dump.json; do row+=" $(grep -c '"carrier": ' "$dir/$f" || true) |"; done
	echo "$row"
	row="| thread containers (\`\"container\"\`, JSON only) |"
	for f in dump.txt dump.json; do row+=" $(grep -c '"container": ' "$dir/$f" || true) |"; done
	echo "$row"
	echo
	echo "(dump.txt and dump.json counted from the flattened lines, see below: the header"
	echo "\`#TID \"NAME\" [virtual ]STATE\`.)"
	echo
	local same=no
	cmp -s <(flat "$dir/dump.txt" | cut -d' ' -f1) <(flat "$dir/dump.json" | cut -d' ' -f1) && same=yes
	echo "The thread containers of dump.json, in its order (dump.txt lists no containers; does it"
	echo "list the same thread ids in the same order as dump.json? $same):"
	echo
	echo "| container | parent | threads |"
	echo "|---|---|---:|"
	jq -r '.threadDump.threadContainers[] | "| `\(.container)` | \(.parent // "") | \(.threads | length) |"' "$dir/dump.json"
}

# checks_section DIR prints every check with its count in each file it is about.
checks_section() {
	local dir=$1 i f row
	echo "The program's threads, per check (the checks gen.sh waits for and verifies in each dump):"
	echo
	echo "| check | jstack.txt | jcmd-print.txt | dump.txt | dump.json |"
	echo "|---|---:|---:|---:|---:|"
	for i in "${!CK_LABEL[@]}"; do
		row="| ${CK_LABEL[$i]} |"
		for f in "${DUMPS[@]}"; do
			if applies "$i" "$dir/$f"; then row+=" $(count "$dir/$f" "$i") |"; else row+=" |"; fi
		done
		echo "$row"
	done
	echo
	echo "A check counts the threads whose one-line form matches its pattern (\`grep -cE\`), or"
	echo "for \"distinct\" the different strings it matches (\`grep -oE | sort -u | wc -l\`). The"
	echo "one-line form (flatten_jstack, flatten_text and flatten_json in gen.sh) is the thread's"
	echo "header followed by each of its lines without indent, joined with \" | \"; flatten_json"
	echo "writes a JSON thread as its plain text form would read, plus \" | carrier #TID\" when the"
	echo "JSON names a carrier.${ADDR_NOTE:+ $ADDR_NOTE}"
	echo
	local how
	for i in "${!CK_LABEL[@]}"; do
		how=
		[[ ${CK_HOW[$i]} == distinct ]] && how=', distinct'
		echo "- ${CK_LABEL[$i]} (${CK_KIND[$i]}$how): \`${CK_RE[$i]}\`"
	done
}

# excerpt FILE REGEX prints the first thread of FILE whose flattened line matches REGEX, as
# the file prints it, cut after 15 frames (of the mounted virtual thread, for a carrier); a
# jstack thread keeps its "Locked ownable synchronizers" section.
excerpt() {
	local file=$1 re mode=jstack
	re=$(expand "$file" "$2")
	[[ $(basename "$file") == dump*.txt ]] && mode=text
	RE=$re MODE=$mode awk '
		function header(line) {
			return (mode == "text" && line ~ /^#[0-9]+ "/) || (mode == "jstack" && line ~ /^"/)
		}
		# flush prints the block in b[1..nb] and exits if its flattened form matches RE.
		function flush(   i, l, s, last, frames, cut, counting, syncs, isframe) {
			s = ""
			for (i = 1; i <= nb; i++) {
				l = b[i]
				if (l ~ /^[[:space:]]*$/) continue
				if (i == 1 && mode == "text") sub(/ [0-9T:.Z-]+$/, "", l)
				if (i > 1) sub(/^[[:space:]]+/, "", l)
				s = s (i == 1 ? "" : " | ") l
				last = i
			}
			if (nb && s ~ ENVIRON["RE"]) {
				frames = 0; cut = 0; counting = 1; syncs = 0
				for (i = 1; i <= last; i++) {
					l = b[i]
					if (l ~ /^   Carrying virtual thread #/) counting = 0
					if (l ~ /^   Mounted virtual thread #/) counting = 1
					if (l ~ /^   Locked ownable synchronizers:/) {
						if (cut) { printf "\t... (%d more frames)\n\n", cut; cut = 0 }
						syncs = 1; counting = 0
					}
					isframe = l ~ /^[[:space:]]+at /
					if (counting && isframe) frames++
					if (!syncs && frames > 15) { if (isframe) cut++; continue }
					print l
				}
				if (cut) printf (mode == "text" ? "    " : "\t") "... (%d more frames)\n", cut
				found = 1
				exit
			}
			nb = 0
		}
		BEGIN { mode = ENVIRON["MODE"] }
		header($0) { flush() }
		/^JNI global refs/ { flush(); nb = 0; exit }
		nb || header($0) { b[++nb] = $0 }
		END { if (!found) flush() }' "$file"
}

# excerpts_section DIR prints, for every check marked x, its first thread in dump.txt and in
# jstack.txt.
excerpts_section() {
	local dir=$1 i f
	echo "One thread per marked check, as the dumps print it (\`... (N more frames)\` lines are"
	echo "gen.sh's: each excerpt stops after 15 frames, of the mounted virtual thread for a"
	echo "carrier; the carrier's own frames and jstack's synchronizers section are kept):"
	for i in "${!CK_LABEL[@]}"; do
		[[ ${CK_SHOW[$i]} == x ]] || continue
		case ${CK_KIND[$i]} in
		text) f=dump.txt ;;
		jstack) f=jstack.txt ;;
		*) continue ;;
		esac
		echo
		echo "${CK_LABEL[$i]}, in $f:"
		echo
		echo '```'
		excerpt "$dir/$f" "${CK_RE[$i]}"
		echo '```'
	done
}

# command_section CASE prints how the dumps were made.
command_section() {
	echo "## How it was made"
	echo
	echo "\`bash testdata/gen/libs-jdk25/gen.sh $1\` (Java sources in \`testdata/gen/libs-jdk25/src/\`;"
	echo "\`java\`, \`jcmd\` and \`jstack\` are those of \`\$JDK25_HOME/bin\`), which runs:"
	echo
	echo '```'
	echo "javac -d \$CLASSES \$(find testdata/gen/libs-jdk25/src -name '*.java')"
	[[ -n ${UPSTREAM_PORT:-} ]] && echo "$UPSTREAM_CMD    # prints \"listening PORT\"; this run: PORT=$UPSTREAM_PORT"
	echo "$APP_CMD &    # prints \"ready\"; this run: PID=$APP_PID"
	echo "# poll: jcmd PID Thread.dump_to_file -format=plain POLL until the text checks below pass, then"
	echo "jstack -l PID > jstack.txt"
	echo "jcmd PID Thread.print -l > jcmd-print.txt"
	echo "jcmd PID Thread.dump_to_file -format=plain \$PWD/dump.txt"
	echo "jcmd PID Thread.dump_to_file -format=json \$PWD/dump.json"
	echo "jcmd PID Thread.vthread_scheduler    # shown below, not kept as a file"
	echo '```'
	echo
	echo "$(when_section)"
	echo
	echo "$JDK_DESC. \`jcmd PID Thread.vthread_scheduler\` after the dumps:"
	echo
	echo '```'
	echo "$SCHEDULER"
	echo '```'
}

when_section() {
	local f at=()
	for f in "${DUMPS[@]}"; do
		at+=("$f at $(awk -v a="${DUMP_AT[jstack.txt]}" -v b="${DUMP_AT[$f]}" 'BEGIN { printf "+%.1f s", b - a }')")
	done
	echo "When each command started, from the first: $(printf '%s, ' "${at[@]}" | sed 's/, $//')."
	echo "jcmd-print.txt starts with the line \`PID:\` that jcmd prints; the other files are as the"
	echo "tools wrote them."
}

# readme DIR TITLE-AND-STORY writes DIR/README.md: the story, how it was made, the counts,
# the checks and the excerpts.
readme() {
	local dir=$1
	{
		printf '%s\n\n' "$2"
		command_section "$(basename "$dir")"
		echo
		echo "## Counts"
		echo
		states_section "$dir"
		echo
		checks_section "$dir"
		echo
		echo "## Representative threads"
		echo
		excerpts_section "$dir"
	} >"$dir/README.md"
}

# ---- shared patterns ------------------------------------------------------------------

T='^#[0-9]+ ' # a dump_to_file header (text and JSON, flattened)
VPARK='at java\.base/java\.lang\.VirtualThread\.park\('
NONFAIR='\(a java\.util\.concurrent\.locks\.ReentrantLock\$NonfairSync\)'
RWSYNC='\(a java\.util\.concurrent\.locks\.ReentrantReadWriteLock\$NonfairSync\)'

# ---- jdk25-vthreads -------------------------------------------------------------------

case_jdk25-vthreads() {
	local dir=$1
	new_case
	check text 'request tasks (200, unnamed): virtual WAITING in VirtualThread.park under Poller.poll, a socket read of the silent upstream' 200 \
		"$T\"\" virtual WAITING \\| $VPARK[^|]*\\) \\| at java\\.base/java\\.lang\\.System\\\$1\\.parkVirtualThread\\([^|]*\\| at java\\.base/java\\.util\\.concurrent\\.locks\\.LockSupport\\.park\\([^|]*\\| at java\\.base/sun\\.nio\\.ch\\.Poller\\.poll\\(.*at java\\.base/sun\\.nio\\.ch\\.NioSocketImpl\\.implRead\\(.*at com\\.example\\.shop\\.UpstreamClient\\.fetch\\(.*ThreadPerTaskExecutor\\\$ThreadBoundFuture\\.run\\(" x
	check text 'reserve tasks (50, unnamed): virtual WAITING, parked on the Inventory ReentrantLock' 50 \
		"$T\"\" virtual WAITING \\| $VPARK[^|]*\\) \\| - parking to wait for <java\\.util\\.concurrent\\.locks\\.ReentrantLock\\\$NonfairSync@[0-9a-f]+> \\|.*at com\\.example\\.shop\\.Inventory\\.reserve\\(" x
	distinct text 'distinct ReentrantLock$NonfairSync objects parked on' 1 'ReentrantLock\$NonfairSync@[0-9a-f]+'
	check text 'catalog tasks (20, unnamed): virtual BLOCKED entering the Catalog monitor' 20 \
		"$T\"\" virtual BLOCKED \\| at com\\.example\\.shop\\.Catalog\\.describe\\([^|]*\\) \\| - waiting to lock <com\\.example\\.shop\\.Catalog@[0-9a-f]+> \\|" x
	check text 'price tasks (10, unnamed): virtual WAITING, parked on the PriceBook ReentrantReadWriteLock' 10 \
		"$T\"\" virtual WAITING \\| $VPARK[^|]*\\) \\| - parking to wait for <java\\.util\\.concurrent\\.locks\\.ReentrantReadWriteLock\\\$NonfairSync@[0-9a-f]+> \\|.*at com\\.example\\.shop\\.PriceBook\\.price\\(" x
	check text 'report-1..5: virtual TIMED_WAITING in Thread.sleep' 5 \
		"$T\"report-[1-5]\" virtual TIMED_WAITING \\| at java\\.base/java\\.lang\\.VirtualThread\\.parkNanos\\(.*at java\\.base/java\\.lang\\.Thread\\.sleep\\(.*at com\\.example\\.shop\\.Reporter\\.waitForNextRun\\(" x
	check text 'catalog-reindex: virtual TIMED_WAITING in Thread.sleep, holding the Catalog monitor (- locked)' 1 \
		"$T\"catalog-reindex\" virtual TIMED_WAITING \\| at java\\.base/java\\.lang\\.VirtualThread\\.parkNanos\\(.*at com\\.example\\.shop\\.Catalog\\.reindex\\([^|]*\\) \\| - locked <com\\.example\\.shop\\.Catalog@[0-9a-f]+>" x
	check text 'price-import: virtual TIMED_WAITING in Thread.sleep (holds the write lock; the dump does not say so)' 1 \
		"$T\"price-import\" virtual TIMED_WAITING \\| at java\\.base/java\\.lang\\.VirtualThread\\.parkNanos\\(.*at com\\.example\\.shop\\.PriceBook\\.importAll\\(" x
	check text 'inventory-rebuild: platform TIMED_WAITING in Thread.sleep (holds the ReentrantLock; the dump does not say so)' 1 \
		"$T\"inventory-rebuild\" TIMED_WAITING \\| at java\\.base/java\\.lang\\.Thread\\.sleepNanos0\\(Native Method\\) .*at com\\.example\\.shop\\.Inventory\\.rebuild\\(" x
	distinct text 'distinct Catalog objects blocked on or locked' 1 'com\.example\.shop\.Catalog@[0-9a-f]+'
	check text 'carriers ForkJoinPool-1-worker-N: platform, parked in ForkJoinPool.awaitWork' 2 \
		"$T\"ForkJoinPool-1-worker-[0-9]+\" (TIMED_)?WAITING \\| at java\\.base/jdk\\.internal\\.misc\\.Unsafe\\.park\\(Native Method\\) \\| - parking to wait for <java\\.util\\.concurrent\\.ForkJoinPool@[0-9a-f]+> \\| at java\\.base/java\\.util\\.concurrent\\.ForkJoinPool\\.awaitWork\\(" x
	check text 'SubPoller-N: virtual WAITING in Poller.subPollerLoop (the JDK'\''s pollers)' 3 \
		"$T\"SubPoller-[0-9]+\" virtual WAITING \\| .*at java\\.base/sun\\.nio\\.ch\\.Poller\\.subPollerLoop\\(" x
	check json 'mounted virtual threads (JSON "carrier")' 0 ' \| carrier #[0-9]+$'
	check jstack 'threads carrying a virtual thread ("Carrying virtual thread #N")' 0 '\| Carrying virtual thread #'
	check jstack 'threads with a com.example.shop frame: main and inventory-rebuild only' 2 '\| at com\.example\.shop\.'
	check jstack 'inventory-rebuild: TIMED_WAITING (sleeping), owns a ReentrantLock$NonfairSync' 1 \
		"^\"inventory-rebuild\" .*\\| java\\.lang\\.Thread\\.State: TIMED_WAITING \\(sleeping\\) \\| at java\\.lang\\.Thread\\.sleepNanos0\\(.*at com\\.example\\.shop\\.Inventory\\.rebuild\\(.*Locked ownable synchronizers: \\| - <0x[0-9a-f]+> $NONFAIR\$" x
	check jstack 'carriers ForkJoinPool-1-worker-N: WAITING or TIMED_WAITING (parking) in ForkJoinPool.awaitWork' 2 \
		"^\"ForkJoinPool-1-worker-[0-9]+\" .*\\| java\\.lang\\.Thread\\.State: (TIMED_)?WAITING \\(parking\\) \\| at jdk\\.internal\\.misc\\.Unsafe\\.park\\([^|]*\\| - parking to wait for +<0x[0-9a-f]+> \\(a java\\.util\\.concurrent\\.ForkJoinPool\\) \\| at java\\.util\\.concurrent\\.ForkJoinPool\\.awaitWork\\(" x
	check jstack 'MasterPoller: RUNNABLE in EPoll.wait' 1 \
		'^"MasterPoller" .*\| java\.lang\.Thread\.State: RUNNABLE \| at sun\.nio\.ch\.EPoll\.wait\('

	start_upstream
	start_app "${BASE_OPTS[@]}" -cp "$classes" com.example.shop.ShopApp virtual "$UPSTREAM_PORT" 200 50 20 10 5
	wait_ready
	take "$dir"
	local nvirtual
	nvirtual=$(flat "$dir/dump.txt" | grep -cE "$T\"[^\"]*\" virtual ")
	readme "$dir" "# jdk25-vthreads

Virtual threads that wait, on JDK 25, in the four dump formats of one JDK. The shop
(\`com.example.shop.ShopApp virtual\`) runs each group of tasks on its own
\`Executors.newVirtualThreadPerTaskExecutor()\` (so the tasks' virtual threads have no name),
on the default scheduler, whose parallelism is 2 (\`-XX:ActiveProcessorCount=2\`):

- 200 request tasks call \`UpstreamClient.fetch\`: a socket read from the silent upstream (no
  read timeout): **WAITING**, unmounted, parked in \`VirtualThread.park\` under \`Poller.poll\`.
- 50 reserve tasks call \`Inventory.reserve\`: \`ReentrantLock.lock()\` on the lock that the
  **platform** thread \`inventory-rebuild\` holds while it sleeps an hour: **WAITING**, unmounted,
  parked on the \`ReentrantLock\$NonfairSync\`.
- 20 catalog tasks call the \`synchronized\` \`Catalog.describe\` while the virtual thread
  \`catalog-reindex\` sleeps inside the \`synchronized\` \`Catalog.reindex\`: **BLOCKED**, unmounted
  (since JDK 24, JEP 491, a monitor no longer pins).
- 10 price tasks call \`PriceBook.price\`: the read lock of a \`ReentrantReadWriteLock\` whose
  write lock the virtual thread \`price-import\` holds while it sleeps: **WAITING**, unmounted.
- 5 named virtual threads \`report-1\`..\`report-5\` sleep an hour (**TIMED_WAITING**).
- \`main\` (platform) waits on a CountDownLatch that is never counted down.

What each format shows:

- \`jstack.txt\`, \`jcmd-print.txt\` (same format; jcmd adds a \`PID:\` line first): platform
  threads only. No virtual thread is mounted, so none of the $nvirtual appears, not even as a
  \`Carrying virtual thread\` line; the two carriers \`ForkJoinPool-1-worker-N\` are idle in
  \`ForkJoinPool.awaitWork\`. \`inventory-rebuild\` lists the ReentrantLock it owns under
  \"Locked ownable synchronizers\"; the owners that are virtual threads (\`catalog-reindex\`,
  \`price-import\`) are not in the dump at all.
- \`dump.txt\` (\`Thread.dump_to_file\`, plain text): every thread, platform and virtual, one
  header \`#TID \"NAME\" [virtual ]STATE TIME\`, frames as \`at MODULE/CLASS.METHOD(FILE:LINE)\`
  with the module prefix and without jstack's \`@25.0.3\`; lock lines \`- parking to wait for
  <CLASS@HASH>\`, \`- waiting to lock <CLASS@HASH>\`, \`- locked <CLASS@HASH>\` (identity hash,
  not an address). No \"Locked ownable synchronizers\": nothing says who owns a ReentrantLock.
  Threads come in thread-container order: the root container (platform threads and virtual
  threads started with \`Thread.ofVirtual().start\`), then one container per executor.
- \`dump.json\`: the same threads, grouped in \`threadContainers\` (listed below), with
  \`parkBlocker\`, \`blockedOn\`, \`waitingOn\`, \`monitorsOwned\` as fields; a mounted virtual
  thread would also carry \`\"carrier\": \"TID\"\` (none here)."
	stop_app
}

# ---- jdk25-pinned ---------------------------------------------------------------------

pinned_addresses() {
	case $(basename "$1") in
	*.json | dump*.txt | poll.txt) ;;
	*)
		ADDR[LEDGER]=$(held "$1" ledger-compactor '- locked <0x[0-9a-f]+> \(a com\.example\.pinned\.Ledger\)')
		ADDR[RATES]=$(held "$1" rates-refresh "Locked ownable synchronizers: \\| - <0x[0-9a-f]+> $NONFAIR")
		;;
	esac
}

case_jdk25-pinned() {
	local dir=$1
	new_case
	ADDR_FN=pinned_addresses
	ADDR_NOTE='In jstack checks, @LEDGER@ is the address of the Ledger monitor that ledger-compactor has `- locked`, and @RATES@ the ReentrantLock$NonfairSync under rates-refresh'\''s "Locked ownable synchronizers".'
	local ONCARRIER='at java\.base/jdk\.internal\.misc\.Unsafe\.park\(Native Method\) \|( - parking to wait for <[^>]*> \|)? at java\.base/java\.lang\.VirtualThread\.parkOnCarrierThread\('
	local MOUNTED='\| Mounted virtual thread #[0-9]+ \| '
	local JONCARRIER='at jdk\.internal\.misc\.Unsafe\.park\([^|]*\) \| at java\.lang\.VirtualThread\.parkOnCarrierThread\('
	check text 'config-loader: virtual WAITING, pinned (parkOnCarrierThread) in a socket read inside RemoteConfig.<clinit>' 1 \
		"$T\"config-loader\" virtual WAITING \\| $ONCARRIER[^|]*\\) \\| at java\\.base/java\\.lang\\.VirtualThread\\.park\\(.*at java\\.base/sun\\.nio\\.ch\\.Poller\\.poll\\(.*at java\\.base/sun\\.nio\\.ch\\.NioSocketImpl\\.implRead\\(.*at com\\.example\\.pinned\\.RemoteConfig\\.fetch\\([^|]*\\| at com\\.example\\.pinned\\.RemoteConfig\\.<clinit>\\(" x
	check text 'config-reader-1..2: virtual RUNNABLE, waiting for RemoteConfig'\''s initialization (no frame or line says so)' 2 \
		"$T\"config-reader-[12]\" virtual RUNNABLE \\| at com\\.example\\.pinned\\.PinnedApp\\.lambda\\\$main\\\$[0-9]+\\(PinnedApp\\.java:[0-9]+\\) \\| at java\\.base/java\\.lang\\.VirtualThread\\.run\\([^|]*\\)( \\| carrier #[0-9]+)?\$" x
	check text 'price-sort-1..2: virtual WAITING, pinned (parkOnCarrierThread) on the Rates ReentrantLock in a qsort upcall' 2 \
		"$T\"price-sort-[12]\" virtual WAITING \\| at java\\.base/jdk\\.internal\\.misc\\.Unsafe\\.park\\(Native Method\\) \\| - parking to wait for <java\\.util\\.concurrent\\.locks\\.ReentrantLock\\\$NonfairSync@[0-9a-f]+> \\| at java\\.base/java\\.lang\\.VirtualThread\\.parkOnCarrierThread\\(.*at com\\.example\\.pinned\\.Rates\\.compare\\([^|]*\\| at com\\.example\\.pinned\\.NativeSort\\.compare\\([^|]*\\| at com\\.example\\.pinned\\.NativeSort\\.sort\\(" x
	check text 'audit-sort: virtual TIMED_WAITING, pinned (parkOnCarrierThread) in Thread.sleep in a qsort upcall' 1 \
		"$T\"audit-sort\" virtual TIMED_WAITING \\| $ONCARRIER[^|]*\\) \\| at java\\.base/java\\.lang\\.VirtualThread\\.parkNanos\\(.*at java\\.base/java\\.lang\\.Thread\\.sleep\\(.*at com\\.example\\.pinned\\.Rates\\.compareThrottled\\([^|]*\\| at com\\.example\\.pinned\\.NativeSort\\.compare\\(" x
	check text 'ledger-sort: virtual BLOCKED, pinned, entering the Ledger monitor in a qsort upcall' 1 \
		"$T\"ledger-sort\" virtual BLOCKED \\| at com\\.example\\.pinned\\.Ledger\\.compare\\([^|]*\\) \\| - waiting to lock <com\\.example\\.pinned\\.Ledger@[0-9a-f]+> \\| at com\\.example\\.pinned\\.NativeSort\\.compare\\(" x
	check text 'batch-sort: virtual WAITING, pinned, in Object.wait on the Batch in a qsort upcall' 1 \
		"$T\"batch-sort\" virtual WAITING \\| at java\\.base/java\\.lang\\.Object\\.wait0\\(Native Method\\) \\| - waiting on <com\\.example\\.pinned\\.Batch@[0-9a-f]+> \\|.*at com\\.example\\.pinned\\.Batch\\.compare\\([^|]*\\) \\| - locked <com\\.example\\.pinned\\.Batch@[0-9a-f]+> \\| at com\\.example\\.pinned\\.NativeSort\\.compare\\(" x
	check text 'checkout-1..5: virtual RUNNABLE with no frame: started, never run (every carrier is pinned)' 5 \
		"$T\"checkout-[1-5]\" virtual RUNNABLE\$" x
	check text 'virtual threads in VirtualThread.parkOnCarrierThread' 4 \
		"$T\"[^\"]*\" virtual [A-Z_]+ \\| $ONCARRIER"
	check text 'carriers ForkJoinPool-1-worker-1..8: platform, their own frames only, from Continuation.run down' 8 \
		"$T\"ForkJoinPool-1-worker-[1-8]\" [A-Z_]+ \\| at java\\.base/jdk\\.internal\\.vm\\.Continuation\\.run\\(" x
	check text 'rates-refresh: platform TIMED_WAITING in Thread.sleep (holds the Rates lock; the dump does not say so)' 1 \
		"$T\"rates-refresh\" TIMED_WAITING \\| at java\\.base/java\\.lang\\.Thread\\.sleepNanos0\\(.*at com\\.example\\.pinned\\.Rates\\.refresh\\(" x
	check text 'ledger-compactor: platform TIMED_WAITING in Thread.sleep, holding the Ledger monitor (- locked)' 1 \
		"$T\"ledger-compactor\" TIMED_WAITING \\| at java\\.base/java\\.lang\\.Thread\\.sleepNanos0\\(.*at com\\.example\\.pinned\\.Ledger\\.compact\\([^|]*\\) \\| - locked <com\\.example\\.pinned\\.Ledger@[0-9a-f]+>" x
	distinct text 'distinct Ledger objects blocked on or locked' 1 'com\.example\.pinned\.Ledger@[0-9a-f]+'
	check json 'mounted virtual threads (JSON "carrier"): the 8 pinned ones' 8 \
		"$T\"(config-loader|config-reader-[12]|price-sort-[12]|audit-sort|ledger-sort|batch-sort)\" virtual .* \\| carrier #[0-9]+\$"
	check jstack 'carriers ForkJoinPool-1-worker-1..8: "Carrying virtual thread #N", no state line' 8 \
		'^"ForkJoinPool-1-worker-[1-8]" [^|]* \| Carrying virtual thread #[0-9]+ \| at jdk\.internal\.vm\.Continuation\.run\('
	check jstack 'carrier headers that end "tid=0x...  [0x...]" (no nid=, no state word)' 8 \
		'^"ForkJoinPool-1-worker-[1-8]" #[0-9]+ \[[0-9]+\] [^|]* tid=0x[0-9a-f]+  \[0x[0-9a-f]+\] \| Carrying virtual thread #'
	check jstack 'config-loader mounted: parkOnCarrierThread in a socket read inside RemoteConfig.<clinit>' 1 \
		"${MOUNTED}$JONCARRIER.*at sun\\.nio\\.ch\\.NioSocketImpl\\.implRead\\(.*at com\\.example\\.pinned\\.RemoteConfig\\.<clinit>\\(" x
	check jstack 'config-reader-1..2 mounted: "- waiting on the Class initialization monitor for com.example.pinned.RemoteConfig"' 2 \
		"${MOUNTED}at com\\.example\\.pinned\\.PinnedApp\\.lambda\\\$main\\\$[0-9]+\\([^|]*\\) \\| - waiting on the Class initialization monitor for com\\.example\\.pinned\\.RemoteConfig \\|" x
	check jstack 'price-sort-1..2 mounted: parkOnCarrierThread in ReentrantLock.lock in Rates.compare, under UpcallStub and DowncallStub' 2 \
		"${MOUNTED}$JONCARRIER.*at java\\.util\\.concurrent\\.locks\\.ReentrantLock\\.lock\\([^|]*\\) \\| at com\\.example\\.pinned\\.Rates\\.compare\\(.*at jdk\\.internal\\.foreign\\.abi\\.UpcallStub/.*at jdk\\.internal\\.foreign\\.abi\\.DowncallStub/.*at com\\.example\\.pinned\\.NativeSort\\.sort\\(" x
	check jstack 'mounted virtual threads with a "- parking to wait for" line (jstack prints none)' 0 \
		"${MOUNTED}.*- parking to wait for"
	check jstack 'audit-sort mounted: parkOnCarrierThread in Thread.sleep in Rates.compareThrottled' 1 \
		"${MOUNTED}$JONCARRIER[^|]*\\) \\| at java\\.lang\\.VirtualThread\\.parkNanos\\(.*at com\\.example\\.pinned\\.Rates\\.compareThrottled\\(" x
	check jstack 'ledger-sort mounted: "- waiting to lock" the Ledger that ledger-compactor holds' 1 \
		"${MOUNTED}at com\\.example\\.pinned\\.Ledger\\.compare\\([^|]*\\) \\| - waiting to lock <@LEDGER@> \\(a com\\.example\\.pinned\\.Ledger\\)" x
	check jstack 'batch-sort mounted: Object.wait0, "- waiting on" and "- locked" the Batch' 1 \
		"${MOUNTED}at java\\.lang\\.Object\\.wait0\\([^|]*\\) \\| - waiting on <(0x[0-9a-f]+)> \\(a com\\.example\\.pinned\\.Batch\\) \\|.*at com\\.example\\.pinned\\.Batch\\.compare\\([^|]*\\) \\| - locked <0x[0-9a-f]+> \\(a com\\.example\\.pinned\\.Batch\\)" x
	check jstack 'rates-refresh: TIMED_WAITING (sleeping), owns the Rates ReentrantLock' 1 \
		"^\"rates-refresh\" .*\\| java\\.lang\\.Thread\\.State: TIMED_WAITING \\(sleeping\\) \\|.*at com\\.example\\.pinned\\.Rates\\.refresh\\(.*Locked ownable synchronizers: \\| - <@RATES@> $NONFAIR\$" x
	check jstack 'ledger-compactor: TIMED_WAITING (sleeping), "- locked" the Ledger' 1 \
		"^\"ledger-compactor\" .*\\| java\\.lang\\.Thread\\.State: TIMED_WAITING \\(sleeping\\) \\|.*at com\\.example\\.pinned\\.Ledger\\.compact\\([^|]*\\) \\| - locked <@LEDGER@> \\(a com\\.example\\.pinned\\.Ledger\\)"
	check jstack 'threads with a Checkout frame (checkout-N never ran)' 0 'at com\.example\.pinned\.Checkout\.'

	start_upstream
	start_app "${BASE_OPTS[@]}" --enable-native-access=ALL-UNNAMED \
		-Djdk.virtualThreadScheduler.parallelism=8 -Djdk.virtualThreadScheduler.maxPoolSize=8 \
		-Dconfig.port="$UPSTREAM_PORT" -cp "$classes" com.example.pinned.PinnedApp
	wait_ready
	take "$dir"
	readme "$dir" "# jdk25-pinned

Virtual threads **pinned** to their carrier while they block, on JDK 25, in the four dump formats
of one JDK. Since JDK 24 (JEP 491) \`synchronized\` no longer pins, but a virtual thread still
cannot unmount while a native frame is on its stack or while it runs or waits for a class
initializer. \`com.example.pinned.PinnedApp\` runs on a scheduler of exactly 8 carriers
(\`-Djdk.virtualThreadScheduler.parallelism=8 -Djdk.virtualThreadScheduler.maxPoolSize=8\`) and
pins all 8 (each step waits for the thread's \`Thread.getState()\` before the next starts):

- \`config-loader\` touches \`RemoteConfig\`, whose static initializer reads from the silent
  config service: pinned in a class initializer, the socket read parks the carrier in
  \`VirtualThread.parkOnCarrierThread\` (**WAITING**).
- \`config-reader-1\`, \`config-reader-2\` then touch \`RemoteConfig\` and wait for its
  initialization to end: pinned, **RUNNABLE**, top frame the caller (\`PinnedApp.lambda\$main\$N\`).
- \`price-sort-1\`, \`price-sort-2\` sort with the C library's \`qsort\` through the Foreign Function
  API (\`NativeSort\`; no JNI); \`qsort\` calls the Java comparator back, which takes the \`Rates\`
  ReentrantLock that the platform thread \`rates-refresh\` holds while it sleeps: pinned by the
  native frame, \`parkOnCarrierThread\` (**WAITING**).
- \`audit-sort\`: the same, with a comparator that sleeps an hour: \`parkOnCarrierThread\`
  (**TIMED_WAITING**).
- \`ledger-sort\`: the same, with a comparator that enters the \`Ledger\` monitor, which the
  platform thread \`ledger-compactor\` holds while it sleeps: pinned, **BLOCKED**.
- \`batch-sort\`: the same, with a comparator that waits in \`Object.wait()\` for a batch never
  published: pinned, **WAITING** in \`Object.wait0\`.
- \`checkout-1\`..\`checkout-5\` are started last: every carrier is pinned, so they never run
  (**RUNNABLE** with no frame; the scheduler's \`submissions = 5\` below).
- \`main\` (platform) waits on a CountDownLatch that is never counted down.

\`-Djdk.tracePinnedThreads\` is gone in JDK 25 (no trace is printed; nothing in java.base
reads it); JFR's \`jdk.VirtualThreadPinned\` event is what remains, and it was not recorded.

What each format shows:

- \`jstack.txt\`, \`jcmd-print.txt\`: each carrier \`ForkJoinPool-1-worker-N\` with a header that
  has no \`nid=\` and no state word (\`... tid=0x...  [0x...]\`), no \`java.lang.Thread.State\`
  line, then \`Carrying virtual thread #TID\`, the carrier's frames (\`Continuation.run\` down to
  \`ForkJoinWorkerThread.run\`), then \`Mounted virtual thread #TID\` and the virtual thread's
  frames, from its top frame down to \`Continuation.enter\`, with the hidden frames (lambda forms,
  \`UpcallStub\`, \`DowncallStub\`) shown. The mounted frames carry \`- waiting to lock\`,
  \`- waiting on\`, \`- locked\` and \`- waiting on the Class initialization monitor for CLASS\`
  lines, but never \`- parking to wait for\`. The virtual thread's name and state are not
  printed; \`checkout-N\` and any unmounted virtual thread are absent.
- \`dump.txt\`: the virtual threads under their own header (\`#TID \"NAME\" virtual STATE\`),
  frames from the top down to \`VirtualThread.run\` (no hidden frames), with \`- parking to wait
  for\`; the carriers are separate entries with only their own frames (\`Continuation.run\`
  down) and their own state. Nothing links a carrier to its virtual thread, and nothing marks
  a thread as pinned but the \`parkOnCarrierThread\` frame (the class-init waiters and the
  BLOCKED and Object.wait ones have no such frame).
- \`dump.json\`: as dump.txt, plus \`\"carrier\": \"TID\"\` on each of the 8 mounted virtual
  threads, which names its carrier."
	stop_app
}

# ---- jdk25-platform -------------------------------------------------------------------

platform_addresses() {
	case $(basename "$1") in
	*.json | dump*.txt | poll.txt) ;;
	*)
		ADDR[INV]=$(held "$1" inventory-rebuild "Locked ownable synchronizers: \\| - <0x[0-9a-f]+> $NONFAIR")
		ADDR[CAT]=$(held "$1" catalog-reindex '- locked <0x[0-9a-f]+> \(a com\.example\.shop\.Catalog\)')
		ADDR[RW]=$(held "$1" price-import "Locked ownable synchronizers: \\| - <0x[0-9a-f]+> $RWSYNC")
		;;
	esac
}

case_jdk25-platform() {
	local dir=$1
	new_case
	ADDR_FN=platform_addresses
	ADDR_NOTE='In jstack checks, @INV@ and @RW@ are the synchronizers under "Locked ownable synchronizers" of inventory-rebuild (ReentrantLock$NonfairSync) and price-import (ReentrantReadWriteLock$NonfairSync), and @CAT@ the Catalog that catalog-reindex has `- locked`.'
	local N20='([1-9]|1[0-9]|20)' N15='([1-9]|1[0-5])' N10='([1-9]|10)'
	check jstack 'request-1..20: RUNNABLE in Net.poll, a socket read of the silent upstream' 20 \
		"^\"request-$N20\" .*\\| java\\.lang\\.Thread\\.State: RUNNABLE \\| at sun\\.nio\\.ch\\.Net\\.poll\\([^|]*Native Method\\) \\| at sun\\.nio\\.ch\\.NioSocketImpl\\.park\\(.*at sun\\.nio\\.ch\\.NioSocketImpl\\.implRead\\(.*at com\\.example\\.shop\\.UpstreamClient\\.fetch\\(.*at java\\.util\\.concurrent\\.ThreadPoolExecutor\\.runWorker\\(" x
	check jstack 'reserve-1..15: WAITING (parking) on the ReentrantLock that inventory-rebuild owns' 15 \
		"^\"reserve-$N15\" .*\\| java\\.lang\\.Thread\\.State: WAITING \\(parking\\) \\| at jdk\\.internal\\.misc\\.Unsafe\\.park\\([^|]*\\| - parking to wait for +<@INV@> $NONFAIR \\|.*at com\\.example\\.shop\\.Inventory\\.reserve\\(" x
	check jstack 'catalog-1..10: BLOCKED (on object monitor), waiting to lock the Catalog that catalog-reindex holds' 10 \
		"^\"catalog-$N10\" .*\\| java\\.lang\\.Thread\\.State: BLOCKED \\(on object monitor\\) \\| at com\\.example\\.shop\\.Catalog\\.describe\\([^|]*\\) \\| - waiting to lock <@CAT@> \\(a com\\.example\\.shop\\.Catalog\\)" x
	check jstack 'price-1..5: WAITING (parking) on the ReentrantReadWriteLock that price-import owns' 5 \
		"^\"price-[1-5]\" .*\\| java\\.lang\\.Thread\\.State: WAITING \\(parking\\) \\| at jdk\\.internal\\.misc\\.Unsafe\\.park\\([^|]*\\| - parking to wait for +<@RW@> $RWSYNC \\|.*at com\\.example\\.shop\\.PriceBook\\.price\\(" x
	check jstack 'report-1..3: TIMED_WAITING (sleeping)' 3 \
		"^\"report-[1-3]\" .*\\| java\\.lang\\.Thread\\.State: TIMED_WAITING \\(sleeping\\) \\| at java\\.lang\\.Thread\\.sleepNanos0\\(.*at com\\.example\\.shop\\.Reporter\\.waitForNextRun\\(" x
	check jstack 'inventory-rebuild: TIMED_WAITING (sleeping), owns the ReentrantLock' 1 \
		"^\"inventory-rebuild\" .*\\| java\\.lang\\.Thread\\.State: TIMED_WAITING \\(sleeping\\) \\|.*at com\\.example\\.shop\\.Inventory\\.rebuild\\(.*Locked ownable synchronizers: \\| - <@INV@> $NONFAIR\$" x
	check jstack 'catalog-reindex: TIMED_WAITING (sleeping), "- locked" the Catalog' 1 \
		"^\"catalog-reindex\" .*\\| java\\.lang\\.Thread\\.State: TIMED_WAITING \\(sleeping\\) \\|.*at com\\.example\\.shop\\.Catalog\\.reindex\\([^|]*\\) \\| - locked <@CAT@> \\(a com\\.example\\.shop\\.Catalog\\)" x
	check jstack 'price-import: TIMED_WAITING (sleeping), owns the ReentrantReadWriteLock' 1 \
		"^\"price-import\" .*\\| java\\.lang\\.Thread\\.State: TIMED_WAITING \\(sleeping\\) \\|.*at com\\.example\\.shop\\.PriceBook\\.importAll\\(.*Locked ownable synchronizers: \\| - <@RW@> $RWSYNC\$" x
	check jstack 'threads carrying a virtual thread' 0 '\| Carrying virtual thread #'
	check text 'request-1..20: RUNNABLE in Net.poll' 20 \
		"$T\"request-$N20\" RUNNABLE \\| at java\\.base/sun\\.nio\\.ch\\.Net\\.poll\\(Native Method\\) \\|.*at java\\.base/sun\\.nio\\.ch\\.NioSocketImpl\\.implRead\\(.*at com\\.example\\.shop\\.UpstreamClient\\.fetch\\(.*at java\\.base/java\\.util\\.concurrent\\.ThreadPoolExecutor\\.runWorker\\(" x
	check text 'reserve-1..15: WAITING, parked on a ReentrantLock$NonfairSync' 15 \
		"$T\"reserve-$N15\" WAITING \\| at java\\.base/jdk\\.internal\\.misc\\.Unsafe\\.park\\(Native Method\\) \\| - parking to wait for <java\\.util\\.concurrent\\.locks\\.ReentrantLock\\\$NonfairSync@[0-9a-f]+> \\|.*at com\\.example\\.shop\\.Inventory\\.reserve\\(" x
	check text 'catalog-1..10: BLOCKED, waiting to lock the Catalog' 10 \
		"$T\"catalog-$N10\" BLOCKED \\| at com\\.example\\.shop\\.Catalog\\.describe\\([^|]*\\) \\| - waiting to lock <com\\.example\\.shop\\.Catalog@[0-9a-f]+> \\|" x
	check text 'price-1..5: WAITING, parked on a ReentrantReadWriteLock$NonfairSync' 5 \
		"$T\"price-[1-5]\" WAITING \\| at java\\.base/jdk\\.internal\\.misc\\.Unsafe\\.park\\(Native Method\\) \\| - parking to wait for <java\\.util\\.concurrent\\.locks\\.ReentrantReadWriteLock\\\$NonfairSync@[0-9a-f]+> \\|.*at com\\.example\\.shop\\.PriceBook\\.price\\(" x
	check text 'report-1..3: TIMED_WAITING in Thread.sleep' 3 \
		"$T\"report-[1-3]\" TIMED_WAITING \\| at java\\.base/java\\.lang\\.Thread\\.sleepNanos0\\(Native Method\\) .*at com\\.example\\.shop\\.Reporter\\.waitForNextRun\\(" x
	check text 'catalog-reindex: TIMED_WAITING in Thread.sleep, holding the Catalog (- locked)' 1 \
		"$T\"catalog-reindex\" TIMED_WAITING \\| .*at com\\.example\\.shop\\.Catalog\\.reindex\\([^|]*\\) \\| - locked <com\\.example\\.shop\\.Catalog@[0-9a-f]+>" x
	check text 'inventory-rebuild, price-import: TIMED_WAITING in Thread.sleep (the locks they own are not shown)' 2 \
		"$T\"(inventory-rebuild|price-import)\" TIMED_WAITING \\| at java\\.base/java\\.lang\\.Thread\\.sleepNanos0\\(Native Method\\) .*at com\\.example\\.shop\\.(Inventory\\.rebuild|PriceBook\\.importAll)\\("
	distinct text 'distinct ReentrantLock$NonfairSync objects parked on' 1 'parking to wait for <java\.util\.concurrent\.locks\.ReentrantLock\$NonfairSync@[0-9a-f]+>'
	distinct text 'distinct Catalog objects blocked on or locked' 1 'com\.example\.shop\.Catalog@[0-9a-f]+'
	check text 'virtual threads' 0 "$T\"[^\"]*\" virtual "
	check json 'mounted virtual threads (JSON "carrier")' 0 ' \| carrier #[0-9]+$'

	start_upstream
	start_app "${BASE_OPTS[@]}" -cp "$classes" com.example.shop.ShopApp platform "$UPSTREAM_PORT" 20 15 10 5 3
	wait_ready
	take "$dir"
	readme "$dir" "# jdk25-platform

The waits of [jdk25-vthreads](../jdk25-vthreads/) on **platform** threads, on the same JDK 25, in
the same four formats, so the formats and the two kinds of thread can be compared. The shop
(\`com.example.shop.ShopApp platform\`, the same code) runs each group on its own
\`Executors.newFixedThreadPool\` of named platform threads:

- \`request-1\`..\`request-20\` in a socket read from the silent upstream: **RUNNABLE** in
  \`sun.nio.ch.Net.poll\` (the socket was connected with a timeout, so NioSocketImpl polls).
- \`reserve-1\`..\`reserve-15\` in \`ReentrantLock.lock()\` on the lock that \`inventory-rebuild\`
  holds while it sleeps: **WAITING (parking)**.
- \`catalog-1\`..\`catalog-10\` entering the \`synchronized\` \`Catalog.describe\` while
  \`catalog-reindex\` sleeps inside the \`synchronized\` \`Catalog.reindex\`: **BLOCKED (on object
  monitor)**, all on the one monitor its owner has \`- locked\`.
- \`price-1\`..\`price-5\` waiting for the read lock of the \`ReentrantReadWriteLock\` whose write
  lock \`price-import\` holds while it sleeps: **WAITING (parking)**.
- \`report-1\`..\`report-3\` sleeping (**TIMED_WAITING (sleeping)**).
- \`main\` waits on a CountDownLatch that is never counted down.

What each format shows: \`jstack.txt\` and \`jcmd-print.txt\` give each thread's OS thread,
CPU time and elapsed time, the \`java.lang.Thread.State\` with its reason, lock lines with
addresses (\`<0x...> (a CLASS)\`) and each thread's \"Locked ownable synchronizers\", so every
ReentrantLock and ReentrantReadWriteLock has a known owner. \`dump.txt\` and \`dump.json\` give
the bare state (\`WAITING\`, no reason), identity hashes (\`CLASS@HASH\`) instead of addresses,
no owner of any ReentrantLock, no CPU time and no VM-internal threads (GC, compiler). No
virtual thread runs, so no carrier appears."
	stop_app
}

# ---- main -----------------------------------------------------------------------------

log "compiling with $JDK"
"$JDK/bin/javac" -nowarn -Xlint:-restricted -d "$classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	log "== $c"
	out=$tmp/out/$c
	mkdir -p "$out"
	UPSTREAM_PORT=
	"case_$c" "$out"
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
	pids=()
	rm -rf "${out_root:?}/$c"
	mkdir -p "$out_root"
	mv "$out" "$out_root/$c"
	log "$c written"
done
