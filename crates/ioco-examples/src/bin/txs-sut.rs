//! `txs-sut`: systems under test for TorXakis's examples, speaking the protocols of their
//! `.txs` `CNECTDEF`s, so that `ioco test Example.txs` runs against them as TorXakis would.
//! Written from the models and their `CNECTDEF`s (not from TorXakis's SUTs).
//!
//! Every example listens on `127.0.0.1` on the ports of its `CLIENTSOCK` `CNECTDEF` (the
//! tester connects) and serves sessions: one connection on each port, from the initial state,
//! until a connection closes; then it waits for the next session (a tester resets by
//! reconnecting). With `--once` it exits after the first session; otherwise it exits when its
//! standard input closes (so run it with a pipe or a terminal as stdin, or use `--once`).
//! Each message is one line; values are TorXakis's text (`toString`/`fromString`: `42`, `-7`,
//! `True`, `Plus(4,7)`, strings as `"..."` inside constructors).
//!
//! Ports: `--port P` sets the port of a one-port example (`--port 0`: any free port, for every
//! port of a many-port example); `--ports 7890=41234,...` maps `.txs` ports as the tester's
//! port map does. It prints `listening on 127.0.0.1:NNNN` for each port, in the order listed
//! below, before it accepts.
//!
//! Modes (`--mode`): `correct` conforms to the model; `wrong` gives a wrong output value;
//! `missing` leaves out an output the model requires; `extra` gives an output the model does
//! not allow there. Which ones each example has, and what they do:
//!
//! * `echo` (`examps/Echo/Echo.txs`, port 9999): `In ? x` arrives as the line `toString(x)`
//!   (`-12`); the SUT answers `Out ! x` as the same number. wrong: answers x+1; missing: no
//!   answer to the 3rd input; extra: answers the 2nd input twice.
//! * `echo-xml` (`Echo.txs` `Xut`, port 9999): the same in TorXakis's XML (`toXml`,
//!   `fromXml`): `<TorXakisMsg>-12</TorXakisMsg>` both ways; the same modes.
//! * `adder` (`examps/Adder/Adder.txs` `SutConnection`, port 7890): `Action ? opn` arrives as
//!   `Plus(4,7)` or `Minus(4,7)`; `Result` is the line `11` (or `-3`). wrong: `Minus(a,b)`
//!   gives b-a; missing: no result for the 3rd operation; extra: the 2nd result twice.
//! * `adder3` (`Adder.txs` `Sut3`, ports 7891, 7892, 7893): three independent adders,
//!   `ActionK`/`ResultK` on port 789K; the modes count operations over all three.
//! * `queue` (`examps/Queue/Queue.txs`, port 7890): `In ? qop` arrives as `Enq(5)`, `Deq` or
//!   `Error`; a `Deq` on a non-empty queue answers `Out` with the head (`5`), on an empty one
//!   nothing. wrong: last in, first out; missing: the 2nd enqueued value is lost; extra: a
//!   `Deq` on the empty queue answers `0`.
//! * `stimulus-response` (`examps/StimulusResponse/*.txs`, port 7890): `Stimulus` arrives as
//!   an empty line (`ENCODE Stimulus -> ! ""`); any line back is `Response` (the SUT writes
//!   `response`). missing: no response; extra: two responses; once: only the first stimulus
//!   of a session is answered (TorXakis's `StimulusResponse` SUT, which the loop model fails).
//! * `point` (`examps/Point/Point.txs`, port 9999): `In ? p` arrives as `Point(3,-4)`; the
//!   answer `Out ? p2` must be a valid point (no zero coordinate) on the same row or column:
//!   the SUT answers `Point(x,-y)`. wrong: `Point(x+1,y+1)` (neither row nor column); missing:
//!   no answer to the 2nd point; extra: the 2nd answer twice.
//! * `lucky-people` (`examps/LuckyPeople/spec/LuckyPeople.txs`, port 7777): `In ? p` arrives
//!   as `sex@firstName@lastName@day@month` (`Female@Ann@Smith@3@4`, separator `@`); the answer
//!   `Out` is `True` or `False`: lucky by gender (the sex differs from the previous person's
//!   and the previous sex came 5 or more times in a row; initially Male, 0 times), by name
//!   (same first letter) or by birthday (day = month). wrong: never lucky by gender; missing:
//!   no answer for a person lucky by name.
//! * `lucky-people-xml` (`LuckyPeople.txs` `Xut`, port 7777): the same in TorXakis's XML:
//!   `<TorXakisMsg><Person><sex><Female></Female></sex><firstName>Ann</firstName>...`
//!   in, `<TorXakisMsg>true</TorXakisMsg>` out.
//! * `dispatch-process` (`examps/DispatchProcess/spec/DisPro10-data.txs`, port 7890):
//!   `Job ? jd` arrives as `JobData(id,"description",x,y)`; `Finish` is
//!   `JobOut(id,processor,gcd(x,y))` with processor 1..4 (the SUT always uses 1). wrong: the
//!   smaller of x and y instead of their gcd; missing: no answer to the 2nd job; extra: the
//!   2nd answer twice.
//! * `dispatch-robust` (`DisPro11-robust.txs`, port 7890): the same, and a job that is not
//!   valid (`isValidJob`: an even positive id, a description matching `[A-Z][0-9]{2}[a-z]+`,
//!   positive x and y with |x-y| < 100·min(x,y)) is answered `Error("Non-Valid Input Data")`.
//!   wrong and extra as above; missing: no answer to an invalid job.
//! * `customers-orders` (`examps/CustomersOrders/CustomersOrders.txs`, ports 7890 `Customer`,
//!   7891 `Order`, 7892 `Report`; TorXakis's XML, `toXml`/`fromXml`): at the start of a session
//!   and after each new customer (a `customerID` not seen yet) and each order of a known
//!   customer it writes `Report(customers, orders)` on 7892, both lists newest first
//!   (`Cstr_Customer(head, tail)` ... `Nil_Customer`), the elements as they came in. wrong:
//!   the customers oldest first; missing: no report after an order; extra: the first report
//!   twice.
//! * `moving-arm` (`examps/MovingArms/MovingArm.txs`, ports 9901 `Up`, 9902 `Down`, 9903
//!   `Stop` (read: `up`, `down`, `stop`), 9904 `Stopped`, 9905 `Min`, 9906 `Max` (written:
//!   `stopped`, `min`, `max`)): an arm that moves for `--travel-ms` (default 100) to its top
//!   (then writes `max`) or bottom (`min`); `stop` while it moves stops it (`stopped`); `up`
//!   at the top and `down` at the bottom are ignored. wrong: it writes `min` on arriving at
//!   the top; missing: no `stopped`.
//! * `moving-arms` (`examps/MovingArms/MovingArms.txs`): three such arms X, Y, Z; per arm the
//!   ports up, down, stop, stopped, min, max are X: 9901, 9902, 9903, 9926, 9904, 9905;
//!   Y: 9911, 9912, 9913, 9927, 9914, 9915; Z: 9921, 9922, 9923, 9928, 9924, 9925 (in this
//!   order); messages carry the arm's letter (`upX`, `maxX`).

