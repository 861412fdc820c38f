//! TorXakis's sockets (`ioco_sut::txs`) against `txs-sut` on ephemeral ports: the
//! right answers come back as gate values (and labels), a faulty mode's wrong answer comes
//! back, the symbolic tester passes the correct SUTs and finds the faults, and a SUT that is
//! not there is a clear start error. Time-outs are generous (the answers come at once; a
//! time-out only ends a wait for quiescence), and no timing is asserted.

use ioco_exec::engine::symbolic::run_online;
use ioco_exec::{OnlineOptions, RunVerdict};
use ioco_lang::ir::{Spec, Value};
use ioco_sut::data::gate_alphabet;
use ioco_sut::txs::{
    parse_port_map, TxsAdapter, TxsDecode, TxsEncode, TxsLabels, TxsSide, TxsSocketConfig,
};
use ioco_sut::Sut as _;
use ioco_symbolic::online::{
    model_timeout, GateValue, Observation, Sent, SpecTimeouts, SutError, Timeouts,
};
use ioco_symbolic::SymbolicSpec;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

/// A running `txs-sut` on ephemeral ports; killed on drop.
struct Sut {
    child: Child,
    /// The ports it listens on, in the order of the example's `.txs` ports.
    ports: Vec<u16>,
}

impl Sut {
    fn start(example: &str, mode: &str, nports: usize) -> Sut {
        Sut::start_with(example, mode, nports, &["--travel-ms", "50"])
    }

    fn start_with(example: &str, mode: &str, nports: usize, more: &[&str]) -> Sut {
        let mut child = Command::new(env!("CARGO_BIN_EXE_txs-sut"))
            .args([example, "--mode", mode, "--port", "0"])
            .args(more)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start txs-sut");
        let mut out = BufReader::new(child.stdout.take().expect("piped"));
        let mut ports = Vec::new();
        for _ in 0..nports {
            let mut line = String::new();
            out.read_line(&mut line).expect("read the port");
            let port = line
                .trim()
                .strip_prefix("listening on 127.0.0.1:")
                .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
                .parse()
                .expect("a port");
            ports.push(port);
        }
        Sut { child, ports }
    }
}

impl Drop for Sut {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spec(file: &str, name: &str) -> Arc<Spec> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/torxakis/")
        .join(file);
    let model = ioco_lang::parse_file(&p).unwrap_or_else(|e| panic!("{file}: {e:?}"));
    Arc::new(model.spec(name).expect("the model").clone())
}

fn spec_src(src: &str, name: &str) -> Arc<Spec> {
    let model = ioco_lang::parse_str("test.ioco", src).unwrap_or_else(|e| panic!("{e:?}"));
    Arc::new(model.spec(name).expect("the model").clone())
}

/// A client config with one socket per (input gate, output gate) pair, each on `ports[k]`
/// (the `.txs` port `txs_ports[k]` mapped).
fn client(pairs: &[(&str, &str)], txs_ports: &[u16], ports: &[u16]) -> TxsSocketConfig {
    let mut cfg = TxsSocketConfig::new(TxsSide::Client);
    for (k, (input, output)) in pairs.iter().enumerate() {
        let s = cfg.socket("localhost", txs_ports[k]);
        cfg.encode.push(TxsEncode::to_string(input, s));
        cfg.sockets[s].decode = Some(TxsDecode::new(output));
        cfg.ports.insert(txs_ports[k], ports[k]);
    }
    cfg.connect_timeout = Duration::from_secs(20);
    cfg
}

fn adapter(spec: &Arc<Spec>, cfg: TxsSocketConfig) -> TxsAdapter {
    let mut a = TxsAdapter::new(Arc::clone(spec), cfg).expect("adapter");
    a.set_timeout(Duration::from_secs(1));
    a
}

fn ctor(spec: &Spec, name: &str, fields: Vec<Value>) -> Value {
    for (t, def) in spec.defs.types.iter().enumerate() {
        if let Some(c) = def.ctors.iter().position(|c| c.name == name) {
            return Value::Adt(t as u32, c as u32, fields.into());
        }
    }
    panic!("no constructor {name}")
}

