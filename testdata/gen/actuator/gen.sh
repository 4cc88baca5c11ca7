#!/usr/bin/env bash
# Regenerates testdata/jvm/actuator/: one real thread dump of a small Java 17 orders service
# (src/com/example/orders/OrdersApp.java) in every shape Spring Boot's Actuator serves it:
#
#   threaddump-boot3.json   /actuator/threaddump JSON, Boot 3.x (properties sorted, nulls left out)
#   threaddump-boot2.json   /actuator/threaddump JSON, Boot 2.x (Jackson's default order, nulls written)
#   dump-boot1.json         /dump JSON, Boot 1.x (a bare array)
#   threaddump.txt          /actuator/threaddump text/plain, Boot 2.2 and later
#
# There is no Spring Boot here: the endpoint is ours (ThreadDumpEndpoint.java), built to Spring's
# formats. All four come from one ThreadMXBean.dumpAllThreads(true, true) snapshot; the JSON is
# written by Jackson (Debian's libjackson2-databind-java). The README.md written next to them
# gives grep counts of the text form, made without dumpdiff.
#
# Usage: testdata/gen/actuator/gen.sh   (from anywhere; ~3 s). Needs java and javac (17) and the
#        Jackson jars in /usr/share/java (apt install libjackson2-databind-java).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out=$repo/testdata/jvm/actuator
jars=/usr/share/java
cp=$jars/jackson-databind.jar:$jars/jackson-core.jar:$jars/jackson-annotations.jar
for j in jackson-databind jackson-core jackson-annotations; do
	[ -f "$jars/$j.jar" ] || { echo "missing $jars/$j.jar: apt install libjackson2-databind-java" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

javac -d "$tmp/classes" -cp "$cp" "$here"/src/com/example/orders/*.java
mkdir -p "$tmp/out"
java -Xmx64m -cp "$tmp/classes:$cp" com.example.orders.OrdersApp "$tmp/out"

jackson=$(unzip -p "$jars/jackson-databind.jar" META-INF/MANIFEST.MF | sed -n 's/^Bundle-Version: *\([^[:space:]]*\).*/\1/p')
jdk=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p')
txt=$tmp/out/threaddump.txt
count() { grep -c -e "$1" "$txt" || true; }
{
	cat <<MD
# Spring Boot Actuator thread dumps (real JVM, our endpoint)

Written by \`testdata/gen/actuator/gen.sh\`: OpenJDK $jdk running
\`testdata/gen/actuator/src/com/example/orders/OrdersApp.java\`, Jackson $jackson. **The endpoint
is ours, built to Spring Boot's format** (\`ThreadDumpEndpoint.java\`): there is no Spring Boot
jar here. The four files are one \`ThreadMXBean.dumpAllThreads(true, true)\` snapshot, served the
way Spring Boot's \`ThreadDumpEndpoint\` serves it, field names, nesting and text layout matched to
Spring Boot's sources (\`ThreadDumpEndpoint\`, \`PlainTextThreadDumpFormatter\`,
\`JacksonEndpointAutoConfiguration\`, Boot 1.x \`DumpEndpoint\`).

| file | what |
|---|---|
| \`threaddump-boot3.json\` | \`GET /actuator/threaddump\` (JSON), Boot 3.x: \`{"threads":[...]}\`, properties sorted, nulls left out |
| \`threaddump-boot2.json\` | the same in Boot 2.x: Jackson's default property order, nulls written |
| \`dump-boot1.json\` | \`GET /dump\`, Boot 1.x: the bare ThreadInfo array |
| \`threaddump.txt\` | \`GET /actuator/threaddump\` with \`Accept: text/plain\` (Boot 2.2 and later) |

What the process holds, for on-call to find:

- a monitor deadlock: \`ledger-sync\` holds the Ledger and waits for the AuditLog, \`audit-flush\`
  holds the AuditLog and waits for the Ledger;
- \`http-nio-8080-exec-1\`..\`5\` BLOCKED on the PriceCache monitor held by \`price-refresh\`,
  which sleeps inside it (a slow reload under the lock);
- \`inventory-worker-1\`..\`5\` parked in \`ReentrantLock.lock()\`, held by \`inventory-rebuild\`
  (listed under its locked ownable synchronizers);
- \`order-dispatcher\` in \`Object.wait()\` on its queue.

Counts in \`threaddump.txt\` by grep (not by dumpdiff):

| pattern | count |
|---|---|
| \`^"\` (threads) | $(count '^"') |
| \`java.lang.Thread.State: BLOCKED\` | $(count 'java.lang.Thread.State: BLOCKED') |
| \`- waiting to lock .* owned by\` | $(count '- waiting to lock .* owned by') |
| \`- waiting on\` | $(count '- waiting on') |
| \`- Locked <\` (ownable synchronizers) | $(count '- Locked <') |

Regenerate with \`testdata/gen/actuator/gen.sh\`, then \`go test ./parse -run TestFixtureGolden -update\`
and review the golden diff.
MD
} >"$tmp/out/README.md"
mkdir -p "$out"
rm -f "$out"/*
cp "$tmp"/out/* "$out"/
echo "wrote $out" >&2
