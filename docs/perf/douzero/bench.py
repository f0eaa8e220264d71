#!/usr/bin/env python3
"""Times DouZero's move generator and paiju's rank-pattern generator on the
same 斗地主 positions, in alternating rounds of one run, and prints the ratio.

DouZero (github.com/kwai/DouZero) is imported from the checkout given with
--douzero; nothing of it is copied here. Its package __init__ imports the
environment, which needs numpy and torch; the move generator needs neither,
so its two packages are registered by hand and only game.py (with the move
detector, generator and selector it imports) is loaded.

DouZero's side of a position is GameEnv.get_legal_card_play_actions, the
function its games call for the acting seat's moves: it reads the play to
beat with the move detector, generates the candidates with MovesGener,
filters them with the move selector and adds the bombs, the rocket and the
pass. paiju's side is BenchmarkPatternsDouZero of the compiled test binary of
domain/doudizhu (go test -c), run in that package's directory; it reports
cpu-ns/op, the process's CPU time a position. DouZero's side is measured in
the same way, with time.process_time over a pass of the whole set.

    go test -c -o /tmp/doudizhu.test ./domain/doudizhu
    python3 docs/perf/douzero/bench.py --douzero PATH/TO/DouZero \\
        --gotest /tmp/doudizhu.test --pkg domain/doudizhu --rounds 5
"""

import argparse
import importlib
import os
import re
import statistics
import subprocess
import sys
import time
import types

# paiju's card notation (cards.Format: a suit letter then a rank, or BJ/RJ)
# to DouZero's card numbers.
RANKS = {"3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
         "J": 11, "Q": 12, "K": 13, "A": 14, "2": 17}

# paiju's type names to DouZero's move types (douzero/env/utils.py), to
# check that both read every lead as the same kind of play.
DOUZERO_TYPE = {"single": 1, "pair": 2, "trio": 3, "bomb": 4, "rocket": 5,
                "trio_single": 6, "trio_pair": 7, "straight": 8,
                "pair_straight": 9, "airplane": 10, "airplane_singles": 11,
                "airplane_pairs": 12, "four_two_singles": 13,
                "four_two_pairs": 14}


def card(tok):
    if tok == "BJ":
        return 20
    if tok == "RJ":
        return 30
    return RANKS[tok[1:]]


def load_douzero(root):
    for name, sub in (("douzero", "douzero"), ("douzero.env", os.path.join("douzero", "env"))):
        m = types.ModuleType(name)
        m.__path__ = [os.path.join(root, sub)]
        sys.modules[name] = m
    return importlib.import_module("douzero.env.game"), importlib.import_module("douzero.env.move_detector")


class Position:
    """What get_legal_card_play_actions reads of a GameEnv."""

    __slots__ = ("info_sets", "acting_player_position", "card_play_action_seq", "lead_type")

    def __init__(self, hand, lead, lead_type):
        self.info_sets = {"landlord": types.SimpleNamespace(player_hand_cards=hand)}
        self.acting_player_position = "landlord"
        self.card_play_action_seq = [lead] if lead else []
        self.lead_type = lead_type


def load_positions(path):
    out = []
    with open(path) as f:
        for line in f:
            hand, reading, lead = line.rstrip("\n").split("|")
            h = sorted(card(t) for t in hand.split())
            if reading == "-":
                out.append(Position(h, None, None))
            else:
                out.append(Position(h, sorted(card(t) for t in lead.split()), reading.split()[0]))
    return out


def douzero_round(legal, ps):
    """CPU seconds a position, and the moves listed at all positions."""
    # The filters sort the play to beat in place, and the moves are new
    # lists each call: nothing carries over from one round to the next.
    moves = 0
    t0, w0 = time.process_time(), time.perf_counter()
    for p in ps:
        moves += len(legal(p))
    return (time.process_time() - t0) / len(ps), (time.perf_counter() - w0) / len(ps), moves


def go_round(binary, pkg, benchtime):
    out = subprocess.run(
        [binary, "-test.run", "^$", "-test.bench", "^BenchmarkPatternsDouZero$",
         "-test.benchmem", "-test.benchtime", benchtime, "-test.count", "1"],
        cwd=pkg, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("BenchmarkPatternsDouZero"):
            vals = dict((unit, float(v)) for v, unit in re.findall(r"([\d.]+) (\S+)", line))
            return line, vals
    raise SystemExit("no BenchmarkPatternsDouZero line in:\n" + out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--douzero", required=True, help="a checkout of github.com/kwai/DouZero")
    ap.add_argument("--pkg", default="domain/doudizhu", help="the directory of paiju's domain/doudizhu")
    ap.add_argument("--positions", help="the position set (default PKG/testdata/positions/douzero.txt)")
    ap.add_argument("--gotest", help="paiju's compiled domain/doudizhu test binary; without it only DouZero runs")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--benchtime", default="1s")
    a = ap.parse_args()

    game, md = load_douzero(a.douzero)
    legal = game.GameEnv.get_legal_card_play_actions
    ps = load_positions(a.positions or os.path.join(a.pkg, "testdata", "positions", "douzero.txt"))

    # The same positions for both: every lead must read as the same type.
    wrong = [p for p in ps if p.lead_type and
             md.get_move_type(list(p.card_play_action_seq[0]))["type"] != DOUZERO_TYPE[p.lead_type]]
    sizes = [len(p.info_sets["landlord"].player_hand_cards) for p in ps]
    distinct = 0
    for p in ps:
        distinct += len({tuple(m) for m in legal(p) if m})
    print(f"positions: {len(ps)} ({sum(1 for p in ps if not p.lead_type)} leads), "
          f"{statistics.mean(sizes):.1f} cards on average; leads DouZero reads as another type: {len(wrong)}")
    print(f"DouZero: {distinct / len(ps):.1f} distinct moves a position, pass left out")

    dz, go, lines = [], [], []
    for r in range(a.rounds):
        sec, wall, moves = douzero_round(legal, ps)
        dz.append(sec * 1e9)
        msg = (f"round {r + 1}: DouZero {sec * 1e6:.1f} cpu-µs, {wall * 1e6:.1f} µs a position "
               f"({moves / len(ps):.1f} moves listed)")
        if a.gotest:
            line, vals = go_round(a.gotest, a.pkg, a.benchtime)
            lines.append(line)
            go.append(vals["cpu-ns/op"])
            msg += (f"; paiju {vals['cpu-ns/op']:.0f} cpu-ns, {vals['ns/op']:.0f} ns, "
                    f"{vals['allocs/op']:.0f} allocs, {vals['patterns/op']:.1f} patterns; "
                    f"ratio {sec * 1e9 / vals['cpu-ns/op']:.0f}×")
        print(msg, flush=True)
    for line in lines:
        print(line)
    print(f"DouZero median {statistics.median(dz) / 1e3:.1f} cpu-µs a position [{min(dz) / 1e3:.1f}–{max(dz) / 1e3:.1f}]")
    if go:
        print(f"paiju median {statistics.median(go):.0f} cpu-ns a position [{min(go):.0f}–{max(go):.0f}]")
        ratios = [d / g for d, g in zip(dz, go)]
        print(f"ratio of the medians {statistics.median(dz) / statistics.median(go):.0f}×; "
              f"per round median {statistics.median(ratios):.0f}× [{min(ratios):.0f}–{max(ratios):.0f}]")


if __name__ == "__main__":
    main()
