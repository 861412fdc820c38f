#!/usr/bin/env python3
"""The coffee machine of examples/models/coffee.aut, with a housekeeping thread that wakes up
every 20 ms (a timed wait): it never writes, but nothing proves that, so quiescence falls back
to the time-out. With --no-timer, a plain single-threaded Python system."""
import sys
import threading


def housekeeping(stop):
    while not stop.wait(0.02):
        pass


def main():
    stop = threading.Event()
    if "--no-timer" not in sys.argv[1:]:
        threading.Thread(target=housekeeping, args=(stop,), daemon=True).start()
    state = 0
    for line in sys.stdin:
        line = line.strip()
        if line == "water" and state == 0:
            state = 1
        elif line == "pad" and state == 1:
            state = 2
        elif line == "button":
            print("coffee" if state == 2 else "error", flush=True)
            state = 0


if __name__ == "__main__":
    main()
