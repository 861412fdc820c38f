//! Quiescence by observing the process (Linux, systems that ioco starts; issue #30 item 2):
//! δ as soon as the system **provably** cannot write without new input, instead of after a
//! whole time-out.
//!
//! ## The proof
//! The system is the process ioco started and every process below it (children, found through
//! `/proc/PID/task/TID/children`), each with all its threads. [`ProcessProbe::quiet`] takes two
//! samples a moment apart and concludes quiescence only when
//! 1. in the first sample every thread is asleep (`S`) in a wait that nothing but the
//!    system's standard input or another thread of the system can end, read from
//!    `/proc/…/syscall` (x86_64 numbers):
//!    * `read`, `readv`, `pread64` on the system's standard input (our pipe);
//!    * `poll`, `ppoll`, `select`, `pselect6` without a time-out, every descriptor of which is
//!      that pipe (the arrays are read from `/proc/PID/mem`);
//!    * `epoll_wait`, `epoll_pwait` without a time-out on an epoll instance whose every target
//!      (`/proc/PID/fdinfo/EPFD`) is that pipe;
//!    * `futex` waits without a time-out (only another thread can end them), `wait4` and
//!      `waitid` (only a child, itself in the system, can end them);
//!
//!    or is a zombie;
//! 2. between the samples, both pipes are empty: the system has read every input we wrote
//!    (`FIONREAD` on its standard input) and we have read everything it wrote to its standard
//!    output (`FIONREAD` there, and no line left in our buffer, which the caller checks);
//! 3. the second sample has the same processes and threads, every thread still asleep (or a
//!    zombie), and no thread has run in between (the run count and run time of
//!    `/proc/…/schedstat` are unchanged).
//!
//! A thread that did not run between the samples was in the same wait at the second one, and
//! asleep there; a wait that only our input or the system itself can end, with no input
//! pending and no thread able to run, stays a wait: nothing can be written until the next
//! input. An output written before the first sample is in the pipe by the check (writes to a
//! pipe are synchronous), one written after it means a thread ran.
//!
//! ## A TCP server ioco starts
//! For a one-shot server (`--sut CMD --tcp 127.0.0.1:{port}`, [`ProcessProbe::tcp`]) the
//! system's end of the channel is its socket of our connection, found in `/proc/net/tcp{,6}`
//! as the row whose addresses are ours swapped. The waits of 1. are on that socket (`read`,
//! `recvfrom`, `recvmsg`, `poll`, `select`, `epoll`), and 2. becomes, **in this order**:
//! 1. a whole read of the table in which both ends' send queues are empty (`tx_queue`: bytes
//!    written and not yet acknowledged by the other end; a byte the system wrote but the
//!    kernel holds back, by Nagle's algorithm or `TCP_CORK`, is counted there);
//! 2. after it, our receive queue empty (`FIONREAD`), and a second whole read of the table
//!    in which both ends' receive queues (`rx_queue`) are empty too.
//!
//! Why the order: a byte the system wrote is in its send queue until we acknowledge it, and
//! we acknowledge it only once it is in our receive queue; so at every moment it is in one of
//! the two. Seen gone from the sender's queue at a moment t₁, it was in our receive queue at
//! t₁ (or read by us before); seen gone from our receive queue at a later t₂, we have read it.
//! Our input the other way round: acknowledged by t₁, so in the system's receive queue, and
//! gone from there by t₂, so read by a thread (which then ran, or ran before the first
//! sample). A write after the first sample needs a thread that runs, which 3. sees. Sockets
//! of the system other than our connection do not matter: no thread waits on them (1.), so
//! what arrives there, even a segment the kernel sends with no thread running, wakes nobody.
//!
//! **The false δ this order fixes** (issue #30, 2026-11-29): the probe read both queues of
//! both ends from one pass over the table. The table is no snapshot: its rows are printed one
//! after the other while the kernel moves bytes on. A server that corks its answer
//! (`TCP_CORK`) goes back to reading with the answer in its send queue; the kernel sends it
//! about 0.2 s later from a timer (the zero-window probe timer, `tr` 4 in the table), with no
//! thread of the server running, and on loopback the segment is in our receive queue and
//! acknowledged within microseconds. When our row is listed before the server's (the table is
//! in hash-bucket order: about every other connection) and the answer is sent between the two
//! rows, our row shows an empty receive queue (before) and the server's an empty send queue
//! (after): δ with the answer in our socket, a false Fail. The stress harness
//! (`tests/tcp_probe_stress.rs`: a corked Python server, 3 inputs per run, the probe asked as
//! `LineIo` asks it, its trace printed at each false δ) showed it in 6 of 150 runs before the
//! fix, every one at 0.2–0.23 s after the input, every one in a run whose our end was listed
//! first (75 runs), none in the 75 runs with the server's end first, each with both rows empty
//! in the probe's read and 6 bytes in our receive queue right after; after the fix, none in
//! 300 runs (BENCHMARKS.md, issue #30). A row listed twice or not at all (the table changing
//! while it is read across several `read`s) is also handled: every row of each end must be
//! empty, and each end must be seen.
//!
//! ## What falls back to the time-out
//! Anything that cannot be proved this way is not quiescence *yet*: the caller keeps waiting,
//! and the time-out decides as before. A timed wait (`nanosleep`, a `futex` or `poll` with a
//! time-out: timers, the housekeeping threads of a JVM or Go's runtime), a running or runnable
//! thread, a working child, a wait on any other descriptor (a socket, a pipe between the
//! system's own processes, a timerfd, an eventfd), a stopped or traced process, a system on
//! another architecture or without `/proc`. Known limit: a signal sent by a kernel timer the
//! system armed with `alarm(2)` or `setitimer(2)` is not visible in `/proc`; a system that
//! sleeps on its input and is woken by such a signal to write is outside this proof (use
//! `--quiescence timeout` or a marker for it).

