#!/usr/bin/env bash
# Regenerates testdata/pasted/: the SIGQUIT traceback of a real Go program (goapp/) and the
# kill -3 thread dump of a real Java 17 program (java/), each passed through the places an
# on-call engineer finds dumps in:
#
#   go-sigquit.stderr.txt, jvm-kill3.stdout.txt
#                                        the stream the program wrote its dump to, as written
#   NAME.docker.log, .cri.log, .kubectl.log
#                                        docker json-file, the CRI log file, kubectl logs
#                                        --timestamps, written by logwrap/ to their documented
#                                        shapes (no docker daemon or kubelet here)
#   NAME.journal-*.log                   real journalctl output: systemd-journald started by
#                                        journal.sh in a private mount namespace (root and
#                                        unshare needed), with another process logging beside;
#                                        NAME.journal-cat.txt is the program's messages alone
#   go-sigquit.indent4.md, .tab.txt, .quote.txt, jvm-kill3.indent4.md, .quote.txt
#                                        the dump pasted into an issue, indented or quoted
#   go-sigquit.utf8-bom.txt, jvm-kill3.utf16le-bom-crlf.txt, jvm-kill3.utf16be-bom.txt
#                                        the dump saved with a BOM, as UTF-16 (iconv), the LE one
#                                        with CRLF as Windows PowerShell 5.1 `>` writes it
#
# NAME is go-sigquit or jvm-kill3. README.md (written here) counts the dumps' threads by grep.
# Usage: testdata/gen/pasted/gen.sh   (from anywhere; ~15 s). Needs go, java, javac, iconv;
#        journald files are kept as they are when systemd-journald or unshare is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out=$repo/testdata/pasted
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$here/logwrap" && go build -o "$tmp/logwrap" .)
(cd "$here/goapp" && go build -o "$tmp/checkout" .)
javac -d "$tmp/java" "$here/java/com/example/checkout/CheckoutApp.java"

GOTRACEBACK=all "$tmp/logwrap" -out "$tmp" -name go-sigquit -- "$tmp/checkout"
"$tmp/logwrap" -out "$tmp" -name jvm-kill3 -stop 500ms -- java -Xmx64m -cp "$tmp/java" com.example.checkout.CheckoutApp

journal=kept
if [ "$(id -u)" = 0 ] && [ -x /lib/systemd/systemd-journald ] && command -v unshare >/dev/null && command -v systemd-cat >/dev/null; then
	unshare --mount --propagation private bash "$here/journal.sh" "$tmp"
	journal=regenerated
else
	echo "no root, unshare or systemd-journald: the journal-*.log files are kept as they are" >&2
fi

go=$tmp/go-sigquit.stderr.txt
jvm=$tmp/jvm-kill3.stdout.txt
# Pastes: a Markdown issue body with the dump in an indented code block (blank lines left
# empty), a tab-indented paste, and mail replies quoting it ("> ", blank lines as ">").
{
	printf 'The checkout service hangs after a deploy. SIGQUIT output:\n\n'
	sed 's/^\(.\)/    \1/' "$go"
	printf '\nAny idea what holds the ledger?\n'
} >"$tmp/go-sigquit.indent4.md"
sed 's/^/\t/' "$go" >"$tmp/go-sigquit.tab.txt"
{
	printf 'On Tue, Dec 1, 2026, on-call wrote:\n'
	sed 's/^/> /; s/^> $/>/' "$go"
	printf '\nThanks, looking.\n'
} >"$tmp/go-sigquit.quote.txt"
{
	printf 'kill -3 output of checkout:\n\n'
	sed 's/^\(.\)/    \1/' "$jvm"
	printf '\n'
} >"$tmp/jvm-kill3.indent4.md"
sed 's/^/> /; s/^> $/>/' "$jvm" >"$tmp/jvm-kill3.quote.txt"
# Encodings.
{ printf '\xef\xbb\xbf'; cat "$go"; } >"$tmp/go-sigquit.utf8-bom.txt"
{ printf '\xff\xfe'; sed 's/$/\r/' "$jvm" | iconv -f UTF-8 -t UTF-16LE; } >"$tmp/jvm-kill3.utf16le-bom-crlf.txt"
{ printf '\xfe\xff'; iconv -f UTF-8 -t UTF-16BE "$jvm"; } >"$tmp/jvm-kill3.utf16be-bom.txt"

