#!/usr/bin/env bash
# The floor, a build A and a build B in one round, A and B in alternating
# order, the commands of the floorprobe's side_by_side.sh (12 s, 64 tables,
# a client per seat): a change's before and after against the same floor
# run, on a machine too busy to compare rounds with each other.
#
# usage: FLOORPROBE=path/to/floorprobe server9-abf.sh ROUNDS GAME VARIANT A_BIN B_BIN > LOG
#        python3 docs/perf/server9-ratios.py LOG
set -euo pipefail
rounds=$1 game=$2 variant=$3 A=$4 B=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
F=${FLOORPROBE:?the floorprobe binary}
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
runp() { # bin tag r
	local p; p=$(port)
	"$1" serve --addr 127.0.0.1:$p --data "$work/$2$3" --drain 0 --rate-limit 0 \
		--quota-registrations-per-minute -1 --quota-tables-per-hour -1 --quota-costly-reads -1 \
		--log-level warn >/dev/null 2>&1 &
	local pp=$!
	for _ in $(seq 100); do curl -sf http://127.0.0.1:$p/readyz >/dev/null && break; sleep 0.1; done
	"$1" loadtest --addr http://127.0.0.1:$p --duration 12s --tables 64 --game "$game" --variant "$variant" --per-seat 2>&1 | grep 'moves/s' | sed "s/^/$2: /" | tee -a "$work/$2.txt"
	kill $pp; wait $pp 2>/dev/null || true
}
for r in $(seq "$rounds"); do
	echo "round $r: $(uptime)"
	p=$(port)
	"$F" serve -addr 127.0.0.1:$p -data "$work/f$r" >/dev/null 2>&1 &
	fp=$!
	sleep 1
	"$F" load -addr 127.0.0.1:$p -tables 64 -dur 12s -pid $fp | tee -a "$work/floor.txt"
	kill $fp; wait $fp 2>/dev/null || true
	if (( r % 2 )); then runp "$A" A $r; runp "$B" B $r; else runp "$B" B $r; runp "$A" A $r; fi
done
