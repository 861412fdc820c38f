#!/usr/bin/env python3
"""The real hybrid-ADS reads the Mealy DOT that ioco writes (`Mealy.to_dot`, `ioco show
--format dot`, `ioco learn -o X.dot`) as the same machine (issue #33 item 2): for every corpus
machine whose names have no blank (hybrid-ADS reads words), its seeded suite for ioco's file
equals its suite for the same edges written in its own style (`s -> t [label="i / o"]`), and
every word of it is defined in the machine. hybrid-ADS is not in the repository: build it as
crates/ioco-fsm/benches/RESULTS.md says (or `g++ -O1 -std=c++14 -include stdexcept -Ilib
lib/*.cpp src/main.cpp -o main` in its sources), then

    HYBRID_ADS=/path/to/main target/python-venv/bin/python scripts/hybrid_ads_dot_check.py CORPUS
"""
import os
import pathlib
import subprocess
import sys
import tempfile

import ioco

corpus = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/corpus")
hads = os.environ["HYBRID_ADS"]
tmp = pathlib.Path(tempfile.mkdtemp())
files = [f for d in ("mealy-aalpy", "hybrid-ads") for f in sorted((corpus / d).rglob("*.dot"))]
ok = bad = skipped = 0
for f in files:
    m = ioco.load(f)
    if not isinstance(m, ioco.Mealy):
        continue
    names = m.inputs + m.outputs
    if any((not n) or any(c.isspace() for c in n) or '"' in n for n in names):
        skipped += 1  # hybrid-ADS reads names as words
        continue
    if not m.is_complete():
        skipped += 1  # hybrid-ADS takes complete machines only
        continue
    ours = m.to_dot()
    # the same edges, in the same order, in hybrid-ADS's own style
    native = ["digraph g {"]
    for line in ours.splitlines():
        line = line.strip()
        if "->" in line and not line.startswith("__start"):
            src, rest = line.split(" -> ", 1)
            dst = rest.split(" ", 1)[0]
            lab = line.split('comment="', 1)[1].split('"', 1)[0]
            native.append(f'{src} -> {dst} [label="{lab}"];')
    native.append("}")
    (tmp / "ours.dot").write_text(ours)
    (tmp / "native.dot").write_text("\n".join(native) + "\n")
    def run(p):
        r = subprocess.run([hads, "-f", p, "-m", "fixed", "-k", "1", "-p", "minimal", "-s", "hads", "-x", "7"],
                           capture_output=True, text=True, timeout=120)
        return r.returncode, r.stdout
    a, b = run(str(tmp / "ours.dot")), run(str(tmp / "native.dot"))
    words = [w.split() for w in a[1].splitlines() if w.strip()]
    valid = a[0] == 0 and words and all(m.run(w) is not None for w in words)
    if a == b and valid:
        ok += 1
    else:
        bad += 1
        print("DIFFERENT", f, a[0], b[0], valid)
print(f"hybrid-ADS: {ok} machines read alike, {bad} not, {skipped} skipped (names with blanks, partial machines)")
sys.exit(1 if bad else 0)
