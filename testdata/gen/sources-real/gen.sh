#!/usr/bin/env bash
# Regenerates the Java second-source fixtures of testdata/verdicts/ (issue 33: a second,
# independent real source per rule) from src/ here, run on the installed Java 17 with the Debian
# packages' jars (apt-get install libhikaricp-java libpostgresql-jdbc-java libslf4j-java
# libtomcat10-java libnetty-java: HikariCP 2.7.9, PgJDBC 42.5.5, SLF4J 1.7.32, Tomcat 10.1.60,
# Netty 4.1.48) against a private PostgreSQL 15 cluster on
# 127.0.0.1 (postgresql-15; the cluster is made in /tmp and stopped on exit). Each case is
# dumped three times with `jstack -l PID`, 5 s apart, 3 s after the program printed "ready":
#
#   src2-permit-pg-stuck/1..3.txt    com.example.sources.BulkheadPgApp stuck
#   src2-permit-pg-healthy/1..3.txt  com.example.sources.BulkheadPgApp healthy
#   src2-crowd-tomcat/1..3.txt       com.example.sources.TomcatSpawnApp stuck   (Tomcat 10.1.60)
#   src2-crowd-tomcat-healthy/1..3   com.example.sources.TomcatSpawnApp healthy
#   src2-nopeer-netty-stuck/1..3     com.example.sources.NettyBindApp stuck     (Netty 4.1.48)
#   src2-nopeer-netty-healthy/1..3   com.example.sources.NettyBindApp healthy
#
# Each README.md was written by hand from the source before dumpdiff ran; this script only
# replaces the dumps. Must run as root (the cluster runs as the postgres user).
#
# Usage: bash testdata/gen/sources-real/gen.sh [CASE...]   (~30 s)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-sources-real.XXXXXX)
chmod 755 "$tmp" # the cluster below runs as the postgres user
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PG_PORT=${PG_PORT:-15447}
pgdata=$tmp/pg
pid=
cleanup() {
	[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	[[ -f $pgdata/postmaster.pid ]] && su postgres -c "$PG_BIN/pg_ctl -D $pgdata -m immediate stop" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
j=/usr/share/java
cp=$j/HikariCP.jar:$j/postgresql.jar:$j/slf4j-api.jar:$j/slf4j-nop.jar
for t in common buffer resolver transport; do cp=$cp:$j/netty-$t.jar; done
for t in catalina coyote util util-scan juli api servlet-api jaspic-api annotations-api jni; do cp=$cp:$j/tomcat10-$t.jar; done
for f in ${cp//:/ }; do
	[[ -f $f ]] || { echo "missing $f (apt-get install libhikaricp-java libpostgresql-jdbc-java libslf4j-java libtomcat10-java libnetty-java)" >&2; exit 1; }
done
cases=("$@")
((${#cases[@]})) || cases=(src2-permit-pg-stuck src2-permit-pg-healthy src2-crowd-tomcat src2-crowd-tomcat-healthy
	src2-nopeer-netty-stuck src2-nopeer-netty-healthy)
mkdir -p "$pgdata" && chown postgres: "$pgdata"
su postgres -c "$PG_BIN/initdb -D $pgdata -A trust -U postgres" >"$tmp/initdb.log" 2>&1
su postgres -c "$PG_BIN/pg_ctl -D $pgdata -l $pgdata/server.log -w start \
	-o '-p $PG_PORT -k $pgdata -c listen_addresses=127.0.0.1 -c max_connections=50'" >/dev/null
url="jdbc:postgresql://127.0.0.1:$PG_PORT/postgres"
javac -nowarn -cp "$cp" -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	case $c in
	src2-permit-pg-stuck) args=(com.example.sources.BulkheadPgApp stuck "$url" postgres) ;;
	src2-permit-pg-healthy) args=(com.example.sources.BulkheadPgApp healthy "$url" postgres) ;;
	src2-crowd-tomcat) args=(com.example.sources.TomcatSpawnApp stuck) ;;
	src2-crowd-tomcat-healthy) args=(com.example.sources.TomcatSpawnApp healthy) ;;
	src2-nopeer-netty-stuck) args=(com.example.sources.NettyBindApp stuck) ;;
	src2-nopeer-netty-healthy) args=(com.example.sources.NettyBindApp healthy) ;;
	*) echo "unknown case $c" >&2; exit 1 ;;
	esac
	java -Xmx128m -XX:+UseSerialGC -cp "$tmp/classes:$cp" "${args[@]}" >"$tmp/out.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 300); do
		grep -q '^ready$' "$tmp/out.log" && break
		sleep 0.1
	done
	grep -q '^ready$' "$tmp/out.log" || { cat "$tmp/out.log" >&2; exit 1; }
	sleep 3
	dir=$repo/testdata/verdicts/$c
	mkdir -p "$dir"
	for i in 1 2 3; do
		jstack -l "$pid" >"$dir/$i.txt"
		[[ $i == 3 ]] || sleep 5
	done
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	# The stuck case's pg_sleep(600) backends would outlive the JVM: end them.
	"$PG_BIN/psql" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'" >/dev/null
	echo "$c: $(grep -c '^"' "$dir/1.txt") threads a dump" >&2
done
