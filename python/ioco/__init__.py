"""ioco from Python: models, complete test suites, an equivalence oracle for AALpy, L#
learning of Python systems and online ioco testing of Python objects.

The work is done by the Rust crates of ioco (the native module ``ioco._ioco``); this module
adds what is Python's: conversion to and from AALpy's ``MealyMachine``, AALpy's ``SUL``
protocol (``pre``/``post``/``step``), and an ``Oracle`` subclass that AALpy's learners accept.

    >>> import ioco
    >>> m = ioco.Mealy([("s0", "coin", "beep", "s1"), ("s0", "button", "init", "s0"),
    ...                 ("s1", "coin", "beep", "s1"), ("s1", "button", "coffee", "s0")])
    >>> ioco.suite(m, "hsi", extra_states=0)[:2]
    [['coin', 'coin', 'button'], ['coin', 'button', 'button']]

Errors are :class:`IocoError` subclasses whose messages are those of the ``ioco`` command.
"""

from __future__ import annotations

import json as _json
import os as _os
import random as _random
from typing import Any, Dict, Hashable, Optional, Sequence, Tuple, Union

from ._ioco import (  # noqa: F401  (re-exported)
    IocoError,
    LearnError,
    Lts,
    Mealy,
    ModelError,
    SuiteError,
    TestError,
    load,
    parse_dot,
    suite,
)
from . import _ioco

__all__ = [
    "IocoError",
    "ModelError",
    "SuiteError",
    "LearnError",
    "TestError",
    "Mealy",
    "Lts",
    "load",
    "parse_dot",
    "save_dot",
    "suite",
    "from_aalpy",
    "to_aalpy",
    "EquivalenceOracle",
    "RANDOM_BEFORE_MIN_STATES",
    "RANDOM_AFTER_PERCENT",
    "learn",
    "Learned",
    "test",
    "TestResult",
    "METHODS",
]

#: The complete-suite methods: Chow's W, Wp, HSI, H and hybrid-ADS.
METHODS = ("w", "wp", "hsi", "h", "hads")

PathLike = Union[str, "_os.PathLike[str]"]


def save_dot(machine: Mealy, path: PathLike) -> None:
    """Write ``machine`` as DOT that AALpy's ``load_automaton_from_file(path, "mealy")``,
    LearnLib, hybrid-ADS and ``ioco`` read."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(machine.to_dot())


# ---------------------------------------------------------------------------------------------
# Names of Python symbols

def _name(x: Any) -> str:
    """The name ioco uses for an AALpy input or output: a string as it is, else its repr."""
    return x if isinstance(x, str) else repr(x)


class _Symbols:
    """Names of Python symbols (inputs or outputs), one to one: two symbols with one name (the
    string ``"1"`` and the number ``1``) are an error rather than merged."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.by_name: Dict[str, Any] = {}

    def name(self, x: Any) -> str:
        n = _name(x)
        old = self.by_name.setdefault(n, x)
        if old is not x and old != x:
            raise IocoError(
                f"two {self.what}s have the name `{n}` ({old!r} and {x!r}); "
                "hint: give them names that differ"
            )
        return n

    def symbol(self, n: str) -> Any:
        return self.by_name.get(n, n)


# ---------------------------------------------------------------------------------------------
# AALpy conversion

def from_aalpy(automaton: Any, alphabet: Optional[Sequence[Hashable]] = None) -> Mealy:
    """An :class:`ioco.Mealy` from an AALpy ``MealyMachine`` (or any object with
    ``initial_state`` and ``states`` whose states have ``state_id``, ``transitions`` and
    ``output_fun``). Inputs and outputs that are not strings are named by their ``repr``;
    ``alphabet`` fixes the order of the inputs."""
    ins, outs = _Symbols("input"), _Symbols("output")
    return _from_aalpy(automaton, alphabet, ins, outs)


def _from_aalpy(automaton: Any, alphabet, ins: _Symbols, outs: _Symbols) -> Mealy:
    try:
        states = list(automaton.states)
        initial = automaton.initial_state
    except AttributeError as e:
        raise ModelError(
            f"not an AALpy Mealy machine ({type(automaton).__name__}): {e}; "
            "hint: give an aalpy.automata.MealyMachine"
        ) from None
    ids: Dict[int, str] = {}
    seen = set()
    for k, s in enumerate(states):
        n = str(getattr(s, "state_id", f"s{k}"))
        if n in seen:
            n = f"s{k}"
        seen.add(n)
        ids[id(s)] = n
    transitions = []
    for s in states:
        if not hasattr(s, "output_fun"):
            raise ModelError(
                f"state {ids[id(s)]!r} has no output function: not a Mealy machine "
                "(AALpy's Moore machines and DFAs are not Mealy machines)"
            )
        for i, t in s.transitions.items():
            if id(t) not in ids:
                raise ModelError(
                    f"state {ids[id(s)]!r} on {i!r} leads to a state not in `states`"
                )
            transitions.append((ids[id(s)], ins.name(i), outs.name(s.output_fun[i]), ids[id(t)]))
    inputs = [ins.name(a) for a in alphabet] if alphabet is not None else None
    if inputs is not None:
        known = set(inputs)
        extra = sorted({t[1] for t in transitions} - known)
        if extra:
            raise ModelError(f"inputs not in the alphabet: {', '.join(extra)}")
    return Mealy(
        transitions,
        initial=ids[id(initial)],
        states=[ids[id(s)] for s in states],
        inputs=inputs,
    )


