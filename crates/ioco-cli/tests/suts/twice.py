#!/usr/bin/env python3
"""Answers every `Stimulus` line with `Response` twice: FIRST seconds and SECOND seconds after
it (a system whose second answer comes late, within the quiescence time-out). With --ack it
prints `#quiet` when it waits for input.

Usage: twice.py FIRST SECOND [--ack]
"""
import sys
import time


def main():
    first, second = float(sys.argv[1]), float(sys.argv[2])
    ack = "--ack" in sys.argv[3:]
    if ack:
        print("#quiet", flush=True)
    for line in sys.stdin:
        if line.strip() == "Stimulus":
            time.sleep(first)
            print("Response", flush=True)
            time.sleep(second - first)
            print("Response", flush=True)
        if ack:
            print("#quiet", flush=True)


if __name__ == "__main__":
    main()
