"""Models: loading every format ioco reads, the Mealy class, errors with the command line's
messages."""

import pathlib

import pytest

import ioco

from conftest import REPO

COFFEE = [
    ("s0", "coin", "beep", "s1"),
    ("s0", "button", "init", "s0"),
    ("s1", "coin", "beep", "s1"),
    ("s1", "button", "coffee", "s0"),
]


def test_a_mealy_machine_from_transitions():
    m = ioco.Mealy(COFFEE)
    assert m.states == ["s0", "s1"]
    assert m.inputs == ["coin", "button"]
    assert m.outputs == ["beep", "init", "coffee"]
    assert m.initial == "s0"
    assert m.is_complete()
    assert m.step("s1", "button") == ("coffee", "s0")
    assert m.run(["coin", "button", "button"]) == ["beep", "coffee", "init"]
    assert m.transitions() == COFFEE
    assert "2 states" in repr(m)


def test_equivalence_and_a_shortest_difference():
    m = ioco.Mealy(COFFEE)
    same = ioco.Mealy(COFFEE + [("s2", "coin", "beep", "s2")])  # an unreachable extra state
    assert m.equivalent(same)
    mutant = ioco.Mealy([t if t[:2] != ("s1", "button") else ("s1", "button", "tea", "s0")
                         for t in COFFEE])
    assert not m.equivalent(mutant)
    assert m.difference(mutant) == ["coin", "button"]


def test_nondeterministic_and_unknown_names_are_errors():
    with pytest.raises(ioco.ModelError, match="two transitions on input `coin`"):
        ioco.Mealy(COFFEE + [("s0", "coin", "tea", "s0")])
    m = ioco.Mealy(COFFEE)
    with pytest.raises(ioco.ModelError, match="`tea` is not an input"):
        m.run(["tea"])
    with pytest.raises(ioco.ModelError, match="no state `s9`"):
        m.step("s9", "coin")
    assert issubclass(ioco.ModelError, ioco.IocoError)


def test_every_format_ioco_reads(corpus, tmp_path):
    assert isinstance(ioco.load(corpus / "mealy-aalpy" / "coffee_mealy.dot"), ioco.Mealy)
    aut = tmp_path / "m.aut"
    aut.write_text('des (0, 2, 2)\n(0, "coin?", 1)\n(1, "tea!", 0)\n')
    lts = ioco.load(aut)
    assert isinstance(lts, ioco.Lts)
    assert (lts.num_states, lts.inputs, lts.outputs) == (2, ["coin"], ["tea"])
    assert lts.transitions() == [(0, "coin?", 1), (1, "tea!", 0)]
    back = tmp_path / "back.json"
    back.write_text(lts.to_json())
    assert ioco.load(back).transitions() == lts.transitions()
    # the modelling language and TorXakis
    coffee = ioco.load(REPO / "examples" / "coffee" / "coffee.ioco")
    assert isinstance(coffee, ioco.Lts) and coffee.num_states > 0
    sr = ioco.load(corpus / "torxakis" / "examps" / "StimulusResponse" / "StimulusResponse.txs")
    assert isinstance(sr, ioco.Lts) and sr.num_states == 3
    # a model with infinite data has no LTS: the translation's diagnostic, with its place
    adder = corpus / "torxakis" / "examps" / "Adder" / "Adder.txs"
    with pytest.raises(ioco.ModelError, match="`int` has infinitely many values") as e:
        ioco.load(adder)
    assert f"{adder}:23:8" in str(e.value)


def test_errors_carry_the_command_lines_diagnostic(tmp_path, ioco_bin):
    bad = tmp_path / "bad.dot"
    bad.write_text('digraph g {\ns0 -> s1 [label="a/x"]\ns0 -> s0 [label="a/y"]\n}\n')
    with pytest.raises(ioco.ModelError) as e:
        ioco.load(bad)
    msg = str(e.value)
    assert f"{bad}:3:" in msg
    cli = ioco_bin("check", bad, check=False)
    assert cli.returncode == 2
    # the same message as `ioco check` prints (its first line)
    first = [l for l in msg.splitlines() if l.strip()][0].strip(" ×")
    assert first in cli.stderr, (msg, cli.stderr)


def test_unknown_extension_and_missing_file(tmp_path):
    with pytest.raises(ioco.ModelError, match="unknown model format"):
        ioco.load(tmp_path / "m.xyz")
    with pytest.raises(ioco.ModelError, match="cannot read the file"):
        ioco.load(tmp_path / "missing.dot")


def test_the_modules_examples():
    import doctest

    result = doctest.testmod(ioco)
    assert result.attempted >= 2 and result.failed == 0
