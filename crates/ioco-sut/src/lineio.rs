//! Line I/O shared by the process and TCP adapters: lines are read on demand with `poll(2)`
//! time-outs (quiescence) in the tester's own thread, at most one line is buffered (so a flood
//! blocks the SUT, not our memory); the quiescence marker settles quiescence immediately.

use super::wire::{shorten, Codec, Decoded};
use super::{Observation, Sent, SutError};
use ioco_model::Label;
use std::io::{ErrorKind, Read, Write};
use std::os::unix::io::AsRawFd;
use std::sync::mpsc::{RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What a reader thread reports.
pub(crate) enum Event {
    /// A complete line, without `\n`.
    Line(Vec<u8>),
    /// Some bytes of a line arrived, the rest did not yet (sent once per line).
    Partial,
    /// A line exceeded the cap; the reader stopped.
    TooLong(usize),
    /// End of stream.
    Eof,
    /// A read error; the reader stopped.
    Failed(String),
}

/// A readable file descriptor (a child's stdout, a TCP stream).
pub(crate) trait ReadFd: Read + AsRawFd + Send {}
impl<T: Read + AsRawFd + Send> ReadFd for T {}

/// Lines from a SUT's output stream, read on demand in the tester's thread: `poll(2)` with a
/// time-out gives quiescence without a thread hop per line, and since nothing is read unless
/// the tester asks, a flooding SUT blocks on its full pipe instead of growing our memory
/// (at most one line of `max_line` bytes is buffered).
pub(crate) struct FdLines {
    /// Events read ahead while waiting for the system to be ready, handed out first.
    early: std::collections::VecDeque<Event>,
    src: Box<dyn ReadFd>,
    buf: Vec<u8>,
    start: usize,
    max_line: usize,
    partial_sent: bool,
    eof: bool,
    finished: bool,
    /// Where `read(2)` puts bytes (made once, not zeroed per call).
    chunk: Box<[u8]>,
    /// A line's storage handed back by the reader of the last one ([`FdLines::recycle`]): the
    /// next line is copied into it, so reading a line allocates nothing.
    spare: Vec<u8>,
    /// The last line had not arrived when it was first looked for (a `poll(2)` waited for
    /// it): the next wait polls first, instead of a `read(2)` that would most likely fail
    /// with `EAGAIN` first (two system calls per wait instead of three, as a system that
    /// answers after the tester looks, the usual case over a pipe, needs).
    poll_first: bool,
    /// Waits in a row that polled first (see `poll_first`).
    poll_skips: u8,
}

impl FdLines {
    pub(crate) fn new(src: Box<dyn ReadFd>, max_line: usize) -> FdLines {
        let fd = src.as_raw_fd();
        // SAFETY: fcntl on a descriptor owned by `src`.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
            }
        }
        FdLines {
            early: std::collections::VecDeque::new(),
            src,
            buf: Vec::with_capacity(16 * 1024),
            start: 0,
            max_line,
            partial_sent: false,
            eof: false,
            finished: false,
            chunk: vec![0u8; 16 * 1024].into_boxed_slice(),
            spare: Vec::new(),
            poll_first: false,
            poll_skips: 0,
        }
    }

    /// A complete buffered line, or a too-long one.
    fn pop_line(&mut self) -> Option<Event> {
        let rest = &self.buf[self.start..];
        if let Some(i) = rest.iter().position(|&b| b == b'\n') {
            if i > self.max_line {
                self.finished = true;
                return Some(Event::TooLong(i));
            }
            let mut line = std::mem::take(&mut self.spare);
            line.clear();
            line.extend_from_slice(&rest[..i]);
            self.start += i + 1;
            if self.start == self.buf.len() {
                self.buf.clear();
                self.start = 0;
            }
            self.partial_sent = false;
            return Some(Event::Line(line));
        }
        if rest.len() > self.max_line {
            self.finished = true;
            return Some(Event::TooLong(rest.len()));
        }
        None
    }

    /// Hand back the storage of a line read before, for the next one (see `spare`); a very
    /// long one is let go.
    #[inline]
    pub(crate) fn recycle(&mut self, line: Vec<u8>) {
        if line.capacity() <= 4096 {
            self.spare = line;
        }
    }

    /// Read what is available; false if nothing was (would block).
    fn read_some(&mut self) -> Result<bool, String> {
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        loop {
            match self.src.read(&mut self.chunk) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(true);
                }
                Ok(n) => {
                    self.buf.extend_from_slice(&self.chunk[..n]);
                    return Ok(true);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(false),
                Err(e) => return Err(e.to_string()),
            }
        }
    }

    /// Wait until `fd` is readable or `timeout` passes; true if readable.
    fn poll(&self, timeout: Duration) -> bool {
        let mut p = libc::pollfd {
            fd: self.src.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let ts = libc::timespec {
            tv_sec: timeout.as_secs().min(i32::MAX as u64) as libc::time_t,
            tv_nsec: timeout.subsec_nanos() as libc::c_long,
        };
        // SAFETY: one valid pollfd, a valid timespec, no signal mask.
        let r = unsafe { libc::ppoll(&mut p, 1, &ts, std::ptr::null()) };
        r != 0
    }

    /// The next event, waiting at most `timeout`.
    pub(crate) fn recv_timeout(&mut self, timeout: Duration) -> Result<Event, RecvTimeoutError> {
        if let Some(ev) = self.early.pop_front() {
            return Ok(ev);
        }
        // the clock is read only when a wait is needed (not for a line already here)
        let mut deadline = None;
        // whether this call waited in `poll(2)` (see `poll_first`)
        let mut polled = false;
        loop {
            if self.finished {
                return Err(RecvTimeoutError::Disconnected);
            }
            if let Some(ev) = self.pop_line() {
                return Ok(ev);
            }
            if self.eof {
                self.finished = true;
                if self.start < self.buf.len() {
                    // An unterminated last line counts as a line.
                    let line = self.buf[self.start..].to_vec();
                    self.buf.clear();
                    self.start = 0;
                    self.finished = false;
                    self.eof = true;
                    return Ok(Event::Line(line));
                }
                return Ok(Event::Eof);
            }
            if self.start < self.buf.len() && !self.partial_sent {
                self.partial_sent = true;
                return Ok(Event::Partial);
            }
            // a read first, unless the last line came only after a wait and this one may wait
            // too (then the `poll(2)` below comes first, the read after it); every 16th wait
            // reads first all the same, to see whether lines now come before they are looked for
            if !polled && self.poll_first && !timeout.is_zero() && self.poll_skips < 15 {
                self.poll_skips += 1;
            } else {
                if !polled {
                    self.poll_skips = 0;
                }
                match self.read_some() {
                    Ok(true) => {
                        self.poll_first = polled;
                        continue;
                    }
                    Ok(false) => {}
                    Err(m) => {
                        self.finished = true;
                        return Ok(Event::Failed(m));
                    }
                }
            }
            let now = Instant::now();
            let left = deadline
                .get_or_insert(now + timeout)
                .saturating_duration_since(now);
            polled = true;
            if left.is_zero() || !self.poll(left) {
                // One last non-blocking look, then time out.
                match self.read_some() {
                    Ok(true) => {
                        self.poll_first = true;
                        continue;
                    }
                    Ok(false) => return Err(RecvTimeoutError::Timeout),
                    Err(m) => {
                        self.finished = true;
                        return Ok(Event::Failed(m));
                    }
                }
            }
        }
    }

    /// The next event of any of `sources` with its index, waiting at most `timeout` (one
    /// `poll(2)` over all of them, so several sockets are read in the tester's thread, as one
    /// is). A source that has ended reports [`Event::Eof`].
    pub(crate) fn recv_any(
        sources: &mut [FdLines],
        timeout: Duration,
    ) -> Result<(usize, Event), RecvTimeoutError> {
        let deadline = Instant::now() + timeout;
        loop {
            for (i, src) in sources.iter_mut().enumerate() {
                match src.try_recv() {
                    Ok(ev) => return Ok((i, ev)),
                    Err(TryRecvError::Empty) => {}
                    Err(TryRecvError::Disconnected) => return Ok((i, Event::Eof)),
                }
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || sources.is_empty() {
                if sources.is_empty() {
                    std::thread::sleep(left);
                }
                return Err(RecvTimeoutError::Timeout);
            }
            let mut fds: Vec<libc::pollfd> = sources
                .iter()
                .map(|s| libc::pollfd {
                    fd: s.src.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                })
                .collect();
            let ms = left.as_millis().clamp(1, i32::MAX as u128) as i32;
            // SAFETY: `fds` is a valid array of `fds.len()` pollfds.
            let r = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
            if r == 0 {
                // one last look at every source, then time out
                for (i, src) in sources.iter_mut().enumerate() {
                    match src.try_recv() {
                        Ok(ev) => return Ok((i, ev)),
                        Err(TryRecvError::Empty) => {}
                        Err(TryRecvError::Disconnected) => return Ok((i, Event::Eof)),
                    }
                }
                return Err(RecvTimeoutError::Timeout);
            }
        }
    }

    /// The next event among those already read (no system call): `None` when a read would be
    /// needed to know.
    pub(crate) fn try_buffered(&mut self) -> Option<Event> {
        if let Some(ev) = self.early.pop_front() {
            return Some(ev);
        }
        if self.finished {
            return None;
        }
        self.pop_line()
    }

    /// The next event if one is available now.
    pub(crate) fn try_recv(&mut self) -> Result<Event, TryRecvError> {
        match self.recv_timeout(Duration::ZERO) {
            Ok(ev) => Ok(ev),
            Err(RecvTimeoutError::Timeout) => Err(TryRecvError::Empty),
            Err(RecvTimeoutError::Disconnected) => Err(TryRecvError::Disconnected),
        }
    }
}

/// The captured tail of a SUT's standard error.
pub(crate) struct Tail {
    buf: Mutex<Vec<u8>>,
    done: std::sync::atomic::AtomicBool,
    limit: usize,
}

impl Tail {
    /// Forget what was captured so far.
    pub(crate) fn clear(&self) {
        self.buf.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }

    /// The last `limit` bytes (lossy UTF-8), `None` when empty. When `wait` is given, first wait
    /// that long at most for the stream to end (the SUT has exited, its last words may still be
    /// in the pipe).
    pub(crate) fn render(&self, wait: Option<Duration>) -> Option<String> {
        if let Some(w) = wait {
            let deadline = Instant::now() + w;
            while !self.done.load(std::sync::atomic::Ordering::Acquire) && Instant::now() < deadline
            {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        let t = self.buf.lock().unwrap_or_else(|p| p.into_inner());
        if t.is_empty() {
            return None;
        }
        let from = t.len().saturating_sub(self.limit);
        Some(String::from_utf8_lossy(&t[from..]).into_owned())
    }
}

/// Start a thread that keeps the last `limit` bytes of `r` (a SUT's standard error).
pub(crate) fn spawn_tail<R: Read + Send + 'static>(mut r: R, limit: usize) -> Arc<Tail> {
    let tail = Arc::new(Tail {
        buf: Mutex::new(Vec::new()),
        done: std::sync::atomic::AtomicBool::new(false),
        limit,
    });
    let t2 = Arc::clone(&tail);
    std::thread::Builder::new()
        .name("ioco-sut-stderr".into())
        .spawn(move || {
            let mut buf = [0u8; 4096];
            loop {
                match r.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        let mut t = t2.buf.lock().unwrap_or_else(|p| p.into_inner());
                        t.extend_from_slice(&buf[..n]);
                        if t.len() > 2 * limit {
                            let cut = t.len() - limit;
                            t.drain(..cut);
                        }
                    }
                    Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                    Err(_) => break,
                }
            }
            t2.done.store(true, std::sync::atomic::Ordering::Release);
        })
        .expect("spawn stderr thread");
    tail
}