def to_aalpy(machine: Mealy, symbols: Optional[Dict[str, Any]] = None):
    """The machine as an AALpy ``MealyMachine`` (AALpy must be installed). ``symbols`` maps
    names to the Python objects AALpy should see (default: the names themselves)."""
    try:
        from aalpy.automata import MealyMachine, MealyState
    except ImportError:
        raise IocoError("to_aalpy needs AALpy: pip install aalpy") from None
    sym = symbols or {}
    states = {n: MealyState(n) for n in machine.states}
    for s, i, o, t in machine.transitions():
        x = sym.get(i, i)
        states[s].transitions[x] = states[t]
        states[s].output_fun[x] = sym.get(o, o)
    return MealyMachine(states[machine.initial], list(states.values()))


# ---------------------------------------------------------------------------------------------
# The equivalence oracle for AALpy

try:  # AALpy's learners accept any object with find_cex; subclass its Oracle when it is there
    from aalpy.base import Oracle as _OracleBase
except ImportError:  # pragma: no cover - AALpy not installed

    class _OracleBase:  # type: ignore[no-redef]
        def __init__(self, alphabet: list, sul: Any) -> None:
            self.alphabet = alphabet
            self.sul = sul
            self.num_queries = 0
            self.num_steps = 0


#: ``ioco learn``'s rule for random words (crate ioco-learn, equivalence.rs): hypotheses of at
#: least this many states get ``random_words`` random words before their suite ...
RANDOM_BEFORE_MIN_STATES = 11
#: ... smaller ones get random words after it, for this percentage of the symbols spent so far
RANDOM_AFTER_PERCENT = 25
#: Most random words after the suite in one equivalence query.
MAX_AFTER_WORDS = 100_000


