#!/usr/bin/env bash
# Regenerates every JVM scenario in testdata/scenarios/ (except go-*) from real servers on this
# machine: embedded Tomcat shop, slow upstream JVM, private PostgreSQL cluster, open-model load
# on 127.0.0.1 only. Called by `make fixtures`, never by `make test`. Installs the Debian
# packages it needs. Takes about 5 minutes.
set -euo pipefail
cd "$(dirname "$0")"
source ./lib.sh
trap - EXIT # each case script cleans up after itself

start=$SECONDS
ensure_packages
build
export FIXTURE_BUILT=1

# run_case CMD... runs one case, again (up to 3 tries) when it exits 75: the shared machine
# was too busy for its timeline (see check_undisturbed in lib.sh).
run_case() {
	local try rc
	for try in 1 2 3; do
		"$@" && return 0
		rc=$?
		((rc == 75)) || return "$rc"
		log "$* was disturbed (try $try); waiting 30s"
		sleep 30
	done
	log "$* was disturbed 3 times; its folder is unchanged"
	return 75
}

failed=()
run_case ./slow-upstream.sh no-timeout || failed+=("slow-upstream no-timeout")
run_case ./slow-upstream.sh bulkhead || failed+=("slow-upstream bulkhead")
run_case ./completablefuture.sh thread-per-task || failed+=("completablefuture thread-per-task")
run_case ./completablefuture.sh mypage-pool || failed+=("completablefuture mypage-pool")
run_case ./hikari.sh || failed+=(hikari)
if ((${#failed[@]})); then
	log "not regenerated: ${failed[*]} ($((SECONDS - start))s)"
	exit 1
fi
log "all scenarios regenerated in $((SECONDS - start))s"