/// Why a line-level operation stopped.
pub(crate) enum Stop {
    /// The stream ended (the SUT exited or closed the connection); the owner knows the status.
    Eof,
    /// Any other error.
    Err(SutError),
}

impl From<SutError> for Stop {
    fn from(e: SutError) -> Self {
        Stop::Err(e)
    }
}

/// Write `line` to a (possibly non-blocking) stream, giving up after `timeout` if the SUT does not
/// read it; a closed stream is [`Stop::Eof`].
pub(crate) fn write_bounded(
    writer: &mut (dyn Write + Send),
    line: &[u8],
    timeout: Duration,
) -> Result<(), Stop> {
    // the clock is read only once a write would block (not per line)
    let mut start = None;
    let mut off = 0;
    while off < line.len() {
        match writer.write(&line[off..]) {
            Ok(0) => return Err(Stop::Eof),
            Ok(n) => off += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                if start.get_or_insert_with(Instant::now).elapsed() > timeout {
                    return Err(Stop::Err(SutError::Stuck(format!(
                        "it did not read its input for {} s",
                        timeout.as_secs()
                    ))));
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::BrokenPipe
                        | ErrorKind::ConnectionReset
                        | ErrorKind::ConnectionAborted
                        | ErrorKind::NotConnected
                ) =>
            {
                return Err(Stop::Eof)
            }
            Err(e) => return Err(Stop::Err(SutError::Io(e.to_string()))),
        }
    }
    let _ = writer.flush();
    Ok(())
}

