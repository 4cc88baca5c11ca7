#!/usr/bin/env bash
# dumpone.sh go|jvm BIN: runs testdata/gen/pasted's Go program or Java program (built in BIN by
# gen.sh), both its streams going where the tool that runs this sends them, and once it says
# "ready" sends it SIGQUIT: the Go program prints its goroutines and exits, the JVM prints a
# thread dump and is ended with SIGTERM a moment later.
#
# Each stream is relayed a whole line at a time (sed -u), as a logging agent reads it: the
# Go runtime writes a traceback in many small writes, and a tool that prefixes what it reads
# chunk by chunk (concurrently) would otherwise cut a line where a write ends and prefix the
# rest again ("runtime.chanrecv2(0x0?, 0x0?" / "[checkout] )"). Such cut lines are a reader's
# problem of their own, not a prefix's: see the README.
set -u
kind=$1 bin=$2
fifo=$(mktemp -u) && mkfifo "$fifo"
errs=$(mktemp -u) && mkfifo "$errs"
sed -u '' <"$errs" >&2 &
relay=$!
case $kind in
go) GOTRACEBACK=all "$bin/checkout" >"$fifo" 2>"$errs" & ;;
jvm) java -Xmx64m -cp "$bin/java" com.example.checkout.CheckoutApp >"$fifo" 2>"$errs" & ;;
esac
pid=$!
# Pass stdout through; SIGQUIT after "ready" and a short wait (the Go ticker logs every ms).
while IFS= read -r line; do
	printf '%s\n' "$line"
	if [ "$line" = ready ]; then
		(sleep 0.2 && kill -QUIT "$pid" && if [ "$kind" = jvm ]; then sleep 0.4 && kill -TERM "$pid"; fi) &
	fi
done <"$fifo"
wait "$pid" 2>/dev/null
wait "$relay" # the last of stderr is written before this ends
rm -f "$fifo" "$errs"
exit 0
