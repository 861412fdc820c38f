"""Learning from Python (issue #33 item 1): ioco.learn over an AALpy SUL in process, and
AALpy's own learners with ioco's complete-suite equivalence oracle."""

import pytest

import ioco

pytest.importorskip("aalpy")
from aalpy.base import SUL  # noqa: E402
from aalpy.learning_algs import run_KV, run_Lstar  # noqa: E402
from aalpy.SULs import AutomatonSUL  # noqa: E402

MACHINES = [
    "coffee_mealy.dot",
    "Angluin_Mealy.dot",
    "TLS/OpenSSL_1.0.2_server_regular.dot",
    "Bluetooth/CC2650.dot",
]


def sul_of(corpus, name):
    m = ioco.load(corpus / "mealy-aalpy" / name)
    return m, AutomatonSUL(ioco.to_aalpy(m))


@pytest.mark.parametrize("name", MACHINES)
def test_learning_an_aalpy_sul_gives_an_equivalent_machine(corpus, name):
    m, sul = sul_of(corpus, name)
    learned = ioco.learn(sul, m.inputs, oracle="hads", extra_states=1, seed=3)
    assert learned.verified and learned.unverified_because is None
    assert learned.machine.num_states <= m.num_states  # minimal
    assert learned.machine.equivalent(m), learned.machine.difference(m)
    s = learned.stats
    assert s["symbols"] > 0 and s["resets"] > 0 and s["hypotheses"] >= 1
    a = learned.to_aalpy()
    assert ioco.from_aalpy(a).equivalent(m)


def test_the_default_oracle_chooses_the_cheapest_suite(corpus):
    """oracle="auto" (the default): per hypothesis the cheapest of hads, wp and hsi; on RSA
    BSAFE fewer symbols than hads alone and than AALpy's best Wp run (4148), same guarantee."""
    m, sul = sul_of(corpus, "TLS/RSA_BSAFE_C_4.0.4_server_regular.dot")
    auto = ioco.learn(sul, m.inputs, seed=1)
    assert auto.verified and auto.machine.equivalent(m)
    m, sul = sul_of(corpus, "TLS/RSA_BSAFE_C_4.0.4_server_regular.dot")
    hads = ioco.learn(sul, m.inputs, oracle="hads", seed=1)
    assert hads.verified and hads.machine.equivalent(m)
    assert auto.stats["symbols"] < min(hads.stats["symbols"], 4148), (auto.stats, hads.stats)


def test_same_seed_same_run(corpus):
    m, _ = sul_of(corpus, "Angluin_Mealy.dot")
    runs = []
    for _ in range(2):
        _, sul = sul_of(corpus, "Angluin_Mealy.dot")
        l = ioco.learn(sul, m.inputs, seed=11)
        runs.append((l.machine.transitions(), {k: v for k, v in l.stats.items() if k != "millis"}))
    assert runs[0] == runs[1]


class Counter(SUL):
    """Counts coins modulo 3; outputs are Python objects (numbers and a tuple), inputs too."""

    def __init__(self):
        super().__init__()
        self.n = 0
        self.resets = 0

    def pre(self):
        self.n = 0
        self.resets += 1

    def post(self):
        pass

    def step(self, letter):
        if letter == 1:
            self.n = (self.n + 1) % 3
            return ("open",) if self.n == 0 else self.n
        return None


def test_python_objects_as_inputs_and_outputs():
    sul = Counter()
    learned = ioco.learn(sul, [1, "show"], oracle="wp", extra_states=1)
    assert learned.verified
    assert learned.machine.num_states == 3
    assert sorted(learned.machine.outputs) == ["('open',)", "1", "2", "None"]
    a = learned.to_aalpy()
    assert a.compute_output_seq(a.initial_state, [1, 1, 1, "show"]) == [1, 2, ("open",), None]
    assert sul.resets == learned.stats["resets"]


class Flaky(SUL):
    def __init__(self):
        super().__init__()
        self.k = 0

    def pre(self):
        pass

    def post(self):
        pass

    def step(self, letter):
        self.k += 1
        return "odd" if self.k % 7 == 0 else "even"


def test_a_nondeterministic_system_is_a_learn_error_with_the_clis_message():
    with pytest.raises(ioco.LearnError, match="learning failed: the system is not deterministic"):
        ioco.learn(Flaky(), ["a", "b"])


class Broken(SUL):
    def pre(self):
        pass

    def post(self):
        pass

    def step(self, letter):
        raise ValueError("the device is unplugged")


def test_an_exception_of_the_system_propagates():
    with pytest.raises(ValueError, match="unplugged"):
        ioco.learn(Broken(), ["a"])


def test_a_budget_gives_the_hypothesis_unverified(corpus):
    m, sul = sul_of(corpus, "TLS/OpenSSL_1.0.2_server_regular.dot")
    learned = ioco.learn(sul, m.inputs, max_resets=20)
    assert not learned.verified
    assert "budget" in learned.unverified_because
    assert learned.stats["resets"] <= 21


