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
./slow-upstream.sh no-timeout
./slow-upstream.sh bulkhead
./completablefuture.sh thread-per-task
./completablefuture.sh mypage-pool
./hikari.sh
log "all scenarios regenerated in $((SECONDS - start))s"