class EquivalenceOracle(_OracleBase):
    """An AALpy equivalence oracle that runs ioco's complete test suite of the hypothesis:
    every system with at most ``n + extra_states`` states (``n``: the hypothesis' states) that
    is not equivalent to the hypothesis fails a test, so learning with it (``run_Lstar``,
    ``run_KV``, ...) ends with a machine equivalent to any such system.

        oracle = ioco.EquivalenceOracle(alphabet, sul, method="hads", extra_states=1)
        model = run_Lstar(alphabet, sul, oracle, automaton_type="mealy")

    Random words as ``ioco learn`` runs them (a random state's access word, then up to
    ``2(n + extra_states) + 10`` random inputs; seeded) find the counterexamples to small
    hypotheses of deep systems, which a suite for few extra states cannot. By ``ioco learn``'s
    rule, a hypothesis of at least ``random_before_min_states`` states (11) gets
    ``random_words`` (100) of them before its suite; a smaller one gets them after its suite
    passed, while they fit in ``random_after_percent`` (25) percent of the symbols the system
    has run so far (``sul.num_steps``, AALpy's count; else the oracle's own), so that a small
    machine pays little for them. ``random_before_min_states=0, random_after_percent=0`` is the
    old rule (``random_words`` words before every suite); ``random_words=0`` and
    ``random_after_percent=0`` run the suite only. Tests are run with ``sul.query``
    (AALpy's learners give the oracle their cache), and a counterexample is cut after its
    first differing output. ``num_queries``/``num_steps`` count the tests, as AALpy's oracles
    do."""

    def __init__(
        self,
        alphabet: list,
        sul: Any,
        method: str = "hads",
        extra_states: int = 1,
        random_words: int = 100,
        seed: int = 0,
        random_before_min_states: int = RANDOM_BEFORE_MIN_STATES,
        random_after_percent: int = RANDOM_AFTER_PERCENT,
    ) -> None:
        if method not in METHODS:
            raise SuiteError(
                f"unknown method `{method}`; expected one of w, wp, hsi, h, hads"
            )
        if min(extra_states, random_words, random_before_min_states, random_after_percent) < 0:
            raise SuiteError(
                "extra_states, random_words, random_before_min_states and "
                "random_after_percent must be at least 0"
            )
        super().__init__(alphabet, sul)
        self.method = method
        self.extra_states = extra_states
        self.random_words = random_words
        self.seed = seed
        self.random_before_min_states = random_before_min_states
        self.random_after_percent = random_after_percent
        self.rounds = 0

    def _random_words(self, machine: Mealy, rng: _random.Random):
        """Random words for the machine, endlessly (a random state's access word, then random
        inputs)."""
        access = {machine.initial: []}
        queue = [machine.initial]
        for s in queue:  # breadth first, inputs in order: shortest access words
            for i in machine.inputs:
                step = machine.step(s, i)
                if step is not None and step[1] not in access:
                    access[step[1]] = access[s] + [i]
                    queue.append(step[1])
        states = list(access.values())
        longest = 2 * (machine.num_states + self.extra_states) + 10
        while True:
            w = list(rng.choice(states))
            w += [rng.choice(machine.inputs) for _ in range(rng.randint(1, longest))]
            yield w

    def _spent(self) -> int:
        """The symbols the system has run so far (AALpy's ``num_steps`` of the SUL, which a
        learner's cache counts only for the queries it could not answer)."""
        steps = getattr(self.sul, "num_steps", None)
        return steps if isinstance(steps, int) else self.num_steps

    def _words(self, machine: Mealy):
        """The random words before the suite (large hypotheses), the suite, then the random
        words after it (small hypotheses, within the budget); same seed, same words."""
        before = (self.random_words > 0 and bool(machine.inputs)
                  and machine.num_states >= self.random_before_min_states)
        if before:
            rng = _random.Random(self.seed * 1_000_003 + self.rounds)
            words = self._random_words(machine, rng)
            for _ in range(self.random_words):
                yield next(words)
        yield from suite(machine, self.method, self.extra_states)
        if self.random_after_percent > 0 and machine.inputs and not before:
            rng = _random.Random((self.seed ^ 0x5A17A55E) * 1_000_003 + self.rounds)
            start = self._spent()
            budget = start * self.random_after_percent // 100
            words = self._random_words(machine, rng)
            for _ in range(MAX_AFTER_WORDS):
                w = next(words)
                if self._spent() - start + len(w) > budget:
                    break
                yield w

    def find_cex(self, hypothesis: Any) -> Optional[Tuple[Any, ...]]:
        ins, outs = _Symbols("input"), _Symbols("output")
        machine = _from_aalpy(hypothesis, self.alphabet, ins, outs)
        self.rounds += 1
        for word in self._words(machine):
            expected = machine.run(word)
            inputs = [ins.symbol(w) for w in word]
            observed = self.sul.query(tuple(inputs))
            self.num_queries += 1
            self.num_steps += len(inputs)
            for k, o in enumerate(observed):
                if expected is None or k >= len(expected) or _name(o) != expected[k]:
                    return tuple(inputs[: k + 1])
        return None


# ---------------------------------------------------------------------------------------------
# Learning

class _Sul:
    """An AALpy-style SUL (``pre``/``post``/``step``) or an object with ``reset``/``step``, as
    ioco's learner asks: ``reset()`` and ``step(name) -> name``."""

    def __init__(self, sul: Any, alphabet: Sequence[Hashable]) -> None:
        self.sul = sul
        self.aalpy = hasattr(sul, "pre") and hasattr(sul, "post")
        if not hasattr(sul, "step") or not (self.aalpy or hasattr(sul, "reset")):
            raise LearnError(
                f"{type(sul).__name__} is not a system to learn: it needs step(input) and "
                "pre()/post() (AALpy's SUL) or reset()"
            )
        self.inputs = _Symbols("input")
        self.outputs = _Symbols("output")
        self.names = [self.inputs.name(a) for a in alphabet]
        self.open = False

    def reset(self) -> None:
        if self.aalpy:
            if self.open:
                self.sul.post()
            self.sul.pre()
        else:
            self.sul.reset()
        self.open = True

    def step(self, name: str) -> str:
        return self.outputs.name(self.sul.step(self.inputs.symbol(name)))

    def close(self) -> None:
        if self.aalpy and self.open:
            self.open = False
            self.sul.post()


class Learned:
    """A learned machine: ``machine`` (an :class:`ioco.Mealy`), ``verified`` (the complete
    suite passed), ``unverified_because`` (why not) and ``stats`` (queries, cache hits, resets,
    symbols, tests, test symbols, hypotheses, milliseconds: as ``ioco learn``'s log)."""

    def __init__(self, machine: Mealy, verified: bool, why: Optional[str],
                 stats: Dict[str, int], symbols: Dict[str, Any]) -> None:
        self.machine = machine
        self.verified = verified
        self.unverified_because = why
        self.stats = stats
        self._symbols = symbols

    def to_aalpy(self):
        """The machine as an AALpy ``MealyMachine`` over the system's own input and output
        objects."""
        return to_aalpy(self.machine, self._symbols)

    def __repr__(self) -> str:
        v = "verified" if self.verified else f"UNVERIFIED ({self.unverified_because})"
        return f"<ioco.Learned: {self.machine.num_states} states, {v}, {self.stats}>"


