# server9-ratios.py LOG: the medians of A/floor and B/floor, and of B/A, from a server9-abf.sh log
import re, statistics, sys
def dur(s):
    m = re.match(r"([\d.]+)(µs|ms|s)$", s); v = float(m.group(1)); u = m.group(2)
    return v/1000 if u == "µs" else (v if u == "ms" else v*1000)
rounds = []
for line in open(sys.argv[1]):
    if line.startswith("round "):
        rounds.append({})
    elif line.startswith("floor: "):
        m = re.search(r"= ([\d.]+) moves/s.*p99 (\S+), server CPU ([\d.]+) µs", line)
        rounds[-1]["F"] = (float(m.group(1)), float(m.group(3)), dur(m.group(2)))
    elif line[:3] in ("A: ", "B: "):
        m = re.search(r"(\d+) moves/s .*p99 (\S+), .*= ([\d.]+) µs per move", line)
        rounds[-1][line[0]] = (float(m.group(1)), float(m.group(3)), dur(m.group(2)))
for k in "AB":
    rs = [r for r in rounds if "F" in r and k in r]
    cpu = [r[k][1]/r["F"][1] for r in rs]; mps = [r[k][0]/r["F"][0] for r in rs]; p99 = [r[k][2]/r["F"][2] for r in rs]
    print("%s/floor: server CPU a move %.2fx %s, moves/s %.2fx %s, p99 %.2fx %s (%d pairs)" % (k,
        statistics.median(cpu), [round(x, 2) for x in cpu], statistics.median(mps), [round(x, 2) for x in mps],
        statistics.median(p99), [round(x, 2) for x in p99], len(rs)))
ab = [r["B"][1]/r["A"][1] for r in rounds if "A" in r and "B" in r]
print("B/A server CPU a move: median %.3f %s" % (statistics.median(ab), [round(x, 3) for x in ab]))