use std::os::unix::io::RawFd;

/// How a δ was established.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Established {
    /// The system's quiescence marker.
    Marker,
    /// The process was seen waiting for input ([`ProcessProbe`]).
    Process,
    /// A whole quiescence time-out passed without output.
    Timeout,
}

/// One thread in a sample: (pid, tid, run count, run time in ns).
type Seen = (u32, u32, u64, u64);

/// The `/proc` files of one thread, kept open between samples and re-read from the start
/// (`pread`), so a sample costs one read per file instead of an open, a read and a close.
/// A file of a thread that has exited reads as an error (`ESRCH`), never as another thread.
struct Task {
    tid: u32,
    stat: std::fs::File,
    schedstat: std::fs::File,
    syscall: std::fs::File,
    children: std::fs::File,
}

/// The threads of one process of the tree, as last listed.
struct Proc {
    pid: u32,
    tasks: Vec<Task>,
}

/// What sampling one process found.
enum Sampled {
    /// Every thread asleep (in a wait only our input can end, when asked).
    Asleep,
    /// A thread that is not.
    Awake,
    /// The threads listed before are not the threads now: list them again.
    Stale,
}

/// Proves quiescence of a process tree (see the module documentation).
pub struct ProcessProbe {
    root: u32,
    /// How we talk to the system.
    channel: Channel,
    /// The link of the system's end of the channel (`pipe:[INODE]` of its standard input,
    /// `socket:[INODE]` of its end of our connection).
    input: std::path::PathBuf,
    /// Over TCP: our local and remote address as `/proc/net/tcp` writes them.
    addresses: Option<(String, String)>,
    first: Vec<Seen>,
    second: Vec<Seen>,
    /// The processes of the tree with their open `/proc` files.
    procs: Vec<Proc>,
    /// Scratch text of the last `/proc` file read.
    text: String,
    buf: Vec<u8>,
    /// What the last [`ProcessProbe::quiet`] saw, when asked ([`ProcessProbe::trace`]).
    trace: Option<String>,
}

