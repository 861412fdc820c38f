//! Learn a DOT Mealy machine in process and print the costs (for benchmarks):
//! `cargo run --release -p ioco-learn --example learn_dot -- FILE.dot [auto|hads|h|wp|w|hsi|none] [k] [random words] [seed] [after %] [least states for the words before]`.

use ioco_learn::{compare, learn_with, Options, Oracle, System};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = args.first().expect("a DOT file");
    let m = match ioco_formats::load(std::path::Path::new(file)).expect("a model") {
        ioco_formats::Model::Mealy(m) => m,
        _ => panic!("not a Mealy machine"),
    };
    let name = args.get(1).map(String::as_str).unwrap_or("auto");
    let method = match name {
        "none" => None,
        "auto" => Oracle::default().method,
        s => Some(s.parse().expect("a method")),
    };
    let k = args.get(2).map_or(1, |s| s.parse().expect("k"));
    let random_words = args.get(3).map_or(0, |s| s.parse().expect("random words"));
    let seed = args.get(4).map_or(0, |s| s.parse().expect("seed"));
    let after = args
        .get(5)
        .map_or(ioco_learn::equivalence::DEFAULT_AFTER_PERCENT, |s| {
            s.parse()
                .expect("random words after the suite, % of the symbols")
        });
    let opts = Options {
        oracle: Oracle {
            method,
            extra_states: k,
            random_words,
            seed,
            random_after_percent: after,
            random_before_min_states: args.get(6).map_or(
                ioco_learn::equivalence::DEFAULT_BEFORE_MIN_STATES,
                |s| {
                    s.parse()
                        .expect("least states for the words before the suite")
                },
            ),
            cheapest: name == "auto",
        },
        ..Options::default()
    };
    let t = std::time::Instant::now();
    let system = System::mealy(m.clone(), &m.inputs).expect("the machine's inputs");
    let (l, _) = learn_with(system, &opts, &mut |e| {
        if std::env::var_os("LEARN_LOG").is_some() {
            eprintln!("{e:?}");
        }
    })
    .expect("learned");
    let ok = compare::difference(&m, &l.machine).is_none();
    println!(
        "{{\"file\":{:?},\"states\":{},\"equivalent\":{},\"resets\":{},\"symbols\":{},\"test_symbols\":{},\"queries\":{},\"hypotheses\":{},\"ms\":{}}}",
        file,
        l.machine.num_states(),
        ok,
        l.stats.resets,
        l.stats.symbols,
        l.stats.test_symbols,
        l.stats.queries,
        l.stats.hypotheses,
        t.elapsed().as_millis()
    );
}
