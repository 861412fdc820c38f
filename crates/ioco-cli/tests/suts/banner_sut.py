#!/usr/bin/env python3
"""A system that greets: it prints the banner `hello` at start-up and again after each reset
line `__reset__`, then `__q__` when it waits for input (for `--quiescence-marker __q__`). The
input `a` toggles a light and answers `on` or `off`; `b` answers `same` when the light is on
and is ignored (no output) when it is off. Two states: `ioco learn` with `--reset-line
__reset__` must learn them with the banner as the start-up output (issue #33).

Usage: banner_sut.py [--late N DIR]
  --late N DIR  the N-th input (counted over all runs of the program in the file DIR/inputs)
                is answered 3 s late: one late answer, for the messages about time-outs.
"""
import os
import sys
import time


def main():
    args = sys.argv[1:]
    late, count = None, None
    if "--late" in args:
        k = args.index("--late")
        late, count = int(args[k + 1]), os.path.join(args[k + 2], "inputs")
    on = False

    def say(*lines):
        for line in lines:
            print(line, flush=True)

    say("hello", "__q__")
    for line in sys.stdin:
        line = line.strip()
        if late is not None and line in ("a", "b"):
            n = int(open(count).read()) + 1 if os.path.exists(count) else 1
            # atomically: the program may be killed at any time
            with open(count + ".new", "w") as f:
                f.write(str(n))
            os.replace(count + ".new", count)
            if n == late:
                time.sleep(3)
        if line == "__reset__":
            on = False
            say("hello")
        elif line == "a":
            on = not on
            say("on" if on else "off")
        elif line == "b" and on:
            say("same")
        say("__q__")


if __name__ == "__main__":
    main()
