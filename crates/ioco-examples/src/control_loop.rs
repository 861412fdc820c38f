//! TorXakis's ControlLoop (`examps/ControlLoop/ControlLoopModel.txs`, hand-ported as
//! `examples/torxakis/control-loop.ioco`) as a system under test that runs on its own: every
//! gate is an output (the model has no input channel), so the tester only observes. Binary
//! `control-loop-sut`.
//!
//! The system, one iteration for material `id` (`produce`, `measure` and `correct` of the
//! `.txs`):
//! 1. `In_Material id` (any id) starts the first iteration (later ones take the id of the
//!    previous iteration's second `In_Material`).
//! 2. `Material id`: produce passes the material to measure (they synchronise on `Material`;
//!    measure takes it only once it has passed the previous material on, step 5).
//! 3. Then, interleaved: the next `In_Material nextId` (produce's left operand); the
//!    multi-action `ProduceReport ProduceReport(id,p) | MeasureReport MeasureReport(id,m)` (one
//!    step, `SYNC {ProduceReport | MeasureReport}`: correct takes both reports at once, of the
//!    same id; produce's report needs measure's, which exists only after `Material id`)
//!    followed by `Correction Correction(id,c)` with `sgn(c) == sgn(p - m)`; and measure's
//!    `Out_Material id` (at any time after `Material id`, also after the restart).
//! 4. When both `In_Material nextId` and the correction have happened, produce restarts with
//!    `nextId` (an internal step): back to 2.
//!
//! The system is never quiescent: some output is always enabled (`Material` waits only for
//! `Out_Material`, which is then enabled).
//!
//! [`ControlLoop::choices`] lists every step the system may take (grouped by kind), so that
//! tests can build its whole LTS; [`ControlLoop::step`] takes one at random. Faulty modes are
//! [`ControlLoopMode`].

use std::fmt;

/// How the system behaves; every mode but `correct` is an ioco fault a tester observes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum ControlLoopMode {
    /// Conforms to the model.
    Correct,
    /// The correction's sign is the opposite of `sgn(p - m)` (`1` when that is 0).
    /// Counterexample: … multi-action · `Correction(id,c)` with the wrong sign.
    WrongSign,
    /// The correction is for the wrong material: id `id + 1` (modulo the number of ids).
    /// Counterexample: … multi-action · `Correction(id+1,c)`.
    WrongId,
    /// Never sends a correction: once the other outputs of the iteration are out, the system
    /// is silent. Counterexample: … · δ where `Correction` is required.
    NoCorrection,
    /// Measure passes material on before it receives it: `Out_Material id` right before
    /// `Material id`. Counterexample: `In_Material id` · `Out_Material id` where only
    /// `Material id` is allowed.
    EarlyMaterial,
    /// The two reports as two separate lines (`ProduceReport …`, then `MeasureReport …`)
    /// instead of one multi-action. Counterexample: … `Material id` · `ProduceReport(id,p)`
    /// alone.
    SplitReports,
}

impl ControlLoopMode {
    /// All modes, the correct one first.
    pub const ALL: [ControlLoopMode; 6] = [
        ControlLoopMode::Correct,
        ControlLoopMode::WrongSign,
        ControlLoopMode::WrongId,
        ControlLoopMode::NoCorrection,
        ControlLoopMode::EarlyMaterial,
        ControlLoopMode::SplitReports,
    ];

    /// The mode's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ControlLoopMode::Correct => "correct",
            ControlLoopMode::WrongSign => "wrong-sign",
            ControlLoopMode::WrongId => "wrong-id",
            ControlLoopMode::NoCorrection => "no-correction",
            ControlLoopMode::EarlyMaterial => "early-material",
            ControlLoopMode::SplitReports => "split-reports",
        }
    }
}

/// The ranges of ids (`0..=max_id`) and values (`-max_val..=max_val`) the system uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// The largest id.
    pub max_id: i64,
    /// The largest absolute value of a report or a correction.
    pub max_val: i64,
}

