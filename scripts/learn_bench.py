#!/usr/bin/env python3
"""Learning benchmark (issue #17): `ioco learn` (L#, complete suites as the equivalence oracle)
against AALpy's L*, KV and L# under its Wp and random-W oracles, on the corpus Mealy machines.
For each run: resets (membership queries that reached the system, oracle tests included),
total symbols (inputs given to the system), whether the learned machine is equivalent to the
original, and the CPU time.

Usage: scripts/learn_bench.py BIN_DIR PYTHON_WITH_AALPY [--timeout S] [--seed N] [DOT ...]
  BIN_DIR              where `ioco` is (e.g. target/release)
  PYTHON_WITH_AALPY    a Python with AALpy installed, outside the repository, e.g.
                       python3 -m venv /tmp/aalpy-venv && /tmp/aalpy-venv/bin/pip install aalpy==2.0.0
  --timeout S          give up an AALpy run after S seconds (default 300)
Prints one JSON line per run and a Markdown table at the end.

With no DOT given: every corpus Mealy machine, the small ones included (coffee, Angluin,
SimpleABC, car alarm, ...; issue #33: never more symbols than AALpy's best run with the same
guarantee).

ioco: `ioco learn --sim M.dot --inputs-from M.dot --seed N` (in process; defaults: hybrid-ADS
suite with k=1 extra state, then random words for 25% of the symbols spent so far once the
suite passed); equivalence checked with
`ioco compare` both ways (for complete deterministic Mealy machines, ioco both ways is
equivalence). AALpy: Wp oracle with max_number_of_states = n + 1 (n: the original's states, the
same guarantee as k = 1 for the final hypothesis), random-W with 10 walks of length 10 per state
(no guarantee); its cache on; its L# with its defaults (ADS separation, SepSeq extension).
"""

import glob
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

AALPY_ONE = r'''
import json, random, sys, time, resource
from aalpy.utils import load_automaton_from_file, bisimilar
from aalpy.SULs import AutomatonSUL
from aalpy.oracles import WpMethodEqOracle, RandomWMethodEqOracle
from aalpy.learning_algs import run_Lstar, run_KV, run_Lsharp
path, alg, oracle, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
random.seed(seed)
model = load_automaton_from_file(path, automaton_type="mealy")
alphabet = model.get_input_alphabet()
sul = AutomatonSUL(model)
n = len(model.states)
if oracle == "wp":
    eq = WpMethodEqOracle(alphabet, sul, max_number_of_states=n + 1)
else:
    eq = RandomWMethodEqOracle(alphabet, sul, walks_per_state=10, walk_len=10)
run = {"lstar": run_Lstar, "kv": run_KV, "lsharp": run_Lsharp}[alg]
t = time.process_time()
h, info = run(alphabet, sul, eq, automaton_type="mealy", print_level=0, return_data=True)
cpu = time.process_time() - t
print(json.dumps({
    "states": h.size,
    "equivalent": bool(bisimilar(h, model)),
    "resets": info["queries_learning"] + info["queries_eq_oracle"],
    "symbols": info["steps_learning"] + info["steps_eq_oracle"],
    "cpu_s": round(cpu, 3),
}))
'''

RE = re.compile(r"(LEARNED|UNVERIFIED): (\d+) states.* (\d+) resets, (\d+) symbols")


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def ours(ioco, dot, seed, d):
    out = os.path.join(d, "learned.dot")
    c0 = children_cpu()
    p = subprocess.run([ioco, "learn", "--sim", dot, "--inputs-from", dot, "--seed", str(seed),
                        "-o", out], capture_output=True, text=True)
    cpu = children_cpu() - c0
    m = RE.search(p.stdout)
    if p.returncode != 0 or not m:
        return {"error": p.stderr.strip()[-300:]}
    eq = all(subprocess.run([ioco, "compare", a, b], capture_output=True).returncode == 0
             for a, b in [(dot, out), (out, dot)])
    return {"states": int(m.group(2)), "equivalent": eq, "resets": int(m.group(3)),
            "symbols": int(m.group(4)), "cpu_s": round(cpu, 3)}


def aalpy(python, dot, alg, oracle, seed, timeout):
    try:
        p = subprocess.run([python, "-c", AALPY_ONE, dot, alg, oracle, str(seed)],
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout} s"}
    if p.returncode != 0:
        return {"error": p.stderr.strip()[-300:]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    ioco = os.path.join(args[0], "ioco")
    python = args[1]
    timeout, seed, dots = 300, 1, []
    i = 2
    while i < len(args):
        if args[i] == "--timeout":
            timeout = int(args[i + 1])
            i += 2
        elif args[i] == "--seed":
            seed = int(args[i + 1])
            i += 2
        else:
            dots.append(args[i])
            i += 1
    if not dots:
        dots = sorted(glob.glob("../shared/corpus/mealy-aalpy/**/*.dot", recursive=True))
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for dot in dots:
            name = os.path.relpath(dot, "../shared/corpus/mealy-aalpy")
            row = {"model": name, "ioco": ours(ioco, dot, seed, d)}
            print(json.dumps(row["ioco"] | {"model": name, "tool": "ioco L# hads k=1"}), flush=True)
            for alg in ["lstar", "kv", "lsharp"]:
                for oracle in ["wp", "randomw"]:
                    r = aalpy(python, dot, alg, oracle, seed, timeout)
                    row[f"{alg}+{oracle}"] = r
                    print(json.dumps(r | {"model": name, "tool": f"aalpy {alg}+{oracle}"}),
                          flush=True)
            rows.append(row)
    configs = [f"{a}+{o}" for a in ["lstar", "kv", "lsharp"] for o in ["wp", "randomw"]]

    def cell(r):
        if "error" in r:
            return "timeout" if "timeout" in r["error"] else "error"
        mark = "" if r["equivalent"] else " (wrong)"
        return f"{r['resets']} / {r['symbols']}{mark}"

    print()
    wins, total = 0, 0
    for row in rows:
        o = row["ioco"]
        wp = [row[c]["symbols"] for c in configs
              if c.endswith("+wp") and "error" not in row[c] and row[c]["equivalent"]]
        if wp and "error" not in o:
            total += 1
            if o["symbols"] <= min(wp):
                wins += 1
            else:
                print(f"ioco above AALpy's best Wp run: {row['model']}: {o['symbols']} > {min(wp)}")
    print(f"ioco symbols <= AALpy's best correct Wp (n+1) run on {wins} of {total} machines")
    print()
    print("| model | states | ioco (resets / symbols) | " + " | ".join(configs)
          + " | AALpy best symbols (correct runs) | ioco / best |")
    print("|---|---|---|" + "---|" * len(configs) + "---|---|")
    for row in rows:
        o = row["ioco"]
        best = min((row[c]["symbols"] for c in configs
                    if "error" not in row[c] and row[c]["equivalent"]), default=None)
        ratio = (f"{o['symbols'] / best:.2f}" if best and "error" not in o else "–")
        print(f"| {row['model']} | {o.get('states', '?')} | {cell(o)} | "
              + " | ".join(cell(row[c]) for c in configs)
              + f" | {best if best is not None else '–'} | {ratio} |")


if __name__ == "__main__":
    main()
