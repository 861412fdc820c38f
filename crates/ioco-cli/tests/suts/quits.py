#!/usr/bin/env python3
"""The coffee machine of examples/models/coffee.aut that stops at its brew: on `button` after
`water` and `pad` it exits with status 3 (MODE exit) or closes its standard output and keeps
reading its input (MODE close), where the specification requires an output. Otherwise it
behaves as the model. With --ack it prints `#quiet` when it waits for input.

Usage: quits.py MODE [--ack]
"""
import os
import sys


def main():
    mode = sys.argv[1]
    ack = "--ack" in sys.argv[2:]

    def say(line):
        print(line, flush=True)

    state = 0
    if ack:
        say("#quiet")
    for line in sys.stdin:
        line = line.strip()
        if line == "water" and state == 0:
            state = 1
        elif line == "pad" and state == 1:
            state = 2
        elif line == "button" and state == 2:
            if mode == "exit":
                sys.exit(3)
            sys.stdout.flush()
            os.close(1)
            for _ in sys.stdin:
                pass
            return
        elif line == "button":
            say("error")
            state = 0
        if ack:
            say("#quiet")


if __name__ == "__main__":
    main()
