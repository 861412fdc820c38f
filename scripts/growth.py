#!/usr/bin/env python3
"""Growth of `ioco compare` on random deterministic LTSs (#35 item 4).

    python3 scripts/growth.py target/release/ioco [10^3 10^4 10^5 10^6] [--explode K]

Writes seeded random models to a temporary folder (two inputs in every state, an output in
half of them, random targets: every suspension state is one LTS state), runs
`ioco compare M M` on each and prints a Markdown table of CPU time (user + system) and peak
memory (max RSS), measured with wait4, so a loaded machine changes the numbers little.
`--explode K` also runs the model (a|b)* a (a|b)^K x! (2^(K+1) sets of states) under the
default `--max-memory` and reports how it ends.
"""
import os
import random
import subprocess
import sys
import tempfile


def det_model(n, path):
    r = random.Random(n)
    lines = []
    for s in range(n):
        lines.append(f'({s},"a?",{r.randrange(n)})')
        lines.append(f'({s},"b?",{r.randrange(n)})')
        if r.random() < 0.5:
            lines.append(f'({s},"{r.choice(["x!", "y!"])}",{r.randrange(n)})')
    with open(path, "w") as f:
        f.write(f"des (0,{len(lines)},{n})\n" + "\n".join(lines) + "\n")


def exploding(k, path):
    t = [(0, "a?", 0), (0, "b?", 0), (0, "a?", 1)]
    for i in range(1, k + 1):
        t += [(i, "a?", i + 1), (i, "b?", i + 1)]
    t += [(k + 1, "x!", 0), (k + 1, "a?", 0), (k + 1, "b?", 0)]
    with open(path, "w") as f:
        f.write(f"des (0,{len(t)},{k + 2})\n")
        f.write("\n".join(f'({a},"{l}",{b})' for a, l, b in t) + "\n")


def run(cmd):
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.execv(cmd[0], cmd)
    _, status, ru = os.wait4(pid, 0)
    return os.waitstatus_to_exitcode(status), ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    ioco = os.path.abspath(args[0])
    explode = None
    if "--explode" in args:
        i = args.index("--explode")
        explode = int(args[i + 1])
        del args[i : i + 2]
    sizes = [int(float(a.replace("10^", "1e"))) for a in args[1:]] or [10**3, 10**4, 10**5, 10**6]
    with tempfile.TemporaryDirectory() as d:
        print("| states | exit | CPU s | peak MiB | µs per state |")
        print("|---:|---:|---:|---:|---:|")
        for n in sizes:
            m = os.path.join(d, f"det{n}.aut")
            det_model(n, m)
            code, cpu, peak = run([ioco, "compare", m, m])
            print(f"| {n:,} | {code} | {cpu:.2f} | {peak:.0f} | {cpu / n * 1e6:.2f} |")
        if explode is not None:
            m = os.path.join(d, f"explode{explode}.aut")
            exploding(explode, m)
            code, cpu, peak = run([ioco, "compare", m, m])
            print(f"\n(a|b)*a(a|b)^{explode}: exit {code}, {cpu:.1f} s CPU, peak {peak:.0f} MiB")


if __name__ == "__main__":
    main()