impl ProcessProbe {
    /// Record what each [`ProcessProbe::quiet`] sees (for investigations: the stress harness
    /// of `tests/tcp_probe_stress.rs`); read it with [`ProcessProbe::last_trace`].
    #[doc(hidden)]
    pub fn trace(&mut self, on: bool) {
        self.trace = on.then(String::new);
    }

    /// What the last [`ProcessProbe::quiet`] saw, if tracing.
    #[doc(hidden)]
    pub fn last_trace(&self) -> &str {
        self.trace.as_deref().unwrap_or("")
    }

    fn note(&mut self, what: std::fmt::Arguments) {
        if let Some(t) = self.trace.as_mut() {
            use std::fmt::Write;
            let _ = writeln!(t, "{what}");
        }
    }

    /// A probe of the process tree under `root`, whose standard input we write through
    /// `stdin_fd` and whose standard output we read through `stdout_fd`; `None` where `/proc`
    /// cannot tell (not Linux on x86_64, or no `/proc`).
    pub fn new(root: u32, stdin_fd: RawFd, stdout_fd: RawFd) -> Option<ProcessProbe> {
        if !cfg!(all(target_os = "linux", target_arch = "x86_64")) {
            return None;
        }
        let pipe = std::fs::read_link(format!("/proc/self/fd/{stdin_fd}")).ok()?;
        if !pipe.to_string_lossy().starts_with("pipe:") {
            return None;
        }
        Some(ProcessProbe::with(
            root,
            Channel::Pipes {
                stdin_fd,
                stdout_fd,
            },
            pipe,
            None,
        ))
    }

    /// A probe of the process tree under `root` (a server ioco started), which we talk to over
    /// the TCP connection `ours` (on loopback); `None` where `/proc` cannot tell, or the
    /// system's end of the connection is not found (not on this machine).
    pub fn tcp(root: u32, ours: RawFd) -> Option<ProcessProbe> {
        if !cfg!(all(target_os = "linux", target_arch = "x86_64")) {
            return None;
        }
        let link = std::fs::read_link(format!("/proc/self/fd/{ours}")).ok()?;
        let our_inode = socket_inode(&link.to_string_lossy())?;
        let (table, local, remote) =
            ["/proc/net/tcp", "/proc/net/tcp6"]
                .into_iter()
                .find_map(|t| {
                    let text = std::fs::read_to_string(t).ok()?;
                    let me = text
                        .lines()
                        .skip(1)
                        .filter_map(TcpRow::parse)
                        .find(|r| r.inode == our_inode)?;
                    Some((t, me.local.to_string(), me.remote.to_string()))
                })?;
        // the system's end is found once the server has accepted the connection (before, it
        // has no socket of its own: inode 0)
        Some(ProcessProbe::with(
            root,
            Channel::Tcp {
                ours,
                our_inode,
                their_inode: 0,
                table,
            },
            std::path::PathBuf::new(),
            Some((local, remote)),
        ))
    }

    /// The system's end of a TCP connection, once it has accepted it: the row of the table
    /// whose addresses are ours swapped, with an inode.
    fn their_end(&mut self) -> bool {
        let Channel::Tcp {
            ref mut their_inode,
            table,
            ..
        } = self.channel
        else {
            return true;
        };
        if *their_inode != 0 {
            return true;
        }
        let Some((local, remote)) = self.addresses.as_ref() else {
            return false;
        };
        let Ok(text) = std::fs::read_to_string(table) else {
            return false;
        };
        let Some(them) = text
            .lines()
            .skip(1)
            .filter_map(TcpRow::parse)
            .find(|r| r.local == remote.as_str() && r.remote == local.as_str() && r.inode != 0)
        else {
            return false;
        };
        *their_inode = them.inode;
        self.input = format!("socket:[{}]", them.inode).into();
        true
    }

