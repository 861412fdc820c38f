//! Symbolic execution and switch-coverage purposes on TAP19's running example (Ex. 13, 17;
//! note §3.7). Their execution (Ex. 18) runs through the one tester:
//! `crates/ioco-examples/tests/switch_coverage.rs`.
mod common;
use common::{int, load};
use ioco_symbolic::seg::{select_purposes, Uncovered};
use ioco_symbolic::solver::SatResult;
use ioco_symbolic::term::{render, SymVar, T};
use ioco_symbolic::{Checker, System, Z3Solver};

fn tap19() -> (System, Checker) {
    let spec = load("tests/models/tap19.ioco", None);
    let defs = spec.defs.clone();
    (
        System::new(spec).unwrap(),
        Checker::new(Box::new(Z3Solver::new(defs))),
    )
}

#[test]
fn ex13_symbolic_successors() {
    let (sys, mut ck) = tap19();
    let s0 = sys.initial_symbolic();
    let moves = sys.moves(&s0.locs);
    // from l0: r0 (inX) and r2 (done); r1 leaves l1
    assert_eq!(moves.len(), 2);
    let defs = sys.spec.defs.clone();
    let r0 = moves.iter().find(|m| m.parts == vec![(0, 0)]).unwrap();
    let r2 = moves.iter().find(|m| m.parts == vec![(0, 2)]).unwrap();
    let (s1, g) = sys.sym_succ(&s0, r0);
    assert_eq!(
        sys.spec.automata[0].locations[s1.locs[0] as usize].name,
        "l1"
    );
    assert_eq!(render(&defs, &s1.vars[0][0]), "(0 + p@0)");
    assert_eq!(render(&defs, &g), "((1 <= p@0) && (p@0 <= 10))");
    assert_eq!(ck.sat(&defs, &s1.pc), SatResult::Sat);
    // r2 at S0: 0 > 15 ∧ True is unsat (decided by folding, no solver call)
    let (_, g2) = sys.sym_succ(&s0, r2);
    assert_eq!(ck.sat(&defs, &g2), SatResult::Unsat);
    // S2b = r0 r1 r2 is unsat with a real solver (P2 draws it dashed)
    let r1 = sys.moves(&s1.locs)[0].clone();
    let (s2, _) = sys.sym_succ(&s1, &r1);
    let (s2b, _) = sys.sym_succ(&s2, r2);
    assert_eq!(ck.sat(&defs, &s2b.pc), SatResult::Unsat);
}

#[test]
fn ex17_bfs_finds_the_executable_purpose() {
    let (sys, mut ck) = tap19();
    let sel = select_purposes(&sys, &mut ck, 8, 10_000);
    assert_eq!(sel.purposes.len(), 1, "{:?}", sel.purposes);
    let p = &sel.purposes[0];
    let names: Vec<u32> = p.path.iter().map(|m| m.parts[0].1).collect();
    assert_eq!(names, vec![0, 1, 0, 1, 2]);
    assert!(!p.doubtful);
    assert_eq!(sel.apriori(), 1.0);
    assert!(sel.uncovered.is_empty());
    // η(S5) has 15 integer solutions; the first input p@0 lies in [6, 10]
    let defs = sys.spec.defs.clone();
    let p0 = SymVar::at("p", 0, ioco_lang::ir::Type::Int);
    let p2 = SymVar::at("p", 2, ioco_lang::ir::Type::Int);
    let mut count = 0;
    for a in -2..=12 {
        for b in -2..=12 {
            let t = T::clone(&p.pc);
            let t = ioco_symbolic::term::Term::subst(&t, &defs, &|v: &SymVar| {
                if *v == p0 {
                    Some(int(a))
                } else if *v == p2 {
                    Some(int(b))
                } else {
                    None
                }
            });
            if ck.sat(&defs, &t) == SatResult::Sat {
                count += 1;
                assert!((6..=10).contains(&a));
            }
        }
    }
    assert_eq!(count, 15);
}

#[test]
fn unreachable_and_unsatisfiable_switches_are_named() {
    let src = "model U {\n  input a(n: int)\n  output b, c\n  var k: int = 0\n  init s\n  location s, t, u\n  s -- a?(n) [n > 0] { k = k + 1 } --> t\n  t -- b! [k > 100] --> s\n  t -- c! [k < 0 && k > 0] --> u\n  t -- b! --> s\n}\n";
    let model = ioco_lang::parse_str("u.ioco", src).unwrap();
    let spec = std::sync::Arc::new(model.entry().unwrap().clone());
    let defs = spec.defs.clone();
    let sys = System::new(spec).unwrap();
    let mut ck = Checker::new(Box::new(Z3Solver::new(defs)));
    let sel = select_purposes(&sys, &mut ck, 6, 10_000);
    assert_eq!(sel.uncovered.len(), 2, "{:?}", sel.uncovered);
    let (_, name, why) = &sel.uncovered[0];
    assert!(name.contains("b! [k > 100]"), "{}", name);
    assert_eq!(*why, Uncovered::Unreached);
    let (_, name, why) = &sel.uncovered[1];
    assert!(name.contains("c!"), "{}", name);
    assert_eq!(*why, Uncovered::Unsatisfiable);
    assert_eq!(sel.apriori(), 0.5);
}
