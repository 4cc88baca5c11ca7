#!/bin/sh
# Writes testdata/formats/dropwizard-jdk17__stall.txt and
# dropwizard-jdk17__healthy.txt: Dropwizard's /threads page (metrics-jvm's
# com.codahale.metrics.jvm.ThreadDump, Debian's libdropwizard-metrics-java
# 3.2.6) of DropwizardThreadsApp.java's two scenarios on the JDK on PATH;
# and beside each, dropwizard-jdk17__S.jstack.txt, jstack -l of the same
# process at the same moment (the program holds its threads until its
# stdin closes). The program waits on its threads' states, not on time.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/../../formats
jars=/usr/share/java/metrics-jvm.jar:/usr/share/java/metrics-core.jar
[ -f /usr/share/java/metrics-jvm.jar ] || { echo "gen dropwizard-threads: apt-get install libdropwizard-metrics-java" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
javac -cp "$jars" -d "$tmp" "$here/DropwizardThreadsApp.java"
for s in stall healthy; do
  f=$out/dropwizard-jdk17__$s.txt
  mkfifo "$tmp/in"
  java -cp "$tmp:$jars" DropwizardThreadsApp "$s" <"$tmp/in" >"$f" 2>"$tmp/err" &
  pid=$!
  exec 3>"$tmp/in"
  until grep -q '^dumped ' "$tmp/err"; do
    kill -0 "$pid" 2>/dev/null || { cat "$tmp/err" >&2; exit 1; }
    sleep 0.1
  done
  jstack -l "$pid" | sed '1{/^[0-9]*:$/d}' >"$out/dropwizard-jdk17__$s.jstack.txt"
  exec 3>&-
  wait "$pid"
  rm -f "$tmp/in" "$tmp/err"
  printf 'dropwizard-jdk17__%s.txt\t%s\n' "$s" "$(grep -c '^".*" id=[0-9]* state=' "$f")"
done
