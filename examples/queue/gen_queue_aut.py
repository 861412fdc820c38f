#!/usr/bin/env python3
"""Write examples/queue/queue.aut: the specification of a bounded FIFO queue.

Values {0, 1}, capacity 2 (change CAPACITY/VALUES and re-run to get a bigger model).
Inputs enq_<v>, deq; outputs out_<v>, empty, full.

  contents c, len(c) < CAPACITY:   c -enq_v?-> c+v                  (silent, quiescent)
  contents c, len(c) = CAPACITY:   c -enq_v?-> [full,c] -full!-> c   (refused, unchanged)
  empty queue:                     () -deq?-> [empty] -empty!-> ()
  contents v+rest:                 c -deq?-> [out_v,rest] -out_v!-> rest

State 0 is the empty queue. Usage: python3 gen_queue_aut.py [OUTPUT]  (default: queue.aut
next to this script).
"""
import itertools
import os
import sys

CAPACITY = 2
VALUES = (0, 1)


def main():
    contents = [()]
    for n in range(1, CAPACITY + 1):
        contents += list(itertools.product(VALUES, repeat=n))
    ids = {}

    def state(key):
        if key not in ids:
            ids[key] = len(ids)
        return ids[key]

    for c in contents:
        state(("q", c))
    trans = []
    for c in contents:
        s = state(("q", c))
        for v in VALUES:
            if len(c) < CAPACITY:
                trans.append((s, f"enq_{v}?", state(("q", c + (v,)))))
            else:
                p = state(("full", c))
                trans.append((s, f"enq_{v}?", p))
                trans.append((p, "full!", s))
        if c:
            p = state((f"out_{c[0]}", c[1:]))
            trans.append((s, "deq?", p))
            trans.append((p, f"out_{c[0]}!", state(("q", c[1:]))))
        else:
            p = state(("empty", c))
            trans.append((s, "deq?", p))
            trans.append((p, "empty!", s))
    trans = sorted(set(trans))
    lines = [f"des (0, {len(trans)}, {len(ids)})"]
    lines += [f'({a}, "{l}", {b})' for a, l, b in trans]
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "queue.aut")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
