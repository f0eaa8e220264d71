#!/usr/bin/env bash
# Where a move's server CPU goes in paiju and in the floor, part by part,
# from CPU profiles of both taken under the same load on this machine.
#
# floorprobe (../shared/floorprobe) has no profiler; this copies it into a
# temporary directory and adds Go's net/http/pprof on a second port, nothing
# else. Each round runs the floor, then paiju (fresh data directories, 16 s
# of `load -tables 64` / `loadtest --per-seat --tables 64`), profiles the
# server for 10 s in the middle of the run and reads, over the same 10 s,
# the server's and the load client's CPU from /proc and the server's write
# system calls from /proc/PID/io. A part's µs a move is its share of the
# profile's samples times the server's CPU a move over those 10 s.
#
# Usage, from the project root:
#   docs/perf/floor-parts.sh [rounds] [game] [variant]     (3 doudizhu classic)
set -euo pipefail
rounds=${1:-3}
game=${2:-doudizhu}
variant=${3:-classic}
root=$(pwd)
probe=${FLOORPROBE:-$root/../shared/floorprobe}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT

cp -r "$probe" "$work/floorsrc"
chmod -R u+w "$work/floorsrc"
# The only change to the probe: its profiler on FLOOR_DEBUG_ADDR.
sed -i -e 's|^\t"time"$|\t"time"\n\t_ "net/http/pprof"|' \
	-e 's|^\tfmt.Println("listening", \*addr)$|\tgo http.ListenAndServe(os.Getenv("FLOOR_DEBUG_ADDR"), nil)\n&|' \
	"$work/floorsrc/main.go"
grep -q 'net/http/pprof' "$work/floorsrc/main.go" || { echo "could not add the profiler to the probe" >&2; exit 1; }
(cd "$work/floorsrc" && GOFLAGS=-mod=mod go build -o "$work/floor" .)
go build -o "$work/paiju" .

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
writes() { awk '/^syscw/ {print $2}' "/proc/$1/io"; }

# measure NAME SERVER_PID CLIENT_PID DEBUG_PORT: profile and counters over
# 10 s, written to $work/NAME.r$r.*
measure() {
	local name=$1 spid=$2 cpid=$3 dport=$4
	sleep 3
	local s0 c0 w0 s1 c1 w1
	s0=$(ticks "$spid") c0=$(ticks "$cpid") w0=$(writes "$spid")
	curl -sf -o "$work/$name.r$r.prof" "http://127.0.0.1:$dport/debug/pprof/profile?seconds=10"
	s1=$(ticks "$spid") c1=$(ticks "$cpid") w1=$(writes "$spid")
	echo "$((s1 - s0)) $((c1 - c0)) $((w1 - w0))" >"$work/$name.r$r.counts"
}

for r in $(seq "$rounds"); do
	p=$(port) d=$(port)
	FLOOR_DEBUG_ADDR=127.0.0.1:$d "$work/floor" serve -addr 127.0.0.1:$p -data "$work/f$r" >/dev/null 2>&1 &
	fp=$!
	sleep 1
	"$work/floor" load -addr 127.0.0.1:$p -tables 64 -dur 16s -pid $fp >"$work/floor.r$r.load" 2>&1 &
	lp=$!
	measure floor $fp $lp $d
	wait $lp || true
	kill $fp; wait $fp 2>/dev/null || true

	p=$(port) d=$(port)
	"$work/paiju" serve --addr 127.0.0.1:$p --debug-addr 127.0.0.1:$d --data "$work/p$r" --drain 0 --rate-limit 0 \
		--quota-registrations-per-minute -1 --quota-tables-per-hour -1 --quota-costly-reads -1 \
		--log-level warn >/dev/null 2>&1 &
	pp=$!
	for _ in $(seq 100); do curl -sf http://127.0.0.1:$p/readyz >/dev/null && break; sleep 0.1; done
	"$work/paiju" loadtest --addr http://127.0.0.1:$p --duration 16s --tables 64 --game "$game" --variant "$variant" \
		--per-seat >"$work/paiju.r$r.load" 2>&1 &
	lp=$!
	measure paiju $pp $lp $d
	wait $lp || true
	kill $pp; wait $pp 2>/dev/null || true
	for n in floor paiju; do
		go tool pprof -top -cum -nodecount=1000000 "$work/$n" "$work/$n.r$r.prof" >"$work/$n.r$r.top" 2>/dev/null
	done
	echo "round $r: $(grep -h 'moves/s' "$work/floor.r$r.load" | head -1)"
	echo "round $r: $(grep -h 'moves/s' "$work/paiju.r$r.load" | head -1)"