    fn with(
        root: u32,
        channel: Channel,
        input: std::path::PathBuf,
        addresses: Option<(String, String)>,
    ) -> ProcessProbe {
        ProcessProbe {
            root,
            channel,
            input,
            addresses,
            first: Vec::new(),
            second: Vec::new(),
            procs: Vec::new(),
            text: String::new(),
            buf: vec![0; 4096],
            trace: None,
        }
    }

    /// Whether nothing is on its way between us and the system: it has received every input
    /// we wrote, and we have received everything it wrote (what is in our own buffer is the
    /// caller's to check).
    fn drained(&mut self) -> bool {
        match self.channel {
            Channel::Pipes {
                stdin_fd,
                stdout_fd,
            } => pending(stdin_fd) == Some(0) && pending(stdout_fd) == Some(0),
            Channel::Tcp {
                ours,
                our_inode,
                their_inode,
                table,
            } => {
                // The table is no snapshot: its rows are read one after the other while the
                // kernel moves bytes on (a held segment is sent by a timer, with no thread of
                // the system running). A byte the system wrote is counted in its send queue
                // until we acknowledge it, and we acknowledge it once it is in our receive
                // queue; so look at the senders' queues first, in a whole read of the table,
                // and at the receivers' queues after it, in a second read and `FIONREAD`
                // (the same for our input, the other way round). Read in one pass, our row
                // (empty) can come before the system's row (empty by then): the held answer
                // sent in between is in neither (the false δ of issue #30).
                if !self.read(table) || !self.ends_empty(our_inode, their_inode, "senders") {
                    return false;
                }
                let ours_pending = pending(ours);
                if ours_pending != Some(0) {
                    self.note(format_args!("drained: ours pending {ours_pending:?}"));
                    return false;
                }
                self.read(table) && self.ends_empty(our_inode, their_inode, "receivers")
            }
        }
    }

    /// Whether both ends of our connection are listed in the table in `self.text`, every row
    /// of them with empty queues (a row may be listed twice, or not at all, when the table
    /// changes while it is read: each row read is the state of its socket at some moment of
    /// the read).
    fn ends_empty(&mut self, our_inode: u64, their_inode: u64, what: &str) -> bool {
        let mut seen = [false; 2];
        let mut busy = false;
        for r in self.text.lines().skip(1).filter_map(TcpRow::parse) {
            let end = if r.inode == our_inode {
                0
            } else if r.inode == their_inode {
                1
            } else {
                continue;
            };
            seen[end] = true;
            busy |= r.tx_queue != 0 || r.rx_queue != 0;
        }
        if self.trace.is_some() {
            let rows: Vec<String> = self
                .text
                .lines()
                .filter(|l| {
                    TcpRow::parse(l).is_some_and(|r| r.inode == our_inode || r.inode == their_inode)
                })
                .map(|l| l.to_string())
                .collect();
            let n = self.text.lines().count();
            self.note(format_args!(
                "{what}: table {n} lines {} bytes, seen {seen:?}, busy {busy}, rows:\n{}",
                self.text.len(),
                rows.join("\n")
            ));
        }
        !busy && seen == [true, true]
    }

    /// Whether the system provably cannot write without new input now (see the module
    /// documentation). The caller has no unread line of the system in its own buffer.
    pub fn quiet(&mut self) -> bool {
        if let Some(t) = self.trace.as_mut() {
            t.clear();
        }
        if !self.their_end() {
            self.note(format_args!("their end not found"));
            return false;
        }
        let mut first = std::mem::take(&mut self.first);
        first.clear();
        let ok = self.sample(&mut first, true) && self.drained();
        self.first = first;
        if !ok {
            return false;
        }
        let mut second = std::mem::take(&mut self.second);
        second.clear();
        let same = self.sample(&mut second, false) && self.first == second;
        self.note(format_args!("same {same}"));
        self.second = second;
        same
    }

