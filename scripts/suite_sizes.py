#!/usr/bin/env python3
"""Suite sizes on disk (issue #15 item 4): every Mealy machine of the corpus, methods W, Wp,
HSI, H and hybrid-ADS, k = 0 and 1 extra states. "now" is the file `ioco gen` writes (one test
per line, a one-path test as its word: `{"kind":"word","steps":[...]}`); "trees" is the same
suite in the earlier format, every test as a pretty-printed tree of nodes (what `ioco gen`
wrote before 3eafbd3's successor), computed test by test from the file without holding it.

Usage: scripts/suite_sizes.py [BIN_DIR] [--corpus DIR]
Prints a Markdown table (model, method, k, tests, trees bytes, now bytes, ratio, gen seconds)
and the totals.
"""

import json
import os
import subprocess
import sys
import tempfile
import time


def tree(steps):
    """The tree form of a one-path test (as the earlier writer serialised it)."""
    node = {"kind": "leaf", "verdict": "pass"}
    for label in reversed(steps):
        if label.endswith("?"):
            node = {"kind": "stimulate", "input": label, "after": node, "branches": [],
                    "otherwise": "fail"}
        else:
            node = {"kind": "observe", "branches": [{"label": label, "then": node}],
                    "otherwise": "fail"}
    return node


def pretty_size(named):
    """Bytes of one test in the earlier file: pretty JSON at the depth of the tests array."""
    test = named["test"]
    if test.get("kind") == "word":
        named = dict(named, test=tree(test["steps"]))
    text = json.dumps(named, indent=2, ensure_ascii=False)
    lines = text.count("\n") + 1
    return len(text.encode()) + 4 * lines + 2  # 4 spaces of nesting per line, ",\n"


def main():
    args = sys.argv[1:]
    bin_dir, corpus = "target/release", "../shared/corpus/mealy-aalpy"
    i = 0
    while i < len(args):
        if args[i] == "--corpus":
            corpus = args[i + 1]
            i += 2
        else:
            bin_dir = args[i]
            i += 1
    ioco = os.path.join(bin_dir, "ioco")
    models = sorted(
        os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs if f.endswith(".dot"))
    rows, tot_before, tot_now = [], 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "s.json")
        for m in models:
            for method in ["w", "wp", "hsi", "h", "hads"]:
                for k in [0, 1]:
                    t0 = time.monotonic()
                    p = subprocess.run([ioco, "gen", m, "--method", method, "--extra-states",
                                        str(k), "-o", out],
                                       capture_output=True)
                    dt = time.monotonic() - t0
                    if p.returncode != 0:
                        continue
                    now = os.path.getsize(out)
                    before, tests = 0, 0
                    with open(out, encoding="utf-8") as f:
                        for line in f:
                            line = line.strip().rstrip(",")
                            if line.startswith('{"name"'):
                                before += pretty_size(json.loads(line))
                                tests += 1
                    rows.append((os.path.relpath(m, corpus), method, k, tests, before, now, dt))
                    tot_before += before
                    tot_now += now
    print("| model | method | k | tests | trees (bytes) | now (bytes) | smaller | gen s |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for m, method, k, tests, before, now, dt in rows:
        ratio = before / now if now else 0
        print(f"| {m} | {method} | {k} | {tests} | {before} | {now} | {ratio:.1f}× | {dt:.2f} |")
    print(f"\n{len(rows)} suites; total {tot_before / 1e6:.1f} MB as trees, "
          f"{tot_now / 1e6:.1f} MB now ({tot_before / max(tot_now, 1):.1f}× smaller)")


if __name__ == "__main__":
    main()