done

python3 - "$work" "$rounds" <<'PY'
import re, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
# A part is the samples under its functions (cumulative, the largest of
# its names that appear, since they nest).
parts = {
    "floor": [
        ("the POST's handler", [r"main\.\(\*server\)\.postMove$"]),
        ("the streams", [r"main\.\(\*server\)\.stream$"]),
        ("the store's writer", [r"main\.\(\*server\)\.writer$"]),
        ("projections", []),
    ],
    "paiju": [
        ("the POST's handler", [r"paiju/api\.\(\*server\)\.authenticate-fm\.\(\*server\)\.authenticate\.func1$"]),
        ("the streams", [r"paiju/api\.\(\*server\)\.streamEvents$"]),
        ("the store's writer", [r"groupcommit\.\(\*Writer\)\.run$"]),
        ("projections", [r"paiju/projections\.\(\*PageFeed\)\.Run$"]),
    ],
}
common = [
    ("net/http outside the handlers", None),
    # Assists run inside the handlers and are counted there.
    ("the collector's own workers", [r"runtime\.gcBgMarkWorker$"]),
]
def cum(top):
    out, total = {}, None
    for line in open(top):
        m = re.match(r"Duration: .*Total samples = ([\d.]+)(ms|s)", line.strip())
        if m:
            total = float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)
        f = line.split()
        if len(f) >= 6 and f[-1] and re.match(r"[\d.]+(ms|s)$", f[3]):
            v = float(f[3][:-2]) / 1000 if f[3].endswith("ms") else float(f[3][:-1])
            out[" ".join(f[5:])] = v
    return out, total
def part(c, pats):
    if not pats:
        return 0.0
    tot = 0.0
    for p in pats:
        tot += max([v for k, v in c.items() if re.search(p, k)] or [0.0])
    return tot
rows = {}
for name in ("floor", "paiju"):
    for r in range(1, rounds + 1):
        c, total = cum(f"{work}/{name}.r{r}.top")
        s, cl, w = map(int, open(f"{work}/{name}.r{r}.counts").read().split())
        load = open(f"{work}/{name}.r{r}.load").read()
        rate = float(re.search(r"= ([\d.]+) moves/s", load).group(1)) if name == "floor" else float(re.search(r"^([\d.]+) moves/s", load, re.M).group(1))
        moves = rate * 10
        us = s * 1e4 / moves  # ticks are 10 ms
        vals = {}
        for label, pats in parts[name]:
            vals[label] = part(c, pats) / total * us
        serve = part(c, [r"net/http\.\(\*conn\)\.serve$"]) / total * us
        vals["net/http outside the handlers"] = serve - vals["the POST's handler"] - vals["the streams"]
        vals["the collector's own workers"] = part(c, common[1][1]) / total * us
        vals["the rest"] = us - sum(v for k, v in vals.items())
        vals["server CPU a move"] = us
        vals["load client CPU a move"] = cl * 1e4 / moves
        vals["write system calls a move"] = w / moves
        vals["moves/s"] = rate
        for k, v in vals.items():
            rows.setdefault(k, {}).setdefault(name, []).append(v)
print()
print("| medians of %d rounds | floor | paiju | paiju − floor | paiju/floor |" % rounds)
print("| --- | --- | --- | --- | --- |")
for k, v in rows.items():
    f, p = statistics.median(v["floor"]), statistics.median(v["paiju"])
    unit = "" if k in ("moves/s", "write system calls a move") else " µs"
    fmt = "%.1f" if k == "write system calls a move" else "%.0f"
    diff = "—" if k == "moves/s" else (fmt % (p - f)) + unit
    ratio = "%.2f×" % (p / f) if f else "—"
    print("| %s | %s%s | %s%s | %s | %s |" % (k, fmt % f, unit, fmt % p, unit, diff, ratio))
PY