fn out(gate: &str, v: Vec<Value>) -> Observation<GateValue> {
    Observation::Output((gate.into(), v))
}

/// The calls of a system over gate values, by gate name and values, as the tests write them.
trait Calls {
    fn give(&mut self, gate: &str, args: &[Value]) -> Result<Sent<GateValue>, SutError>;
    fn look(&mut self) -> Result<Observation<GateValue>, SutError>;
}

impl Calls for TxsAdapter {
    fn give(&mut self, gate: &str, args: &[Value]) -> Result<Sent<GateValue>, SutError> {
        ioco_sut::Sut::send(self, (gate.to_string(), args.to_vec()))
    }
    fn look(&mut self) -> Result<Observation<GateValue>, SutError> {
        ioco_sut::Sut::observe(self, None)
    }
}

#[test]
fn adder_answers_come_back_as_gate_values() {
    let spec = spec("adder.ioco", "Adder");
    let plus = |a, b| ctor(&spec, "Plus", vec![Value::Int(a), Value::Int(b)]);
    let minus = |a, b| ctor(&spec, "Minus", vec![Value::Int(a), Value::Int(b)]);
    let sut = Sut::start("adder", "correct", 1);
    let mut a = adapter(&spec, client(&[("Action", "Result")], &[7890], &sut.ports));
    a.reset().unwrap();
    assert_eq!(
        a.encode_line("Action", &[plus(4, -7)]).unwrap().1,
        b"Plus(4,-7)\n"
    );
    for (op, r) in [(plus(4, 7), 11), (minus(4, 7), -3), (plus(-2, -2), -4)] {
        assert_eq!(a.give("Action", &[op]), Ok(Sent::Accepted));
        assert_eq!(a.look(), Ok(out("Result", vec![Value::Int(r)])));
    }
    // nothing more: quiescence; a reset reconnects and the SUT starts a new session
    a.set_timeout(Duration::from_millis(100));
    assert_eq!(a.look(), Ok(Observation::Quiescent));
    a.reset().unwrap();
    a.set_timeout(Duration::from_secs(1));
    assert_eq!(a.give("Action", &[minus(1, 1)]), Ok(Sent::Accepted));
    assert_eq!(a.look(), Ok(out("Result", vec![Value::Int(0)])));

    // the faulty mode's wrong answer comes back
    let bad = Sut::start("adder", "wrong", 1);
    let mut a = adapter(&spec, client(&[("Action", "Result")], &[7890], &bad.ports));
    a.reset().unwrap();
    a.give("Action", &[minus(4, 7)]).unwrap();
    assert_eq!(a.look(), Ok(out("Result", vec![Value::Int(3)])));
}

