#!/usr/bin/env bash
# Writes testdata/prefixed/shape-*: the shapes of public logs that put a tool's text before
# each line of a Go or JVM dump, found in public repositories and issue threads whose text
# cannot be copied here (testdata/prefixed/README.md names each source), each over the dumps
# of testdata/pasted (a Go SIGQUIT traceback, an OpenJDK 17 kill -3), with the source's own
# quirks (a tab lost, blank lines dropped or prefixed alone, a counter or a clock that
# advances). Only awk; deterministic; not run by make test.
#
# Usage: testdata/gen/prefixed/shapes.sh [OUT]   (OUT defaults to testdata/prefixed)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out=${1:-$repo/testdata/prefixed}
go=$repo/testdata/pasted/go-sigquit.stderr.txt
jvm=$repo/testdata/pasted/jvm-kill3.stdout.txt

# Heroku's log stream (heroku logs, a log drain): the router's time with microseconds and
# +00:00, the dyno; the line's leading white space is gone (a frame's file line starts at
# its path).
awk 'BEGIN { us = 243163 } { sub(/^[ \t]+/, ""); printf "2019-05-30T22:30:09.%06d+00:00 app[web.1]: %s\n", us, $0; us += 2 }' "$go" >"$out/shape-heroku.go.log"

# Jenkins' Timestamper plugin in a console log copied from the web page: the wall clock
# and two spaces; a blank line is the clock alone.
for kind in go jvm; do
	src=$go; [ "$kind" = jvm ] && src=$jvm
	awk 'BEGIN { s = 6 * 3600 + 16 * 60 + 53 } { printf "%02d:%02d:%02d  %s\n", int(s / 3600), int(s % 3600 / 60), s % 60, $0; if (NR % 40 == 0) s++ }' "$src" >"$out/shape-jenkins-timestamper.$kind.log"
done

# docker-compose v1 (`docker-compose up`, `logs`): the service's container, padded to the
# longest name, " | "; a blank line keeps the bar without the space after it.
awk '{ if ($0 == "") print "test_1         |"; else print "test_1         | " $0 }' "$go" >"$out/shape-compose-v1.go.log"
# docker compose v2: "name-1", padded, " | "; the bar alone on a blank line; the frames'
# tab printed as two spaces (as the public copy shows it).
awk '{ sub(/^\t/, "  "); if ($0 == "") print "museum-1    |"; else print "museum-1    | " $0 }' "$go" >"$out/shape-compose-v2.go.log"
awk '{ if ($0 == "") print "museum-1    |"; else print "museum-1    | " $0 }' "$jvm" >"$out/shape-compose-v2.jvm.log"

# A Terraform crash.log: a provider plugin's stderr relayed by go-plugin through hclog:
# time with milliseconds and zone, level, the plugin's name and a colon; a blank line
# keeps the space after the colon.
awk '{ printf "2021-05-27T10:46:33.875+0300 [DEBUG] plugin.terraform-provider-vsphere_v1.11.0_x4: %s\n", $0 }' "$go" >"$out/shape-terraform-hclog.go.log"

# A Packer crash.log: a plugin's output under the Go log package's date and time and
# the plugin's name.
awk '{ printf "2015/10/13 10:34:16 packer-post-processor-compress: %s\n", $0 }' "$go" >"$out/shape-packer-plugin.go.log"

# Android's logcat, its brief format (gomobile sends stderr there a line at a time, and
# drops empty lines): priority/tag, the pid padded in parentheses.
awk '$0 != "" { printf "E/Go      (13562): %s\n", $0 }' "$go" >"$out/shape-logcat-brief.go.log"

# Android Studio's logcat window copied: date, time with milliseconds, pid-tid, the tag
# and the package padded, the level; a blank line is the prefix alone.
awk 'BEGIN { ms = 543 } { printf "2024-06-24 21:17:30.%03d 15502-0     Go                      com.celzero.bravedns                 E  %s\n", ms % 1000, $0; if (NR % 25 == 0) ms++ }' "$go" >"$out/shape-logcat-studio.go.log"

# Tanuki's Java Service Wrapper (wrapper.log): level, "jvm 1", date and time, bars; a
# blank line keeps the last bar and its space.
awk '{ printf "INFO   | jvm 1    | 2010/11/16 11:24:06 | %s\n", $0 }' "$jvm" >"$out/shape-java-service-wrapper.jvm.log"

# forego (`heroku local`): the process's index and name, padded, a bar.
awk '{ printf "[00] web.1  | %s\n", $0 }' "$go" >"$out/shape-forego.go.log"

# Vagrant's provisioner output: the machine's name, indented, a colon.
awk '{ printf "    default: %s\n", $0 }' "$go" >"$out/shape-vagrant.go.log"
