#!/usr/bin/env python3
"""A coffee machine (examples/models/coffee.aut) that brews too early: on `water` it prints
`coffee` DELAY seconds later, where the specification allows no output (only quiescence).
Otherwise it behaves as the model. With --ack it prints `#quiet` when it waits for input.

Usage: lateout.py DELAY [--ack]
"""
import sys
import time


def main():
    delay = float(sys.argv[1])
    ack = "--ack" in sys.argv[2:]

    def say(line):
        print(line, flush=True)

    state = 0
    if ack:
        say("#quiet")
    for line in sys.stdin:
        line = line.strip()
        if line == "water" and state == 0:
            time.sleep(delay)
            say("coffee")  # the bug: no output is allowed after water
            state = 0
        elif line == "water":
            pass
        elif line == "pad" and state == 1:
            state = 2
        elif line == "button":
            if state == 2:
                say("coffee")
            else:
                say("error")
            state = 0
        if ack:
            say("#quiet")


if __name__ == "__main__":
    main()