/// One conversation with a SUT over a line stream.
pub(crate) struct LineIo {
    writer: Box<dyn Write + Send>,
    rx: FdLines,
    codec: Arc<Codec>,
    /// Quiescence is established since the last input or output: the marker was seen, or (time-out
    /// mode) a whole quiescence time-out passed without output. Only then is an input given
    /// without waiting first ([`LineIo::send_line_with`]).
    settled: bool,
    /// Bytes of an unterminated line are pending.
    partial: bool,
    /// Markers the SUT still owes: one at start-up and one after every line we wrote (inputs
    /// and reset lines), minus the markers seen. A reset waits for all of them, so a marker
    /// left over from the previous run is never read as quiescence of the next one.
    owed: u32,
    /// How long to wait for the marker before giving an input, and for a write to go through.
    pub settle: Duration,
    pub write_timeout: Duration,
    /// The raw bytes of the last output line (for [`crate::data`], which reads its arguments).
    pub(crate) last_line: Vec<u8>,
    /// Per input label, its wire line (`\n` included) once given: encoded once, not per input.
    encoded: Vec<Option<Box<[u8]>>>,
    /// How long to wait before an input for the system to settle (its marker, or, without
    /// one, this long without output) when it has not settled since the last input or output:
    /// the quiescence time-out of the specification's current state, as the tester last said
    /// ([`crate::Sut::settle_timeout`]); `None`: [`LineIo::settle`].
    pub settle_hint: Option<Duration>,
    /// Without a marker, where outputs are allowed: how long to wait for an output still in
    /// flight before giving an input (`--io-time`), so that an answer to the previous input is
    /// not recorded after the next.
    pub io_time: Duration,
    /// The specification allows only quiescence now (`Sut::expect_quiet`): before an
    /// input the system must have settled (kept until the tester says otherwise before an
    /// input; a new conversation starts without it).
    pub quiet_expected: bool,
    /// Quiescence by observing the process ([`super::quiescence`]), where it applies.
    pub(crate) probe: Option<super::quiescence::ProcessProbe>,
    /// How many δ were established by the marker, by the process, by a time-out, by the Mealy hypothesis (since the
    /// counts were last taken).
    pub(crate) established: [u32; 4],
    /// How the last quiescence was established (an index of `established`).
    how: usize,
    /// When the last input was written (for the response times).
    sent_at: Option<Instant>,
    /// The longest response seen: an observation waits at least twice as long (at most 30 s),
    /// so a system slower than the time-out is not taken for quiescent again.
    learned: Duration,
    /// A late answer was reported once.
    warned: bool,
    /// The longest time an answer took (time-out mode): the I/O wait before an input is at
    /// least twice that (at most 500 ms), so that a slower system's answers stay in order.
    latency: Duration,
}

