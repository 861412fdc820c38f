#!/usr/bin/env python3
"""Time to first Fail (issue #13, performance): steps and wall time until `ioco test` reports
the first Fail, per faulty mode of the bundled SUTs and per strategy, over several seeds, in
time-out mode (no quiescence marker: the common case for real programs; every δ costs a
time-out).

Usage: scripts/ttff.py [BIN_DIR] [--seeds N] [--timeout MS] [--label NAME]
  BIN_DIR  where `ioco` and the example SUTs are (default target/release)
Prints one Markdown table row per (SUT, mode, strategy): the median steps and wall seconds to the
first Fail over the seeds, and the median over all rows. A mode not caught within the runs
counts with the session's full time (and is marked).
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

CASES = [
    # (model, sut binary, sut args per mode, modes)
    ("examples/coffee/coffee.ioco", "coffee-sut", "--mode {}",
     ["wrong-output", "tea", "silent", "spontaneous", "refuse-pad", "crash", "garbage", "flood"]),
    ("examples/queue/queue.aut", "queue-sut", "--mode {}",
     ["lifo", "drop", "dup", "small", "large", "crash"]),
    ("examples/coffee/coffee-sts.ioco", "coffee-sts-sut", "--mode {}",
     ["wrong-value", "silent", "extra-output", "refuse-water", "crash", "garbage"]),
    ("examples/brp/brp.ioco", "brp-sut", "--mutant {}", ["1", "2", "3", "4", "5", "6"]),
]


def main():
    args = sys.argv[1:]
    bin_dir = "target/release"
    seeds, timeout, label = 3, 200, ""
    i = 0
    while i < len(args):
        if args[i] == "--seeds":
            seeds = int(args[i + 1]); i += 2
        elif args[i] == "--timeout":
            timeout = int(args[i + 1]); i += 2
        elif args[i] == "--label":
            label = args[i + 1]; i += 2
        else:
            bin_dir = args[i]; i += 1
    ioco = os.path.join(bin_dir, "ioco")
    rows, all_secs = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for model, sut, fmt, modes in CASES:
            for mode in modes:
                for strategy in ["uniform", "coverage"]:
                    steps, secs, missed = [], [], 0
                    for seed in range(1, seeds + 1):
                        out = os.path.join(tmp, "s.json")
                        cmd = [ioco, "test", model, "--sut",
                               f"{os.path.join(bin_dir, sut)} {fmt.format(mode)}",
                               "--timeout", str(timeout), "--runs", "30", "--steps", "40",
                               "--seed", str(seed), "--json", out]
                        if model.endswith("-sts.ioco") or model.endswith("brp.ioco"):
                            cmd = [c for c in cmd if c != "--strategy"]
                        else:
                            cmd += ["--strategy", strategy]
                        t0 = time.monotonic()
                        p = subprocess.run(cmd, capture_output=True, timeout=900)
                        dt = time.monotonic() - t0
                        try:
                            s = json.load(open(out))
                            n = sum(r["steps"] for r in s["runs"])
                        except Exception:
                            n = 0
                        if p.returncode != 1:
                            missed += 1
                        steps.append(n)
                        secs.append(dt)
                    m = statistics.median(secs)
                    all_secs.append(m)
                    rows.append((sut, mode, strategy, statistics.median(steps), m, missed))
                    if model.endswith("-sts.ioco") or model.endswith("brp.ioco"):
                        break  # one strategy for the symbolic engine
    print(f"| SUT | mode | strategy | median steps | median s {label} | not caught |")
    print("|---|---|---|---|---|---|")
    for sut, mode, strategy, n, m, missed in rows:
        print(f"| {sut} | {mode} | {strategy} | {n:.0f} | {m:.2f} | {missed or ''} |")
    print(f"\nmedian over all rows: {statistics.median(all_secs):.2f} s "
          f"(sum {sum(all_secs):.1f} s, {len(rows)} rows, {seeds} seeds, --timeout {timeout})")


if __name__ == "__main__":
    main()
