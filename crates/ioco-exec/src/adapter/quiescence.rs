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

/// Proves quiescence of a process tree (see the module documentation).
pub struct ProcessProbe {
    root: u32,
    /// Our write end of the system's standard input, our read end of its standard output.
    stdin_fd: RawFd,
    stdout_fd: RawFd,
    /// The link of the system's standard input, `pipe:[INODE]`.
    pipe: std::path::PathBuf,
    first: Vec<Seen>,
    second: Vec<Seen>,
    /// Scratch text of the last `/proc` file read.
    text: String,
}

impl ProcessProbe {
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
        Some(ProcessProbe {
            root,
            stdin_fd,
            stdout_fd,
            pipe,
            first: Vec::new(),
            second: Vec::new(),
            text: String::new(),
        })
    }

    /// Whether the system provably cannot write without new input now (see the module
    /// documentation). The caller has no unread line of the system in its own buffer.
    pub fn quiet(&mut self) -> bool {
        let mut first = std::mem::take(&mut self.first);
        first.clear();
        let ok = self.sample(&mut first, true)
            && pending(self.stdin_fd) == Some(0)
            && pending(self.stdout_fd) == Some(0);
        let mut second = std::mem::take(&mut self.second);
        second.clear();
        let same = ok && self.sample(&mut second, false) && first == second;
        self.first = first;
        self.second = second;
        same
    }

    /// Every thread of the tree, asleep (in a wait only our input or the tree can end, when
    /// `check_waits`), into `out`; false as soon as one is not.
    fn sample(&mut self, out: &mut Vec<Seen>, check_waits: bool) -> bool {
        let mut procs = vec![self.root];
        let mut i = 0;
        while i < procs.len() {
            let p = procs[i];
            i += 1;
            let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) else {
                return false;
            };
            let mut tids: Vec<u32> = tasks
                .flatten()
                .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse().ok()))
                .collect();
            if tids.is_empty() {
                return false;
            }
            tids.sort_unstable();
            for t in tids {
                let base = format!("/proc/{p}/task/{t}");
                let Some(state) = self.state(&base) else {
                    return false;
                };
                if matches!(state, 'Z' | 'X') {
                    continue; // a zombie writes nothing
                }
                if state != 'S' || (check_waits && !self.waits_for_input(p, &base)) {
                    return false;
                }
                let Some((runs, ns)) = self.schedstat(&base) else {
                    return false;
                };
                out.push((p, t, runs, ns));
                if !self.read(&format!("{base}/children")) {
                    return false;
                }
                procs.extend(
                    self.text
                        .split_ascii_whitespace()
                        .filter_map(|c| c.parse::<u32>().ok()),
                );
            }
        }
        true
    }

    /// Read a small file into `self.text`.
    fn read(&mut self, path: &str) -> bool {
        use std::io::Read;
        self.text.clear();
        match std::fs::File::open(path) {
            Ok(mut f) => f.read_to_string(&mut self.text).is_ok(),
            Err(_) => false,
        }
    }

    /// The state letter of a thread (`S`, `R`, `Z`, ...).
    fn state(&mut self, base: &str) -> Option<char> {
        if !self.read(&format!("{base}/stat")) {
            return None;
        }
        // pid (comm) S ...: the comm may hold blanks and parentheses
        let (_, rest) = self.text.rsplit_once(") ")?;
        rest.chars().next()
    }

    /// Run count and run time of a thread.
    fn schedstat(&mut self, base: &str) -> Option<(u64, u64)> {
        if !self.read(&format!("{base}/schedstat")) {
            return None;
        }
        let mut f = self.text.split_ascii_whitespace();
        let ns = f.next()?.parse().ok()?;
        let _wait = f.next()?;
        let runs = f.next()?.parse().ok()?;
        Some((runs, ns))
    }

    /// Whether descriptor `fd` of process `p` is the system's standard input.
    fn is_stdin(&self, p: u32, fd: u64) -> bool {
        std::fs::read_link(format!("/proc/{p}/fd/{fd}")).is_ok_and(|l| l == self.pipe)
    }

    /// Whether the thread at `base` (of process `p`) waits in a call that only our input or
    /// the system itself can end (see the module documentation).
    fn waits_for_input(&mut self, p: u32, base: &str) -> bool {
        if !self.read(&format!("{base}/syscall")) {
            return false;
        }
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
            // read, pread64, readv
            0 | 17 | 19 => self.is_stdin(p, args[0]),
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

/// Bytes waiting in a pipe (`FIONREAD`); `None` if it cannot be asked.
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
