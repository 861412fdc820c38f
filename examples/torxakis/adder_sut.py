#!/usr/bin/env python3
"""TorXakis's Adder (examps/Adder) as a system under test, in Python, with seeded value bugs.

Model: the `Adder` model of adder.ioco (entry point in adder32.ioco). Python 3 standard library
only.

Wire format: one input per line on stdin, `Action Plus(a,b)` or `Action Minus(a,b)`; the answer
is `Result N`, flushed at once. Unknown lines are ignored. With --ack it prints `#quiet` when it
has finished reacting and waits for input (once at start-up and after every input line), for
`--quiescence-marker '#quiet'`. Each faulty mode answers wrongly only for some operand values,
so it is found only if the tester chooses such values (issue #20 item 3):
"""
import argparse
import re
import sys

MODES = {
    "correct": "conforms: Plus(a,b) gives a+b, Minus(a,b) gives a-b",
    "positive": "Plus(a,b) with a > 0 and b > 0 gives a+b+1 (sign-dependent)",
    "zero": "Plus(a,0) gives a+1 (the value zero)",
    "equal": "Minus(a,a) gives 1 (equal operands)",
    "negative-field": "Minus(a,b) with b < 0 gives a+b (one field of one constructor)",
    "large": "operands beyond +-100000 give the sum modulo 2^16 (large values)",
    "boundary": "Plus(a,b) whose sum is 2147483647 gives -2147483648 (off by one at the "
                "overflow boundary)",
}
__doc__ += "\n".join(f"  {k}: {v}" for k, v in MODES.items())

CALL = re.compile(r"^Action\s+(Plus|Minus)\((-?\d+),(-?\d+)\)$")


def answer(mode, op, a, b):
    if op == "Plus":
        if mode == "positive" and a > 0 and b > 0:
            return a + b + 1
        if mode == "zero" and b == 0:
            return a + 1
        if mode == "boundary" and a + b == 2147483647:
            return -2147483648
        r = a + b
    else:
        if mode == "equal" and a == b:
            return 1
        if mode == "negative-field" and b < 0:
            return a + b
        r = a - b
    if mode == "large" and (abs(a) > 100000 or abs(b) > 100000):
        return r % 65536
    return r


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mode", choices=list(MODES), default="correct")
    p.add_argument("--ack", action="store_true", help="print #quiet after each reaction")
    args = p.parse_args()

    def quiet():
        if args.ack:
            print("#quiet", flush=True)

    quiet()
    for line in sys.stdin:
        m = CALL.match(line.strip())
        if m:
            op, a, b = m.group(1), int(m.group(2)), int(m.group(3))
            print(f"Result {answer(args.mode, op, a, b)}", flush=True)
        quiet()


if __name__ == "__main__":
    main()
