//! A bot as a child process speaking a game's protocol over stdin/stdout, as on CodinGame.
//!
//! Each bot runs `sh -c COMMAND` in its own process group. The match thread talks to it
//! directly through non-blocking pipes and `ppoll`: no helper threads, so an answer reaches the
//! referee without a thread hand-off, and a bot that never reads its input (or floods its
//! output) can only run out its own clock. stdout is framed into lines by the game's
//! `LineRules` (the runner sets them); stderr is read in the same loop and kept per call.
//!
//! A call's clock starts just before the `write` that completes its input (so it includes that
//! write: a bot may answer before `write` returns) and stops when the last answer line is read;
//! the time limit counts from the same instant.
//!
//! **Invariant**: when a `BotProcess` is stopped or dropped, its whole process group has been
//! sent SIGKILL and the child reaped; nothing it spawned inside its group survives, and what
//! left the group and was reparented to realm is killed too (see `registry`).
//! This module knows nothing about games: it moves lines and measures time.

use std::collections::VecDeque;
use std::io::{self, ErrorKind, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use realm_core::referee::LineRules;
use realm_core::FaultKind;

use crate::lines::{LineFramer, StderrBuffer};
use crate::namespace;
use crate::registry;

/// Output limits that turn a flooding bot into a fault instead of unbounded memory use. They are
/// realm's safety caps (project choices), not game rules: a game's own line limit comes with its
/// `LineRules` and takes precedence.
#[derive(Clone, Copy, Debug)]
pub struct OutputLimits {
    /// A line longer than this (in bytes, before its terminator) is a flood, for games whose
    /// spec sets no line limit. Default 1 MiB.
    pub max_line_bytes: usize,
    /// More unread answer lines than this queued after a call is a flood. Default 1,000.
    pub max_pending_lines: usize,
    /// More bytes of unread lines than this queued (the answer being read included) is a
    /// flood, so that long lines cannot add up to unbounded memory. Default 16 MiB.
    pub max_pending_bytes: usize,
    /// stderr kept per call; the rest is dropped and marked. Default 64 KiB.
    pub max_stderr_bytes: usize,
}

impl Default for OutputLimits {
    fn default() -> Self {
        OutputLimits {
            max_line_bytes: 1 << 20,
            max_pending_lines: 1_000,
            max_pending_bytes: 16 << 20,
            max_stderr_bytes: 64 * 1024,
        }
    }
}

/// What one call produced.
#[derive(Clone, Debug)]
pub struct CallReport {
    pub answer: Result<Vec<String>, (FaultKind, String)>,
    /// On a fault, the answer lines the bot did write (fewer than expected, or all of them when
    /// the fault came after the answer, as a flood does); empty when the call succeeded.
    pub partial: Vec<String>,
    /// From just before the write that completed the input until the last answer line was read.
    pub elapsed: Duration,
    pub stderr: String,
    /// The bot wrote to stderr after its previous answer line and before this call's input
    /// (that text opens `stderr`): its previous call's debug output arrived late.
    pub stderr_after_previous_answer: bool,
    /// The signal that killed the bot when it is one realm itself takes as an interruption
    /// (SIGINT, SIGTERM, SIGHUP): the bot was stopped from outside, so the call's fault is not
    /// the bot's result (a cluster scheduler signals every process of a job at once).
    pub interrupted_by: Option<&'static str>,
}

/// The name of the signal that ended `status` when realm treats that signal as an interruption
/// of itself (SIGINT, SIGTERM, SIGHUP: see the CLI's Ctrl-C handling).
pub fn interruption_signal(status: std::process::ExitStatus) -> Option<&'static str> {
    use std::os::unix::process::ExitStatusExt;
    match status.signal()? {
        libc::SIGINT => Some("SIGINT"),
        libc::SIGTERM => Some("SIGTERM"),
        libc::SIGHUP => Some("SIGHUP"),
        _ => None,
    }
}