fn online(spec: &Arc<Spec>, sut: &mut TxsAdapter, seed: u64, steps: usize) -> RunVerdict {
    let mut t = SymbolicSpec::with_z3(Arc::clone(spec)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let opts = OnlineOptions {
        depth: steps,
        observe: 0.4,
        // generous: a slow machine must not turn a late answer into quiescence; where only
        // quiescence is allowed the tester only looks (10 ms)
        quiescence_timeout: model_timeout(spec).unwrap_or(Duration::from_secs(1)),
        timeouts: Some(Arc::new(Timeouts::of_spec(spec))),
        ..OnlineOptions::default()
    };
    sut.reset().unwrap();
    let run = run_online(&mut t, sut, &opts, &mut rng);
    // the tester sets the time-out per observation; keep it generous for the next run
    sut.set_timeout(Duration::from_secs(1));
    run.verdict
}

#[test]
fn the_symbolic_tester_passes_correct_suts_and_finds_faults() {
    for (file, model, example, input, output, txs_port) in [
        ("adder.ioco", "Adder", "adder", "Action", "Result", 7890),
        ("echo.ioco", "Echo", "echo", "In", "Out", 9999),
        ("echo.ioco", "Echo", "echo-xml", "In", "Out", 9999),
    ] {
        let spec = spec(file, model);
        let config = |ports: &[u16]| {
            let mut cfg = client(&[(input, output)], &[txs_port], ports);
            if example.ends_with("-xml") {
                // Echo.txs's Xut: toXml / fromXml
                cfg.encode[0] = TxsEncode::xml(input, 0);
                cfg.sockets[0].decode = Some(TxsDecode::xml(output));
            }
            cfg
        };
        let sut = Sut::start(example, "correct", 1);
        let mut a = adapter(&spec, config(&sut.ports));
        for seed in 0..3 {
            let v = online(&spec, &mut a, seed, 12);
            assert_eq!(v, RunVerdict::Pass, "{example} seed {seed}");
        }
        for mode in ["wrong", "missing", "extra"] {
            let bad = Sut::start(example, mode, 1);
            let mut a = adapter(&spec, config(&bad.ports));
            let failed = (0..4).any(|seed| online(&spec, &mut a, seed, 20) == RunVerdict::Fail);
            assert!(failed, "{example} --mode {mode} was not found");
        }
    }
}

#[test]
fn adder3_uses_three_sockets() {
    let spec = spec("adder.ioco", "Adder3");
    let plus = |a, b| ctor(&spec, "Plus", vec![Value::Int(a), Value::Int(b)]);
    let sut = Sut::start("adder3", "correct", 3);
    let pairs = [
        ("Action1", "Result1"),
        ("Action2", "Result2"),
        ("Action3", "Result3"),
    ];
    let mut a = adapter(&spec, client(&pairs, &[7891, 7892, 7893], &sut.ports));
    a.reset().unwrap();
    for (k, (input, output)) in pairs.iter().enumerate() {
        a.give(input, &[plus(k as i64, 10)]).unwrap();
        assert_eq!(a.look(), Ok(out(output, vec![Value::Int(10 + k as i64)])));
    }
    // two operations in flight on two sockets: both answers come back, each as its gate
    a.give("Action3", &[plus(1, 1)]).unwrap();
    let next = a.give("Action1", &[plus(2, 2)]).unwrap();
    let mut seen = Vec::new();
    match &next {
        Sent::Raced((g, v)) => seen.push(out(g, v.clone())),
        Sent::Accepted => {}
    }
    while seen.len() < 2 {
        match a.look().unwrap() {
            Observation::Quiescent => break,
            o => seen.push(o),
        }
    }
    assert!(
        seen.contains(&out("Result3", vec![Value::Int(2)])),
        "{seen:?}"
    );
    if next == Sent::Accepted {
        assert!(
            seen.contains(&out("Result1", vec![Value::Int(4)])),
            "{seen:?}"
        );
    }
}

const QUEUE: &str = r#"
type QueueOp = Enq { val: int } | Deq | Error
model Queue {
  input In(qop: QueueOp)
  output Out(x: int)
  init idle
  idle -- In?(qop) --> idle
  idle -- Out!(x) --> idle
}
"#;

#[test]
fn queue_answers_and_the_lifo_fault() {
    let spec = spec_src(QUEUE, "Queue");
    let enq = |v| ctor(&spec, "Enq", vec![Value::Int(v)]);
    let deq = ctor(&spec, "Deq", vec![]);
    for (mode, first) in [("correct", 1), ("wrong", 2)] {
        let sut = Sut::start("queue", mode, 1);
        let mut a = adapter(&spec, client(&[("In", "Out")], &[7890], &sut.ports));
        a.reset().unwrap();
        a.give("In", &[enq(1)]).unwrap();
        a.give("In", &[enq(2)]).unwrap();
        a.give("In", std::slice::from_ref(&deq)).unwrap();
        assert_eq!(a.look(), Ok(out("Out", vec![Value::Int(first)])), "{mode}");
        a.give("In", std::slice::from_ref(&deq)).unwrap();
        assert_eq!(
            a.look(),
            Ok(out("Out", vec![Value::Int(3 - first)])),
            "{mode}"
        );
        a.set_timeout(Duration::from_millis(100));
        a.give("In", std::slice::from_ref(&deq)).unwrap();
        assert_eq!(a.look(), Ok(Observation::Quiescent), "{mode}");
    }
}

const POINT: &str = r#"
type PointT = Point { x: int, y: int }
model Points {
  input In(p: PointT)
  output Out(p: PointT)
  init idle
  idle -- In?(p) --> idle
  idle -- Out!(p) --> idle
}
"#;

#[test]
fn point_answers_and_the_wrong_fault() {
    let spec = spec_src(POINT, "Points");
    let pt = |x, y| ctor(&spec, "Point", vec![Value::Int(x), Value::Int(y)]);
    for (mode, answer) in [("correct", pt(3, 4)), ("wrong", pt(4, -3))] {
        let sut = Sut::start("point", mode, 1);
        let mut a = adapter(&spec, client(&[("In", "Out")], &[9999], &sut.ports));
        a.reset().unwrap();
        a.give("In", &[pt(3, -4)]).unwrap();
        assert_eq!(a.look(), Ok(out("Out", vec![answer])), "{mode}");
    }
}

const JOBS: &str = r#"
type JobData = JobData { jobId: int, x: int, y: int }
type JobOut = JobOut { jobId: int, processor: int, gcd: int }
model Jobs {
  input Job(j: JobData)
  output Finish(o: JobOut)
  init idle
  idle -- Job?(j) --> idle
  idle -- Finish!(o) --> idle
}
"#;

#[test]
fn dispatch_process_decodes_constructors() {
    // JobData's description (a String) is left out here: the IR has no strings yet
    let spec = spec_src(JOBS, "Jobs");
    let job_out = |id, p, g| {
        ctor(
            &spec,
            "JobOut",
            vec![Value::Int(id), Value::Int(p), Value::Int(g)],
        )
    };
    let mut cfg = TxsSocketConfig::new(TxsSide::Client);
    let s = cfg.socket("localhost", 7890);
    cfg.sockets[s].decode = Some(TxsDecode::new("Finish"));
    cfg.encode.push(TxsEncode::to_string("Job", s));
    let a = adapter(&spec, cfg);
    for text in [
        "JobOut(6,1,2)",
        "JobOut(6, 1, 2)",
        " JobOut ( 6 ,1 , (2) ) ",
    ] {
        let got = a.decode_line(0, text.as_bytes()).unwrap();
        assert_eq!(got, out("Finish", vec![job_out(6, 1, 2)]), "{text}");
    }
    match a.decode_line(0, b"JobOut(6,1)") {
        Err(SutError::UnknownOutput { line: m }) => {
            assert!(m.contains("column 11: expected `,`"), "{m}")
        }
        other => panic!("{other:?}"),
    }
    let job = ctor(
        &spec,
        "JobData",
        vec![Value::Int(6), Value::Int(4), Value::Int(6)],
    );
    assert_eq!(a.encode_line("Job", &[job]).unwrap().1, b"JobData(6,4,6)\n");
}

#[test]
fn dispatch_process_and_lucky_people_speak_their_protocols() {
    // raw lines, as TorXakis's ENCODEs write them (strings are not in the IR yet)
    for (example, mode, txs_line, answer) in [
        (
            "dispatch-process",
            "correct",
            r#"JobData(6,"AB1x",4,6)"#,
            "JobOut(6,1,2)",
        ),
        (
            "dispatch-process",
            "wrong",
            r#"JobData(6,"AB1x",4,6)"#,
            "JobOut(6,1,4)",
        ),
        ("lucky-people", "correct", "Female@Ann@Smith@3@3", "True"),
        ("lucky-people", "correct", "Female@Ann@Smith@3@4", "False"),
        ("lucky-people", "correct", "Male@Bob@Brown@1@2", "True"),
        (
            "lucky-people-xml",
            "correct",
            "<TorXakisMsg><Person><sex><Female></Female></sex><firstName>Ann</firstName>\
             <lastName>Smith</lastName><dayOfBirth>3</dayOfBirth><monthOfBirth>3</monthOfBirth>\
             </Person></TorXakisMsg>",
            "<TorXakisMsg>true</TorXakisMsg>",
        ),
    ] {
        let sut = Sut::start(example, mode, 1);
        let s = TcpStream::connect(("127.0.0.1", sut.ports[0])).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let mut w = s.try_clone().unwrap();
        writeln!(w, "{txs_line}").unwrap();
        let mut line = String::new();
        BufReader::new(s).read_line(&mut line).unwrap();
        assert_eq!(line.trim_end(), answer, "{example} {mode} {txs_line}");
    }
}

#[test]
fn stimulus_response_over_labels() {
    let spec = spec("stimulus-response.ioco", "StimulusResponseLoop");
    let alphabet = gate_alphabet(&spec).unwrap();
    let stimulus = alphabet
        .lookup_kind("Stimulus", ioco_model::LabelKind::Input)
        .unwrap();
    let response = alphabet
        .lookup_kind("Response", ioco_model::LabelKind::Output)
        .unwrap();
    for (mode, responses) in [("correct", 1), ("extra", 2), ("missing", 0)] {
        let sut = Sut::start("stimulus-response", mode, 1);
        let mut cfg = TxsSocketConfig::new(TxsSide::Client);
        let s = cfg.socket("localhost", 7890);
        cfg.encode.push(TxsEncode::text("Stimulus", s, ""));
        cfg.sockets[s].decode = Some(TxsDecode::new("Response"));
        cfg.ports.insert(7890, sut.ports[0]);
        let mut a = TxsLabels::new(TxsAdapter::new(Arc::clone(&spec), cfg).unwrap(), &alphabet);
        a.reset().unwrap();
        assert_eq!(a.send(stimulus), Ok(Sent::Accepted));
        for _ in 0..responses {
            assert_eq!(
                a.observe(Some(Duration::from_secs(1))),
                Ok(Observation::Output(response)),
                "{mode}"
            );
        }
        assert_eq!(
            a.observe(Some(Duration::from_millis(100))),
            Ok(Observation::Quiescent),
            "{mode}"
        );
    }
}

#[test]
fn moving_arms_eighteen_sockets() {
    let spec = spec("moving-arms.ioco", "MovingArms");
    let alphabet = gate_alphabet(&spec).unwrap();
    let sut = Sut::start("moving-arms", "correct", 18);
    let bad = Sut::start("moving-arms", "wrong", 18);
    let (order, names) = (
        ["Up", "Down", "Stop", "Stopped", "Min", "Max"],
        ["up", "down", "stop"],
    );
    let txs_ports: [[u16; 6]; 3] = [
        [9901, 9902, 9903, 9926, 9904, 9905],
        [9911, 9912, 9913, 9927, 9914, 9915],
        [9921, 9922, 9923, 9928, 9924, 9925],
    ];
    let config = |ports: &[u16]| {
        let mut cfg = TxsSocketConfig::new(TxsSide::Client);
        cfg.connect_timeout = Duration::from_secs(20);
        for (k, axis) in ["X", "Y", "Z"].iter().enumerate() {
            for (j, gate) in order.iter().enumerate() {
                let s = cfg.socket("localhost", txs_ports[k][j]);
                cfg.ports.insert(txs_ports[k][j], ports[k * 6 + j]);
                let gate = format!("{gate}{axis}");
                if j < 3 {
                    cfg.encode
                        .push(TxsEncode::text(&gate, s, &format!("{}{axis}", names[j])));
                } else {
                    cfg.sockets[s].decode = Some(TxsDecode::new(&gate));
                }
            }
        }
        cfg
    };
    let label = |n: &str| alphabet.parse(n).unwrap_or_else(|| panic!("{n}"));
    let mut a = TxsLabels::new(
        TxsAdapter::new(Arc::clone(&spec), config(&sut.ports)).unwrap(),
        &alphabet,
    );
    a.reset().unwrap();
    assert_eq!(a.send(label("UpY?")), Ok(Sent::Accepted));
    assert_eq!(
        a.observe(Some(Duration::from_secs(5))),
        Ok(Observation::Output(label("MaxY!")))
    );
    assert_eq!(a.send(label("DownZ?")), Ok(Sent::Accepted));
    // stop it before it arrives (50 ms of travel): stopped, unless it arrived first
    let stop = a.send(label("StopZ?")).unwrap();
    let o = match stop {
        Sent::Raced(l) => Observation::Output(l),
        Sent::Accepted => a.observe(Some(Duration::from_secs(5))).unwrap(),
    };
    assert!(
        [
            Observation::Output(label("StoppedZ!")),
            Observation::Output(label("MinZ!"))
        ]
        .contains(&o),
        "{o:?}"
    );
    let mut b = TxsLabels::new(
        TxsAdapter::new(Arc::clone(&spec), config(&bad.ports)).unwrap(),
        &alphabet,
    );
    b.reset().unwrap();
    b.send(label("UpX?")).unwrap();
    assert_eq!(
        b.observe(Some(Duration::from_secs(5))),
        Ok(Observation::Output(label("MinX!")))
    );
}

#[test]
fn a_sut_that_is_not_there_is_a_start_error() {
    let spec = spec("adder.ioco", "Adder");
    // a privileged port that refuses connections now: the tests' SUTs only take ephemeral
    // ports, so none of them can start listening there meanwhile (a port bound and released
    // could be taken by a parallel test)
    let free = (1..1024)
        .find(|p| TcpStream::connect(("127.0.0.1", *p)).is_err())
        .expect("a closed privileged port");
    let mut cfg = client(&[("Action", "Result")], &[7890], &[free]);
    cfg.connect_timeout = Duration::from_millis(500);
    let mut a = adapter(&spec, cfg);
    match a.reset() {
        Err(SutError::Broken(m)) => {
            assert!(m.contains("could not start the SUT"), "{m}");
            assert!(
                m.contains(&format!("localhost:{free} (PORT 7890 of the model)")),
                "{m}"
            );
        }
        other => panic!("{other:?}"),
    }
    // server side: nobody connects
    let mut cfg = TxsSocketConfig::new(TxsSide::Server);
    let s = cfg.socket("localhost", 7890);
    cfg.encode.push(TxsEncode::to_string("Action", s));
    cfg.sockets[s].decode = Some(TxsDecode::new("Result"));
    cfg.ports.insert(7890, 0);
    cfg.connect_timeout = Duration::from_millis(300);
    let mut a = adapter(&spec, cfg);
    match a.reset() {
        Err(SutError::Broken(m)) => assert!(m.contains("no SUT connected to 127.0.0.1:"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn server_side_accepts_a_sut_that_connects() {
    // SERVERSOCK: the tester listens; a SUT of this test connects and answers with the sum
    let spec = spec("adder.ioco", "Adder");
    let plus = ctor(&spec, "Plus", vec![Value::Int(20), Value::Int(22)]);
    let mut cfg = TxsSocketConfig::new(TxsSide::Server);
    let s = cfg.socket("localhost", 7890);
    cfg.encode.push(TxsEncode::to_string("Action", s));
    cfg.sockets[s].decode = Some(TxsDecode::new("Result"));
    cfg.ports.insert(7890, 0);
    cfg.connect_timeout = Duration::from_secs(20);
    let mut a = adapter(&spec, cfg);
    let addr = a.local_addrs()[0];
    let peer = std::thread::spawn(move || {
        let s = TcpStream::connect(addr).unwrap();
        let mut w = s.try_clone().unwrap();
        let mut line = String::new();
        BufReader::new(s).read_line(&mut line).unwrap();
        assert_eq!(line, "Plus(20,22)\n");
        w.write_all(b" 42 \r\n").unwrap();
    });
    a.reset().unwrap();
    a.give("Action", &[plus]).unwrap();
    assert_eq!(a.look(), Ok(out("Result", vec![Value::Int(42)])));
    peer.join().unwrap();
    // the peer has gone: the connection is closed
    a.set_timeout(Duration::from_secs(5));
    match a.look() {
        Err(SutError::Exited { status: m }) => {
            assert!(m.contains("closed the connection on localhost:"), "{m}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn malformed_lines_are_observations_the_model_does_not_allow() {
    let spec = spec("adder.ioco", "Adder");
    let a = adapter(&spec, client(&[("Action", "Result")], &[7890], &[1]));
    match a.decode_line(0, b"eleven") {
        Err(SutError::UnknownOutput { line: m }) => {
            assert!(
                m.contains("`eleven` on localhost:1 (PORT 7890 of the model)"),
                "{m}"
            );
            assert!(m.contains("column 1: expected an Int"), "{m}");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        a.decode_line(0, b"99999999999999999999999"),
        Err(SutError::Broken(m)) if m.contains("cannot be judged")
    ));
    assert!(matches!(
        a.decode_line(0, b"\xff"),
        Err(SutError::Broken(_))
    ));
    assert_eq!(
        parse_port_map("7890=41234, 7891=0")
            .unwrap()
            .into_iter()
            .collect::<Vec<_>>(),
        vec![(7890, 41234), (7891, 0)]
    );
    assert!(parse_port_map("7890:1").is_err());
    let mut cfg = client(&[("Action", "Result")], &[7890], &[1]);
    cfg.ports.insert(1234, 1);
    assert!(TxsAdapter::new(Arc::clone(&spec), cfg)
        .err()
        .unwrap()
        .contains("port 1234"));
    let mut cfg = client(&[("Action", "Result")], &[7890], &[1]);
    cfg.encode.clear();
    assert!(TxsAdapter::new(Arc::clone(&spec), cfg)
        .err()
        .unwrap()
        .contains("`Action` has no ENCODE"));
}

#[test]
fn moving_arm_with_the_explicit_tester_over_labels() {
    // MovingArm.txs: six sockets, no data; the model is the `Axis` of moving-arms.ioco
    let spec = spec("moving-arms.ioco", "Axis");
    let (lts, _) =
        ioco_lang::translate::to_lts_timed(&spec, &ioco_lang::translate::Options::default())
            .expect("an LTS");
    let gates = ["Up", "Down", "Stop", "Stopped", "Min", "Max"];
    let texts = ["up", "down", "stop"];
    let txs_ports = [9901, 9902, 9903, 9904, 9905, 9906];
    let opts = ioco_exec::OnlineOptions {
        runs: 3,
        depth: 10,
        seed: 7,
        // the arm takes 300 ms, so that a Stop can catch it moving; a time-out only ends a
        // wait where quiescence is allowed
        quiescence_timeout: Duration::from_millis(1500),
        ..ioco_exec::OnlineOptions::default()
    };
    let verdict = |mode: &str| {
        let sut = Sut::start_with("moving-arm", mode, 6, &["--travel-ms", "300"]);
        let mut cfg = TxsSocketConfig::new(TxsSide::Client);
        cfg.connect_timeout = Duration::from_secs(20);
        for (j, gate) in gates.iter().enumerate() {
            let s = cfg.socket("localhost", txs_ports[j]);
            cfg.ports.insert(txs_ports[j], sut.ports[j]);
            if j < 3 {
                cfg.encode.push(TxsEncode::text(gate, s, texts[j]));
            } else {
                cfg.sockets[s].decode = Some(TxsDecode::new(gate));
            }
        }
        let inner = TxsAdapter::new(Arc::clone(&spec), cfg).unwrap();
        let mut a = TxsLabels::new(inner, lts.alphabet());
        let summary = ioco_exec::run_online_with(&lts, &opts, &mut a).unwrap();
        (summary.verdict, summary)
    };
    let (v, s) = verdict("correct");
    assert_eq!(v, ioco_exec::RunVerdict::Pass, "{:?}", s.first_failure());
    for mode in ["wrong", "missing"] {
        let (v, _) = verdict(mode);
        assert_eq!(v, ioco_exec::RunVerdict::Fail, "moving-arm --mode {mode}");
    }
}

#[test]
fn echo_digits_with_the_explicit_tester_over_data_labels() {
    // EchoDigits (echo.ioco): labels with values, `In(3)`, `Out(3)`, over TorXakis's text
    let spec = spec("echo.ioco", "EchoDigits");
    let (lts, _) =
        ioco_lang::translate::to_lts_timed(&spec, &ioco_lang::translate::Options::default())
            .expect("an LTS");
    let opts = ioco_exec::OnlineOptions {
        runs: 3,
        depth: 12,
        seed: 3,
        quiescence_timeout: Duration::from_millis(1500),
        ..ioco_exec::OnlineOptions::default()
    };
    let verdict = |mode: &str| {
        let sut = Sut::start("echo", mode, 1);
        let cfg = client(&[("In", "Out")], &[9999], &sut.ports);
        let inner = TxsAdapter::new(Arc::clone(&spec), cfg).unwrap();
        let mut a = TxsLabels::new(inner, lts.alphabet());
        let s = ioco_exec::run_online_with(&lts, &opts, &mut a).unwrap();
        (s.verdict, s.first_failure().and_then(|r| r.failure.clone()))
    };
    let (v, f) = verdict("correct");
    assert_eq!(v, ioco_exec::RunVerdict::Pass, "{f:?}");
    let (v, f) = verdict("wrong");
    assert_eq!(v, ioco_exec::RunVerdict::Fail);
    let f = f.expect("a failure");
    // the wrong echo of a digit d is d + 1: `Out(d+1)`, not allowed, or, for 9, `10`, no value
    // of the gate's type (which run finds it first depends on the seed's draws)
    assert!(
        f.observed.starts_with("Out(") || f.observed.starts_with("`10` on "),
        "{f:?}"
    );
    let (v, _) = verdict("missing");
    assert_eq!(v, ioco_exec::RunVerdict::Fail);
}

#[test]
fn customers_orders_speaks_torxakis_xml() {
    // raw XML lines as TorXakis's toXml writes them (the IR has no strings yet)
    let customer = |id: u32, name: &str| {
        format!(
            "<TorXakisMsg><Customer><companyName>{name}</companyName><contactName>A</contactName>\
             <contactTitle>B</contactTitle><phone>C</phone><fax><Absent_string></Absent_string></fax>\
             <fullAddress><Address><address>D</address><city>E</city><region>F</region>\
             <postalCode>G</postalCode><country>H</country></Address></fullAddress>\
             <customerID>{id}</customerID></Customer></TorXakisMsg>"
        )
    };
    let inner = |xml: &str| {
        xml.strip_prefix("<TorXakisMsg>")
            .and_then(|x| x.strip_suffix("</TorXakisMsg>"))
            .unwrap()
            .to_string()
    };
    let report = |cs: &[String]| {
        let mut l = "<Nil_Customer></Nil_Customer>".to_string();
        for c in cs.iter().rev() {
            l = format!("<Cstr_Customer><head>{c}</head><tail>{l}</tail></Cstr_Customer>");
        }
        format!(
            "<TorXakisMsg><Report><customers>{l}</customers><orders><Nil_Order></Nil_Order>\
             </orders></Report></TorXakisMsg>"
        )
    };
    for (mode, newest_first) in [("correct", true), ("wrong", false)] {
        let sut = Sut::start("customers-orders", mode, 3);
        let conns: Vec<TcpStream> = sut
            .ports
            .iter()
            .map(|p| TcpStream::connect(("127.0.0.1", *p)).unwrap())
            .collect();
        conns[2]
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let mut reports = BufReader::new(conns[2].try_clone().unwrap());
        let mut next = || {
            let mut line = String::new();
            reports.read_line(&mut line).unwrap();
            line.trim_end().to_string()
        };
        assert_eq!(next(), report(&[]), "{mode}");
        let (a, b) = (customer(1, "ACME"), customer(2, "BOLT"));
        writeln!(&conns[0], "{a}").unwrap();
        assert_eq!(next(), report(&[inner(&a)]), "{mode}");
        writeln!(&conns[0], "{b}").unwrap();
        let both = if newest_first {
            [inner(&b), inner(&a)]
        } else {
            [inner(&a), inner(&b)]
        };
        assert_eq!(next(), report(&both), "{mode}");
    }
}
