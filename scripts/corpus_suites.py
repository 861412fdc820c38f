#!/usr/bin/env python3
"""Every corpus Mealy machine passes every suite generated from it, run through a real child
process that plays the machine (issue #19, "done when"): for each DOT Mealy machine under
../shared/corpus (or the paths given), each method (w, wp, hsi, h, hads) and each k, `ioco gen`
writes the suite, `ioco show --format json` the machine, and `ioco run` runs the suite against
examples/models/lts_player.py on plain lines and on JSON lines (quiescence marker, reset line).
A suite that does not pass, or a command that fails, is reported; the exit code is 1 then.

Usage: scripts/corpus_suites.py BIN_DIR [--k K] [--methods w,hsi,...] [--max-tests N] [DOT ...]
  BIN_DIR   where `ioco` is (e.g. target/release)
  --k K     extra states 0..=K (default 1)
  --max-tests N  skip a suite with more tests than N (default 20000: a suite is run through a
                 Python process, about 10 000 tests a second)
"""

import glob
import json
import os
import subprocess
import sys
import tempfile
import time

METHODS = ["w", "wp", "hsi", "h", "hads"]


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    ioco = os.path.join(args[0], "ioco")
    k, methods, max_tests, dots = 1, METHODS, 20000, []
    i = 1
    while i < len(args):
        if args[i] == "--k":
            k = int(args[i + 1])
            i += 2
        elif args[i] == "--methods":
            methods = args[i + 1].split(",")
            i += 2
        elif args[i] == "--max-tests":
            max_tests = int(args[i + 1])
            i += 2
        else:
            dots.append(args[i])
            i += 1
    if not dots:
        dots = sorted(glob.glob("../shared/corpus/**/*.dot", recursive=True))
    player = "examples/models/lts_player.py"
    failed = suites = runs = skipped = refused = 0
    t0 = time.time()
    with tempfile.TemporaryDirectory() as d:
        for dot in dots:
            model = os.path.join(d, "m.json")
            p = subprocess.run([ioco, "show", dot, "--format", "json", "-o", model],
                               capture_output=True, text=True)
            if p.returncode != 0:
                continue  # not a machine ioco reads (an LTS or another dialect)
            for method in methods:
                for kk in range(k + 1):
                    suite = os.path.join(d, "s.json")
                    g = subprocess.run([ioco, "gen", dot, "--method", method,
                                        "--extra-states", str(kk), "-o", suite],
                                       capture_output=True, text=True)
                    if g.returncode != 0:
                        if "Mealy" in g.stderr or "LTS" in g.stderr:
                            break  # not a Mealy machine
                        if "no defined input" in g.stderr:
                            # a partial machine whose states no test can tell apart: refused
                            # with the reason (arithmetics.dot), not a failure
                            refused += 1
                            break
                        print(f"FAIL gen {dot} {method} k={kk}: {g.stderr.strip()}")
                        failed += 1
                        continue
                    with open(suite) as f:
                        n = len(json.load(f)["tests"])
                    if n > max_tests:
                        skipped += 1
                        continue
                    suites += 1
                    for wire in ["plain", "json"]:
                        cmd = [ioco, "run", dot, suite, "--quiescence-marker", "#quiet",
                               "--reset-line", "#reset", "--sut",
                               f"python3 {player} {model} --ack"
                               + (" --json" if wire == "json" else "")]
                        if wire == "json":
                            cmd.append("--json-lines")
                        r = subprocess.run(cmd, capture_output=True, text=True)
                        runs += 1
                        if r.returncode != 0:
                            failed += 1
                            print(f"FAIL run {dot} {method} k={kk} {wire}: exit {r.returncode}"
                                  f"\n{r.stdout[-800:]}{r.stderr[-400:]}")
    print(f"{suites} suites ({skipped} over --max-tests skipped, {refused} refused by gen with "
          f"the reason), {runs} runs through a child process, {failed} failed, "
          f"{time.time() - t0:.0f} s")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
