//! The engine over an LTS: the [`Specification`] of its lazy suspension automaton (tutorial
//! Def. 4.10/6.2, via [`Tester`]) and the [`Selection`] of the strategies of `ioco-gen`
//! (uniform, weighted, coverage-guided).

use crate::options::OnlineOptions;
use crate::result::Failure;
use crate::select::{Choice, Event, Selection, Stop};
use crate::spec::{Quiet, Refusal, Specification};
use crate::tester::Tester;
use ioco_gen::strategy::{self, Coin, Situation, Strategy, Uniform};
use ioco_model::Label;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// An LTS specification as the tester tracks it: the [`Tester`] of a worker (its suspension
/// automaton, coverage and trace) with the quiescence time-outs of `opts`.
pub struct Explicit<'t, 'a> {
    /// The tester.
    pub tester: &'t mut Tester<'a>,
    /// The options (time-outs).
    pub opts: &'t OnlineOptions,
}

impl Specification for Explicit<'_, '_> {
    type Action = Label;

    fn start(&mut self) -> Result<(), String> {
        self.tester.start();
        Ok(())
    }

    fn enables(&mut self, input: &Label) -> bool {
        self.tester.inputs().contains(input)
    }

    #[inline(always)]
    fn give(&mut self, input: &Label) -> Result<(), Refusal> {
        let ok = self.tester.input(*input);
        debug_assert!(ok, "selections propose enabled inputs only");
        Ok(())
    }

    #[inline(always)]
    fn observe(&mut self, output: Option<&Label>) -> Result<(), Refusal> {
        self.tester
            .observe(output.copied().unwrap_or(Label::DELTA))
            .map_err(Refusal::Fail)
    }

    fn garbage(&mut self, line: &str) -> Failure {
        self.tester.garbage_line(line)
    }

    fn quiet(&mut self) -> Quiet {
        if self.tester.quiescence_allowed() {
            Quiet::Allowed
        } else {
            Quiet::Refused
        }
    }

    fn an_input(&mut self, _rng: &mut ChaCha8Rng) -> Option<String> {
        let inputs = self.tester.inputs();
        let a = self.tester.alphabet();
        let names: Vec<String> = inputs.iter().map(|&l| a.display(l)).collect();
        (!names.is_empty()).then(|| names.join(", "))
    }

    fn allowed(&mut self) -> Vec<String> {
        self.tester.allowed()
    }

    fn wrote_output(&self) -> bool {
        let a = self.tester.alphabet();
        self.tester.trace.iter().any(|&l| a.is_output(Label(l)))
    }

    fn trace_text(&self) -> String {
        self.tester.trace_text()
    }

    #[inline(always)]
    fn timeout(&mut self) -> Option<Duration> {
        Some(self.tester.quiescence_timeout(self.opts))
    }

    #[inline(always)]
    fn only_quiescence(&mut self) -> bool {
        self.tester.only_quiescence()
    }
}

/// A strategy of `ioco-gen` as the selection.
///
/// It never observes right after quiescence (tutorial Def. 6.4: δ after δ tells nothing and costs
/// a time-out on a real system): then it gives an input, or stops when there is none.
///
/// The seam costs nothing where it need not: a uniform strategy needs only the enabled inputs
/// ([`Uniform::pick`]), so for it (under ioco, where every enabled input may be given) no
/// [`Situation`] is built and no call goes through `dyn Strategy`: the same draws, so the
/// same runs. The relation is fixed per selection, so that is decided once, in
/// [`Strategic::new`].
pub struct Strategic<'s> {
    strategy: &'s mut dyn Strategy,
    uses_coverage: bool,
    /// The coin of a uniform strategy (see above).
    uniform: Option<Coin>,
    /// The last observation was δ.
    quiet: bool,
}