    /// Every thread of the tree, asleep (in a wait only our input or the tree can end, when
    /// `check_waits`), into `out`; false as soon as one is not.
    fn sample(&mut self, out: &mut Vec<Seen>, check_waits: bool) -> bool {
        let mut pids = if check_waits {
            vec![self.root]
        } else {
            // the processes of the first sample, in its order
            let mut pids: Vec<u32> = self.first.iter().map(|s| s.0).collect();
            pids.dedup();
            pids
        };
        let mut i = 0;
        let mut seen = true;
        while i < pids.len() {
            let p = pids[i];
            i += 1;
            let (len_out, len_pids) = (out.len(), pids.len());
            let mut tries = 0;
            let asleep = loop {
                match self.sample_proc(p, out, &mut pids, check_waits) {
                    Sampled::Asleep => break true,
                    Sampled::Awake => break false,
                    Sampled::Stale if tries == 0 => {
                        // list the threads again, once
                        tries += 1;
                        self.procs.retain(|q| q.pid != p);
                        out.truncate(len_out);
                        pids.truncate(len_pids);
                    }
                    Sampled::Stale => break false,
                }
            };
            if !asleep {
                seen = false;
                break;
            }
        }
        // forget the processes that have left the tree (their files read as errors anyway)
        if seen {
            self.procs.retain(|q| pids.contains(&q.pid));
        }
        seen
    }

    /// The threads of process `p` (see [`ProcessProbe::sample`]); its children into `pids`.
    fn sample_proc(
        &mut self,
        p: u32,
        out: &mut Vec<Seen>,
        pids: &mut Vec<u32>,
        check_waits: bool,
    ) -> Sampled {
        let at = match self.procs.iter().position(|q| q.pid == p) {
            Some(at) => at,
            None => match list(p) {
                Some(tasks) => {
                    self.procs.push(Proc { pid: p, tasks });
                    self.procs.len() - 1
                }
                None => return Sampled::Awake,
            },
        };
        let n = self.procs[at].tasks.len();
        for k in 0..n {
            let tid = self.procs[at].tasks[k].tid;
            if !read_at(
                &self.procs[at].tasks[k].stat,
                &mut self.buf,
                &mut self.text,
                true,
            ) {
                return Sampled::Stale;
            }
            // pid (comm) S ...: the comm may hold blanks and parentheses
            let Some((_, rest)) = self.text.rsplit_once(") ") else {
                return Sampled::Awake;
            };
            let mut fields = rest.split_ascii_whitespace();
            let Some(state) = fields.next().and_then(|f| f.chars().next()) else {
                return Sampled::Awake;
            };
            // field 20 of stat, the process's number of threads: a thread created since
            // the listing makes the listing stale
            match fields.nth(16).and_then(|f| f.parse::<usize>().ok()) {
                Some(threads) if threads == n => {}
                _ => return Sampled::Stale,
            }
            if matches!(state, 'Z' | 'X') {
                continue; // a zombie writes nothing
            }
            if state != 'S' {
                self.note(format_args!("{p}/{tid} state {state}"));
                return Sampled::Awake;
            }
            if check_waits {
                if !read_at(
                    &self.procs[at].tasks[k].syscall,
                    &mut self.buf,
                    &mut self.text,
                    true,
                ) {
                    return Sampled::Stale;
                }
                if !self.waits_for_input(p) {
                    let sys = self.text.trim_end().to_string();
                    self.note(format_args!("{p}/{tid} waits in {sys}"));
                    return Sampled::Awake;
                }
            }
            if !read_at(
                &self.procs[at].tasks[k].schedstat,
                &mut self.buf,
                &mut self.text,
                true,
            ) {
                return Sampled::Stale;
            }
            let mut f = self.text.split_ascii_whitespace();
            let ns = f.next().and_then(|x| x.parse().ok());
            let runs = f.nth(1).and_then(|x| x.parse().ok());
            let (Some(ns), Some(runs)) = (ns, runs) else {
                return Sampled::Awake;
            };
            out.push((p, tid, runs, ns));
            if self.trace.is_some() {
                let sys = if check_waits {
                    read_at(
                        &self.procs[at].tasks[k].syscall,
                        &mut self.buf,
                        &mut self.text,
                        true,
                    );
                    self.text.trim_end().to_string()
                } else {
                    String::new()
                };
                self.note(format_args!(
                    "{} {p}/{tid} {state} runs {runs} ns {ns} {sys}",
                    if check_waits { "first" } else { "second" }
                ));
            }
            if !check_waits {
                // the second sample: a process created since the first was forked by a
                // thread that ran, whose run count differs; the first sample's tree stands
                continue;
            }
            if !read_at(
                &self.procs[at].tasks[k].children,
                &mut self.buf,
                &mut self.text,
                false,
            ) {
                return Sampled::Stale;
            }
            pids.extend(
                self.text
                    .split_ascii_whitespace()
                    .filter_map(|c| c.parse::<u32>().ok()),
            );
        }
        Sampled::Asleep
    }