use clap::Parser;
use ioco_examples::txs;
use std::io::Read;
use std::time::Duration;

/// TorXakis's example systems under test over their `.txs` socket protocols (each protocol and
/// mode is described at the top of crates/ioco-examples/src/bin/txs-sut.rs).
#[derive(Parser, Debug)]
#[command(name = "txs-sut", version)]
struct Args {
    /// The example: echo, echo-xml, adder, adder3, queue, stimulus-response, point, lucky-people,
    /// lucky-people-xml, dispatch-process, dispatch-robust, customers-orders, moving-arm,
    /// moving-arms.
    example: String,
    /// correct, or a faulty mode: wrong (a wrong value), missing (a missing output), extra (an
    /// output too many); not every example has every mode.
    #[arg(long, default_value = "correct")]
    mode: String,
    /// The port of a one-port example (0: any free port, also for many-port examples).
    #[arg(long)]
    port: Option<u16>,
    /// Port map, `.txs` port = port used: `7890=41234,7891=41235`.
    #[arg(long)]
    ports: Option<String>,
    /// Serve one session, then exit (instead of exiting when stdin closes).
    #[arg(long)]
    once: bool,
    /// How long a moving arm takes to reach its end, in milliseconds.
    #[arg(long, default_value_t = 100)]
    travel_ms: u64,
}

fn fail(msg: String) -> ! {
    eprintln!("txs-sut: {msg}");
    std::process::exit(2);
}

fn main() {
    let args = Args::parse();
    let mut ex = txs::example(
        &args.example,
        &args.mode,
        Duration::from_millis(args.travel_ms),
    )
    .unwrap_or_else(|e| fail(e));
    let ports = ex.ports();
    let mut map: Vec<(u16, u16)> = Vec::new();
    if let Some(text) = &args.ports {
        for entry in text.split([',', ' ']).filter(|e| !e.is_empty()) {
            let pair = entry
                .split_once('=')
                .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
            match pair {
                Some(p) => map.push(p),
                None => fail(format!("`{entry}` is not TXSPORT=PORT")),
            }
        }
    }
    match args.port {
        Some(0) => map.extend(ports.iter().map(|p| (*p, 0))),
        Some(p) if ports.len() == 1 => map.push((ports[0], p)),
        Some(_) => fail(format!(
            "`{}` has {} ports: map them with --ports (or use --port 0)",
            args.example,
            ports.len()
        )),
        None => {}
    }
    let listeners = txs::bind(&ports, &map).unwrap_or_else(|e| fail(format!("cannot listen: {e}")));
    for l in &listeners {
        match l.local_addr() {
            Ok(a) => println!("listening on {a}"),
            Err(e) => fail(e.to_string()),
        }
    }
    if !args.once {
        std::thread::spawn(|| {
            let mut sink = [0u8; 256];
            let mut stdin = std::io::stdin();
            while matches!(stdin.read(&mut sink), Ok(n) if n > 0) {}
            std::process::exit(0);
        });
    }
    if let Err(e) = txs::serve(ex.as_mut(), &listeners, args.once) {
        fail(e.to_string());
    }
}