def learn(
    sul: Any,
    alphabet: Sequence[Hashable],
    oracle: Optional[str] = "auto",
    extra_states: int = 1,
    *,
    random_words: Optional[int] = None,
    seed: int = 0,
    repetitions: int = 1,
    max_resets: Optional[int] = None,
    max_seconds: Optional[float] = None,
) -> Learned:
    """Learn the Mealy machine of ``sul`` over ``alphabet`` with L#, in process, as
    ``ioco learn`` does: equivalence queries are answered by random words (``random_words``
    per query, the learner's default when ``None``) and then the complete suite ``oracle``
    (``w``, ``wp``, ``hsi``, ``h``, ``hads``; ``auto``, the default: per hypothesis whichever
    of ``hads``, ``wp`` and ``hsi`` sends the fewest symbols; ``None``: random words only,
    unverified) for ``extra_states`` extra states. For a system with at most ``n + extra_states`` states, the
    learned machine (``n`` states) is equivalent to it.

    ``sul`` is an AALpy ``SUL`` (``pre()``, ``step(input)``, ``post()``) or any object with
    ``reset()`` and ``step(input)``; its outputs may be any objects (named by ``repr`` unless
    strings). A budget (``max_resets``, ``max_seconds``) that runs out gives the hypothesis so
    far with ``verified`` false. A system that answers one word two ways raises
    :class:`LearnError`; an exception of ``sul`` propagates."""
    if oracle is not None and oracle != "auto" and oracle not in METHODS:
        raise SuiteError(
            f"unknown method `{oracle}`; expected one of auto, w, wp, hsi, h, hads"
        )
    s = _Sul(sul, alphabet)
    try:
        machine, verified, why, stats = _ioco.learn(
            s, s.names, oracle, extra_states, random_words, seed, repetitions,
            max_resets, max_seconds,
        )
    finally:
        s.close()
    symbols = dict(s.inputs.by_name)
    symbols.update(s.outputs.by_name)
    return Learned(machine, verified, why, _json.loads(stats), symbols)


# ---------------------------------------------------------------------------------------------
# Testing

class TestResult:
    """The outcome of :func:`test`: ``verdict`` (``"pass"``, ``"fail"``, ...), ``seed``, and
    the report that ``ioco test --json`` writes, as text (``json``) and parsed (``report``)."""

    __test__ = False  # not a pytest test class

    def __init__(self, verdict: str, report_json: str) -> None:
        self.verdict = verdict
        self.json = report_json
        self.report: Dict[str, Any] = _json.loads(report_json)
        self.seed: int = self.report.get("seed", 0)

    @property
    def passed(self) -> bool:
        """Whether every run passed."""
        return self.verdict == "pass"

    def __repr__(self) -> str:
        return f"<ioco.TestResult: {self.verdict}, seed {self.seed}, {len(self.report.get('runs', []))} runs>"


def test(
    model: Union[Mealy, Lts, PathLike],
    system: Any,
    *,
    runs: int = 100,
    steps: int = 50,
    seed: Optional[int] = None,
    keep_going: bool = False,
) -> TestResult:
    """Online ioco testing of ``system`` against ``model`` (an :class:`Lts`, a :class:`Mealy`
    read as its LTS, or a model file), with the explicit engine of ``ioco test``: ``runs``
    runs of at most ``steps`` steps, seeded by ``seed`` (from the clock when ``None``, as the
    command does; the seed is in the result), stopping at the first failing run unless
    ``keep_going``. Verdicts and the report are those of ``ioco test --json``.

    ``system`` plays the implementation: ``reset()`` (back to the start), ``give(input)`` (an
    input name, without ``?``), ``observe()`` (the name of its next output, or ``None`` when it
    has none: quiescence), and optionally ``close()``. It answers at once: outputs it has
    produced wait in it until observed."""
    name = "<python>"
    if isinstance(model, (str, _os.PathLike)):
        name = _os.fspath(model)
        model = load(model)
    for m in ("reset", "give", "observe"):
        if not callable(getattr(system, m, None)):
            raise TestError(
                f"{type(system).__name__} is not a system to test: it needs reset(), "
                "give(input) and observe() -> output or None"
            )
    if seed is None:
        seed = _random.SystemRandom().getrandbits(63)
    verdict, report = _ioco.test(
        model, system, runs, steps, seed, keep_going, name,
        f"python object {type(system).__qualname__}",
    )
    return TestResult(verdict, report)
