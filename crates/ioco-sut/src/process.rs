//! A SUT that is a child process, spoken to over its stdin/stdout in the [`super::wire`] format.
//!
//! * The command line is split with shell-words rules (`"./sut --mode faulty"`); no shell runs
//!   unless you write `sh -c '...'`.
//! * The child runs in its own process group; the whole group is killed with SIGKILL on
//!   [`Sut::reset`] (unless a reset line is configured), [`Sut::close`], on errors and on
//!   drop, and reaped, so no process is ever left behind (grandchildren that stay in the group
//!   included).
//! * Its standard error is captured; the last [`ProcessConfig::stderr_limit`] bytes go into the
//!   run's result.
//! * Standard output is read by a reader thread into a bounded channel: a flooding SUT blocks on
//!   its pipe instead of growing our memory; a line over the cap is an error.
//! * Writes to stdin are non-blocking with a deadline: a SUT that stops reading its input is an
//!   error ([`SutError::Stuck`]), not a hang.
//! * When stdout ends, the exit status is collected: [`SutError::Exited`] says
//!   "exited with status 3" or "was killed by signal 11 (SIGSEGV)".
//! * The process groups of all running SUTs are listed in one process-wide registry, so that a
//!   tester that is interrupted (Ctrl-C goes to the terminal's foreground group, not to the
//!   SUT's own) can take them down before it exits: [`stop_all`].
//! * Descendants that leave the process group (a daemon calls `setsid` and forks again) are
//!   found by a mark in their environment: each SUT gets `IOCO_SUT_TOKEN=<ioco pid>.<k>`, which
//!   its descendants inherit, and a kill also sweeps `/proc` for that mark ([`sweep`]). On Linux
//!   the SUT also gets `PR_SET_PDEATHSIG(SIGKILL)`, so it dies with an `ioco` killed by SIGKILL
//!   (which can run no clean-up). Guarantees: on Linux, no process that keeps the mark outlives
//!   its adapter; elsewhere, the process group is killed (a `setsid` daemon may survive), and
//!   a SIGKILLed tester leaves its SUTs to the system.

use super::lineio::{spawn_tail, FdLines, LineIo, NotReady, Stop, Tail};
use super::wire::{Codec, WireConfig};
use super::{Observation, Sent, Sut, SutError};
use ioco_model::{Alphabet, Label};
use std::os::unix::io::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The process groups of the SUTs that are running (see [`stop_all`]).
static GROUPS: Mutex<Vec<libc::pid_t>> = Mutex::new(Vec::new());

fn groups() -> std::sync::MutexGuard<'static, Vec<libc::pid_t>> {
    GROUPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kill (SIGKILL) the process group of every SUT process that is running, in every thread: for
/// a tester about to exit on a signal (`ioco` calls it on SIGINT, SIGTERM and SIGHUP), since
/// its adapters' `Drop` will not run then. The adapters reap their children as usual if they
/// go on. Returns how many groups it killed.
pub fn stop_all() -> usize {
    let g = groups();
    for &pid in g.iter() {
        // SAFETY: a plain syscall on a process group this process created; an error (the
        // group is gone already) is ignored.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    sweep_all();
    g.len()
}

/// [`sweep`] every descendant of every SUT this process started (for a tester about to exit).
/// A process that never started a SUT has none, and does not read `/proc` (which costs more
/// than a whole `ioco gen` of a small machine on a busy host).
pub fn sweep_all() -> usize {
    if !STARTED_ANY.load(std::sync::atomic::Ordering::SeqCst) {
        return 0;
    }
    sweep(&format!("{}.", std::process::id()))
}

/// Whether this process has handed out a SUT mark ([`next_token`]), i.e. may have descendants.
static STARTED_ANY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The environment variable that marks a SUT and its descendants.
pub const TOKEN_VAR: &str = "IOCO_SUT_TOKEN";

/// A fresh mark for the next SUT of this process: `<pid>.<k>`.
fn next_token() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    // before the mark exists, so a sweep never misses a process that carries it
    STARTED_ANY.store(true, Ordering::SeqCst);
    format!(
        "{}.{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// SIGKILL every process (other than this one) whose environment holds `IOCO_SUT_TOKEN=`
/// followed by `prefix` (a whole token `<pid>.<k>`, or `<pid>.` for all of this process's
/// SUTs). Linux only (`/proc`); elsewhere a no-op. Returns how many it killed. Processes that
/// cannot be read (another user's) are skipped: they cannot carry our mark.
pub fn sweep(prefix: &str) -> usize {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let me = std::process::id();
    let whole = !prefix.ends_with('.');
    let needle = format!("{TOKEN_VAR}={prefix}");
    let mut killed = 0;
    for entry in dir.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
            continue;
        };
        let marked = env
            .split(|&b| b == 0)
            .any(|var| var.starts_with(needle.as_bytes()) && (!whole || var.len() == needle.len()));
        if marked {
            // SAFETY: a plain syscall; the process carries our mark, so it descends from a
            // SUT we started. An error (gone already) is ignored.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
            killed += 1;
        }
    }
    killed
}

