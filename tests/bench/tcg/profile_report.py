#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Per-function guest instructions from profile_plugin.c's output.

Usage: profile_report.py SYSTEM.MAP ROUNDS TOP NAME=FILE...

Each block's instructions (executions x size) go to the kernel function
that holds its first address (System.map's text symbols); the table gives
instructions per round, for each NAME (a variant) side by side, the
functions ordered by the largest figure. Rust symbols are shown as they
are in System.map (mangled)."""
import bisect
import collections
import sys


def functions(system_map):
    syms = []
    with open(system_map) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and parts[1] in "tTwW":
                syms.append((int(parts[0], 16), parts[2]))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def profile(path, addrs, names, rounds):
    per = collections.Counter()
    with open(path) as f:
        first = f.readline().split()
        if first[:2] != ["#", "start"] or first[2] == "0":
            sys.exit(f"{path}: the start marker never ran: nothing was counted")
        for line in f:
            addr, runs, insns = line.split()
            i = bisect.bisect_right(addrs, int(addr, 16)) - 1
            per[names[i] if i >= 0 else "?"] += int(runs) * int(insns)
    return {k: v / rounds for k, v in per.items()}


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    addrs, names = functions(sys.argv[1])
    rounds, top = int(sys.argv[2]), int(sys.argv[3])
    runs = [arg.split("=", 1) for arg in sys.argv[4:]]
    tables = [(name, profile(path, addrs, names, rounds)) for name, path in runs]
    print("| function | " + " | ".join(name for name, _ in tables) + " |")
    print("| --- |" + " ---: |" * len(tables))
    print("| (total) | " + " | ".join(f"{sum(t.values()):,.0f}" for _, t in tables) + " |")
    every = set().union(*(t.keys() for _, t in tables))
    order = sorted(every, key=lambda k: -max(t.get(k, 0) for _, t in tables))
    for fn in order[:top]:
        cells = " | ".join(f"{t.get(fn, 0):,.1f}" for _, t in tables)
        print(f"| `{fn[:90]}` | {cells} |")


if __name__ == "__main__":
    main()
