#!/bin/sh
# Memory per open, dealt, idle table: starts `paiju serve` on a fresh data
# directory (quotas and rate limits off), opens and deals WARM tables, reads
# the server's VmRSS, opens and deals TABLES more through the HTTP API
# (paiju loadtest --idle: three players register and join each, no move is
# played), waits for the projections to catch up and the server to settle,
# reads VmRSS again and divides the growth by TABLES.
#
#   docs/perf/idle/memory.sh [TABLES [WARM]]     (defaults 10000 and 100)
#
# PAIJU names the binary (default bin/paiju, `make -s bin`), PORT the
# listen port (default 18190; the profiler listens on PORT+1, so that
# `go tool pprof http://127.0.0.1:PORT+1/debug/pprof/heap` can be taken
# while it waits: set HOLD=1 to keep the server up until Enter).
set -eu
PAIJU=${PAIJU:-bin/paiju}
TABLES=${1:-10000}
WARM=${2:-100}
PORT=${PORT:-18190}
URL=http://127.0.0.1:$PORT
DATA=$(mktemp -d)
"$PAIJU" serve --data "$DATA" --addr 127.0.0.1:$PORT --debug-addr 127.0.0.1:$((PORT + 1)) --web=false \
	--quota-registrations-per-minute -1 --quota-tables-per-hour -1 --quota-costly-reads -1 --rate-limit 0 \
	>"$DATA/serve.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$DATA"' EXIT
until curl -sf -o /dev/null $URL/readyz; do sleep 0.1; done

rss() { awk '/^VmRSS/ {print $2}' /proc/$PID/status; }
heap() { curl -sf $URL/metrics | awk '/^go_memstats_heap_inuse_bytes / {printf "%.0f", $2 / 1024}'; }
# settle waits until /readyz answers 200 with every projection at the head,
# then a few seconds more for the runtime to give back what it freed.
settle() {
	until r=$(curl -sf $URL/readyz) && ! echo "$r" | grep -qE '[1-9][0-9]* events behind'; do sleep 1; done
	sleep ${SETTLE:-10}
}

echo "start:   VmRSS $(rss) kB, heap in use $(heap) kB; $(uptime)"
"$PAIJU" loadtest --addr $URL --idle --tables "$WARM" --clients 8 --metrics - --seed 2
settle
r0=$(rss) h0=$(heap)
echo "warm ($WARM tables): VmRSS $r0 kB, heap in use $h0 kB; $(uptime)"
"$PAIJU" loadtest --addr $URL --idle --tables "$TABLES" --clients 8 --metrics -
settle
r1=$(rss) h1=$(heap)
echo "after $TABLES more tables: VmRSS $r1 kB, heap in use $h1 kB; $(uptime)"
echo "per table: VmRSS $(((r1 - r0) * 1024 / TABLES)) B, heap in use $(((h1 - h0) * 1024 / TABLES)) B"
if [ "${HOLD:-}" = 1 ]; then
	echo "holding the server (pid $PID, profiler 127.0.0.1:$((PORT + 1))); Enter ends it"
	read -r _
fi