impl LineIo {
    pub(crate) fn new(
        writer: Box<dyn Write + Send>,
        rx: FdLines,
        codec: Arc<Codec>,
        settle: Duration,
    ) -> LineIo {
        let owed = u32::from(codec.has_marker());
        LineIo {
            writer,
            rx,
            codec,
            settled: false,
            partial: false,
            owed,
            settle,
            write_timeout: Duration::from_secs(5),
            last_line: Vec::new(),
            encoded: Vec::new(),
            settle_hint: None,
            io_time: Duration::from_millis(50),
            quiet_expected: false,
            probe: None,
            established: [0; 4],
            how: 0,
            sent_at: None,
            learned: Duration::ZERO,
            warned: false,
            latency: Duration::ZERO,
        }
    }

    /// What this conversation learned of the system's answer times, to carry into the next
    /// (a restarted system is the same program).
    pub(crate) fn learned(&self) -> (Duration, Duration, bool) {
        (self.latency, self.learned, self.warned)
    }

    /// Start from what an earlier conversation learned ([`LineIo::learned`]).
    pub(crate) fn carry(&mut self, (latency, learned, warned): (Duration, Duration, bool)) {
        self.latency = latency;
        self.learned = learned;
        self.warned = warned;
    }

    /// An output arrived: learn the response time (time-out mode), and say once when it came
    /// late, close to the time-out that was waited.
    fn responded(&mut self, waited: Duration, learn: bool) {
        let Some(t) = self.sent_at.take() else {
            return;
        };
        if self.codec.has_marker() {
            return;
        }
        let took = t.elapsed();
        self.latency = self.latency.max(took);
        if learn && took * 2 > waited && !waited.is_zero() {
            self.learned = self.learned.max((took * 2).min(Duration::from_secs(30)));
            if !self.warned {
                self.warned = true;
                eprintln!(
                    "ioco: an output came {} ms after the input, close to the quiescence \
                     time-out of {} ms; later observations wait at least {} ms (raise --timeout \
                     if the system can be slower)",
                    took.as_millis(),
                    waited.as_millis(),
                    self.learned.as_millis()
                );
            }
        }
    }