/// How to bring the SUT back to its initial state between runs.
#[derive(Clone, PartialEq, Eq, Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResetMode {
    /// Kill the process (group) and start it again (default, always works).
    #[default]
    Restart,
    /// Write this line (e.g. `#reset`) and keep the process; falls back to a restart if the
    /// process is gone.
    Line(String),
}

/// Configuration of a [`ProcessAdapter`] (plain data: serialisable, part of a
/// [`crate::system::System`]).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct ProcessConfig {
    /// Program and arguments.
    pub argv: Vec<String>,
    /// Wire format.
    pub wire: WireConfig,
    /// Reset between runs.
    pub reset: ResetMode,
    /// How long `send` waits for the system to settle before giving an input (its marker, or
    /// without one a time-out without output) where the tester has said no time-out of its own
    /// ([`Sut::settle_timeout`]), and how long a reset waits for the marker.
    pub settle: Duration,
    /// Bytes of standard error kept.
    pub stderr_limit: usize,
    /// Give up writing one input after this long.
    pub write_timeout: Duration,
    /// How long to wait for the system to be ready (its start-up quiescence marker, its ready
    /// line, or, without either, on Linux until it blocks reading its input) before the first
    /// input: one budget for all the starts of a run (issue #35), so a system that is never
    /// ready costs a run this long, not this long per start.
    pub startup_timeout: Duration,
    /// A line the system prints when it is ready (a banner): lines before it are not outputs.
    pub ready_line: Option<String>,
    /// Time-out mode on Linux: how long to wait, after a start, for the system to block
    /// reading its input (seen in `/proc`) before the first input.
    pub startup_grace: Duration,
    /// Without a marker, where outputs are allowed: how long to wait for an answer in flight
    /// before an input.
    pub io_time: Duration,
    /// Without a marker: δ as soon as the process provably cannot write without new input
    /// ([`super::quiescence`]; Linux), not only after a whole time-out.
    pub process_quiescence: bool,
    /// How many times the system is started before a run is an error (`--retries` + 1): for
    /// the progress lines and the error of a system that is not ready in time.
    pub start_tries: usize,
}

impl ProcessConfig {
    /// A configuration for a command line split with shell-words rules.
    pub fn from_command_line(cmd: &str) -> Result<ProcessConfig, SutError> {
        let argv = shell_words::split(cmd).map_err(|e| {
            SutError::Start(format!(
                "cannot split the command line `{cmd}`: {e} (hint: check the quotes)"
            ))
        })?;
        if argv.is_empty() {
            return Err(SutError::Start(
                "the command line is empty (hint: give the program to test)".into(),
            ));
        }
        Ok(ProcessConfig {
            argv,
            wire: WireConfig::default(),
            reset: ResetMode::Restart,
            settle: Duration::from_millis(200),
            stderr_limit: 8 * 1024,
            write_timeout: Duration::from_secs(5),
            startup_timeout: Duration::from_secs(30),
            ready_line: None,
            startup_grace: Duration::from_secs(5),
            io_time: Duration::from_millis(50),
            process_quiescence: true,
            start_tries: 1,
        })
    }
}

struct Running {
    proc: Marked,
    io: LineIo,
    stderr: Arc<Tail>,
}

impl Running {
    fn pid(&self) -> u32 {
        self.proc.child.id()
    }

    /// True when the child process has ended (its pipes may still be open elsewhere).
    fn exited(&mut self) -> bool {
        self.proc.exited()
    }

