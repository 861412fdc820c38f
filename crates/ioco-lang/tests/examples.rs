//! Every `.ioco` example of the repository: it parses, type-checks, and (when finite)
//! translates to an LTS whose size was computed by hand from the model (see the comments).

use ioco_lang::ir::Spec;
use ioco_lang::translate::{to_lts, Options};
use ioco_lang::{parse_file, Model};
use ioco_model::{compare, Alphabet, CompareOptions, InputCompletion, LabelKind, Lts, LtsBuilder};
use std::path::PathBuf;

fn example(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(rel)
}

fn load(rel: &str) -> Model {
    match parse_file(example(rel)) {
        Ok(m) => {
            assert!(
                m.warnings().is_empty(),
                "{}",
                ioco_lang::render_plain(m.warnings())
            );
            m
        }
        Err(d) => panic!("{}", ioco_lang::render_plain(&d)),
    }
}

fn spec<'a>(m: &'a Model, name: &str) -> &'a Spec {
    m.spec(name).unwrap_or_else(|| panic!("no spec {}", name))
}

fn size(m: &Model, name: &str) -> (usize, usize) {
    let lts = to_lts(spec(m, name), &Options::default()).unwrap();
    (lts.num_states(), lts.num_transitions())
}

/// Minimal reader of the Aldebaran format (`des (init, ntrans, nstates)` then `(s, "l", t)`).
fn read_aut(text: &str) -> Lts {
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let nums: Vec<usize> = header
        .trim_start_matches("des")
        .trim()
        .trim_matches(|c| c == '(' || c == ')')
        .split(',')
        .map(|x| x.trim().parse().unwrap())
        .collect();
    let mut b = LtsBuilder::new(Alphabet::new());
    b.add_states(nums[2]);
    b.add_initial(nums[0] as u32);
    for l in lines.filter(|l| !l.trim().is_empty()) {
        let inner = l.trim().trim_start_matches('(').trim_end_matches(')');
        let first = inner.find(',').unwrap();
        let last = inner.rfind(',').unwrap();
        let s: u32 = inner[..first].trim().parse().unwrap();
        let t: u32 = inner[last + 1..].trim().parse().unwrap();
        let label = inner[first + 1..last].trim().trim_matches('"');
        let (name, kind) = if let Some(n) = label.strip_suffix('?') {
            (n, LabelKind::Input)
        } else if let Some(n) = label.strip_suffix('!') {
            (n, LabelKind::Output)
        } else {
            (label, LabelKind::Internal)
        };
        b.add(s, name, kind, t).unwrap();
    }
    b.build().unwrap()
}

#[test]
fn coffee_lts_matches_the_aut_file_both_ways() {
    let m = load("coffee/coffee.ioco");
    let lts = to_lts(m.entry().unwrap(), &Options::default()).unwrap();
    assert_eq!((lts.num_states(), lts.num_transitions()), (6, 9));
    let aut_path = example("coffee/coffee.aut");
    let aut = read_aut(&std::fs::read_to_string(aut_path).unwrap());
    let opts = CompareOptions {
        completion: InputCompletion::Angelic,
        ..CompareOptions::default()
    };
    assert!(compare(&lts, &aut, &opts).unwrap().conforms());
    assert!(compare(&aut, &lts, &opts).unwrap().conforms());
    let mut names: Vec<String> = lts.states().map(|s| lts.state_name(s)).collect();
    names.sort();
    assert_eq!(names, ["e0", "e1", "s0", "s1", "s2", "s3"]);
}

#[test]
fn coffee_sts_is_symbolic_and_its_finite_variant_translates() {
    let m = load("coffee/coffee-sts.ioco");
    let sts = spec(&m, "CoffeeMachine");
    let a = sts.as_single().unwrap();
    assert_eq!(a.switches.len(), 6);
    assert_eq!(a.vars.len(), 1);
    assert_eq!(a.timeout, Some(std::time::Duration::from_millis(500)));
    let brewing = a.locations.iter().find(|l| l.name == "brewing").unwrap();
    assert_eq!(brewing.timeout, Some(std::time::Duration::from_secs(2)));
    let err = to_lts(sts, &Options::default()).unwrap_err();
    assert!(
        err.message.contains("`int` has infinitely many values"),
        "{}",
        err.message
    );
    // CoffeeSmall: idle{0,50,100}, filled{150,200}, ready x2, brewing x2 = 9 states;
    // 3x2 water + 2 pad + 2 button + 2 coffee = 12 transitions.
    assert_eq!(size(&m, "CoffeeSmall"), (9, 12));
    let lts = to_lts(spec(&m, "CoffeeSmall"), &Options::default()).unwrap();
    let names: Vec<String> = lts
        .transitions()
        .map(|(_, l, _)| lts.alphabet().display(l))
        .collect();
    assert!(names.contains(&"coffee(200)!".to_string()), "{:?}", names);
    assert!(names.contains(&"water(2)?".to_string()));
}

#[test]
fn music_player_of_the_tutorial() {
    let m = load("music/music.ioco");
    assert_eq!(size(&m, "MusicPlayer"), (4, 7));
    // data version: stopped/choosing/playing x current in {A,B} = 6 states; 2+4+4 transitions
    assert_eq!(m.entry().unwrap().name, "MusicPlayerData");
    assert_eq!(size(&m, "MusicPlayerData"), (6, 10));
    let lts = to_lts(spec(&m, "MusicPlayerData"), &Options::default()).unwrap();
    assert!(lts.alphabet().lookup("play(A)").is_some());
    assert!(lts.alphabet().lookup("play(B)").is_some());
}