    /// Handle one event; `Ok(None)` for events that are not observations (partial, marker).
    fn event(&mut self, ev: Event) -> Result<Option<Observation>, Stop> {
        match ev {
            Event::Line(bytes) => {
                self.partial = false;
                match self.codec.decode(&bytes) {
                    Decoded::Output(l) => {
                        // kept for data-level adapters, which parse the arguments themselves;
                        // the line before it goes back to the reader for the next line
                        let last = std::mem::replace(&mut self.last_line, bytes);
                        self.rx.recycle(last);
                        Ok(Some(Observation::Output(l)))
                    }
                    Decoded::Marker => {
                        self.rx.recycle(bytes);
                        if self.owed == 0 {
                            return Err(Stop::Err(SutError::Malformed(
                                "the quiescence marker came twice for one reaction (one is owed \
                                 at start-up and one after each input): a protocol error of the \
                                 system or its adapter, not an observation"
                                    .into(),
                            )));
                        }
                        self.settled = true;
                        self.owed -= 1;
                        self.how = 0;
                        Ok(Some(Observation::Quiescent))
                    }
                    Decoded::Unknown(line) => Err(Stop::Err(SutError::UnknownOutput {
                        line: shorten(&line),
                    })),
                    Decoded::Malformed(m) => Err(Stop::Err(SutError::Malformed(m))),
                }
            }
            Event::Partial => {
                self.partial = true;
                Ok(None)
            }
            Event::TooLong(n) => Err(Stop::Err(SutError::Malformed(format!(
                "a line longer than {} bytes (at least {n} bytes without a newline)",
                self.codec.max_line
            )))),
            Event::Eof => Err(Stop::Eof),
            Event::Failed(m) => Err(Stop::Err(SutError::Io(m))),
        }
    }

    /// An output was read: the system reacts (not settled), unless under the Mealy hypothesis
    /// ([`super::wire::WireConfig::mealy`]) that output was its whole answer.
    fn answered(&mut self) {
        self.settled = self.codec.mealy;
        if self.codec.mealy {
            self.how = 3;
        }
    }

    /// Quiescence is established by the system's own marker since its last input or output:
    /// it said it waits for input.
    #[inline]
    pub(crate) fn marker_settled(&self) -> bool {
        self.settled && self.how == 0 && self.codec.has_marker()
    }

    /// Wait up to `timeout` for an observation.
    pub(crate) fn observe(&mut self, timeout: Duration) -> Result<Observation, Stop> {
        self.observe_with(timeout, &mut || false)
    }

    /// Wait up to `timeout` for an observation; every 50 ms of silence, ask `gone` whether the
    /// SUT has ended (its output stream may stay open in a background child).
    pub(crate) fn observe_with(
        &mut self,
        timeout: Duration,
        gone: &mut dyn FnMut() -> bool,
    ) -> Result<Observation, Stop> {
        let o = self.wait(timeout.max(self.learned), gone, true)?;
        if o == Observation::Quiescent {
            self.established[self.how] += 1;
        }
        Ok(o)
    }

