#!/usr/bin/env python3
"""Every corpus Mealy machine is learned through a real child process that plays it (issue
#17, "done when"): for each DOT Mealy machine under ../shared/corpus/mealy-aalpy (or the paths
given), `ioco show --format json` writes the machine, `ioco learn` learns it through
examples/models/lts_player.py (quiescence marker, reset line), and `ioco compare` checks the
learned model against the original both ways (for deterministic machines, ioco both ways is
equivalence; a partial original is compared as the tool reads it: an input it leaves out is
ignored, which the learned model has as quiescence). Exit code 1 if any machine is not learned
or not equivalent.

Usage: scripts/learn_corpus.py BIN_DIR [--seed N] [--oracle hads] [DOT ...]
"""

import glob
import os
import re
import subprocess
import sys
import tempfile
import time


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    ioco = os.path.join(args[0], "ioco")
    seed, oracle, dots = 1, "hads", []
    i = 1
    while i < len(args):
        if args[i] == "--seed":
            seed = int(args[i + 1])
            i += 2
        elif args[i] == "--oracle":
            oracle = args[i + 1]
            i += 2
        else:
            dots.append(args[i])
            i += 1
    if not dots:
        dots = sorted(glob.glob("../shared/corpus/mealy-aalpy/**/*.dot", recursive=True))
    failed = 0
    t0 = time.time()
    with tempfile.TemporaryDirectory() as d:
        for dot in dots:
            model = os.path.join(d, "m.json")
            subprocess.run([ioco, "show", dot, "--format", "json", "-o", model], check=True,
                           capture_output=True)
            out = os.path.join(d, "learned.dot")
            t = time.time()
            p = subprocess.run(
                [ioco, "learn", "--sut", f"python3 examples/models/lts_player.py {model} --ack",
                 "--quiescence-marker", "#quiet", "--reset-line", "#reset", "--timeout", "20000",
                 "--inputs-from", dot, "--oracle", oracle, "--seed", str(seed), "-o", out],
                capture_output=True, text=True)
            took = time.time() - t
            if p.returncode != 0:
                print(f"FAIL learn {dot}: exit {p.returncode}: {p.stderr.strip()[-400:]}")
                failed += 1
                continue
            same = all(subprocess.run([ioco, "compare", a, b], capture_output=True).returncode == 0
                       for a, b in [(dot, out), (out, dot)])
            m = re.search(r"(\d+) states.* (\d+) resets, (\d+) symbols", p.stdout)
            status = "ok  " if same else "FAIL"
            failed += 0 if same else 1
            print(f"{status} {os.path.relpath(dot, '../shared/corpus/mealy-aalpy'):55} "
                  f"{m.group(1):>3} states {m.group(2):>7} resets {m.group(3):>8} symbols "
                  f"{took:7.1f} s", flush=True)
    print(f"{len(dots) - failed}/{len(dots)} machines learned equivalent to the original, "
          f"{time.time() - t0:.0f} s, seed {seed}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
