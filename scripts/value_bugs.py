#!/usr/bin/env python3
"""Value-bug detection (issue #20 item 3): how often, and how soon, `ioco test` finds a bug that
shows only for some input values, per value strategy (`--values`).

The system under test is TorXakis's Adder (examples/torxakis/adder_sut.py) with one seeded value
bug per mode: sign-dependent (`positive`), a special value (`zero`), equal operands (`equal`), one
field of one constructor (`negative-field`), large values (`large`), off by one at the overflow
boundary (`boundary`). Each (mode, strategy, seed) is one run of at most --steps steps with a
quiescence marker (so time is spent on choices, not time-outs).

Usage: scripts/value_bugs.py BIN_DIR [--seeds N] [--steps N] [--strategies a,b,...] [--modes m,...]
                             [--label L]
  BIN_DIR     where `ioco` is (e.g. target/debug)
  strategies  names for --values, or `default` for no --values option (an older binary)
Prints a Markdown table: per mode and strategy, the runs that found the bug (of the seeds) and
the median steps to the Fail among those; a last row sums the found runs.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile

MODEL = "examples/torxakis/adder32.ioco"
SUT = "python3 examples/torxakis/adder_sut.py --ack --mode {}"
MODES = ["positive", "zero", "equal", "negative-field", "large", "boundary"]
STRATEGIES = ["mixed", "random", "small", "partition", "boundary", "growing", "model"]


def run(bin_dir, mode, strategy, seed, steps):
    """Steps to the first Fail, or None when the run passed."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        cmd = [os.path.join(bin_dir, "ioco"), "test", MODEL, "--sut", SUT.format(mode),
               "--quiescence-marker", "#quiet", "--runs", "1", "--steps", str(steps),
               "--seed", str(seed), "--json", out]
        if strategy != "default":
            cmd += ["--values", strategy]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if p.returncode == 0:
            return None
        if p.returncode != 1:
            sys.exit(f"unexpected exit {p.returncode}: {' '.join(cmd)}\n{p.stderr}")
        with open(out) as f:
            r = json.load(f)["runs"][0]
        return r["steps"]


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    bin_dir, seeds, steps, strategies, label = args[0], 10, 200, STRATEGIES, ""
    modes = MODES
    i = 1
    while i < len(args):
        k, v = args[i], args[i + 1]
        if k == "--seeds":
            seeds = int(v)
        elif k == "--steps":
            steps = int(v)
        elif k == "--strategies":
            strategies = v.split(",")
        elif k == "--modes":
            modes = v.split(",")
        elif k == "--label":
            label = v
        else:
            sys.exit(f"unknown option {k}")
        i += 2
    head = " | ".join(f"{s}{' ' + label if label else ''}" for s in strategies)
    print(f"| mode | {head} |")
    print("|---|" + "---|" * len(strategies))
    found = {s: 0 for s in strategies}
    for mode in modes:
        cells = []
        for s in strategies:
            hits = [n for n in (run(bin_dir, mode, s, seed, steps) for seed in range(1, seeds + 1))
                    if n is not None]
            found[s] += len(hits)
            med = f", {statistics.median(hits):g} steps" if hits else ""
            cells.append(f"{len(hits)}/{seeds}{med}")
        print(f"| {mode} | " + " | ".join(cells) + " |", flush=True)
    total = seeds * len(modes)
    print("| **found** | " + " | ".join(f"**{found[s]}/{total}**" for s in strategies) + " |")


if __name__ == "__main__":
    main()