    fn kill(&mut self) {
        self.proc.kill()
    }

    fn status(&mut self, wait: Duration) -> String {
        self.proc.status(wait)
    }
}

/// A child process in its own process group, listed in the registry of [`stop_all`] and
/// marked with [`TOKEN_VAR`] (see the module documentation): killed with its group and its
/// marked descendants by [`Marked::kill`] and on drop. Used for a SUT on pipes
/// ([`ProcessAdapter`]) and for a server started per run ([`super::tcp`]).
pub(crate) struct Marked {
    pub(crate) child: Child,
    /// The mark in the environment of the process and its descendants ([`sweep`]).
    token: String,
}

impl Marked {
    /// Spawn `cmd` in a new process group with a fresh mark (on Linux, it also dies with the
    /// thread that started it).
    pub(crate) fn spawn(cmd: &mut Command) -> std::io::Result<Marked> {
        cmd.process_group(0);
        let token = next_token();
        cmd.env(TOKEN_VAR, &token);
        #[cfg(target_os = "linux")]
        {
            let parent = std::process::id() as libc::pid_t;
            // SAFETY: between fork and exec only async-signal-safe calls (prctl, getppid,
            // _exit-free checks) are made.
            unsafe {
                cmd.pre_exec(move || {
                    // Die with the thread that started us (the tester's worker, which kills
                    // us anyway when it ends), and with a tester killed by SIGKILL.
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    if libc::getppid() != parent {
                        // The tester died before prctl took effect.
                        return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
                    }
                    Ok(())
                });
            }
        }
        let child = cmd.spawn()?;
        groups().push(child.id() as libc::pid_t);
        Ok(Marked { child, token })
    }

    /// True when the process has ended (its pipes may still be open elsewhere).
    pub(crate) fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Kill the whole process group and reap the child.
    pub(crate) fn kill(&mut self) {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: plain syscalls on a process group we created; errors (already gone) ignored.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
        // Out of the registry before the child is reaped: its pid may be reused after that.
        groups().retain(|&g| g != pid);
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Descendants that left the group (a daemon's `setsid`), swept off the tester's path
        // (reading /proc costs about a millisecond): at once, and again a little later, since
        // a process in the middle of an `exec` shows no environment for a moment. A tester
        // that exits sweeps every mark of its own synchronously ([`sweep_all`]).
        let token = self.token.clone();
        let spawned = std::thread::Builder::new()
            .name("ioco-sweep".into())
            .spawn(move || {
                sweep(&token);
                std::thread::sleep(Duration::from_millis(50));
                sweep(&token);
            });
        if spawned.is_err() {
            sweep(&self.token);
        }
    }

    /// Which of its standard streams a process that is still running closed, as far as
    /// `/proc/PID/fd` says: its standard input (our write to it failed), else its standard
    /// output (our read of it ended).
    fn closed_stream(&self) -> &'static str {
        let fd0 = format!("/proc/{}/fd/0", self.child.id());
        if cfg!(target_os = "linux") && std::fs::read_link(fd0).is_err() {
            "standard input"
        } else {
            "standard output"
        }
    }

    /// The exit status, waiting up to `wait` for the process to end; kills it if it does not.
    pub(crate) fn status(&mut self, wait: Duration) -> String {
        let deadline = Instant::now() + wait;
        loop {
            match self.child.try_wait() {
                Ok(Some(st)) => {
                    // Take the rest of the group down too.
                    // SAFETY: as in `kill`.
                    unsafe {
                        libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL);
                    }
                    return describe_status(st);
                }
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(2))
                }
                _ => {
                    let closed = self.closed_stream();
                    self.kill();
                    return format!("closed its {closed} (and was killed)");
                }
            }
        }
    }
}

