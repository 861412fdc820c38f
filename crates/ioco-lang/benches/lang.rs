//! Benchmarks (plain timing, `cargo bench -p ioco-lang`):
//! 1. parse + check of a generated 10,000-line model;
//! 2. formatting it;
//! 3. explicit exploration of a composition (states/s);
//! 4. online walking of a 10^6-state composition (steps/s).

use ioco_lang::semantics::{Composed, Semantics};
use std::time::Instant;

fn big_model(lines: usize) -> String {
    let mut s = String::from("type Mode = Idle | Busy | Done\nfn ok(x: int): bool = x >= 0 && x < 1000\n\nmodel Big {\n  input req(x: int[0..9]), reset\n  output ack(y: int[0..9]), err\n  var n: int[0..1000] = 0, m: Mode = Idle\n  init l0\n");
    let mut i = 0;
    while s.lines().count() < lines - 1 {
        let a = i % 1000;
        let b = (i * 7 + 1) % 1000;
        s.push_str(&match i % 4 {
            0 => format!("  l{a} -- req?(x) [ok(n + x) && n + x < 1000 && m != Done] {{ n = n + x, m = Busy }} --> l{b}\n"),
            1 => format!("  l{a} -- ack!(y) [y == n % 10] --> l{b} // answer\n"),
            2 => format!("  l{a} -- reset? {{ n = 0, m = Idle }} --> l{b}\n"),
            _ => format!("  l{a} -- tau [if m is Busy then n > 5 else false] {{ m = Done }} --> l{b}\n"),
        });
        i += 1;
    }
    s.push_str("}\n");
    s
}

fn counters(n: usize) -> String {
    let mut src = String::from("model Counter {\n  input inc\n  output wrap\n  var c: int[0..9] = 0\n  init s\n  s -- inc? [c < 9] { c = c + 1 } --> s\n  s -- wrap! [c == 9] { c = 0 } --> s\n}\nsystem Many {\n");
    for i in 0..n {
        src.push_str(if i == 0 { "  " } else { "  ||| " });
        src.push_str(&format!("Counter[inc -> inc{i}, wrap -> wrap{i}]\n"));
    }
    src.push_str("}\n");
    src
}

fn main() {
    let src = big_model(10_000);
    let lines = src.lines().count();
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        let m = ioco_lang::parse_str("big.ioco", &src).expect("big model checks");
        let dt = t.elapsed().as_secs_f64();
        assert_eq!(m.entry().unwrap().automata[0].switches.len(), lines - 9);
        best = best.min(dt);
    }
    println!(
        "parse+check {lines} lines ({} KiB): {:.1} ms (best of 5)",
        src.len() / 1024,
        best * 1e3
    );
    let t = Instant::now();
    let out = ioco_lang::format(&src).unwrap();
    println!(
        "format {lines} lines: {:.1} ms ({} bytes out)",
        t.elapsed().as_secs_f64() * 1e3,
        out.len()
    );

    for n in [4usize, 5] {
        let m = ioco_lang::parse_str("many.ioco", &counters(n)).unwrap();
        let t = Instant::now();
        let lts = ioco_lang::translate::to_lts(
            m.spec("Many").unwrap(),
            &ioco_lang::translate::Options {
                state_names: false,
                ..Default::default()
            },
        )
        .unwrap();
        let dt = t.elapsed().as_secs_f64();
        println!(
            "explore {n} interleaved counters: {} states, {} transitions in {:.1} ms = {:.0} states/s",
            lts.num_states(),
            lts.num_transitions(),
            dt * 1e3,
            lts.num_states() as f64 / dt
        );
    }

    let m = ioco_lang::parse_str("many.ioco", &counters(6)).unwrap();
    let sem = Composed::new(m.spec("Many").unwrap(), 1000);
    let mut s = sem.initial().remove(0);
    let mut seed: u64 = 7;
    let steps = 200_000;
    let t = Instant::now();
    for _ in 0..steps {
        let succ = sem.successors(&s).unwrap();
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s = succ[(seed >> 33) as usize % succ.len()].1.clone();
    }
    let dt = t.elapsed().as_secs_f64();
    println!(
        "online walk on 10^6-state composition: {steps} steps in {:.1} ms = {:.0} steps/s",
        dt * 1e3,
        steps as f64 / dt
    );
}