impl Bounds {
    /// Ids 0..=9, values -9..=9.
    pub const DEFAULT: Bounds = Bounds {
        max_id: 9,
        max_val: 9,
    };
    /// The hand port's `Id = int[0..1]` and `Val = int[-1..1]`.
    pub const BOUNDED: Bounds = Bounds {
        max_id: 1,
        max_val: 1,
    };
}

/// A report or a correction: the value of the `.txs` types `ProduceReport`, `MeasureReport`
/// and `Correction` (`{ id, value :: Int }`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Report {
    /// The material's id.
    pub id: i64,
    /// The value.
    pub value: i64,
}

/// One observable action (one wire line).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `In_Material id`.
    InMaterial(i64),
    /// `Material id`.
    Material(i64),
    /// `Out_Material id`.
    OutMaterial(i64),
    /// The multi-action `ProduceReport ! pr | MeasureReport ! mr`.
    Reports {
        /// The production report.
        pr: Report,
        /// The measurement report.
        mr: Report,
    },
    /// `ProduceReport` alone (only the faulty mode `split-reports`).
    ProduceReport(Report),
    /// `MeasureReport` alone (only the faulty mode `split-reports`).
    MeasureReport(Report),
    /// `Correction`.
    Correction(Report),
}

impl Action {
    /// The gates of the action with their values as in the `.ioco` label syntax (`0`, `-1`,
    /// `ProduceReport(0,-1)`): one part, or two for the multi-action.
    pub fn parts(&self) -> Vec<(&'static str, Vec<String>)> {
        let adt = |ctor: &str, r: &Report| format!("{ctor}({},{})", r.id, r.value);
        match self {
            Action::InMaterial(i) => vec![("In_Material", vec![i.to_string()])],
            Action::Material(i) => vec![("Material", vec![i.to_string()])],
            Action::OutMaterial(i) => vec![("Out_Material", vec![i.to_string()])],
            Action::Reports { pr, mr } => vec![
                ("ProduceReport", vec![adt("ProduceReport", pr)]),
                ("MeasureReport", vec![adt("MeasureReport", mr)]),
            ],
            Action::ProduceReport(r) => vec![("ProduceReport", vec![adt("ProduceReport", r)])],
            Action::MeasureReport(r) => vec![("MeasureReport", vec![adt("MeasureReport", r)])],
            Action::Correction(r) => vec![("Correction", vec![adt("Correction", r)])],
        }
    }

    /// The action's wire line: see [`wire_line`].
    pub fn line(&self) -> String {
        wire_line(&self.parts())
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line())
    }
}

/// The wire line of an action made of `parts` (gate, values): `gate v1 v2`; a multi-action
/// has its parts in gate-name order joined by ` | `:
/// `MeasureReport MeasureReport(0,1) | ProduceReport ProduceReport(0,-1)`. The only place
/// that knows how a multi-action is written.
pub fn wire_line(parts: &[(&str, Vec<String>)]) -> String {
    let mut sorted: Vec<&(&str, Vec<String>)> = parts.iter().collect();
    sorted.sort_by_key(|p| p.0);
    let texts: Vec<String> = sorted
        .iter()
        .map(|(gate, values)| {
            let mut s = gate.to_string();
            for v in values {
                s.push(' ');
                s.push_str(v);
            }
            s
        })
        .collect();
    texts.join(" | ")
}

/// `sgn` of the model.
pub fn sgn(x: i64) -> i64 {
    x.signum()
}

/// Where correct's reports of the current iteration are.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Reports {
    /// Not yet sent.
    Pending,
    /// Sent (the multi-action); the correction's sign must be `sign`.
    Sent { sign: i64 },
    /// The correction is out.
    Corrected,
}

/// produce's state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Produce {
    /// Before the first `In_Material`.
    Start,
    /// In the iteration for material `id`.
    Loop {
        id: i64,
        /// `Material id` happened.
        material: bool,
        /// The next `In_Material`, if it happened.
        next: Option<i64>,
        reports: Reports,
    },
}

/// The system's state: a value, so that the whole LTS can be explored.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ControlLoop {
    mode: ControlLoopMode,
    bounds: Bounds,
    produce: Produce,
    /// measure's material received and not yet passed on (`Out_Material`).
    measuring: Option<i64>,
}