impl Drop for Marked {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Describe an exit status for humans.
pub fn describe_status(st: ExitStatus) -> String {
    if let Some(c) = st.code() {
        format!("exited with status {c}")
    } else if let Some(sig) = st.signal() {
        let name = match sig {
            libc::SIGSEGV => " (SIGSEGV)",
            libc::SIGABRT => " (SIGABRT)",
            libc::SIGKILL => " (SIGKILL)",
            libc::SIGTERM => " (SIGTERM)",
            libc::SIGBUS => " (SIGBUS)",
            libc::SIGFPE => " (SIGFPE)",
            libc::SIGPIPE => " (SIGPIPE)",
            libc::SIGILL => " (SIGILL)",
            _ => "",
        };
        format!("was killed by signal {sig}{name}")
    } else {
        format!("ended ({st})")
    }
}

/// A child-process SUT.
pub struct ProcessAdapter {
    cfg: ProcessConfig,
    codec: Arc<Codec>,
    running: Option<Running>,
    /// Time-out mode: whether `/proc` showed the system blocked reading (None: not tried yet).
    probe: Option<bool>,
    /// What earlier runs learned of the answer times ([`LineIo::learned`]).
    learned: Option<(Duration, Duration, bool)>,
    /// The stderr tail of the last process, kept after it ended.
    dead_stderr: Option<String>,
    /// The tester's last [`Sut::settle_timeout`], for the next process too.
    settle_hint: Option<Duration>,
    /// Starts of this run that were not ready, and how long they waited in all: what they
    /// spent of the run's start-up budget ([`ProcessConfig::startup_timeout`]; a new run,
    /// [`Sut::set_seed`], and a start that is ready restore it).
    not_ready: (usize, Duration),
    /// Why the last of them was not ready, for the error of a start refused after them.
    not_ready_why: String,
}

impl ProcessAdapter {
    /// An adapter for `cfg` speaking the labels of `alphabet`. The process starts at the first
    /// [`Sut::reset`].
    pub fn new(alphabet: &Alphabet, cfg: ProcessConfig) -> Result<ProcessAdapter, SutError> {
        let codec = Codec::new(alphabet, &cfg.wire).map_err(SutError::Start)?;
        Ok(ProcessAdapter {
            cfg,
            codec: Arc::new(codec),
            running: None,
            probe: None,
            learned: None,
            dead_stderr: None,
            settle_hint: None,
            not_ready: (0, Duration::ZERO),
            not_ready_why: String::new(),
        })
    }

    /// The pid of the running child (its process group id too), if any.
    pub fn pid(&self) -> Option<u32> {
        self.running.as_ref().map(Running::pid)
    }

    fn spawn(&mut self) -> Result<(), SutError> {
        let (failed, waited) = self.not_ready;
        if failed > 0 && waited >= self.cfg.startup_timeout {
            // the run's start-up budget is spent: no other start (and no other wait)
            self.running = None;
            let why = if self.not_ready_why.is_empty() {
                format!("the system was not ready after {} s", seconds(waited))
            } else {
                self.not_ready_why.clone()
            };
            return Err(SutError::Start(format!(
                "{why}; not started again: --startup-timeout is one budget for all the starts \
                 of a run"
            )));
        }
        if let Some(r) = &self.running {
            self.learned = Some(r.io.learned());
        }
        self.running = None; // kills a previous one
        let mut cmd = Command::new(&self.cfg.argv[0]);
        cmd.args(&self.cfg.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut proc = Marked::spawn(&mut cmd).map_err(|e| {
            SutError::Start(format!(
                "`{}`: {e} (hint: give a path to an executable, e.g. ./sut, or use sh -c '...')",
                self.cfg.argv[0]
            ))
        })?;
        let child = &mut proc.child;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        // Non-blocking stdin: a SUT that stops reading must not block the tester forever.
        // SAFETY: fcntl on a file descriptor we own.
        unsafe {
            let fd = stdin.as_raw_fd();
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
            }
        }
        let (in_fd, out_fd) = (stdin.as_raw_fd(), stdout.as_raw_fd());
        let rx = FdLines::new(Box::new(stdout), self.codec.max_line);
        let tail = spawn_tail(stderr, self.cfg.stderr_limit);
        let mut io = LineIo::new(
            Box::new(stdin),
            rx,
            Arc::clone(&self.codec),
            self.cfg.settle,
        );
        io.write_timeout = self.cfg.write_timeout;
        io.settle_hint = self.settle_hint;
        io.io_time = self.cfg.io_time;
        if self.cfg.process_quiescence && !self.codec.has_marker() {
            io.probe = super::quiescence::ProcessProbe::new(proc.child.id(), in_fd, out_fd);
        }
        if let Some(l) = self.learned {
            io.carry(l);
        }
        self.running = Some(Running {
            proc,
            io,
            stderr: tail,
        });
        self.wait_ready()
    }