    /// [`LineIo::observe_with`] for exactly `timeout`; `learn`: the response times count.
    fn wait(
        &mut self,
        timeout: Duration,
        gone: &mut dyn FnMut() -> bool,
        learn: bool,
    ) -> Result<Observation, Stop> {
        if self.settled {
            // The SUT said it waits for input: anything already queued is still an output.
            loop {
                match self.rx.try_recv() {
                    Ok(ev) => match self.event(ev)? {
                        Some(Observation::Output(l)) => {
                            // a second output after the one the Mealy hypothesis allows:
                            // judged here, where the model waits for input
                            self.answered();
                            return Ok(Observation::Output(l));
                        }
                        Some(Observation::Quiescent) | None => continue,
                    },
                    Err(TryRecvError::Empty) => return Ok(Observation::Quiescent),
                    Err(TryRecvError::Disconnected) => return Err(Stop::Eof),
                }
            }
        }
        // what came with the last read (the marker after an output): no clock, no system call
        while let Some(ev) = self.rx.try_buffered() {
            if let Some(o) = self.event(ev)? {
                if matches!(o, Observation::Output(_)) {
                    self.answered();
                    self.responded(timeout, learn);
                }
                return Ok(o);
            }
        }
        let start = Instant::now();
        let deadline = start + timeout;
        let mut next_gone = start + Duration::from_millis(50);
        // with a process probe: look often at first (a system answers in microseconds to
        // milliseconds), then less often
        let mut slice = Duration::from_micros(20);
        // the first look waits from `start` (one clock read per wait, not two)
        let mut first = Some(start);
        loop {
            let now = first.take().unwrap_or_else(Instant::now);
            let left = deadline.saturating_duration_since(now);
            let step = match self.probe {
                Some(_) => left.min(slice),
                None => left.min(Duration::from_millis(50)),
            };
            match self.rx.recv_timeout(step) {
                Ok(ev) => {
                    if let Some(o) = self.event(ev)? {
                        if matches!(o, Observation::Output(_)) {
                            self.answered();
                            self.responded(timeout, learn);
                        }
                        return Ok(o);
                    }
                }
                Err(RecvTimeoutError::Timeout) if !left.is_zero() => {
                    if !self.partial {
                        if let Some(p) = self.probe.as_mut() {
                            if p.quiet() {
                                self.settled = true;
                                self.how = 1;
                                return Ok(Observation::Quiescent);
                            }
                            slice = (slice * 2).min(Duration::from_millis(5));
                        }
                    }
                    if Instant::now() >= next_gone {
                        if gone() {
                            return Err(Stop::Eof);
                        }
                        next_gone = Instant::now() + Duration::from_millis(50);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    if self.partial {
                        return Err(Stop::Err(SutError::Malformed(format!(
                            "an unterminated line (no newline) followed by {} ms of silence",
                            timeout.as_millis()
                        ))));
                    }
                    // a whole time-out without output: quiescence is established (not by
                    // the shorter I/O wait before an input)
                    if learn {
                        self.settled = true;
                        self.how = 2;
                    }
                    return Ok(Observation::Quiescent);
                }
                Err(RecvTimeoutError::Disconnected) => return Err(Stop::Eof),
            }
        }
    }

    /// Give `input`, unless an output is pending (then return it).
    pub(crate) fn send(&mut self, input: Label) -> Result<Sent, Stop> {
        self.send_with(input, &mut || false)
    }

    /// [`LineIo::send`], asking `gone` whether the SUT has ended while waiting for its marker.
    pub(crate) fn send_with(
        &mut self,
        input: Label,
        gone: &mut dyn FnMut() -> bool,
    ) -> Result<Sent, Stop> {
        // the line of this input, encoded the first time only (taken out of the table while
        // it is written, put back after)
        let i = input.index();
        let line = match self.encoded.get_mut(i).and_then(Option::take) {
            Some(line) => line,
            None => self.encode(input)?.into_boxed_slice(),
        };
        let sent = self.send_line_with(&line, gone);
        if self.encoded.len() <= i {
            self.encoded.resize(i + 1, None);
        }
        self.encoded[i] = Some(line);
        sent
    }

    /// The wire line of `input` (`\n` included).
    pub(crate) fn encode(&self, input: Label) -> Result<Vec<u8>, Stop> {
        Ok(self
            .codec
            .encode(input, &[])
            .map_err(SutError::UnknownInput)?)
    }

    /// [`LineIo::send_with`] for an input already encoded as a line (`\n` included), e.g. with
    /// data arguments ([`crate::data`]).
    pub(crate) fn send_line_with(
        &mut self,
        line: &[u8],
        gone: &mut dyn FnMut() -> bool,
    ) -> Result<Sent, Stop> {
        if !self.settled && (self.codec.has_marker() || self.quiet_expected) {
            // The system has not settled since its last input or output: an output may still
            // be on its way. With a marker, let it finish reacting; where only quiescence is
            // allowed, any output is a Fail: wait until quiescence is established (the marker,
            // the process, or a whole quiescence time-out without output) before the input,
            // so that such an output is observed before it, in the state it belongs to.
            let t = self.settle_hint.unwrap_or(self.settle);
            match self.wait(t.max(self.learned), gone, true)? {
                Observation::Output(l) => return Ok(Sent::Raced(l)),
                Observation::Quiescent => {}
            }
        } else if !self.settled && !self.io_time.is_zero() {
            // Time-out mode where outputs are allowed: an answer to the previous input may
            // still be in flight; wait the I/O time for it, so that the order on the wire is
            // the order of events (an input while the system reacts is a test too).
            let io = self
                .io_time
                .max((self.latency * 2).min(Duration::from_millis(500)));
            if let Observation::Output(l) = self.wait(io, gone, false)? {
                return Ok(Sent::Raced(l));
            }
        }
        if self.marker_settled() {
            // The system's marker said it waits for input: look only at what was read with
            // it (no system call; an output or a second marker that came in the same write is
            // still judged here, one written later by the next observation).
            while let Some(ev) = self.rx.try_buffered() {
                if let Some(Observation::Output(l)) = self.event(ev)? {
                    self.settled = false;
                    return Ok(Sent::Raced(l));
                }
            }
        } else {
            // An output already received is pending (and a marker already received after the
            // one that ended the reaction is a protocol error).
            loop {
                match self.rx.try_recv() {
                    Ok(ev) => match self.event(ev)? {
                        Some(Observation::Output(l)) => {
                            self.settled = false;
                            return Ok(Sent::Raced(l));
                        }
                        _ => continue,
                    },
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => return Err(Stop::Eof),
                }
            }
        }
        if !self.marker_settled() && gone() {
            // ended (a background child may keep its pipes open): no input to a dead system
            return Err(Stop::Eof);
        }
        self.write_line(line)?;
        // response times are learned without a marker only (`responded`)
        if !self.codec.has_marker() {
            self.sent_at = Some(Instant::now());
        }
        self.settled = false;
        if self.codec.has_marker() {
            self.owed += 1;
        }
        Ok(Sent::Accepted)
    }

    /// Write raw bytes, giving up after `write_timeout` if the SUT does not read.
    pub(crate) fn write_line(&mut self, line: &[u8]) -> Result<(), Stop> {
        write_bounded(&mut *self.writer, line, self.write_timeout)
    }

    /// After a start: wait up to `timeout` until the system is ready, so that no input is given
    /// before it reads. With a quiescence marker: until its start-up marker (outputs before it
    /// are kept for the tester, in order). With `ready` (a banner line, `--ready-line`): until
    /// a line equal to it (lines before it are dropped; the marker owed at start-up is then
    /// the one after the banner). Without either, nothing to wait for. Errors: the system ended,
    /// or was not ready in time ([`NotReady`] says what did not come). Every
    /// [`READY_PROGRESS`] of waiting, `progress` is told how long it has waited and for what.
    pub(crate) fn wait_ready(
        &mut self,
        timeout: Duration,
        ready: Option<&str>,
        gone: &mut dyn FnMut() -> bool,
        progress: &mut dyn FnMut(Duration, NotReady),
    ) -> Result<(), Result<NotReady, Stop>> {
        let start = Instant::now();
        let deadline = start + timeout;
        let mut next_progress = start + READY_PROGRESS;
        let mut banner_seen = ready.is_none();
        let mut early = Vec::new();
        loop {
            if banner_seen && !self.codec.has_marker() {
                break;
            }
            let awaited = if banner_seen {
                NotReady::Marker
            } else {
                NotReady::ReadyLine
            };
            let now = Instant::now();
            let left = deadline.saturating_duration_since(now);
            if left.is_zero() {
                return Err(Ok(awaited));
            }
            if now >= next_progress {
                progress(now - start, awaited);
                next_progress += READY_PROGRESS;
            }
            match self.rx.recv_timeout(left.min(Duration::from_millis(50))) {
                Ok(Event::Line(bytes)) if !banner_seen => {
                    banner_seen = ready.is_some_and(|r| r.as_bytes() == bytes.as_slice());
                }
                Ok(Event::Line(bytes)) if self.codec.decode(&bytes) == Decoded::Marker => {
                    self.settled = true;
                    self.owed = self.owed.saturating_sub(1);
                    break;
                }
                Ok(Event::Partial) => {}
                Ok(ev) => early.push(ev),
                Err(RecvTimeoutError::Timeout) => {
                    if gone() {
                        return Err(Err(Stop::Eof));
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Err(Err(Stop::Eof)),
            }
        }
        if self.codec.mealy && early.is_empty() && !self.codec.has_marker() {
            // the Mealy hypothesis: no output at start-up, the system waits for input
            self.settled = true;
            self.how = 3;
        }
        if !early.is_empty() {
            // outputs of the start-up reaction: observed before the marker that ended it
            self.settled = false;
            self.rx.early.extend(early);
            // the marker that ended the reaction still counts as owed-and-seen: read it again
            // after the outputs
            if self.codec.has_marker() {
                self.owed += 1;
                self.rx
                    .early
                    .push_back(Event::Line(self.codec.marker_line()));
            }
        }
        Ok(())
    }

    /// After a reset line: drop pending events and, with a marker, wait up to `timeout` until
    /// every marker the SUT owes has arrived (the reset line's own included), so the next run
    /// starts aligned with the SUT. The reset line's own reaction (the lines before its marker)
    /// is a start-up reaction: its outputs of the model are observed again, as at a fresh start
    /// (a system that greets after each reset, as it does at start-up, passes the model of its
    /// greeting; issue #33); its other lines (an acknowledgement) are dropped.
    pub(crate) fn drain(&mut self, timeout: Duration) -> Result<(), Stop> {
        self.settled = false;
        if self.codec.has_marker() {
            self.owed += 1;
            let deadline = Instant::now() + timeout;
            let mut reaction = Vec::new();
            while self.owed > 0 {
                let left = deadline.saturating_duration_since(Instant::now());
                match self.rx.recv_timeout(left) {
                    Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => return Err(Stop::Eof),
                    Ok(Event::Line(bytes)) => match self.codec.decode(&bytes) {
                        Decoded::Marker => self.owed -= 1,
                        // the reset line's own reaction: every earlier marker has come
                        Decoded::Output(_) if self.owed == 1 => reaction.push(Event::Line(bytes)),
                        _ => {}
                    },
                    Ok(_) => {}
                    Err(RecvTimeoutError::Timeout) => break,
                }
            }
            // Aligned, or given up after `timeout` (a SUT that does not print its markers).
            self.settled = self.owed == 0;
            self.owed = 0;
            if self.settled && !reaction.is_empty() {
                // as at start-up: the outputs, then the marker that ended them, read again
                self.settled = false;
                self.rx.early.extend(reaction);
                self.owed += 1;
                self.rx
                    .early
                    .push_back(Event::Line(self.codec.marker_line()));
            }
        } else {
            // Bounded: a SUT that floods must not keep a reset busy forever.
            for _ in 0..10_000 {
                match self.rx.try_recv() {
                    Ok(Event::Eof) | Err(TryRecvError::Disconnected) => return Err(Stop::Eof),
                    Ok(_) => {}
                    Err(TryRecvError::Empty) => break,
                }
            }
        }
        self.partial = false;
        Ok(())
    }
}

/// How often [`LineIo::wait_ready`] reports that it is still waiting.
pub(crate) const READY_PROGRESS: Duration = Duration::from_secs(5);

/// What a system that was not ready in time did not print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NotReady {
    /// Its start-up quiescence marker.
    Marker,
    /// Its ready line (`--ready-line`).
    ReadyLine,
}
