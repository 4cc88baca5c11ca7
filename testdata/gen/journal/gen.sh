#!/usr/bin/env bash
# Thread dumps read back from the journal: real jstack moments written into a
# journal file by systemd-journal-remote and printed by journalctl
# (testdata/journal/README.md).
set -euo pipefail
cd "$(dirname "$0")/../../.."
remote=/lib/systemd/systemd-journal-remote
command -v journalctl >/dev/null && [ -x "$remote" ] || { echo "needs journalctl and systemd-journal-remote" >&2; exit 1; }
out=testdata/journal
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# export SRC MODE: journal export records of SRC, one entry a line (line) or
# one a thread (thread: a thread's header and the lines up to the next blank
# line in one MESSAGE, in export's binary form since it holds newlines).
export_records() {
	python3 - "$1" "$2" <<'PY'
import sys, struct, datetime
src, mode = sys.argv[1], sys.argv[2]
lines = open(src, encoding="utf-8").read().rstrip("\n").split("\n")
start = datetime.datetime.strptime(lines[0][:19], "%Y-%m-%d %H:%M:%S").replace(tzinfo=datetime.timezone.utc)
us = int(start.timestamp() * 1_000_000)
out = sys.stdout.buffer
entries = []
if mode == "line":
    entries = [[l] for l in lines]
else:
    i = 0
    while i < len(lines):
        if lines[i].startswith('"') and i > 2:
            j = i
            while j < len(lines) and lines[j] != "":
                j += 1
            entries.append(lines[i:j])
            i = j
        else:
            entries.append([lines[i]])
            i += 1
for k, e in enumerate(entries):
    t = us + k * 1000
    out.write(b"__REALTIME_TIMESTAMP=%d\n__MONOTONIC_TIMESTAMP=%d\n_BOOT_ID=4f1c2e9a7b3d4c5e8f9a0b1c2d3e4f50\n" % (t, 1_000_000 + k * 1000))
    out.write(b"_PID=4242\n_COMM=java\nSYSLOG_IDENTIFIER=java\n_TRANSPORT=stdout\nPRIORITY=6\n_HOSTNAME=vm\n")
    msg = "\n".join(e).encode()
    if b"\n" in msg:
        out.write(b"MESSAGE\n" + struct.pack("<Q", len(msg)) + msg + b"\n")
    else:
        out.write(b"MESSAGE=" + msg + b"\n")
    out.write(b"\n")
PY
}

# make NAME SRC MODE OUTPUT
make_one() {
	local name=$1 src=$2 mode=$3 output=$4
	mkdir -p "$out/$name"
	for m in 1 2; do
		export_records "$src/$m.txt" "$mode" > "$tmp/$name-$m.export"
		rm -f "$tmp/$name-$m.journal"
		"$remote" -o "$tmp/$name-$m.journal" --split-mode=none - < "$tmp/$name-$m.export" 2>/dev/null
		rm -f "$out/$name/$m.txt" "$out/$name/$m.txt.gz"
		TZ=UTC journalctl --file "$tmp/$name-$m.journal" -o "$output" --no-pager > "$out/$name/$m.txt"
		gzip -9n "$out/$name/$m.txt" # journalctl repeats a prefix or the fields on every line
	done
}

make_one hc4-export testdata/libs/jvm-httpclient4-pool line export
make_one hc4-verbose testdata/libs/jvm-httpclient4-pool line verbose
make_one hc4-short-multiline testdata/libs/jvm-httpclient4-pool thread short-iso
make_one idle-export testdata/libs/jvm-idle-libs line export
make_one idle-short-multiline testdata/libs/jvm-idle-libs thread short-iso