/// One step the system may take: the actions it prints (one, or two in some faulty modes)
/// and the state after them.
pub type Step = (Vec<Action>, ControlLoop);

impl ControlLoop {
    /// The system in its initial state.
    pub fn new(mode: ControlLoopMode, bounds: Bounds) -> ControlLoop {
        ControlLoop {
            mode,
            bounds,
            produce: Produce::Start,
            measuring: None,
        }
    }

    /// The mode.
    pub fn mode(&self) -> ControlLoopMode {
        self.mode
    }

    fn ids(&self) -> impl Iterator<Item = i64> {
        0..=self.bounds.max_id
    }

    fn values(&self) -> impl Iterator<Item = i64> {
        -self.bounds.max_val..=self.bounds.max_val
    }

    /// The values of a correction with sign `sign`.
    fn corrections(&self, sign: i64) -> Vec<i64> {
        if sign == 0 {
            vec![0]
        } else {
            (1..=self.bounds.max_val).map(|k| sign * k).collect()
        }
    }

    /// This state with produce in `p` (restarting produce when its iteration is over).
    fn with(&self, p: Produce) -> ControlLoop {
        let produce = match p {
            Produce::Loop {
                material: true,
                next: Some(n),
                reports: Reports::Corrected,
                ..
            } => Produce::Loop {
                id: n,
                material: false,
                next: None,
                reports: Reports::Pending,
            },
            p => p,
        };
        ControlLoop {
            produce,
            ..self.clone()
        }
    }

    /// Every step the system may take now, grouped by kind (`In_Material` of any id, the
    /// multi-action with any values, ...). Empty when it is silent (only in the faulty mode
    /// `no-correction`).
    pub fn choices(&self) -> Vec<Vec<Step>> {
        use ControlLoopMode as M;
        let mut groups: Vec<Vec<Step>> = Vec::new();
        match self.produce {
            Produce::Start => groups.push(
                self.ids()
                    .map(|i| {
                        let p = Produce::Loop {
                            id: i,
                            material: false,
                            next: None,
                            reports: Reports::Pending,
                        };
                        (vec![Action::InMaterial(i)], self.with(p))
                    })
                    .collect(),
            ),
            Produce::Loop {
                id,
                material: false,
                next,
                reports,
            } => {
                // produce and measure synchronise on Material; measure must be idle
                if self.measuring.is_none() {
                    let mut s = self.with(Produce::Loop {
                        id,
                        material: true,
                        next,
                        reports,
                    });
                    s.measuring = Some(id);
                    let actions = if self.mode == M::EarlyMaterial {
                        s.measuring = None;
                        vec![Action::OutMaterial(id), Action::Material(id)]
                    } else {
                        vec![Action::Material(id)]
                    };
                    groups.push(vec![(actions, s)]);
                }
            }
            Produce::Loop {
                id,
                material: true,
                next,
                reports,
            } => {
                let at = |next, reports| Produce::Loop {
                    id,
                    material: true,
                    next,
                    reports,
                };
                if next.is_none() {
                    groups.push(
                        self.ids()
                            .map(|n| (vec![Action::InMaterial(n)], self.with(at(Some(n), reports))))
                            .collect(),
                    );
                }
                match reports {
                    Reports::Pending => {
                        let mut g = Vec::new();
                        for p in self.values() {
                            for m in self.values() {
                                let pr = Report { id, value: p };
                                let mr = Report { id, value: m };
                                let actions = if self.mode == M::SplitReports {
                                    vec![Action::ProduceReport(pr), Action::MeasureReport(mr)]
                                } else {
                                    vec![Action::Reports { pr, mr }]
                                };
                                let sign = sgn(p - m);
                                g.push((actions, self.with(at(next, Reports::Sent { sign }))));
                            }
                        }
                        groups.push(g);
                    }
                    Reports::Sent { sign } if self.mode != M::NoCorrection => {
                        let (cid, csign) = match self.mode {
                            M::WrongSign => (id, if sign == 0 { 1 } else { -sign }),
                            M::WrongId => ((id + 1) % (self.bounds.max_id + 1), sign),
                            _ => (id, sign),
                        };
                        groups.push(
                            self.corrections(csign)
                                .into_iter()
                                .map(|c| {
                                    let r = Report { id: cid, value: c };
                                    (
                                        vec![Action::Correction(r)],
                                        self.with(at(next, Reports::Corrected)),
                                    )
                                })
                                .collect(),
                        );
                    }
                    Reports::Sent { .. } | Reports::Corrected => {}
                }
            }
        }
        if let Some(i) = self.measuring {
            let mut s = self.clone();
            s.measuring = None;
            groups.push(vec![(vec![Action::OutMaterial(i)], s)]);
        }
        groups
    }