    /// Never give the first input before the system is ready (see
    /// [`ProcessConfig::startup_timeout`]).
    fn wait_ready(&mut self) -> Result<(), SutError> {
        let budget = self.cfg.startup_timeout;
        // what this run's earlier starts left of its budget
        let timeout = budget.saturating_sub(self.not_ready.1);
        let ready = self.cfg.ready_line.clone();
        let marker = self.codec.has_marker();
        let r = self.running.as_mut().expect("running");
        let pid = r.pid();
        let child = &mut r.proc.child;
        let marker_line = String::from_utf8_lossy(&self.codec.marker_line()).into_owned();
        let awaited = |what: NotReady| match what {
            NotReady::Marker => format!("start-up quiescence marker `{marker_line}`"),
            NotReady::ReadyLine => format!("ready line `{}`", ready.as_deref().unwrap_or("")),
        };
        let (failed, waited_before) = self.not_ready;
        let attempt = failed + 1;
        let tries = self.cfg.start_tries.max(attempt);
        let t0 = std::time::Instant::now();
        let res = r.io.wait_ready(
            timeout,
            ready.as_deref(),
            &mut || matches!(child.try_wait(), Ok(Some(_))),
            &mut |waited, what| {
                use std::io::Write as _;
                let _ = writeln!(
                    std::io::stderr(),
                    "ioco: waiting for the SUT's {} (start {attempt} of {tries}, {} s of \
                     --startup-timeout {} s)",
                    awaited(what),
                    (waited_before + waited).as_secs(),
                    seconds(budget)
                );
            },
        );
        let spent = waited_before + t0.elapsed().min(timeout);
        match res {
            // ended during start-up: the run's first step reports it (exit status, 127)
            Err(Err(Stop::Eof)) => return Ok(()),
            Err(Err(s)) => {
                self.not_ready = (attempt, spent);
                return Err(self.stopped(s));
            }
            Err(Ok(what)) => {
                let total = waited_before + timeout;
                self.not_ready = (attempt, total);
                let starts = if attempt > 1 {
                    format!(" ({attempt} starts)")
                } else {
                    String::new()
                };
                let hint = match what {
                    NotReady::Marker => format!(
                        "check that the system prints `{marker_line}` (--quiescence-marker) once \
                         it has started, "
                    ),
                    NotReady::ReadyLine => "check the --ready-line, ".into(),
                };
                self.not_ready_why = format!(
                    "the system was not ready after {} s{starts}: its {} did not come (hint: \
                     {hint}or raise --startup-timeout, one budget for all the starts of a run)",
                    seconds(total),
                    awaited(what)
                );
                let e = SutError::Start(self.not_ready_why.clone());
                return Err(self.stopped(Stop::Err(e)));
            }
            Ok(()) => self.not_ready = (0, Duration::ZERO),
        }
        if !marker && ready.is_none() && self.probe != Some(false) {
            // a system this never recognises once is not probed again (no grace lost per run)
            let seen = blocked_reading(pid, self.cfg.startup_grace);
            if self.probe.is_none() || seen {
                self.probe = Some(seen);
            }
        }
        Ok(())
    }

    fn running(&mut self) -> Result<&mut Running, SutError> {
        if self.running.is_none() {
            self.spawn()?;
        }
        Ok(self.running.as_mut().expect("just spawned"))
    }

    /// Turn a line-level stop into an error; on end of stream, collect the exit status. The
    /// process is gone afterwards either way (errors kill it).
    fn stopped(&mut self, s: Stop) -> SutError {
        let err = match s {
            Stop::Eof => {
                let r = self.running.as_mut().expect("running");
                SutError::Exited {
                    status: r.status(Duration::from_secs(1)),
                }
            }
            Stop::Err(e) => e,
        };
        // Keep the stderr tail readable after the process is gone.
        if let Some(mut r) = self.running.take() {
            r.kill();
            self.dead_stderr = r.stderr.render(Some(Duration::from_millis(200)));
        }
        err
    }
}

/// A duration in seconds as people write it: `30`, `0.5`.
fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{}", s as u64)
    } else {
        format!("{s}")
    }
}

