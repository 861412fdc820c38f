//! The BRP sender (examples/brp/brp.ioco, the `brp-sut` of ioco-examples) under switch coverage: full a priori coverage, no
//! Fail for the correct sender, the shallow mutants killed in the first round.
mod common;
use common::brp_sut::brp_sut;
use common::load;
use ioco_symbolic::pick::Picker;
use ioco_symbolic::seg::{run_switch_coverage, CoverageOptions};
use ioco_symbolic::{Checker, System, Z3Solver};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[test]
fn brp_switch_coverage() {
    let spec = load("../../examples/brp/brp.ioco", None);
    let sys = System::new(spec.clone()).unwrap();
    let mut ck = Checker::new(Box::new(Z3Solver::new(spec.defs.clone())));
    let opts = CoverageOptions {
        depth: 20,
        ..Default::default()
    };
    for seed in 0..3 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let rep = run_switch_coverage(
            &sys,
            &mut ck,
            &mut Picker::default(),
            &mut brp_sut(0),
            &opts,
            &mut rng,
        );
        assert!(rep.fail.is_none(), "{}", rep);
        assert_eq!(rep.selection.apriori(), 1.0, "{}", rep);
        assert_eq!(rep.aposteriori(), 1.0, "{}", rep);
        for m in [1, 3, 4, 5] {
            let rep = run_switch_coverage(
                &sys,
                &mut ck,
                &mut Picker::default(),
                &mut brp_sut(m),
                &opts,
                &mut rng,
            );
            assert!(rep.fail.is_some(), "mutant {} survived: {}", m, rep);
        }
    }
}
