# shellcheck shell=bash
# The goroutine state counts the Go fixture scripts write into their READMEs, counted with
# sed and grep, apart from any parser of ours; sourced by libs-go/gen.sh, verdicts-go/gen.sh
# and verdicts-spin/gen-go.sh, never run alone.

# states FILE: the text in brackets of every `goroutine N [...]:` header (Go 1.27's
# `goroutine N gp=... m=... [...]:` too).
states() { sed -nE 's/^goroutine [0-9]+ (gp=[^ ]+ m=[^ ]+ (mp=[^ ]+ )?)?\[([^]]*)\]:$/\3/p' "$1"; }

# state_table FILE...: Markdown table, one row per header state, one column
# per file, each cell `states FILE | grep -cxF STATE`, and the files' totals.
state_table() {
	local f s
	printf '| state in `goroutine N [state]:` |'
	for f; do printf ' %s |' "$(basename "$f")"; done
	printf '\n|---|'
	for f; do printf -- '---:|'; done
	echo
	for f; do states "$f"; done | sort -u | while IFS= read -r s; do
		printf '| `%s` |' "$s"
		for f; do printf ' %s |' "$(states "$f" | grep -cxF -- "$s" || true)"; done
		echo
	done
	printf '| **all** (`grep -c "^goroutine "`) |'
	for f; do printf ' **%s** |' "$(grep -c '^goroutine ' "$f")"; done
	echo
}
