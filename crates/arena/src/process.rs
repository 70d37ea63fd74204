//! A bot as a child process speaking a game's protocol over stdin/stdout, as on CodinGame.
//!
//! Each bot runs `sh -c COMMAND` in its own process group. The match thread talks to it
//! directly through non-blocking pipes and `ppoll`: no helper threads, so an answer reaches the
//! referee without a thread hand-off, and a bot that never reads its input (or floods its
//! output) can only run out its own clock. stdout is framed into lines (LF, CR or CRLF);
//! stderr is read in the same loop and kept per call.
//!
//! **Invariant**: when a `BotProcess` is stopped or dropped, its whole process group has been
//! sent SIGKILL and the child reaped; nothing it spawned inside its group survives.
//! This module knows nothing about games: it moves lines and measures time.

use std::collections::VecDeque;
use std::io::{self, ErrorKind, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use realm_core::FaultKind;

use crate::lines::{LineFramer, StderrBuffer};
use crate::registry;

/// Output limits that turn a flooding bot into a fault instead of unbounded memory use.
#[derive(Clone, Copy, Debug)]
pub struct OutputLimits {
    /// A line longer than this (in bytes, before its terminator) is a fault.
    pub max_line_bytes: usize,
    /// More unread answer lines than this queued after a call is a fault.
    pub max_pending_lines: usize,
    /// stderr kept per call; the rest is dropped and marked.
    pub max_stderr_bytes: usize,
}

impl Default for OutputLimits {
    fn default() -> Self {
        OutputLimits {
            max_line_bytes: 10_000,
            max_pending_lines: 1_000,
            max_stderr_bytes: 64 * 1024,
        }
    }
}

/// What one call produced.
#[derive(Clone, Debug)]
pub struct CallReport {
    pub answer: Result<Vec<String>, (FaultKind, String)>,
    /// From the moment the input was fully written until the last answer line was read.
    pub elapsed: Duration,
    pub stderr: String,
}

/// Why a call failed: the fault, its reason, and the time the bot had used.
type Failure = (FaultKind, String, Duration);

/// Bytes read per `read` call.
const CHUNK: usize = 8192;
/// At most this much stderr is read in one go, so a bot flooding stderr cannot keep realm busy.
const STDERR_DRAIN_BUDGET: usize = 1 << 20;

/// A running bot process.
pub struct BotProcess {
    child: Child,
    pgid: i32,
    stdin: Option<ChildStdin>,
    /// `None` once the bot closed its stdout.
    stdout: Option<ChildStdout>,
    stderr: Option<ChildStderr>,
    framer: LineFramer,
    /// Complete lines read but not yet consumed by a call.
    pending: VecDeque<String>,
    stderr_text: StderrBuffer,
    limits: OutputLimits,
    stopped: bool,
}

impl BotProcess {
    /// Starts `sh -c command` in a new process group with piped stdin, stdout and stderr.
    pub fn spawn(command: &str, limits: OutputLimits) -> io::Result<BotProcess> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(exec_form(command))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        // SAFETY: prctl is async-signal-safe and touches no memory of the parent. It makes the
        // kernel kill the bot if realm dies without cleaning up (even by SIGKILL).
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(
                    libc::PR_SET_PDEATHSIG,
                    libc::SIGKILL as libc::c_ulong,
                    0,
                    0,
                    0,
                );
                Ok(())
            });
        }
        let mut child = cmd.spawn()?;
        let pgid = child.id() as i32;
        registry::register(pgid);
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let mut process = BotProcess {
            child,
            pgid,
            stdin: None,
            stdout: None,
            stderr: None,
            framer: LineFramer::new(limits.max_line_bytes),
            pending: VecDeque::new(),
            stderr_text: StderrBuffer::new(limits.max_stderr_bytes),
            limits,
            stopped: false,
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

    /// Sends `lines` and waits for `expected` answer lines. `limit` of `None` waits forever.
    /// Lines the bot wrote beyond an answer stay queued for the next call, as on CodinGame.
    pub fn call(
        &mut self,
        lines: &[String],
        expected: usize,
        limit: Option<Duration>,
    ) -> CallReport {
        let result = self.exchange(lines, expected, limit);
        self.drain_stderr();
        let (answer, elapsed) = match result {
            Ok((lines, elapsed)) => (Ok(lines), elapsed),
            Err((kind, detail, elapsed)) => (Err((kind, detail)), elapsed),
        };
        CallReport {
            answer,
            elapsed,
            stderr: self.stderr_text.take(),
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
        // The clock starts only once the whole input is written; a bot that does not read it
        // gets one time limit to do so.
        self.write_input(&payload, limit.map(|l| Instant::now() + l), limit)?;
        let written_at = Instant::now();
        let deadline = limit.map(|l| written_at + l);
        let mut last_line_at = written_at;
        while self.pending.len() < expected {
            if self.stdout.is_none() {
                return Err(self.dead_fault(written_at.elapsed()));
            }
            if self.read_stdout_chunk()? > 0 {
                last_line_at = Instant::now();
                continue;
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
        let elapsed = last_line_at.saturating_duration_since(written_at);
        let answer: Vec<String> = self.pending.drain(..expected).collect();
        // Whatever else is already there stays queued; too much of it is a flood.
        while self.stdout.is_some() && self.pending.len() <= self.limits.max_pending_lines {
            if self.read_stdout_chunk().map_err(|f| (f.0, f.1, elapsed))? == 0
                && !self.readable_now()
            {
                break;
            }
        }
        self.check_flood(elapsed)?;
        Ok((answer, elapsed))
    }

    /// Too many unread lines queued is a flood.
    fn check_flood(&self, elapsed: Duration) -> Result<(), Failure> {
        if self.pending.len() > self.limits.max_pending_lines {
            return Err((
                FaultKind::OutputFlood,
                format!(
                    "more than {} unread lines queued",
                    self.limits.max_pending_lines
                ),
                elapsed,
            ));
        }
        Ok(())
    }

    /// Writes the whole payload, reading the bot's output meanwhile so that a bot writing
    /// before it reads cannot deadlock with realm.
    fn write_input(
        &mut self,
        payload: &[u8],
        deadline: Option<Instant>,
        limit: Option<Duration>,
    ) -> Result<(), Failure> {
        let mut written = 0;
        while written < payload.len() {
            let Some(stdin) = self.stdin.as_mut() else {
                return Err(self.dead_fault(Duration::ZERO));
            };
            match stdin.write(&payload[written..]) {
                Ok(n) => written += n,
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
                    if self.read_stdout_chunk()? == 0 && self.stdout.is_none() {
                        return Err(self.dead_fault(Duration::ZERO));
                    }
                    self.check_flood(Duration::ZERO)?;
                }
                Err(_) => {
                    self.stdin = None;
                    return Err(self.dead_fault(Duration::ZERO));
                }
            }
        }
        Ok(())
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
            Ok(n) => self.framer.feed(&buf[..n], &mut self.pending).map_err(|_| {
                (
                    FaultKind::OutputFlood,
                    format!(
                        "wrote a line of more than {} bytes",
                        self.limits.max_line_bytes
                    ),
                    Duration::ZERO,
                )
            }),
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
            let stderr_at = fds.len();
            if let Some(err) = &self.stderr {
                fds.push(pollfd(err.as_raw_fd(), libc::POLLIN));
            }
            if stderr_at == 0 {
                // Nothing left to wait for but stderr: the caller sees the closed pipes.
                return Ok(true);
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
            if fds[..stderr_at].iter().any(|f| f.revents != 0) {
                return Ok(true);
            }
            // Only stderr was ready: keep it, then wait again.
            self.drain_stderr();
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

    /// The fault of a bot whose output ended: crashed if the process is gone, else closed output.
    fn dead_fault(&mut self, elapsed: Duration) -> Failure {
        // The exit usually lands a moment after the pipe closes.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.drain_stderr();
                let mut detail = format!("exited ({status})");
                let last = self.stderr_text.last_line();
                if !last.is_empty() {
                    detail.push_str(&format!("; last stderr line: {last}"));
                }
                return (FaultKind::Crashed, detail, elapsed);
            }
            thread::sleep(Duration::from_millis(5));
        }
        (
            FaultKind::ClosedOutput,
            "closed its standard output".into(),
            elapsed,
        )
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
        let _ = self.child.wait();
        registry::reap_group(self.pgid);
        registry::unregister(self.pgid);
        self.stdout = None;
        self.stderr = None;
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

/// `exec COMMAND` for a simple command, so the bot replaces the shell: it then is realm's direct
/// child, inherits the parent-death signal, and dies even if realm is killed with SIGKILL.
/// Commands using shell syntax (lists, pipes, redirections, substitutions) run as written.
fn exec_form(command: &str) -> String {
    let simple = !command.contains([';', '&', '|', '<', '>', '(', ')', '$', '`', '\n', '{', '}'])
        && !command.trim_start().starts_with("exec ");
    let first = command.split_whitespace().next().unwrap_or("");
    let keyword = ["if", "while", "for", "case", "until", "!", "trap"].contains(&first)
        || first.contains('=');
    if simple && !keyword && !first.is_empty() {
        format!("exec {command}")
    } else {
        command.to_string()
    }
}
