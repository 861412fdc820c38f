"""Online ioco testing of a Python object (issue #33 item 1): the verdicts and the report of
`ioco test --json` (the command line's simulator of the same implementation gives the same)."""

import json

import pytest

import ioco


class MealyPlayer:
    """Plays a Mealy machine as an input/output system: after an input its output waits to be
    observed, then the system is quiescent."""

    def __init__(self, machine):
        self.m = machine
        self.log = []

    def reset(self):
        self.state = self.m.initial
        self.pending = None
        self.log.append("reset")

    def give(self, input):
        step = self.m.step(self.state, input)
        if step is not None:
            self.pending, self.state = step

    def observe(self):
        out, self.pending = self.pending, None
        return out


def coffee_and_mutant(corpus, tmp_path):
    spec_path = corpus / "mealy-aalpy" / "coffee_mealy.dot"
    spec = ioco.load(spec_path)
    mutant = ioco.Mealy(
        [t if t[:2] != ("s1", "button") else ("s1", "button", "init", "s0") for t in spec.transitions()],
        initial=spec.initial,
    )
    mutant_path = tmp_path / "mutant.dot"
    ioco.save_dot(mutant, mutant_path)
    return spec_path, spec, mutant_path, mutant


def test_a_conforming_object_passes(corpus, tmp_path):
    spec_path, spec, _, _ = coffee_and_mutant(corpus, tmp_path)
    player = MealyPlayer(spec)
    r = ioco.test(spec_path, player, runs=30, steps=40, seed=1)
    assert r.verdict == "pass" and r.passed
    assert r.seed == 1
    assert len(r.report["runs"]) == 30
    assert r.report["parameters"]["model"] == str(spec_path)
    assert r.report["parameters"]["sut"] == "python object MealyPlayer"
    assert player.log.count("reset") == 30


def test_a_faulty_object_fails_with_the_verdict_and_trace_of_the_command_line(corpus, tmp_path, ioco_bin):
    spec_path, spec, mutant_path, mutant = coffee_and_mutant(corpus, tmp_path)
    r = ioco.test(spec, MealyPlayer(mutant), runs=50, steps=30, seed=7)
    assert r.verdict == "fail" and not r.passed
    failing = [run for run in r.report["runs"] if run["verdict"] == "fail"]
    assert failing and failing[0]["trace"][-1] == "init!"
    out = tmp_path / "cli.json"
    cli = ioco_bin("test", spec_path, "--sim", mutant_path, "--runs", 50, "--steps", 30,
                   "--seed", 7, "--json", out)
    assert cli.returncode == 1
    c = json.loads(out.read_text())
    assert c["verdict"] == r.report["verdict"] == "fail"
    # the command line's own replay options are the CLI's: a Python call has no command line
    assert set(c) - {"replay_options"} == set(r.report)
    # step times are kept where a report file is written (--json, --html); ioco.test keeps none
    assert set(c["runs"][0]) - {"step_ms"} == set(r.report["runs"][0]) - {"step_ms"}
    assert [run["verdict"] for run in c["runs"]] == [run["verdict"] for run in r.report["runs"]]
    assert [run["trace"] for run in c["runs"]] == [run["trace"] for run in r.report["runs"]]


def test_same_seed_same_runs(corpus, tmp_path):
    _, spec, _, mutant = coffee_and_mutant(corpus, tmp_path)
    a = ioco.test(spec, MealyPlayer(mutant), runs=20, seed=5, keep_going=True)
    b = ioco.test(spec, MealyPlayer(mutant), runs=20, seed=5, keep_going=True)
    assert [x["trace"] for x in a.report["runs"]] == [x["trace"] for x in b.report["runs"]]
    assert len(a.report["runs"]) == 20


class Chatty(MealyPlayer):
    def observe(self):
        return "garbage" if self.pending else None


def test_an_output_the_model_does_not_know_is_the_command_lines_error(corpus, tmp_path):
    _, spec, _, _ = coffee_and_mutant(corpus, tmp_path)
    r = ioco.test(spec, Chatty(spec), runs=5, seed=2)
    assert r.verdict in ("fail", "error")
    text = json.dumps(r.report)
    assert "garbage" in text


class Exploding(MealyPlayer):
    def give(self, input):
        raise RuntimeError("the component crashed")


def test_an_exception_of_the_system_propagates(corpus, tmp_path):
    _, spec, _, _ = coffee_and_mutant(corpus, tmp_path)
    with pytest.raises(RuntimeError, match="crashed"):
        ioco.test(spec, Exploding(spec), runs=5, seed=2)


def test_bad_arguments(corpus, tmp_path):
    _, spec, _, _ = coffee_and_mutant(corpus, tmp_path)
    with pytest.raises(ioco.TestError, match="not a system to test"):
        ioco.test(spec, object())
    with pytest.raises(ioco.TestError, match="runs=0"):
        ioco.test(spec, MealyPlayer(spec), runs=0)
    with pytest.raises(ioco.TestError, match="must be an ioco.Mealy or an ioco.Lts"):
        ioco.test(42, MealyPlayer(spec))