    /// Read a small file into `self.text`.
    fn read(&mut self, path: &str) -> bool {
        match std::fs::File::open(path) {
            Ok(f) => read_at(&f, &mut self.buf, &mut self.text, false),
            Err(_) => false,
        }
    }

    /// Whether descriptor `fd` of process `p` is the system's end of the channel (its standard
    /// input, or its end of our connection).
    fn is_stdin(&self, p: u32, fd: u64) -> bool {
        std::fs::read_link(format!("/proc/{p}/fd/{fd}")).is_ok_and(|l| l == self.input)
    }

    /// Whether the thread at `base` (of process `p`) waits in a call that only our input or
    /// the system itself can end (see the module documentation).
    /// The thread's `syscall` file is in `self.text`.
    fn waits_for_input(&mut self, p: u32) -> bool {
        let mut f = self.text.split_ascii_whitespace();
        let Some(nr) = f.next().and_then(|n| n.parse::<i64>().ok()) else {
            return false; // "running"
        };
        let args: Vec<u64> = f
            .take(6)
            .filter_map(|a| u64::from_str_radix(a.trim_start_matches("0x"), 16).ok())
            .collect();
        if args.len() < 6 {
            return false;
        }
        const POLLIN_LIKE: i16 = 0x001 | 0x002 | 0x040 | 0x080; // POLLIN, PRI, RDNORM, RDBAND
        match nr {
            // read, pread64, readv; recvfrom, recvmsg (a socket)
            0 | 17 | 19 | 45 | 47 => self.is_stdin(p, args[0]),
            // futex: FUTEX_WAIT (0) or FUTEX_WAIT_BITSET (9), private or not, no time-out
            202 => matches!(args[1] & 0x7f, 0 | 9) && args[3] == 0,
            // wait4, waitid: a child, itself part of the system
            61 | 247 => true,
            // poll(fds, n, timeout = -1), ppoll(fds, n, NULL, ...)
            7 | 271 => {
                let infinite = if nr == 7 {
                    args[2] as i32 == -1
                } else {
                    args[2] == 0
                };
                let n = args[1] as usize;
                if !infinite || n == 0 || n > 64 {
                    return false;
                }
                let Some(bytes) = read_mem(p, args[0], n * 8) else {
                    return false;
                };
                bytes.chunks_exact(8).all(|c| {
                    let fd = i32::from_ne_bytes([c[0], c[1], c[2], c[3]]);
                    let events = i16::from_ne_bytes([c[4], c[5]]);
                    fd < 0 || (events & !POLLIN_LIKE == 0 && self.is_stdin(p, fd as u64))
                })
            }
            // select(n, r, w, e, NULL), pselect6(n, r, w, e, NULL, ...)
            23 | 270 => {
                let n = args[0] as usize;
                if args[4] != 0 || args[2] != 0 || args[3] != 0 || n == 0 || n > 1024 {
                    return false;
                }
                let Some(bits) = read_mem(p, args[1], n.div_ceil(64) * 8) else {
                    return false;
                };
                (0..n).all(|fd| bits[fd / 8] >> (fd % 8) & 1 == 0 || self.is_stdin(p, fd as u64))
            }
            // epoll_wait(epfd, ev, max, -1), epoll_pwait(epfd, ev, max, -1, ...)
            232 | 281 => {
                if args[3] as i32 != -1 || !self.read(&format!("/proc/{p}/fdinfo/{}", args[0])) {
                    return false;
                }
                let targets: Vec<u64> = self
                    .text
                    .lines()
                    .filter_map(|l| l.strip_prefix("tfd:"))
                    .filter_map(|l| l.split_ascii_whitespace().next()?.parse().ok())
                    .collect();
                !targets.is_empty() && targets.into_iter().all(|fd| self.is_stdin(p, fd))
            }
            _ => false,
        }
    }
}

