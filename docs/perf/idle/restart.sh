#!/bin/sh
# Restart to ready: starts `paiju serve` on an existing data directory and
# times it from the start of the process until /readyz first answers 200
# (polled every 10 ms), then stops it (SIGTERM) and waits for it to exit.
#
#   docs/perf/idle/restart.sh DATA [RUNS]      (RUNS default 3)
#
# PAIJU names the binary (default bin/paiju), PORT the port (default
# 18192). EXTRA adds serve flags (e.g. EXTRA="--debug-addr 127.0.0.1:6060").
# Each run prints the seconds to ready, the CPU seconds the process used
# until then, the events in the store and the load average.
set -eu
PAIJU=${PAIJU:-bin/paiju}
DATA=$1
RUNS=${2:-3}
PORT=${PORT:-18192}
URL=http://127.0.0.1:$PORT
events=$(sqlite3 "$DATA/paiju.db" 'SELECT max(position) FROM events' 2>/dev/null || echo '?')
for run in $(seq "$RUNS"); do
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$PAIJU" serve --data "$DATA" --addr 127.0.0.1:$PORT --web=false ${EXTRA:-} >>"${LOG:-/dev/null}" 2>&1 &
	pid=$!
	until [ "$(curl -s -o /dev/null -w '%{http_code}' $URL/readyz)" = 200 ]; do
		if ! kill -0 $pid 2>/dev/null; then
			echo "paiju serve exited before it was ready" >&2
			exit 1
		fi
		sleep 0.01
	done
	t1=$(date +%s.%N)
	# The process's CPU time (user + system) until then: on a machine
	# others load, the wall clock counts the waits for a core, this not.
	cpu=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' /proc/$pid/stat)
	echo "run $run: ready after $(echo "$t1 - $t0" | bc) s, $cpu s of CPU; $events events; $(uptime)"
	kill $pid
	wait $pid || true
done
