#!/usr/bin/env python3
"""AALpy's learners (L*, KV) with ioco's complete-suite oracle (`ioco.EquivalenceOracle`,
hybrid-ADS, k = 1) against AALpy's own Wp oracle with the same guarantee
(`WpMethodEqOracle`, max_number_of_states = n + 1), on corpus machines simulated in process
(`AutomatonSUL`, AALpy's cache on). Prints a Markdown table: the symbols that reached the
system (learner and oracle; counted at the SUL) and whether the learned machine is equivalent
to the original. ioco's oracle runs with its defaults (ioco learn's rule: 100 random words
before the suite for hypotheses of 11 states or more, random words after it for 25% of the
symbols spent so far for smaller ones).

Run with the Python of scripts/test_python.sh's environment (ioco and AALpy installed):
    target/python-venv/bin/python scripts/aalpy_oracle_bench.py [CORPUS]
"""

import os
import sys

import ioco
from aalpy.learning_algs import run_KV, run_Lstar
from aalpy.oracles import WpMethodEqOracle
from aalpy.SULs import AutomatonSUL

MACHINES = [
    "coffee_mealy.dot",
    "Angluin_Mealy.dot",
    "Bluetooth/CC2650.dot",
    "TLS/OpenSSL_1.0.2_server_regular.dot",
    "TLS/NSS_3.17.4_server_regular.dot",
    "MQTT/mosquitto__two_client_will_retain.dot",
    "TCP/TCP_Linux_Client.dot",
]


class Counting(AutomatonSUL):
    """Counts what reaches the system: resets (pre) and symbols (step), from the learner and
    the oracle alike (AALpy's own num_steps leaves out its oracles' steps)."""

    def __init__(self, automaton):
        super().__init__(automaton)
        self.resets = 0
        self.symbols = 0

    def pre(self):
        self.resets += 1
        super().pre()

    def step(self, letter):
        self.symbols += 1
        return super().step(letter)


def run(learner, m, make_oracle):
    sul = Counting(ioco.to_aalpy(m))
    alphabet = list(m.inputs)
    oracle = make_oracle(alphabet, sul, m)
    model = learner(alphabet, sul, oracle, automaton_type="mealy", print_level=0)
    return sul.symbols, ioco.from_aalpy(model).equivalent(m)


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("IOCO_CORPUS", "../shared/corpus")
    oracles = {
        "ioco hads k=1": lambda a, s, m: ioco.EquivalenceOracle(a, s, "hads", 1),
        "AALpy Wp n+1": lambda a, s, m: WpMethodEqOracle(a, s, max_number_of_states=m.num_states + 1),
    }
    print("| model | states | learner | " + " | ".join(f"{o}: symbols" for o in oracles) + " | ratio |")
    print("|---|---:|---|" + "---:|" * (len(oracles) + 1))
    for name in MACHINES:
        m = ioco.load(os.path.join(corpus, "mealy-aalpy", name))
        for lname, learner in (("L*", run_Lstar), ("KV", run_KV)):
            cells = []
            for make in oracles.values():
                steps, ok = run(learner, m, make)
                cells.append((steps, ok))
            shown = [f"{s}{'' if ok else ' (WRONG)'}" for s, ok in cells]
            ratio = cells[0][0] / cells[1][0] if cells[1][0] else float("nan")
            print(f"| {name} | {m.num_states} | {lname} | " + " | ".join(shown) + f" | {ratio:.2f} |")


if __name__ == "__main__":
    main()