    /// Takes one step chosen by `rng` (a kind of step, then one of its values, each uniformly)
    /// and returns its actions; none when the system is silent.
    pub fn step(&mut self, rng: &mut Rng) -> Vec<Action> {
        let mut groups = self.choices();
        if groups.is_empty() {
            return Vec::new();
        }
        let mut g = groups.swap_remove(rng.below(groups.len()));
        let (actions, next) = g.swap_remove(rng.below(g.len()));
        *self = next;
        actions
    }
}

/// A small deterministic random generator (SplitMix64), seeded by `--seed`.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ControlLoopMode as M;

    /// The model's rules as counts over the trace, written independently of [`ControlLoop`]:
    /// iteration k is the k-th `In_Material` (id `ins[k]`), the k-th `Material`, the k-th
    /// multi-action, the k-th correction and the k-th `Out_Material`.
    #[derive(Clone, Default)]
    struct Monitor {
        ins: Vec<i64>,
        materials: usize,
        outs: usize,
        /// The sign each correction must have, per multi-action.
        signs: Vec<i64>,
        corrections: usize,
    }

    impl Monitor {
        /// Records `a`, or names the rule it breaks.
        fn see(&mut self, a: &Action, b: Bounds) -> Result<(), &'static str> {
            let id_ok = |i: i64| (0..=b.max_id).contains(&i);
            let val_ok = |v: i64| (-b.max_val..=b.max_val).contains(&v);
            match *a {
                Action::InMaterial(i) => {
                    // the first, or the next one after the current iteration's Material
                    if self.ins.len() != self.materials || !id_ok(i) {
                        return Err("In_Material");
                    }
                    self.ins.push(i);
                }
                Action::Material(i) => {
                    let k = self.materials;
                    // produce restarted (next id in, previous correction out) and measure
                    // passed the previous material on
                    if self.ins.len() <= k
                        || self.ins[k] != i
                        || self.corrections != k
                        || self.outs != k
                    {
                        return Err("Material");
                    }
                    self.materials += 1;
                }
                Action::OutMaterial(i) => {
                    let k = self.outs;
                    if k >= self.materials || self.ins[k] != i {
                        return Err("Out_Material");
                    }
                    self.outs += 1;
                }
                Action::Reports { pr, mr } => {
                    let k = self.signs.len();
                    if k >= self.materials || pr.id != self.ins[k] || mr.id != self.ins[k] {
                        return Err("reports");
                    }
                    if !val_ok(pr.value) || !val_ok(mr.value) {
                        return Err("reports");
                    }
                    self.signs.push(sgn(pr.value - mr.value));
                }
                Action::ProduceReport(_) | Action::MeasureReport(_) => {
                    return Err("multi-action");
                }
                Action::Correction(c) => {
                    let k = self.corrections;
                    if k >= self.signs.len() || !val_ok(c.value) {
                        return Err("Correction");
                    }
                    if c.id != self.ins[k] {
                        return Err("Correction id");
                    }
                    if sgn(c.value) != self.signs[k] {
                        return Err("Correction sign");
                    }
                    self.corrections += 1;
                }
            }
            Ok(())
        }
    }

    /// Walks `steps` random steps of `mode` with `seed`: Ok(number of iterations started) if
    /// the monitor accepts every action and the system is never silent, else the broken rule
    /// (`quiescence` when it is silent).
    fn walk(mode: ControlLoopMode, b: Bounds, seed: u64, steps: usize) -> Result<usize, String> {
        let mut m = ControlLoop::new(mode, b);
        let mut rng = Rng::new(seed);
        let mut mon = Monitor::default();
        for n in 0..steps {
            let actions = m.step(&mut rng);
            if actions.is_empty() {
                return Err(format!("quiescence at step {n}"));
            }
            for a in &actions {
                mon.see(a, b).map_err(|r| format!("{r} at step {n}: {a}"))?;
            }
        }
        Ok(mon.ins.len())
    }

    #[test]
    fn the_correct_mode_keeps_the_rules_and_is_never_silent() {
        for b in [Bounds::BOUNDED, Bounds::DEFAULT] {
            for seed in 0..200 {
                let iterations = walk(M::Correct, b, seed, 300).unwrap();
                assert!(iterations > 10, "seed {seed}: {iterations} iterations");
            }
        }
    }

    /// Every step the correct system can take, to depth 7 of the bounded system: no action
    /// breaks a rule, no state is silent.
    #[test]
    fn every_short_trace_of_the_correct_mode_keeps_the_rules() {
        fn all(m: &ControlLoop, mon: &Monitor, depth: usize, seen: &mut usize) {
            let groups = m.choices();
            assert!(!groups.is_empty(), "silent in {m:?}");
            if depth == 0 {
                return;
            }
            for (actions, next) in groups.into_iter().flatten() {
                let mut mon2 = mon.clone();
                for a in &actions {
                    mon2.see(a, Bounds::BOUNDED).unwrap();
                }
                *seen += 1;
                all(&next, &mon2, depth - 1, seen);
            }
        }
        let mut seen = 0;
        all(
            &ControlLoop::new(M::Correct, Bounds::BOUNDED),
            &Monitor::default(),
            7,
            &mut seen,
        );
        assert!(seen > 1000, "{seen}");
    }

    #[test]
    fn every_faulty_mode_breaks_its_rule_in_every_run() {
        let expected = [
            (M::WrongSign, "Correction sign"),
            (M::WrongId, "Correction id"),
            (M::NoCorrection, "quiescence"),
            (M::EarlyMaterial, "Out_Material at step 1"),
            (M::SplitReports, "multi-action"),
        ];
        assert_eq!(expected.len() + 1, ControlLoopMode::ALL.len());
        for (mode, rule) in expected {
            for b in [Bounds::BOUNDED, Bounds::DEFAULT] {
                for seed in 0..100 {
                    let e = walk(mode, b, seed, 40).unwrap_err();
                    assert!(e.starts_with(rule), "{}, seed {seed}: {e}", mode.name());
                }
            }
        }
    }

    #[test]
    fn lines_in_the_wire_format() {
        let r = |id, value| Report { id, value };
        let reports = Action::Reports {
            pr: r(0, -1),
            mr: r(0, 1),
        };
        assert_eq!(
            reports.line(),
            "MeasureReport MeasureReport(0,1) | ProduceReport ProduceReport(0,-1)"
        );
        assert_eq!(Action::InMaterial(3).line(), "In_Material 3");
        assert_eq!(Action::Material(3).to_string(), "Material 3");
        assert_eq!(Action::OutMaterial(0).line(), "Out_Material 0");
        assert_eq!(
            Action::Correction(r(1, -7)).line(),
            "Correction Correction(1,-7)"
        );
        assert_eq!(
            Action::ProduceReport(r(1, 0)).line(),
            "ProduceReport ProduceReport(1,0)"
        );
    }

    #[test]
    fn the_seed_decides_the_run() {
        let run = |seed| {
            let mut m = ControlLoop::new(M::Correct, Bounds::DEFAULT);
            let mut rng = Rng::new(seed);
            (0..50).flat_map(|_| m.step(&mut rng)).collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
        let first = run(7);
        assert!(matches!(first[0], Action::InMaterial(_)));
        assert!(first.iter().any(|a| matches!(a, Action::Reports { .. })));
        assert!(first.iter().any(|a| matches!(a, Action::Correction(_))));
    }
}