gover=$(go version | awk '{print $3}')
jdk=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p')
goroutines=$(grep -c '^goroutine [0-9]' "$go")
threads=$(grep -c '^"' "$jvm")
mkdir -p "$out"
for f in "$tmp"/go-sigquit.* "$tmp"/jvm-kill3.*; do
	case $f in
	*/go-sigquit.stdout.txt | */jvm-kill3.stderr.txt) ;; # the streams without the dump
	*.journal-*) [ "$journal" = regenerated ] && cp "$f" "$out"/ ;;
	*) cp "$f" "$out"/ ;;
	esac
done
cat >"$out/README.md" <<MD
# Dumps as on-call finds them: collected, pasted, re-encoded

Written by \`testdata/gen/pasted/gen.sh\`. Two real dumps:

- \`go-sigquit\`: the SIGQUIT traceback ($gover, \`GOTRACEBACK=all\`) of
  \`testdata/gen/pasted/goapp\`: eight idle payment workers, five order handlers blocked on the
  ledger's \`sync.Mutex\` held by \`ledger.Reconcile\` sleeping under it, and a ticker logging
  to stdout every millisecond. $goroutines goroutines (\`grep -c '^goroutine [0-9]'\` of
  \`go-sigquit.stderr.txt\`).
- \`jvm-kill3\`: \`kill -3\` of OpenJDK $jdk running
  \`testdata/gen/pasted/java/com/example/checkout/CheckoutApp.java\`: five \`order-handler-N\`
  BLOCKED on the Ledger monitor held by \`ledger-reconcile\`, three \`payment-worker-N\` parked
  on a \`ReentrantLock\`, \`mail-sender\` in \`Object.wait()\`, a ticker logging to stderr every
  millisecond. $threads threads (\`grep -c '^"'\` of \`jvm-kill3.stdout.txt\`).

| file | how it was made |
|---|---|
| \`go-sigquit.stderr.txt\`, \`jvm-kill3.stdout.txt\` | the stream the program wrote its dump to, as written (the ticker wrote to the other one) |
| \`*.docker.log\` | docker's json-file format: \`{"log":"...\\n","stream":"stderr","time":"..."}\` per line, moby's escaping (\`\\u0009\` for TAB), written by \`logwrap\` as each line arrived. **Documented shape, written by us: no docker daemon runs here.** |
| \`*.cri.log\` | the CRI log file (\`TIME STREAM F TEXT\`) that containerd and CRI-O write and kubelet and collectors read; **documented shape, written by \`logwrap\`** |
| \`*.kubectl.log\` | \`kubectl logs --timestamps\`: \`TIME TEXT\`, both streams in arrival order; **documented shape, written by \`logwrap\`** (no cluster here) |
| \`*.journal-*.log\` | **real** \`journalctl -o short\` / \`short-precise\` / \`short-iso\` output of systemd 252's journald, which received the program through \`systemd-cat -t checkout\` / \`-t orders\` while \`cron\` logged beside it (\`journal.sh\`); journalctl shows each TAB as 8 spaces. The journal holds another run than the files above: \`*.journal-cat.txt\` (\`journalctl -o cat --all\`, the program's messages alone) is that run's own output |
| \`*.indent4.md\` | a Markdown issue body: prose, the dump indented by 4 spaces (blank lines empty), prose |
| \`go-sigquit.tab.txt\` | every line indented by a TAB |
| \`*.quote.txt\` | a mail reply quoting the dump with \`> \` (blank lines \`>\`) |
| \`go-sigquit.utf8-bom.txt\` | UTF-8 with a byte order mark |
| \`jvm-kill3.utf16le-bom-crlf.txt\` | UTF-16LE with a BOM and CRLF, as Windows PowerShell 5.1's \`>\` saves a dump (iconv) |
| \`jvm-kill3.utf16be-bom.txt\` | UTF-16BE with a BOM (iconv) |

Every variant parses to the same threads as the program's own output
(\`go test ./parse -run TestPastedVariants\`); lines of the other stream or process inside the
dump are listed as skipped, with their positions. Regenerate with
\`testdata/gen/pasted/gen.sh\`, then \`go test ./parse -run TestFixtureGolden -update\`.
MD
echo "wrote $out (journal files $journal)" >&2