impl<'s> Strategic<'s> {
    /// Select with `strategy`, testing for `relation`.
    pub fn new(strategy: &'s mut dyn Strategy, relation: ioco_model::Relation) -> Strategic<'s> {
        let uses_coverage = strategy.uses_coverage();
        // under uioco the inputs are filtered first: the strategy then needs its situation
        let uniform = match relation {
            ioco_model::Relation::Ioco => strategy.as_uniform().map(|u| u.coin()),
            ioco_model::Relation::Uioco => None,
        };
        Strategic {
            strategy,
            uses_coverage,
            uniform,
            quiet: false,
        }
    }

    /// The choice of the tester from the strategy's: after δ, an input instead of observing
    /// (or stop where there is none).
    #[inline(always)]
    fn answer(&self, c: strategy::Choice, inputs: &[Label], rng: &mut ChaCha8Rng) -> Choice<Label> {
        match c {
            strategy::Choice::Stop => Choice::Stop(Stop::Pass(None)),
            strategy::Choice::Observe if self.quiet => match inputs.len() {
                0 => Choice::Stop(Stop::Pass(Some(
                    "quiescent, and the specification offers no input: nothing more to see".into(),
                ))),
                n => Choice::Give(inputs[strategy::uniform::index(rng, n)]),
            },
            strategy::Choice::Observe => Choice::Observe,
            strategy::Choice::Stimulate(a) => Choice::Give(a),
        }
    }
}

impl Selection<Explicit<'_, '_>> for Strategic<'_> {
    fn start(&mut self) {
        self.quiet = false;
    }

    #[inline]
    fn after(&mut self, _: &mut Explicit<'_, '_>, event: Event<'_, Label>) -> Option<Stop> {
        self.quiet = matches!(event, Event::Quiescence);
        None
    }

    #[inline(always)]
    fn choose(
        &mut self,
        spec: &mut Explicit<'_, '_>,
        steps: usize,
        rng: &mut ChaCha8Rng,
    ) -> Choice<Label> {
        let t = &mut *spec.tester;
        if let Some(coin) = &self.uniform {
            let inputs = t.io_now().0;
            return self.answer(Uniform::pick(coin, inputs, rng), inputs, rng);
        }
        if self.uses_coverage {
            t.flush();
        }
        let (inputs, outputs) = t.io_now();
        let utrace_inputs: Vec<Label>;
        let inputs = match spec.opts.relation {
            ioco_model::Relation::Ioco => inputs,
            ioco_model::Relation::Uioco => {
                let (lts, set) = (t.sus.lts(), t.sus.set(t.q));
                utrace_inputs = inputs
                    .iter()
                    .copied()
                    .filter(|&a| !ioco_model::uioco::underspecified(lts, set, a))
                    .collect();
                &utrace_inputs
            }
        };
        let situation = Situation {
            lts: t.sus.lts(),
            set: t.sus.set(t.q),
            inputs,
            outputs,
            depth: steps,
            coverage: &t.coverage,
        };
        let c = self.strategy.choose(&situation, rng);
        self.answer(c, situation.inputs, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ioco_model::{Alphabet, LabelKind, LtsBuilder, QuiescencePolicy};

    /// `0 -coin?-> 1 -coffee!-> 0`, and `0 -tea?-> 2` where tea! or nothing may follow: every
    /// observation waits the whole quiescence time-out, where only δ is allowed too (a late
    /// output there is a Fail, not a δ).
    #[test]
    fn every_observation_waits_the_whole_time_out() {
        let mut b = LtsBuilder::new(Alphabet::new());
        b.add_states(4);
        b.add_initial(0);
        b.add(0, "coin", LabelKind::Input, 1).unwrap();
        b.add(1, "coffee", LabelKind::Output, 0).unwrap();
        b.add(0, "tea", LabelKind::Input, 2).unwrap();
        b.add(2, "teaout", LabelKind::Output, 0).unwrap();
        b.add(2, "tau", LabelKind::Internal, 3).unwrap();
        let spec = b.build().unwrap();
        let a = spec.alphabet();
        let long = Duration::from_secs(3);
        let opts = OnlineOptions {
            quiescence_timeout: long,
            ..Default::default()
        };
        let mut tester = Tester::new(&spec, QuiescencePolicy::Stable);
        let mut s = Explicit {
            tester: &mut tester,
            opts: &opts,
        };
        s.start().unwrap();
        // idle: only δ is allowed, and δ is concluded only after the whole time-out
        assert_eq!(s.timeout(), Some(long));
        // coffee! required
        s.give(&a.lookup("coin").unwrap()).unwrap();
        assert_eq!(s.timeout(), Some(long));
        s.observe(Some(&a.lookup("coffee").unwrap())).unwrap();
        assert_eq!(s.timeout(), Some(long));
        // tea! or δ
        s.give(&a.lookup("tea").unwrap()).unwrap();
        assert_eq!(s.timeout(), Some(long));
    }
}
