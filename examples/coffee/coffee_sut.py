#!/usr/bin/env python3
"""The coffee machine of van den Bos's thesis (Ch. 1) as a system under test, in Python.

Same machine, wire format and modes as the Rust `coffee-sut` (see README.md next to this file).
Python 3 standard library only.

Wire format: one input label per line on stdin (water, pad, button); the machine answers with
zero or more output lines (coffee, error), flushed at once. Unknown lines are ignored. With
--ack (or IOCO_ACK=1) it prints `#quiet` whenever it has finished reacting and waits for input
(once at start-up and after every input line). The line `#reset` puts the machine back into
its initial state, as if restarted.
"""
import argparse
import os
import sys
import time

MODES = {
    "correct": "conforms: coffee after water, pad, button (every third cup: error); error "
               "after button when not ready; unspecified inputs are ignored",
    "wrong-output": "button in the initial state brews coffee instead of error "
                    "(counterexample: button? . coffee! where only error! is allowed)",
    "tea": "serves tea instead of coffee (water? pad? button? . tea!)",
    "silent": "no output after water, pad, button (water? pad? button? . quiescence where "
              "coffee! or error! is required)",
    "spontaneous": "a spontaneous coffee at start-up (epsilon . coffee! where only quiescence "
                   "is allowed)",
    "refuse-pad": "rejects pad with error (water? pad? . error! where only quiescence is allowed)",
    "crash": "raises an exception (exit status 1) on button after water and pad",
    "hang": "stops responding (sleeps forever, reads nothing) on button after water and pad",
    "garbage": "prints a line that is no label after water, pad, button",
    "flood": "prints coffee endlessly after water, pad, button",
}
NAMES = list(MODES)
INPUTS = ("water", "pad", "button")


class CoffeeMachine:
    def __init__(self, mode):
        self.mode = mode
        self.step = "idle"  # idle (s0), water (s1), ready (s2)
        self.cups = 0

    def start(self):
        return ["coffee"] if self.mode == "spontaneous" else []

    def brew(self):
        self.step = "idle"
        m = self.mode
        if m == "tea":
            return ["tea"]
        if m == "silent":
            return []
        if m == "crash":
            raise RuntimeError("boiler exploded")
        if m == "hang":
            while True:
                time.sleep(3600)
        if m == "garbage":
            return ["Here is your coffee :-)"]
        if m == "flood":
            while True:
                emit("coffee")
        self.cups = (self.cups + 1) % 3
        return ["error"] if self.cups == 0 else ["coffee"]

    def react(self, label):
        s, m = self.step, self.mode
        if s == "idle" and label == "water":
            self.step = "water"
            return []
        if s == "idle" and label == "button" and m == "wrong-output":
            return ["coffee"]
        if s in ("idle", "water") and label == "button":
            self.step = "idle"
            return ["error"]
        if s == "water" and label == "pad":
            if m == "refuse-pad":
                return ["error"]
            self.step = "ready"
            return []
        if s == "ready" and label == "button":
            return self.brew()
        return []  # unspecified input: ignored


def emit(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    epilog = "modes:\n" + "\n".join(f"  {n:13} {d}" for n, d in MODES.items())
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=epilog,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--mode", choices=NAMES, default="correct")
    g.add_argument("--bug", type=int, choices=range(1, len(NAMES)), metavar="N",
                   help="faulty mode by number (1 = wrong-output, ..., 9 = flood)")
    p.add_argument("--ack", action="store_true", default=os.environ.get("IOCO_ACK", "") in ("1", "true", "yes"),
                   help="print #quiet after every reaction (also IOCO_ACK=1)")
    args = p.parse_args()
    mode = NAMES[args.bug] if args.bug else args.mode
    machine = CoffeeMachine(mode)
    # Bytes that are not UTF-8 make an unknown line, ignored like any other.
    sys.stdin.reconfigure(errors="replace")
    try:
        for out in machine.start():
            emit(out)
        if args.ack:
            emit("#quiet")
        for line in sys.stdin:
            label = line.strip()
            if label == "#reset":
                machine = CoffeeMachine(mode)
                for out in machine.start():
                    emit(out)
            elif label in INPUTS:
                for out in machine.react(label):
                    emit(out)
            if args.ack:
                emit("#quiet")
    except BrokenPipeError:
        # the tester went away
        sys.stderr.close()
        os._exit(0)


if __name__ == "__main__":
    main()