/// Time-out mode (no marker, no ready line), Linux: wait until a process of the system's group
/// has a thread asleep reading its standard input (our pipe: `read`, `poll`, `select` or
/// `epoll`), polling `/proc` (every 50 µs at first, then up to every 2 ms), at most `grace`. Returns whether it saw one; returns
/// at once where `/proc` cannot tell. A system that is still starting
/// (`sh -c 'sleep 1; exec sut'`) would otherwise get its first input, and give its first
/// answer, late: a false δ.
fn blocked_reading(pid: u32, grace: Duration) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::fs::{read_dir, read_link, read_to_string};
        let deadline = Instant::now() + grace;
        let Ok(pipe) = read_link(format!("/proc/{pid}/fd/0")) else {
            return false;
        };
        // pid (comm) state ppid pgrp ...: the state and the process group
        let stat = |path: String| -> Option<(String, u32)> {
            let text = read_to_string(path).ok()?;
            let (_, rest) = text.rsplit_once(") ")?;
            let f: Vec<&str> = rest.split(' ').take(3).collect();
            Some((f.first()?.to_string(), f.get(2)?.parse().ok()?))
        };
        let waiting = |p: u32, t: &str| {
            let asleep = stat(format!("/proc/{p}/task/{t}/stat")).is_some_and(|(s, _)| s == "S");
            let wchan = read_to_string(format!("/proc/{p}/task/{t}/wchan")).unwrap_or_default();
            asleep
                && ["pipe_read", "pipe_wait", "poll", "select", "epoll"]
                    .iter()
                    .any(|w| wchan.contains(w))
                && reads_the_pipe(p, t, &pipe)
        };
        let reads = |p: u32| {
            read_dir(format!("/proc/{p}/task")).is_ok_and(|tasks| {
                tasks
                    .flatten()
                    .any(|t| waiting(p, &t.file_name().to_string_lossy()))
            })
        };
        let mut pause = Duration::from_micros(50);
        loop {
            // the system itself first (most systems read their input in the process ioco
            // started): no look at every process of the machine
            if reads(pid) {
                return true;
            }
            // the processes of the system's group (it leads its own process group)
            let mut procs = vec![pid];
            if let Ok(dir) = read_dir("/proc") {
                for e in dir.flatten() {
                    let Some(p) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
                        continue;
                    };
                    if p != pid && stat(format!("/proc/{p}/stat")).is_some_and(|(_, g)| g == pid) {
                        procs.push(p);
                    }
                }
            }
            let mut alive = false;
            for &p in &procs {
                let Ok(fd0) = read_link(format!("/proc/{p}/fd/0")) else {
                    continue;
                };
                alive = true;
                if fd0 != pipe {
                    continue;
                }
                if p != pid && reads(p) {
                    return true;
                }
            }
            if !alive || Instant::now() >= deadline {
                return false; // gone, or /proc cannot tell
            }
            // a system starts in about a millisecond: look often at first, then every 2 ms
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(2));
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (pid, grace);
        false
    }
}

/// Whether task `t` of process `p`, asleep in a read, reads from `pipe` (the system's standard
/// input): a shell of a wrapper script (a `pyenv` shim, `sh -c`) waiting on a command
/// substitution of its own is asleep reading a pipe too, but another one, and the system
/// behind it has not started yet. `/proc/…/syscall` names the call and its first argument, the
/// file descriptor, for `read`, `readv` and `pread64` (x86_64 numbers); for other calls
/// (`poll`, `select`, `epoll`: the descriptors are not in the arguments) and where it cannot be
/// read, the answer is yes, as before.
#[cfg(target_os = "linux")]
fn reads_the_pipe(p: u32, t: &str, pipe: &std::path::Path) -> bool {
    if !cfg!(target_arch = "x86_64") {
        return true;
    }
    let Ok(text) = std::fs::read_to_string(format!("/proc/{p}/task/{t}/syscall")) else {
        return true;
    };
    let mut f = text.split_whitespace();
    let (Some(call), Some(fd)) = (f.next(), f.next()) else {
        return true;
    };
    if !matches!(call, "0" | "17" | "19") {
        return true;
    }
    let Ok(fd) = u64::from_str_radix(fd.trim_start_matches("0x"), 16) else {
        return true;
    };
    std::fs::read_link(format!("/proc/{p}/fd/{fd}")).is_ok_and(|l| l == pipe)
}

