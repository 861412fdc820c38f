"""Complete suites as input words: every method, extra states, and their guarantee on mutants."""

import itertools
import json

import pytest

import ioco


@pytest.mark.parametrize("method", ioco.METHODS)
def test_every_method_kills_every_output_and_transfer_mutant(corpus, method):
    m = ioco.load(corpus / "mealy-aalpy" / "Angluin_Mealy.dot")
    words = ioco.suite(m, method, extra_states=0)
    assert words and all(set(w) <= set(m.inputs) for w in words)
    # mutants with the same number of states: one output or one target changed
    killed = 0
    for (s, i, o, t), o2 in itertools.product(m.transitions(), m.outputs):
        if o2 == o:
            continue
        mutant = ioco.Mealy([x if x[:2] != (s, i) else (s, i, o2, t) for x in m.transitions()],
                            initial=m.initial, states=m.states)
        assert any(m.run(w) != mutant.run(w) for w in words), (method, s, i, o2)
        killed += 1
    for (s, i, o, t), t2 in itertools.product(m.transitions(), m.states):
        mutant = ioco.Mealy([x if x[:2] != (s, i) else (s, i, o, t2) for x in m.transitions()],
                            initial=m.initial, states=m.states)
        if mutant.equivalent(m):
            continue
        assert any(m.run(w) != mutant.run(w) for w in words), (method, s, i, t2)
        killed += 1
    assert killed > 10


def test_more_extra_states_more_words(corpus):
    m = ioco.load(corpus / "mealy-aalpy" / "coffee_mealy.dot")
    sizes = [sum(map(len, ioco.suite(m, "wp", k))) for k in range(3)]
    assert sizes[0] < sizes[1] < sizes[2]


def test_the_same_words_as_ioco_gen(corpus, tmp_path, ioco_bin):
    f = corpus / "mealy-aalpy" / "Angluin_Mealy.dot"
    m = ioco.load(f)
    for method in ioco.METHODS:
        out = tmp_path / f"{method}.json"
        ioco_bin("gen", f, "--method", method, "--extra-states", 1, "-o", out)
        lines = out.read_text().splitlines()[1:]
        cli = [[s[:-1] for s in json.loads(line.rstrip(","))["test"]["steps"] if s.endswith("?")]
               for line in lines if line.startswith("{")]
        assert cli == ioco.suite(m, method, 1), method


def test_errors():
    m = ioco.Mealy([("s", "a", "x", "s")])
    with pytest.raises(ioco.SuiteError, match="unknown method `abc`"):
        ioco.suite(m, "abc")