/// Why a call failed: the fault, its reason, and the time the bot had used.
type Failure = (FaultKind, String, Duration);

/// Bytes read per `read` call.
const CHUNK: usize = 8192;
/// At most this much stderr is read in one go, so a bot flooding stderr cannot keep realm busy.
const STDERR_DRAIN_BUDGET: usize = 1 << 20;
/// How long a bot whose output ended (or that stopped reading its input) may take to exit
/// before it counts as running on: its exit status is its verdict. Far above any process
/// teardown on a loaded machine (a Python interpreter's took over 100 ms), and still bounded, so
/// a bot that closes its stdout and runs on is judged and killed.
const EXIT_WAIT: Duration = Duration::from_secs(5);
/// Without a pidfd (Linux before 5.3), how often `waitpid` is asked during `EXIT_WAIT`.
const EXIT_POLL_INTERVAL: Duration = Duration::from_millis(5);

/// A running bot process.
pub struct BotProcess {
    child: Child,
    pgid: i32,
    stdin: Option<ChildStdin>,
    /// `None` once the bot closed its stdout.
    stdout: Option<ChildStdout>,
    stderr: Option<ChildStderr>,
    framer: LineFramer,
    /// The longest line the framer accepts (the game's limit, else the safety cap).
    max_line: usize,
    /// Complete lines read but not yet consumed by a call.
    pending: VecDeque<String>,
    /// Total length of `pending`.
    pending_bytes: usize,
    stderr_text: StderrBuffer,
    limits: OutputLimits,
    stopped: bool,
    /// See `CallReport::interrupted_by`.
    interrupted_by: Option<&'static str>,
    /// Readable once realm's child has exited (`pidfd_open`, Linux 5.3+), so a bot that dies
    /// while something it started still holds its stdout is noticed at once. `None` when the
    /// kernel has no pidfds, or once the exit was seen.
    exit_fd: Option<std::os::fd::OwnedFd>,
    /// The child has exited: what is left to read is read, and a missing answer is a crash.
    exited: bool,
}

impl BotProcess {
    /// Starts `sh -c command` in a new process group with piped stdin, stdout and stderr. Its
    /// stdout is framed by `LineRules::default()` until `set_line_rules`.
    /// Where the machine allows, the bot is the first process of a PID namespace of its own
    /// (see `namespace`).
    pub fn spawn(command: &str, limits: OutputLimits) -> io::Result<BotProcess> {
        Self::spawn_in(command, limits, namespace::plan())
    }

    /// `spawn` without the PID namespace, as on a machine that has none.
    pub fn spawn_without_namespace(command: &str, limits: OutputLimits) -> io::Result<BotProcess> {
        Self::spawn_in(command, limits, None)
    }