impl ProcessAdapter {
    /// Give an input already encoded as a wire line (`\n` included; data arguments), with the
    /// race contract of [`Sut::send`] (for [`crate::data`]).
    pub(crate) fn send_line(&mut self, line: &[u8]) -> Result<Sent, SutError> {
        let r = self.running()?;
        // A background child of the SUT may keep its pipes open after it exited: the line I/O
        // asks `gone` before it writes, unless the system's marker just said it waits for
        // input (no `wait4` per input then: an exit after the marker is seen by the write, or
        // while the next observation waits).
        let child = &mut r.proc.child;
        match r
            .io
            .send_line_with(line, &mut || matches!(child.try_wait(), Ok(Some(_))))
        {
            Ok(s) => Ok(s),
            Err(s) => Err(self.stopped(s)),
        }
    }

    /// The raw bytes of the last output line observed (or raced), without `\n`.
    pub(crate) fn last_line(&self) -> &[u8] {
        self.running
            .as_ref()
            .map(|r| r.io.last_line.as_slice())
            .unwrap_or(&[])
    }
}

impl Sut for ProcessAdapter {
    /// A new run (called once before its starts): a new start-up budget.
    fn set_seed(&mut self, _seed: u64) {
        self.not_ready = (0, Duration::ZERO);
    }

    fn reset(&mut self) -> Result<(), SutError> {
        self.dead_stderr = None;
        match (&self.cfg.reset, self.running.is_some()) {
            (ResetMode::Line(line), true) => {
                let mut bytes = line.clone().into_bytes();
                bytes.push(b'\n');
                let settle = self.cfg.settle;
                let r = self.running.as_mut().expect("running");
                r.stderr.clear();
                let res = r.io.write_line(&bytes).and_then(|_| r.io.drain(settle));
                match res {
                    Ok(()) => Ok(()),
                    Err(_) => self.spawn(),
                }
            }
            _ => self.spawn(),
        }
    }

    fn expect_quiet(&mut self, quiet: bool) {
        if let Some(r) = self.running.as_mut() {
            r.io.quiet_expected = quiet;
        }
    }

    fn settle_timeout(&mut self, timeout: Duration) {
        self.settle_hint = Some(timeout);
        if let Some(r) = self.running.as_mut() {
            r.io.settle_hint = Some(timeout);
        }
    }

    fn send(&mut self, input: Label) -> Result<Sent, SutError> {
        // as `send_line`, the line made once per input label (`LineIo::send_with`)
        let r = self.running()?;
        let child = &mut r.proc.child;
        match r
            .io
            .send_with(input, &mut || matches!(child.try_wait(), Ok(Some(_))))
        {
            Ok(s) => Ok(s),
            Err(s) => Err(self.stopped(s)),
        }
    }

    fn observe(&mut self, timeout: Option<Duration>) -> Result<Observation, SutError> {
        let timeout = timeout.unwrap_or(ioco_engine::sut::DEFAULT_OBSERVE);
        let r = self.running()?;
        let child = &mut r.proc.child;
        let res =
            r.io.observe_with(timeout, &mut || matches!(child.try_wait(), Ok(Some(_))));
        match res {
            // Quiescent, or exited while a background child keeps its stdout open?
            Ok(Observation::Quiescent) if !r.io.marker_settled() && r.exited() => {
                Err(self.stopped(Stop::Eof))
            }
            Ok(o) => Ok(o),
            Err(s) => Err(self.stopped(s)),
        }
    }

    fn close(&mut self) -> Result<(), SutError> {
        if let Some(mut r) = self.running.take() {
            r.kill();
            self.dead_stderr = r.stderr.render(Some(Duration::from_millis(200)));
        }
        Ok(())
    }

    fn established(&mut self) -> [u32; 4] {
        self.running
            .as_mut()
            .map_or([0; 4], |r| std::mem::take(&mut r.io.established))
    }

    fn stderr_tail(&mut self) -> Option<String> {
        match &self.running {
            Some(r) => r.stderr.render(None),
            None => self.dead_stderr.clone(),
        }
    }
}
