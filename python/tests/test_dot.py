"""DOT both ways (issue #33 item 2): AALpy's own reader (`load_automaton_from_file`, AALpy
2.0.0) reads every Mealy DOT that ioco writes (`Mealy.to_dot`, `ioco show --format dot`,
`ioco learn -o FILE.dot`) as the same machine, and ioco reads what AALpy writes."""

import pytest

import ioco

aalpy_utils = pytest.importorskip("aalpy.utils")
from aalpy.utils import load_automaton_from_file, save_automaton_to_file  # noqa: E402

from conftest import mealy_files  # noqa: E402


def aalpy_reads(path, original):
    a = load_automaton_from_file(str(path), "mealy")
    back = ioco.from_aalpy(a)
    assert back.num_states == original.num_states, path
    assert back.equivalent(original), (path, back.difference(original))
    assert a.initial_state.state_id == original.initial


def test_aalpy_reads_every_mealy_dot_ioco_writes(corpus, tmp_path):
    files = mealy_files(corpus)
    assert len(files) >= 29
    for f in files:
        m = ioco.load(f)
        out = tmp_path / f.name
        ioco.save_dot(m, out)
        aalpy_reads(out, m)


def test_aalpy_reads_what_ioco_show_writes(corpus, tmp_path, ioco_bin):
    for f in mealy_files(corpus):
        out = tmp_path / ("show-" + f.name)
        ioco_bin("show", f, "--format", "dot", "-o", out)
        aalpy_reads(out, ioco.load(f))


def test_aalpy_reads_what_ioco_learn_writes(corpus, tmp_path, ioco_bin):
    for name in ("coffee_mealy.dot", "Angluin_Mealy.dot", "TLS/OpenSSL_1.0.2_server_regular.dot"):
        f = corpus / "mealy-aalpy" / name
        out = tmp_path / ("learned-" + f.name)
        r = ioco_bin("learn", "--sim", f, "--inputs-from", f, "--seed", "5", "-o", out)
        assert r.returncode == 0, r.stderr
        assert out.read_text().startswith("// learned by ioco learn")
        a = load_automaton_from_file(str(out), "mealy")
        assert ioco.from_aalpy(a).equivalent(ioco.load(f)), name


def test_ioco_reads_what_aalpy_writes(corpus, tmp_path):
    for f in mealy_files(corpus):
        m = ioco.load(f)
        a = ioco.to_aalpy(m)
        save_automaton_to_file(a, str(tmp_path / "aalpy"), file_type="dot")
        back = ioco.load(tmp_path / "aalpy.dot")
        assert back.num_states == m.num_states and back.equivalent(m), f


def test_awkward_state_names_still_load_in_aalpy(tmp_path):
    m = ioco.Mealy([("idle state", "a", "x", "busy->1"), ("busy->1", "a", "y", "idle state")])
    out = tmp_path / "awkward.dot"
    ioco.save_dot(m, out)
    a = load_automaton_from_file(str(out), "mealy")
    assert ioco.from_aalpy(a).equivalent(m)
    # a name AALpy's line reader could not take (`->`) is replaced by the node's ID
    assert [s.state_id for s in a.states] == ["idle state", "s1"]
