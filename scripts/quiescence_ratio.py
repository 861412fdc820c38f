#!/usr/bin/env python3
"""Process quiescence vs the quiescence marker (issue #30): the conforming coffee SUT, the same
runs, steps and seed, interleaved, 11 times each; medians and ratios. Usage:
scripts/quiescence_ratio.py [BIN_DIR] (default target/release; build with
`cargo build --release -p ioco-cli -p ioco-examples`)."""
import subprocess, time, statistics, sys
B=sys.argv[1] if len(sys.argv)>1 else "target/release"
def c(extra, runs, steps): return [f"{B}/ioco","test","examples/coffee/coffee.ioco","--sut",f"{B}/coffee-sut"+extra,"--runs",str(runs),"--steps",str(steps),"--seed","3"]
cfg=[(2,100),(1,2000),(20,10),(10,200)]
cmds={}
for r,s in cfg:
  cmds[f"marker-{r}x{s}"]=c(" --ack",r,s)+["--quiescence-marker","#quiet"]
  cmds[f"process-{r}x{s}"]=c("",r,s)
res={k:[] for k in cmds}
for i in range(11):
  for k,cm in cmds.items():
    t=time.perf_counter(); r=subprocess.run(cm,capture_output=True,text=True); d=time.perf_counter()-t
    assert r.returncode==0,(k,r.stdout,r.stderr)
    res[k].append(d)
for r,s in cfg:
  m=statistics.median(res[f"marker-{r}x{s}"]); p=statistics.median(res[f"process-{r}x{s}"])
  print(f"{r} runs x {s} steps: marker {m*1000:.1f} ms, process {p*1000:.1f} ms, ratio {p/m:.2f}")