#[test]
fn queue_with_recursive_list_type() {
    let m = load("queue/queue.ioco");
    assert!(to_lts(spec(&m, "Queue"), &Options::default()).is_err());
    assert!(to_lts(spec(&m, "LossyQueue"), &Options::default()).is_err());
    // BoundedQueue: s0 with 0..2 bits queued (1+2+4 = 7), s1 with 1..2 bits (2+4 = 6) = 13;
    // Enq 2x(1+2) = 6, Deq 7, Value 6 = 19 transitions.
    assert_eq!(size(&m, "BoundedQueue"), (13, 19));
}

#[test]
fn torxakis_echo() {
    let m = load("torxakis/echo.ioco");
    assert!(to_lts(spec(&m, "Echo"), &Options::default()).is_err());
    // idle and echoing for each of 10 digits = 20 states; 10x10 inputs + 10 outputs
    assert_eq!(size(&m, "EchoDigits"), (20, 110));
}

#[test]
fn torxakis_stimulus_response() {
    let m = load("torxakis/stimulus-response.ioco");
    assert_eq!(size(&m, "StimulusResponse"), (3, 2));
    assert_eq!(size(&m, "StimulusResponseLoop"), (2, 2));
}

#[test]
fn torxakis_adder() {
    let m = load("torxakis/adder.ioco");
    let a = spec(&m, "Adder");
    assert!(to_lts(a, &Options::default()).is_err());
    assert_eq!(spec(&m, "Adder3").automata.len(), 3);
    assert_eq!(spec(&m, "Adder3").gates.len(), 6);
    // SmallAdder: idle and calc for each result -3..6 = 20 states; 10x32 + 10 = 330
    assert_eq!(size(&m, "SmallAdder"), (20, 330));
    // two interleaved: 20x20 states, 2 x 330 x 20 transitions
    assert_eq!(size(&m, "SmallAdder2"), (400, 13_200));
}

#[test]
fn torxakis_moving_arms() {
    let m = load("torxakis/moving-arms.ioco");
    // one axis: 9 locations, 16 switches; three interleaved: 9^3 states, 3 x 16 x 81
    assert_eq!(size(&m, "Axis"), (9, 16));
    assert_eq!(size(&m, "MovingArms"), (729, 3_888));
    let lts = to_lts(spec(&m, "MovingArms"), &Options::default()).unwrap();
    assert_eq!(lts.alphabet().inputs().count(), 9);
    assert_eq!(lts.alphabet().outputs().count(), 9);
}

#[test]
fn torxakis_choice_and_sequence() {
    let m = load("torxakis/choice.ioco");
    assert_eq!(size(&m, "ForeverChoice"), (1, 2));
    let m = load("torxakis/sequence.ioco");
    assert_eq!(size(&m, "ForeverAct"), (1, 1));
    assert_eq!(size(&m, "ForeverActIStep"), (3, 3));
    assert_eq!(size(&m, "ForeverOutput4"), (1, 1));
    let lts = to_lts(spec(&m, "ForeverOutput4"), &Options::default()).unwrap();
    assert!(lts.alphabet().lookup("MyIntChan(4)").is_some());
    assert_eq!(size(&m, "ForeverAlternate"), (2, 2));
    assert!(to_lts(spec(&m, "Sequence10Ints"), &Options::default()).is_err());
    assert_eq!(
        spec(&m, "Sequence10IntsTypeDef").automata[0].switches[0]
            .params
            .len(),
        1
    );
}

#[test]
fn torxakis_parallel() {
    let m = load("torxakis/parallel.ioco");
    // four identical self-loops give one transition (an LTS is a set of transitions)
    assert_eq!(size(&m, "Parallel4"), (1, 1));
    // 3^4 states; per state: one move per component not in s2, plus one act! self-loop if any
    // is in s2: 4 x 81 x 2/3 + (81 - 16) = 281
    assert_eq!(size(&m, "ParallelIStep4"), (81, 281));
    assert_eq!(size(&m, "ParallelAlternate4"), (16, 64));
    assert_eq!(size(&m, "ParallelMultiAct4"), (1, 4));
    assert_eq!(size(&m, "ParallelData6"), (1, 6));
    assert_eq!(size(&m, "ParallelNested"), (1, 4));
}

#[test]
fn torxakis_synchronization() {
    let m = load("torxakis/synchronization.ioco");
    assert_eq!(size(&m, "ForeverSynchronized3"), (1, 1));
    // act! to (s1,s1,s1), then the 8 combinations of s1/s2 via 12 tau steps, act! at (s2,s2,s2)
    assert_eq!(size(&m, "ForeverSynchronizedIStep3"), (9, 14));
    assert_eq!(size(&m, "ForeverSyncAlt2"), (2, 2));
    assert_eq!(size(&m, "SyncAlternate6"), (2, 2));
    assert_eq!(size(&m, "ManyActsSyncTop"), (1, 9));
    assert_eq!(size(&m, "ManySyncPairs"), (1, 9));
}

#[test]
fn torxakis_hiding() {
    let m = load("torxakis/hiding.ioco");
    // tau to all-in-s1, then each component's act independently: 2^4 states, 1 + 4 x 8 edges
    for name in ["Alternate4Hide1Act", "HideFirstSFA", "HideSecondSFA"] {
        assert_eq!(size(&m, name), (16, 33), "{}", name);
    }
    let lts = to_lts(spec(&m, "HideSecondSFA"), &Options::default()).unwrap();
    assert_eq!(lts.num_tau(), 32);
}

#[test]
fn every_ioco_file_under_examples_loads() {
    let mut n = 0;
    let mut stack = vec![example("")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "ioco") {
                n += 1;
                if let Err(d) = parse_file(&p) {
                    panic!("{}: {}", p.display(), ioco_lang::render_plain(&d));
                }
            }
        }
    }
    assert!(n >= 12, "only {} example files", n);
}
