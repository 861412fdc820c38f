#!/usr/bin/env python3
"""Plays a deterministic input/output LTS (the JSON of `ioco show MODEL --format json`, e.g. a
Mealy machine of the corpus) as a system under test, for end-to-end tests of suites over a real
child process. Python 3 standard library only.

Usage: lts_player.py MODEL.json [--json] [--ack]
  Reads one input per line (the label's name, the whole line; with --json a JSON line
  {"label": NAME}), follows `NAME?` from the current state, then answers with the outputs that
  follow (each `NAME!` on a line of its own, or {"label": NAME}) until a state with an input.
  An input the state does not enable is ignored. The line `#reset` goes back to the initial
  state. Outputs of the initial state are written at start-up and after `#reset` (a Moore
  machine's initial output, a banner). With --ack it prints `#quiet` when it waits for input (at start-up and after every
  line), for `--quiescence-marker '#quiet'`.
"""
import json
import sys


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    as_json = "--json" in args
    ack = "--ack" in args
    model = json.load(open([a for a in args if not a.startswith("--")][0]))
    edges = {}
    for s, label, t in model["transitions"]:
        edges.setdefault(s, []).append((label, t))
    initial = model["initial"][0]

    def say(name):
        print(json.dumps({"label": name}) if as_json else name, flush=True)

    def quiet():
        if ack:
            print("#quiet", flush=True)

    def outputs(state):
        """Write the outputs from `state` until a state without one; the state reached."""
        while True:
            outs = [(l, t) for (l, t) in edges.get(state, []) if l.endswith("!")]
            if not outs:
                return state
            label, state = outs[0]
            say(label[:-1])

    state = outputs(initial)
    quiet()
    for line in sys.stdin:
        line = line.rstrip("\n")
        if line == "#reset":
            state = outputs(initial)
        else:
            name = json.loads(line)["label"] if as_json else line
            nxt = [t for (l, t) in edges.get(state, []) if l == name + "?"]
            if nxt:
                state = outputs(nxt[0])
        quiet()


if __name__ == "__main__":
    main()
