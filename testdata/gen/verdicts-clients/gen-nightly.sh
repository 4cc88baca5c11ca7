#!/usr/bin/env bash
# Regenerates testdata/verdicts/nightly-jobs-{stuck,healthy} (issue 33, the second program of an
# application's own client waits): com.example.clients.NightlyJobsApp on the installed Java 17 with
# Debian's pgjdbc (apt-get install libpostgresql-jdbc-java: 42.5.5) against a PostgreSQL 15 of its
# own on 127.0.0.1 (initdb in a temporary folder, run as the postgres user), in a mount namespace
# (unshare -m, as root) whose /etc/resolv.conf names only 127.0.0.1 (options timeout:30
# attempts:5), where the program's own DNS server listens: no name leaves the machine. Dumped three
# times with `jstack -l PID`, 5 s apart, 3 s after "ready". Everything started here is stopped on
# exit. The READMEs were written by hand from the source before dumpdiff ran.
#
# Usage: bash testdata/gen/verdicts-clients/gen-nightly.sh [CASE...]   (default: both)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
. "$here/../jstack3.sh"
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-nightly.XXXXXX)
chmod 755 "$tmp"
pgbin=/usr/lib/postgresql/15/bin
pid=
cleanup() {
	[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	su postgres -s /bin/sh -c "$pgbin/pg_ctl -D $tmp/pg -m immediate stop" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
jar=/usr/share/java/postgresql.jar
[[ -f $jar ]] || { echo "missing $jar (apt-get install libpostgresql-jdbc-java)" >&2; exit 1; }
port=$((20000 + RANDOM % 20000))
mkdir "$tmp/pg" && chown postgres "$tmp/pg"
su postgres -s /bin/sh -c "$pgbin/initdb -D $tmp/pg -A trust -U app >/dev/null"
su postgres -s /bin/sh -c "$pgbin/pg_ctl -D $tmp/pg -o '-c listen_addresses=127.0.0.1 -p $port -k $tmp/pg' -l $tmp/pg/server.log -w start >/dev/null"
printf 'nameserver 127.0.0.1\noptions timeout:30 attempts:5\n' >"$tmp/resolv.conf"
cases=("$@")
((${#cases[@]})) || cases=(nightly-jobs-stuck nightly-jobs-healthy)
javac -nowarn -cp "$jar" -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	unshare -m sh -c "mount --bind $tmp/resolv.conf /etc/resolv.conf && exec java -Xmx64m -XX:+UseSerialGC -Dsun.net.inetaddr.ttl=0 -Dsun.net.inetaddr.negative.ttl=0 -cp $tmp/classes:$jar com.example.clients.NightlyJobsApp ${c##*-} jdbc:postgresql://127.0.0.1:$port/postgres?user=app" >"$tmp/out.log" 2>&1 &
	pid=$!
	dir=$repo/testdata/verdicts/$c
	dump_started "$tmp/out.log" "$dir"
done