    fn spawn_in(
        command: &str,
        limits: OutputLimits,
        namespace: Option<namespace::NamespacePlan>,
    ) -> io::Result<BotProcess> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(exec_form(command))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        // SAFETY: prctl is async-signal-safe and touches no memory of the parent. It makes the
        // kernel kill realm's direct child the moment realm dies (even by SIGKILL); the bot
        // then dies with it (see `namespace`), and without a namespace the rest of the group
        // is the registry's watchdog's job. `enter` runs in the forked child as it requires.
        unsafe {
            cmd.pre_exec(move || {
                libc::prctl(
                    libc::PR_SET_PDEATHSIG,
                    libc::SIGKILL as libc::c_ulong,
                    0,
                    0,
                    0,
                );
                match &namespace {
                    Some(plan) => plan.enter(),
                    None => Ok(()),
                }
            });
        }
        let mut child = registry::spawn_group(&mut cmd)?;
        let pgid = child.id() as i32;
        let exit_fd = pidfd_open(pgid);
        let rules = LineRules::default();
        let max_line = rules.max_line_bytes.unwrap_or(limits.max_line_bytes);
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let mut process = BotProcess {
            child,
            pgid,
            stdin: None,
            stdout: None,
            stderr: None,
            framer: LineFramer::new(rules.ends, max_line),
            max_line,
            pending: VecDeque::new(),
            pending_bytes: 0,
            stderr_text: StderrBuffer::new(limits.max_stderr_bytes),
            limits,
            stopped: false,
            interrupted_by: None,
            exit_fd,
            exited: false,
        };
        // Only realm's ends of the pipes become non-blocking; the bot's ends are untouched.
        for fd in [stdin.as_raw_fd(), stdout.as_raw_fd(), stderr.as_raw_fd()] {
            set_nonblocking(fd)?;
        }
        process.stdin = Some(stdin);
        process.stdout = Some(stdout);
        process.stderr = Some(stderr);
        Ok(process)
    }

    /// Frames the bot's stdout by `rules` from now on; the runner sets the game's rules before
    /// the first call. A line limit of the rules replaces the safety cap of `OutputLimits`.
    pub fn set_line_rules(&mut self, rules: LineRules) {
        self.max_line = rules.max_line_bytes.unwrap_or(self.limits.max_line_bytes);
        self.framer.set_rules(rules.ends, self.max_line);
    }

    /// Sends `lines` and waits for `expected` answer lines. `limit` of `None` waits forever.
    /// Lines the bot wrote beyond an answer stay queued for the next call, as on CodinGame.
    pub fn call(
        &mut self,
        lines: &[String],
        expected: usize,
        limit: Option<Duration>,
    ) -> CallReport {
        // The buffer is empty between calls: what is there now came after the last answer.
        self.drain_stderr();
        let stderr_after_previous_answer = !self.stderr_text.is_empty();
        let result = self.exchange(lines, expected, limit);
        self.drain_stderr();
        let (answer, partial, elapsed) = match result {
            Ok((lines, elapsed)) => (Ok(lines), Vec::new(), elapsed),
            Err((kind, detail, elapsed)) => {
                let partial = self.take_lines(expected.min(self.pending.len()));
                (Err((kind, detail)), partial, elapsed)
            }
        };
        CallReport {
            answer,
            partial,
            elapsed,
            stderr: self.stderr_text.take(),
            stderr_after_previous_answer,
            interrupted_by: self.interrupted_by,
        }
    }

    fn exchange(
        &mut self,
        lines: &[String],
        expected: usize,
        limit: Option<Duration>,
    ) -> Result<(Vec<String>, Duration), Failure> {
        if self.stopped {
            return Err((
                FaultKind::Crashed,
                "the bot was already stopped".into(),
                Duration::ZERO,
            ));
        }
        let mut payload = Vec::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
        for line in lines {
            payload.extend_from_slice(line.as_bytes());
            payload.push(b'\n');
        }
        let started = self.write_input(&payload, expected, limit)?;
        // A limit too large to add to the clock is no limit.
        let deadline = limit.and_then(|l| started.checked_add(l));
        let mut last_line_at = started;
        while self.pending.len() < expected {
            if self.stdout.is_none() {
                return Err(self.dead_fault(expected, started.elapsed()));
            }
            if self.read_stdout_chunk()? > 0 {
                last_line_at = Instant::now();
                continue;
            }
            if self.exited && !self.readable_now() {
                // Dead, and its output (held open by something it started) has nothing more.
                return Err(self.dead_fault(expected, started.elapsed()));
            }
            if self.stdout.is_some() && !self.wait(false, deadline)? {
                let limit = limit.unwrap_or_default();
                let got = self.pending.len();
                return Err((
                    FaultKind::Timeout,
                    format!(
                        "no complete answer within {} ms ({got} of {expected} lines)",
                        limit.as_millis()
                    ),
                    limit,
                ));
            }
        }
        let elapsed = last_line_at.saturating_duration_since(started);
        if let Some(limit) = limit.filter(|&l| elapsed > l) {
            // Read after the limit (realm or the bot was descheduled): the recorded time is the
            // time judged, so the verdict and the record never disagree.
            return Err((
                FaultKind::Timeout,
                format!(
                    "answered after {:.1} ms, over the limit of {} ms",
                    elapsed.as_secs_f64() * 1000.0,
                    limit.as_millis()
                ),
                elapsed,
            ));
        }
        let answer = self.take_lines(expected);
        if let Err((kind, detail, _)) = self.read_what_follows() {
            // The answer goes back in front of the queue, so the caller reports it as the
            // output of the faulted call.
            for line in answer.into_iter().rev() {
                self.pending_bytes += line.len();
                self.pending.push_front(line);
            }
            return Err((kind, detail, elapsed));
        }
        Ok((answer, elapsed))
    }

    /// Reads what the bot already wrote after its answer; it stays queued, and too much of it
    /// is a flood.
    fn read_what_follows(&mut self) -> Result<(), Failure> {
        while self.stdout.is_some() && !self.over_queue_limits() {
            if self.read_stdout_chunk()? == 0 && !self.readable_now() {
                break;
            }
        }
        self.check_flood(Duration::ZERO)
    }

    fn over_queue_limits(&self) -> bool {
        self.pending.len() > self.limits.max_pending_lines
            || self.pending_bytes > self.limits.max_pending_bytes
    }

    /// Too many unread lines (or bytes) queued is a flood.
    fn check_flood(&self, elapsed: Duration) -> Result<(), Failure> {
        let detail = if self.pending.len() > self.limits.max_pending_lines {
            format!(
                "more than {} unread lines queued",
                self.limits.max_pending_lines
            )
        } else if self.pending_bytes > self.limits.max_pending_bytes {
            format!(
                "more than {} bytes of unread lines queued",
                self.limits.max_pending_bytes
            )
        } else {
            return Ok(());
        };
        Err((FaultKind::OutputFlood, detail, elapsed))
    }

    /// Removes the first `n` queued lines.
    fn take_lines(&mut self, n: usize) -> Vec<String> {
        let lines: Vec<String> = self.pending.drain(..n).collect();
        self.pending_bytes -= lines.iter().map(String::len).sum::<usize>();
        lines
    }

    /// Writes the whole payload, reading the bot's output meanwhile so that a bot writing
    /// before it reads cannot deadlock with realm. A bot that does not read its input gets one
    /// time limit to do so. Returns the instant just before the write that completed the input,
    /// where the call's clock starts.
    fn write_input(
        &mut self,
        payload: &[u8],
        expected: usize,
        limit: Option<Duration>,
    ) -> Result<Instant, Failure> {
        let deadline = limit.and_then(|l| Instant::now().checked_add(l));
        let mut written = 0;
        loop {
            let before = Instant::now();
            if written == payload.len() {
                return Ok(before);
            }
            let Some(stdin) = self.stdin.as_mut() else {
                return Err(self.dead_fault(expected, Duration::ZERO));
            };
            match stdin.write(&payload[written..]) {
                Ok(0) => {
                    self.stdin = None;
                    return Err(self.dead_fault(expected, Duration::ZERO));
                }
                Ok(n) => {
                    written += n;
                    if written == payload.len() {
                        return Ok(before);
                    }
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    if !self.wait(true, deadline)? {
                        let limit = limit.unwrap_or_default();
                        return Err((
                            FaultKind::Timeout,
                            format!("did not read its input within {} ms", limit.as_millis()),
                            limit,
                        ));
                    }
                    if self.read_stdout_chunk()? == 0 && (self.stdout.is_none() || self.exited) {
                        return Err(self.dead_fault(expected, Duration::ZERO));
                    }
                    self.check_flood(Duration::ZERO)?;
                }
                Err(e) if e.kind() == ErrorKind::BrokenPipe => {
                    self.stdin = None;
                    return Err(self.closed_input_fault(expected));
                }
                Err(_) => {
                    self.stdin = None;
                    return Err(self.dead_fault(expected, Duration::ZERO));
                }
            }
        }
    }

    /// Reads at most one chunk of stdout without blocking; returns the number of complete
    /// lines it added. End of file drops stdout.
    fn read_stdout_chunk(&mut self) -> Result<usize, Failure> {
        let Some(stdout) = self.stdout.as_mut() else {
            return Ok(0);
        };
        let mut buf = [0u8; CHUNK];
        match stdout.read(&mut buf) {
            Ok(0) => {
                self.stdout = None;
                Ok(0)
            }
            Ok(n) => {
                let added = self
                    .framer
                    .feed(&buf[..n], &mut self.pending)
                    .map_err(|_| {
                        (
                            FaultKind::OutputFlood,
                            format!("wrote a line of more than {} bytes", self.max_line),
                            Duration::ZERO,
                        )
                    })?;
                let bytes: usize = self.pending.iter().rev().take(added).map(String::len).sum();
                self.pending_bytes += bytes;
                if self.pending_bytes > self.limits.max_pending_bytes {
                    return Err(self.check_flood(Duration::ZERO).unwrap_err());
                }
                Ok(added)
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::Interrupted) => Ok(0),
            Err(_) => {
                self.stdout = None;
                Ok(0)
            }
        }
    }

    /// Whether stdout has bytes (or its end) ready right now.
    fn readable_now(&self) -> bool {
        self.stdout.as_ref().is_some_and(|out| {
            let mut fds = [pollfd(out.as_raw_fd(), libc::POLLIN)];
            poll(&mut fds, Some(Instant::now())).unwrap_or(false)
        })
    }

    /// Waits until stdout is readable (or, with `for_write`, stdin writable), reading stderr
    /// whenever it has something. Returns false at the deadline.
    fn wait(&mut self, for_write: bool, deadline: Option<Instant>) -> Result<bool, Failure> {
        loop {
            let mut fds = Vec::with_capacity(3);
            if let Some(out) = &self.stdout {
                fds.push(pollfd(out.as_raw_fd(), libc::POLLIN));
            }
            if for_write {
                if let Some(input) = &self.stdin {
                    fds.push(pollfd(input.as_raw_fd(), libc::POLLOUT));
                }
            }
            let exit_at = fds.len();
            if exit_at == 0 {
                // Nothing left to wait for but stderr: the caller sees the closed pipes.
                return Ok(true);
            }
            if let Some(exit) = &self.exit_fd {
                fds.push(pollfd(exit.as_raw_fd(), libc::POLLIN));
            }
            let stderr_at = fds.len();
            if let Some(err) = &self.stderr {
                fds.push(pollfd(err.as_raw_fd(), libc::POLLIN));
            }
            let ready = poll(&mut fds, deadline).map_err(|e| {
                (
                    FaultKind::Crashed,
                    format!("cannot wait for the bot: {e}"),
                    Duration::ZERO,
                )
            })?;
            if !ready {
                return Ok(false);
            }
            if exit_at < stderr_at && fds[exit_at].revents != 0 {
                self.exit_fd = None;
                self.exited = true;
                return Ok(true);
            }
            if fds[..exit_at].iter().any(|f| f.revents != 0) {
                return Ok(true);
            }
            // Only stderr was ready: keep it, then wait again, unless the time is up (a bot
            // flooding stderr keeps it ready, so `poll` alone would never report the deadline).
            self.drain_stderr();
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(false);
            }
        }
    }

    /// Reads what stderr has now, within a budget.
    fn drain_stderr(&mut self) {
        let mut budget = STDERR_DRAIN_BUDGET;
        let mut buf = [0u8; CHUNK];
        while let Some(err) = self.stderr.as_mut() {
            match err.read(&mut buf) {
                Ok(0) => self.stderr = None,
                Ok(n) => {
                    self.stderr_text.push(&buf[..n]);
                    budget = budget.saturating_sub(n);
                    if budget == 0 {
                        return;
                    }
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => return,
                Err(_) => self.stderr = None,
            }
        }
    }

    /// The fault of a bot whose output ended: crashed if the process exits within
    /// `EXIT_WAIT`, else closed output (the runner then kills it).
    fn dead_fault(&mut self, expected: usize, elapsed: Duration) -> Failure {
        let got = self.pending.len().min(expected);
        let detail = format!("closed its standard output after {got} of {expected} lines");
        self.crash_or(FaultKind::ClosedOutput, detail, expected, elapsed)
    }

    /// The fault of a bot whose stdin no longer takes input (a write failed with EPIPE): crashed
    /// if the process exits within `EXIT_WAIT` (an exiting bot closes its stdin before its exit
    /// status is there), else it stopped reading its input while running.
    fn closed_input_fault(&mut self, expected: usize) -> Failure {
        let detail = "stopped reading its input".to_string();
        self.crash_or(FaultKind::ClosedInput, detail, expected, Duration::ZERO)
    }

    /// A crash with the exit status and the last stderr line if the bot exits within
    /// `EXIT_WAIT`, else the fault `kind` with `detail`.
    fn crash_or(
        &mut self,
        kind: FaultKind,
        detail: String,
        expected: usize,
        elapsed: Duration,
    ) -> Failure {
        let Some(status) = self.wait_for_exit() else {
            return (kind, detail, elapsed);
        };
        let got = self.pending.len().min(expected);
        self.interrupted_by = interruption_signal(status);
        let mut detail = format!("exited ({status}) after {got} of {expected} lines");
        let last = self.stderr_text.last_line();
        if !last.is_empty() {
            detail.push_str(&format!("; last stderr line: {last}"));
        }
        (FaultKind::Crashed, detail, elapsed)
    }

    /// Waits up to `EXIT_WAIT` for realm's child to exit (in a PID namespace that is the keeper,
    /// which ends right after the bot and as the bot did), reading stderr meanwhile so that a bot
    /// writing while it ends is not blocked and its last line is kept. `None` if it runs on.
    fn wait_for_exit(&mut self) -> Option<ExitStatus> {
        let deadline = Instant::now() + EXIT_WAIT;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.exit_fd = None;
                self.exited = true;
                self.drain_stderr();
                return Some(status);
            }
            let now = Instant::now();
            if now >= deadline {
                self.drain_stderr();
                return None;
            }
            // The pidfd wakes us at the exit; without one, waitpid is polled.
            let wake = match self.exit_fd {
                Some(_) => deadline,
                None => deadline.min(now + EXIT_POLL_INTERVAL),
            };
            let mut fds = Vec::with_capacity(2);
            if let Some(exit) = &self.exit_fd {
                fds.push(pollfd(exit.as_raw_fd(), libc::POLLIN));
            }
            if let Some(err) = &self.stderr {
                fds.push(pollfd(err.as_raw_fd(), libc::POLLIN));
            }
            if fds.is_empty() || poll(&mut fds, Some(wake)).is_err() {
                thread::sleep(wake.saturating_duration_since(now).min(EXIT_POLL_INTERVAL));
            }
            self.drain_stderr();
        }
    }

    /// Closes the bot's pipes and kills its whole process group. Idempotent.
    pub fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        self.stdin = None;
        // SAFETY: kill(2) with a negative pid signals the group this bot leads; no memory involved.
        unsafe {
            libc::kill(-self.pgid, libc::SIGKILL);
        }
        registry::release_group(self.pgid);
        let _ = self.child.wait();
        registry::forget_child(self.pgid);
        registry::reap_group(self.pgid);
        self.stdout = None;
        self.stderr = None;
        registry::kill_escapees();
    }

    /// The process group id (the bot's shell pid).
    pub fn pgid(&self) -> i32 {
        self.pgid
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A descriptor that becomes readable when process `pid` exits, if the kernel has pidfds.
fn pidfd_open(pid: i32) -> Option<std::os::fd::OwnedFd> {
    use std::os::fd::FromRawFd;
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    // SAFETY: a non-negative result is a descriptor this process now owns.
    (fd >= 0).then(|| unsafe { std::os::fd::OwnedFd::from_raw_fd(fd as RawFd) })
}

fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor this process owns; no memory involved.
    let ok = unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) >= 0
    };
    if ok {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

fn pollfd(fd: RawFd, events: libc::c_short) -> libc::pollfd {
    libc::pollfd {
        fd,
        events,
        revents: 0,
    }
}

/// `ppoll` until one descriptor is ready (true) or the deadline passes (false), with
/// nanosecond timeouts so short time limits are kept exactly. `None` waits forever.
fn poll(fds: &mut [libc::pollfd], deadline: Option<Instant>) -> io::Result<bool> {
    loop {
        let timeout = deadline.map(|d| {
            let left = d.saturating_duration_since(Instant::now());
            libc::timespec {
                tv_sec: left.as_secs() as libc::time_t,
                tv_nsec: left.subsec_nanos() as libc::c_long,
            }
        });
        let timeout_ptr = timeout
            .as_ref()
            .map_or(std::ptr::null(), |t| t as *const libc::timespec);
        // SAFETY: `fds` is a valid, exclusively borrowed array of pollfd of the given length, and
        // `timeout_ptr` is null or points to a timespec that lives until the call returns.
        let n = unsafe {
            libc::ppoll(
                fds.as_mut_ptr(),
                fds.len() as libc::nfds_t,
                timeout_ptr,
                std::ptr::null(),
            )
        };
        if n > 0 {
            return Ok(true);
        }
        if n == 0 {
            if deadline.is_none_or(|d| Instant::now() < d) {
                continue;
            }
            return Ok(false);
        }
        let err = io::Error::last_os_error();
        if err.kind() != ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// Shell keywords and built-ins that are not programs (or whose program would not act on the
/// shell): a command starting with one runs as written.
const SHELL_WORDS: &[&str] = &[
    "if", "while", "for", "case", "until", "!", "trap", "exit", "return", "cd", "export", "set",
    "unset", "shift", "eval", ".", "source", "read", "wait", "ulimit", "umask", "alias", "unalias",
    "readonly", "local", "break", "continue", "times", "command", "type", "hash", "getopts",
    "jobs", "fg", "bg", ":",
];

/// `exec COMMAND` for a simple command, so the bot replaces the shell: it then is realm's direct
/// child and inherits the parent-death signal, which kills it at once if realm is killed with
/// SIGKILL. Commands using shell syntax (lists, pipes, redirections, substitutions) run as
/// written; after realm's death the watchdog kills their group.
fn exec_form(command: &str) -> String {
    let simple = !command.contains([';', '&', '|', '<', '>', '(', ')', '$', '`', '\n', '{', '}'])
        && !command.trim_start().starts_with("exec ");
    let first = command.split_whitespace().next().unwrap_or("");
    // Keywords and built-ins keep their shell meaning (`exec exit 3` would be "not found").
    let keyword = SHELL_WORDS.contains(&first) || first.contains('=');
    if simple && !keyword && !first.is_empty() {
        format!("exec {command}")
    } else {
        command.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_pidfd_a_slow_exit_after_closing_stdout_is_still_a_crash() {
        let bot = "exec 1>&-; sleep 0.7; echo bye >&2; exit 3";
        let mut process = BotProcess::spawn(bot, OutputLimits::default()).unwrap();
        process.exit_fd = None; // As on a kernel without pidfds: waitpid is polled.
        let report = process.call(&["go".into()], 1, None);
        let detail = "exited (exit status: 3) after 0 of 1 lines; last stderr line: bye";
        assert_eq!(report.answer, Err((FaultKind::Crashed, detail.into())));
    }
}