/// The threads of process `p`, with their `/proc` files open; `None` if it has none or they
/// cannot be opened.
fn list(p: u32) -> Option<Vec<Task>> {
    let mut tids: Vec<u32> = std::fs::read_dir(format!("/proc/{p}/task"))
        .ok()?
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse().ok()))
        .collect();
    if tids.is_empty() {
        return None;
    }
    tids.sort_unstable();
    tids.into_iter()
        .map(|tid| {
            let open = |f: &str| std::fs::File::open(format!("/proc/{p}/task/{tid}/{f}")).ok();
            Some(Task {
                tid,
                stat: open("stat")?,
                schedstat: open("schedstat")?,
                syscall: open("syscall")?,
                children: open("children")?,
            })
        })
        .collect()
}

/// Read a small `/proc` file from its start into `text` (through `buf`); false on an error
/// (a thread that has exited). A file shown in one piece (`stat`, `schedstat`, `syscall`:
/// `single` is true) is whole after a read that did not fill the buffer; the others are read
/// until the end.
fn read_at(f: &std::fs::File, buf: &mut Vec<u8>, text: &mut String, single: bool) -> bool {
    use std::os::unix::fs::FileExt;
    let mut len = 0;
    loop {
        match f.read_at(&mut buf[len..], len as u64) {
            Ok(0) => break,
            Ok(n) => {
                len += n;
                if len == buf.len() {
                    buf.resize(buf.len() * 2, 0);
                } else if single {
                    break;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
    text.clear();
    text.push_str(&String::from_utf8_lossy(&buf[..len]));
    true
}

/// How ioco talks to the system.
#[derive(Clone, Copy)]
enum Channel {
    /// Its standard input and output: our write end and our read end.
    Pipes { stdin_fd: RawFd, stdout_fd: RawFd },
    /// A TCP connection on this machine: our socket, the inodes of both ends, and the table
    /// of `/proc/net` they are in.
    Tcp {
        ours: RawFd,
        our_inode: u64,
        their_inode: u64,
        table: &'static str,
    },
}

/// A row of `/proc/net/tcp{,6}`: addresses as written there, queues, inode.
struct TcpRow<'a> {
    local: &'a str,
    remote: &'a str,
    tx_queue: u64,
    rx_queue: u64,
    inode: u64,
}

impl<'a> TcpRow<'a> {
    /// `sl local rem st tx_queue:rx_queue tr:when retrnsmt uid timeout inode ...`
    fn parse(line: &'a str) -> Option<TcpRow<'a>> {
        let f: Vec<&str> = line.split_ascii_whitespace().take(10).collect();
        let (tx, rx) = f.get(4)?.split_once(':')?;
        Some(TcpRow {
            local: f.get(1)?,
            remote: f.get(2)?,
            tx_queue: u64::from_str_radix(tx, 16).ok()?,
            rx_queue: u64::from_str_radix(rx, 16).ok()?,
            inode: f.get(9)?.parse().ok()?,
        })
    }
}

/// The inode of a `socket:[INODE]` link.
fn socket_inode(link: &str) -> Option<u64> {
    link.strip_prefix("socket:[")?
        .strip_suffix(']')?
        .parse()
        .ok()
}

/// Bytes waiting in a pipe or socket (`FIONREAD`); `None` if it cannot be asked.
fn pending(fd: RawFd) -> Option<i32> {
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int through a valid pointer; `fd` is a descriptor we own.
    let r = unsafe { libc::ioctl(fd, libc::FIONREAD, &mut n) };
    (r == 0).then_some(n)
}

/// `len` bytes of process `p`'s memory at `addr` (`/proc/PID/mem`; ioco started the process,
/// so it may read it).
fn read_mem(p: u32, addr: u64, len: usize) -> Option<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let f = std::fs::File::open(format!("/proc/{p}/mem")).ok()?;
    let mut buf = vec![0u8; len];
    f.read_exact_at(&mut buf, addr).ok()?;
    Some(buf)
}

#[cfg(all(test, target_os = "linux", target_arch = "x86_64"))]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::os::unix::io::AsRawFd;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    /// Waits (at most 20 s) until the probe says quiet; false if it never does.
    fn becomes_quiet(p: &mut ProcessProbe) -> bool {
        let end = Instant::now() + Duration::from_secs(20);
        while Instant::now() < end {
            if p.quiet() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        false
    }

    fn spawn(cmd: &str) -> std::process::Child {
        Command::new("/bin/sh")
            .args(["-c", cmd])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap()
    }

    #[test]
    fn a_shell_reading_its_input_is_quiet_a_sleeping_one_is_not() {
        let mut c = spawn("read x; echo got; read y");
        let (i, o) = (c.stdin.as_ref().unwrap(), c.stdout.as_ref().unwrap());
        let mut p = ProcessProbe::new(c.id(), i.as_raw_fd(), o.as_raw_fd()).unwrap();
        assert!(becomes_quiet(&mut p));
        c.stdin.as_mut().unwrap().write_all(b"a\n").unwrap();
        // the answer is not read yet: not quiet, whatever the shell does
        std::thread::sleep(Duration::from_millis(50));
        assert!(!p.quiet());
        let mut got = [0u8; 4];
        c.stdout.as_mut().unwrap().read_exact(&mut got).unwrap();
        assert!(becomes_quiet(&mut p));
        let _ = c.kill();
        let _ = c.wait();

        // a thread created after a quiet probe (the probe keeps its files open): the new
        // thread, in a timed wait, is seen, never taken for the old listing
        let mut c = spawn(
            "exec python3 -c 'import sys, threading, time\n\
             sys.stdin.readline()\n\
             threading.Thread(target=lambda: time.sleep(30), daemon=True).start()\n\
             sys.stdin.readline()'",
        );
        let (i, o) = (c.stdin.as_ref().unwrap(), c.stdout.as_ref().unwrap());
        let mut p = ProcessProbe::new(c.id(), i.as_raw_fd(), o.as_raw_fd()).unwrap();
        assert!(becomes_quiet(&mut p));
        c.stdin.as_mut().unwrap().write_all(b"go\n").unwrap();
        // until the thread is there the probe may say anything; once it is, never quiet
        let end = Instant::now() + Duration::from_secs(20);
        while std::fs::read_dir(format!("/proc/{}/task", c.id()))
            .unwrap()
            .count()
            < 2
        {
            assert!(Instant::now() < end, "the thread did not start");
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(50));
        for _ in 0..20 {
            assert!(!p.quiet());
        }
        let _ = c.kill();
        let _ = c.wait();

        // a timed wait (a child that sleeps) is never quiescence
        let mut c = spawn("sleep 30");
        let (i, o) = (c.stdin.as_ref().unwrap(), c.stdout.as_ref().unwrap());
        let mut p = ProcessProbe::new(c.id(), i.as_raw_fd(), o.as_raw_fd()).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        for _ in 0..20 {
            assert!(!p.quiet());
        }
        let _ = c.kill();
        let _ = c.wait();
    }
}
