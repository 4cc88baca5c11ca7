#!/usr/bin/env bash
# Writes testdata/debuggers/goland__blocked.txt: goroutine stacks in the
# shape GoLand's debugger copies them ("Goroutine N", then "  function
# (file:line)" per frame, "  created at: function (file)"), with a
# person's "<snip>" cuts. GoLand is not run here and no public copy of
# this shape was found (testdata/debuggers/README.md): the text is written
# by this script from the shape, and its content is real: the frames are
# those Delve 1.27.2 gave GoLand's way (goroutines -t, the API GoLand
# reads), the creators the go statements of goroutines -g, of the same
# process (gen.sh). Delve prints the program's own paths relative to the
# working directory ("./blocked/main.go"); GoLand prints them whole: the
# debug=2 dump of the same process gives the directory.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
d=$here/../../debuggers
dir=$(grep -o '/[^ ]*/blocked/main.go' "$d/delve-v1.27.2.debug2.txt" | head -1 | sed 's|/blocked/main.go$||')
# The goroutines pasted, and after which ones the person cut ("<snip>").
# Not goroutine 1: -t cut its stack at 10 frames, GoLand would not.
keep=" 21 22 23 25 29 31 32 34 35 37 "
snip=" 21 23 32 "
awk -v keep="$keep" -v snip="$snip" -v dir="$dir" '
	function path(p) { sub(/^\.\//, dir "/", p); return p }
	FNR == 1 { file++ }
	# goroutines -g: the go statement of each goroutine.
	file == 1 && /Goroutine [0-9]+ - Go: / {
		id = $2
		loc = $5; fn = $6
		sub(/:[0-9]+$/, "", loc)
		creator[id] = fn " (" path(loc) ")"
		next
	}
	# goroutines -t: the header, then each frame over its "at" line.
	file == 2 && /Goroutine [0-9]+ - / {
		flush()
		id = $2
		on = index(keep, " " id " ") > 0
		if (on) print "Goroutine " id
		next
	}
	file == 2 && on && $2 ~ /^0x/ && $3 == "in" { fn = $4; next }
	file == 2 && on && $1 == "at" { print "  " fn " (" path($2) ")"; next }
	function flush() {
		if (on && creator[id] != "" && creator[id] !~ /^runtime\./) print "  created at: " creator[id]
		if (on && index(snip, " " id " ") > 0) print "<snip>"
		on = 0
	}
	END { flush() }
' "$d/delve-v1.27.2.goroutines-g.txt" "$d/delve-v1.27.2.goroutines-t.txt" >"$d/goland__blocked.txt"
printf '%s\t%s\n' goland__blocked.txt "$(grep -c '^Goroutine [0-9]*$' "$d/goland__blocked.txt")"