def test_bad_arguments():
    with pytest.raises(ioco.SuiteError, match="unknown method `x`"):
        ioco.learn(Counter(), [1], oracle="x")
    with pytest.raises(ioco.LearnError, match="no inputs to learn with"):
        ioco.learn(Counter(), [])
    with pytest.raises(ioco.LearnError, match="not a system to learn"):
        ioco.learn(object(), [1])


@pytest.mark.parametrize("learner", [run_Lstar, run_KV])
@pytest.mark.parametrize("name", MACHINES[:3])
def test_aalpys_learners_with_iocos_oracle_learn_the_same_machine(corpus, name, learner):
    m, sul = sul_of(corpus, name)
    alphabet = list(m.inputs)
    oracle = ioco.EquivalenceOracle(alphabet, sul, method="hads", extra_states=1)
    from aalpy.base import Oracle

    assert isinstance(oracle, Oracle)
    model = learner(alphabet, sul, oracle, automaton_type="mealy", print_level=0)
    assert ioco.from_aalpy(model).equivalent(m)
    assert oracle.num_queries > 0


def test_the_oracle_finds_the_counterexample_a_small_hypothesis_hides(corpus):
    m, sul = sul_of(corpus, "Angluin_Mealy.dot")
    one_state = ioco.Mealy([("h", i, m.run([i])[0], "h") for i in m.inputs])
    oracle = ioco.EquivalenceOracle(list(m.inputs), sul, method="w", extra_states=m.num_states)
    cex = oracle.find_cex(ioco.to_aalpy(one_state))
    assert cex is not None
    assert m.run(list(cex)) != one_state.run(list(cex))
    assert oracle.find_cex(ioco.to_aalpy(m)) is None


def test_the_oracles_random_words_are_seeded(corpus):
    m, sul = sul_of(corpus, "Bluetooth/CC2650.dot")
    one_state = ioco.to_aalpy(ioco.Mealy([("h", i, m.run([i])[0], "h") for i in m.inputs]))
    # random words before the suite for every hypothesis (the old rule)
    cex = [ioco.EquivalenceOracle(list(m.inputs), sul, seed=s, random_before_min_states=0)
           .find_cex(one_state) for s in (4, 4)]
    assert cex[0] is not None and cex[0] == cex[1]
    # suite only: the same counterexample whatever the seed
    suite_only = [ioco.EquivalenceOracle(list(m.inputs), sul, random_words=0, seed=s)
                  .find_cex(one_state) for s in (4, 5)]
    assert suite_only[0] is not None and suite_only[0] == suite_only[1]


class CountingSul(AutomatonSUL):
    """Counts the symbols that reach the system, from the learner and any oracle alike."""

    def __init__(self, automaton):
        super().__init__(automaton)
        self.symbols = 0

    def step(self, letter):
        self.symbols += 1
        return super().step(letter)


def lstar_symbols(m, make_oracle):
    sul = CountingSul(ioco.to_aalpy(m))
    alphabet = list(m.inputs)
    model = run_Lstar(alphabet, sul, make_oracle(alphabet, sul), automaton_type="mealy",
                      print_level=0)
    assert ioco.from_aalpy(model).equivalent(m)
    return sul.symbols


@pytest.mark.parametrize("name", ["coffee_mealy.dot", "Angluin_Mealy.dot"])
def test_the_oracle_scales_its_random_words_to_small_machines(corpus, name):
    """Issue #33: the 100 random words per query made AALpy's learners with ioco's oracle cost
    more than AALpy's own Wp oracle (same guarantee: one extra state) on machines under 10
    states; by ioco learn's rule (words after the suite, 25% of the symbols so far) they no
    longer do. The old count is kept behind two arguments."""
    m, _ = sul_of(corpus, name)
    assert m.num_states < ioco.RANDOM_BEFORE_MIN_STATES

    def with_oracle(**kw):
        return lstar_symbols(m, lambda a, sul: ioco.EquivalenceOracle(a, sul, seed=1, **kw))

    from aalpy.oracles import WpMethodEqOracle

    scaled = with_oracle()
    old = with_oracle(random_before_min_states=0, random_after_percent=0)
    wp = lstar_symbols(
        m, lambda a, sul: WpMethodEqOracle(a, sul, max_number_of_states=m.num_states + 1))
    assert scaled < old
    assert scaled <= wp, (scaled, wp)
    assert with_oracle() == scaled  # same seed, same run


def test_the_oracles_words_after_the_suite_stay_in_their_budget(corpus):
    m, sul = sul_of(corpus, "Angluin_Mealy.dot")
    oracle = ioco.EquivalenceOracle(list(m.inputs), sul, method="w", extra_states=0,
                                    random_after_percent=25)
    suite_steps = sum(len(w) for w in ioco.suite(m, "w", 0))
    sul.num_steps = 1000  # as if learning had spent 1000 symbols before this query
    assert oracle.find_cex(ioco.to_aalpy(m)) is None
    random_steps = oracle.num_steps - suite_steps
    assert sul.num_steps == 1000 + suite_steps + random_steps
    assert 0 < random_steps <= (1000 + suite_steps) * 25 // 100
    with pytest.raises(ioco.SuiteError, match="at least 0"):
        ioco.EquivalenceOracle(list(m.inputs), sul, random_after_percent=-1)
