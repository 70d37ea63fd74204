//! A bot as a child process speaking a game's protocol over stdin/stdout, as on CodinGame.
//!
//! Each bot runs `sh -c COMMAND` in its own process group. Three threads serve it: a writer
//! (so a bot that never reads its input cannot block realm), a stdout reader that frames lines
//! (LF, CR or CRLF end a line) and a stderr collector. All stdout and writer events arrive on
//! one bounded channel, so the match thread waits on a single `recv_timeout`.
//!
//! **Invariant**: when a `BotProcess` is stopped or dropped, its whole process group has been
//! sent SIGKILL and the child reaped; nothing it spawned inside its group survives.
//! This module knows nothing about games: it moves lines and measures time.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use realm_core::FaultKind;

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
    /// From the moment the input was fully written until the last answer line was complete.
    pub elapsed: Duration,
    pub stderr: String,
}

enum Event {
    Line(String),
    LineTooLong,
    Eof,
    Written(Instant),
    WriteFailed,
}

/// A running bot process.
pub struct BotProcess {
    child: Child,
    pgid: i32,
    to_writer: Option<mpsc::Sender<Vec<u8>>>,
    events: Receiver<Event>,
    pending: VecDeque<String>,
    eof: bool,
    stderr: Arc<Mutex<StderrBuffer>>,
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
        let stderr_pipe = child.stderr.take().expect("stderr is piped");

        let (event_tx, events) = mpsc::sync_channel(4096);
        let (to_writer, writer_rx) = mpsc::channel::<Vec<u8>>();
        let writer_events = event_tx.clone();
        thread::Builder::new()
            .name("bot-stdin".into())
            .spawn(move || write_loop(stdin, writer_rx, writer_events))?;
        let max_line = limits.max_line_bytes;
        thread::Builder::new()
            .name("bot-stdout".into())
            .spawn(move || read_lines(stdout, event_tx, max_line))?;
        let stderr = Arc::new(Mutex::new(StderrBuffer::new(limits.max_stderr_bytes)));
        let stderr_sink = Arc::clone(&stderr);
        thread::Builder::new()
            .name("bot-stderr".into())
            .spawn(move || collect_stderr(stderr_pipe, stderr_sink))?;

        Ok(BotProcess {
            child,
            pgid,
            to_writer: Some(to_writer),
            events,
            pending: VecDeque::new(),
            eof: false,
            stderr,
            limits,
            stopped: false,
        })
    }

    /// Sends `lines` and waits for `expected` answer lines. `limit` of `None` waits forever.
    /// Lines the bot wrote beyond an answer stay queued for the next call, as on CodinGame.
    pub fn call(
        &mut self,
        lines: &[String],
        expected: usize,
        limit: Option<Duration>,
    ) -> CallReport {
        let answer = self.exchange(lines, expected, limit);
        let stderr = self.stderr.lock().map(|mut s| s.take()).unwrap_or_default();
        let (answer, elapsed) = match answer {
            Ok((lines, elapsed)) => (Ok(lines), elapsed),
            Err((kind, detail, elapsed)) => (Err((kind, detail)), elapsed),
        };
        CallReport {
            answer,
            elapsed,
            stderr,
        }
    }

    fn exchange(
        &mut self,
        lines: &[String],
        expected: usize,
        limit: Option<Duration>,
    ) -> Result<(Vec<String>, Duration), (FaultKind, String, Duration)> {
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
        let handed_over = Instant::now();
        let sent = self
            .to_writer
            .as_ref()
            .map(|w| w.send(payload).is_ok())
            .unwrap_or(false);
        if !sent {
            return Err(self.dead_fault(Duration::ZERO));
        }

        // Wait for the writer: the clock starts only once the whole input is written.
        let write_deadline = limit.map(|l| handed_over + l);
        let written_at = loop {
            match self.next_event(write_deadline) {
                Ok(Event::Written(at)) => break at,
                Ok(Event::WriteFailed) => return Err(self.dead_fault(Duration::ZERO)),
                Ok(other) => self.absorb(other)?,
                Err(RecvTimeoutError::Timeout) => {
                    let limit = limit.unwrap_or_default();
                    return Err((
                        FaultKind::Timeout,
                        format!("did not read its input within {} ms", limit.as_millis()),
                        limit,
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.dead_fault(Duration::ZERO)),
            }
        };

        let deadline = limit.map(|l| written_at + l);
        let mut last_line_at = written_at;
        while self.pending.len() < expected {
            if self.eof {
                return Err(self.dead_fault(written_at.elapsed()));
            }
            match self.next_event(deadline) {
                Ok(Event::Line(line)) => {
                    last_line_at = Instant::now();
                    self.pending.push_back(line);
                }
                Ok(other) => self.absorb(other)?,
                Err(RecvTimeoutError::Timeout) => {
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
                Err(RecvTimeoutError::Disconnected) => self.eof = true,
            }
        }
        let elapsed = last_line_at.saturating_duration_since(written_at);
        let answer: Vec<String> = self.pending.drain(..expected).collect();
        self.drain_ready()?;
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
        Ok((answer, elapsed))
    }

    fn next_event(&self, deadline: Option<Instant>) -> Result<Event, RecvTimeoutError> {
        match deadline {
            Some(d) => self
                .events
                .recv_timeout(d.saturating_duration_since(Instant::now())),
            None => self
                .events
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
        }
    }

    /// Files an event that is not the one being waited for.
    fn absorb(&mut self, event: Event) -> Result<(), (FaultKind, String, Duration)> {
        match event {
            Event::Line(line) => self.pending.push_back(line),
            Event::Eof => self.eof = true,
            Event::LineTooLong => {
                return Err((
                    FaultKind::OutputFlood,
                    format!(
                        "wrote a line of more than {} bytes",
                        self.limits.max_line_bytes
                    ),
                    Duration::ZERO,
                ))
            }
            Event::Written(_) | Event::WriteFailed => {}
        }
        Ok(())
    }

    /// Takes every event already queued without waiting.
    fn drain_ready(&mut self) -> Result<(), (FaultKind, String, Duration)> {
        while let Ok(event) = self.events.try_recv() {
            self.absorb(event)?;
        }
        Ok(())
    }

    /// The fault of a bot whose output ended: crashed if the process is gone, else closed output.
    fn dead_fault(&mut self, elapsed: Duration) -> (FaultKind, String, Duration) {
        // The exit usually lands a moment after the pipe closes.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                let last = self
                    .stderr
                    .lock()
                    .map(|s| s.last_line())
                    .unwrap_or_default();
                let mut detail = format!("exited ({status})");
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

    /// Closes the bot's stdin and kills its whole process group. Idempotent.
    pub fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        self.to_writer = None;
        // SAFETY: kill(2) with a negative pid signals the group this bot leads; no memory involved.
        unsafe {
            libc::kill(-self.pgid, libc::SIGKILL);
        }
        let _ = self.child.wait();
        registry::reap_group(self.pgid);
        registry::unregister(self.pgid);
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

fn write_loop(mut stdin: ChildStdin, inputs: mpsc::Receiver<Vec<u8>>, events: SyncSender<Event>) {
    for payload in inputs {
        let result = stdin.write_all(&payload).and_then(|_| stdin.flush());
        let event = match result {
            Ok(()) => Event::Written(Instant::now()),
            Err(_) => Event::WriteFailed,
        };
        let failed = matches!(event, Event::WriteFailed);
        if events.send(event).is_err() || failed {
            return;
        }
    }
}

/// Splits stdout into lines. LF, CR and CRLF each end one line (CodinGame's runner reads
/// answers this way); a CR followed by LF in a later read still counts once.
fn read_lines(mut stdout: impl Read, events: SyncSender<Event>, max_line: usize) {
    let mut buf = [0u8; 8192];
    let mut line = Vec::new();
    let mut after_cr = false;
    loop {
        let n = match stdout.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        for &byte in &buf[..n] {
            if after_cr && byte == b'\n' {
                after_cr = false;
                continue;
            }
            after_cr = false;
            if byte == b'\n' || byte == b'\r' {
                after_cr = byte == b'\r';
                let text = String::from_utf8_lossy(&line).into_owned();
                line.clear();
                if events.send(Event::Line(text)).is_err() {
                    return;
                }
            } else {
                line.push(byte);
                if line.len() > max_line {
                    let _ = events.send(Event::LineTooLong);
                    return;
                }
            }
        }
    }
    let _ = events.send(Event::Eof);
}

fn collect_stderr(mut stderr: impl Read, sink: Arc<Mutex<StderrBuffer>>) {
    let mut buf = [0u8; 8192];
    loop {
        match stderr.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                if let Ok(mut s) = sink.lock() {
                    s.push(&buf[..n]);
                }
            }
        }
    }
}

/// stderr gathered since the last call, capped; the bytes beyond the cap are counted, not kept.
struct StderrBuffer {
    bytes: Vec<u8>,
    dropped: usize,
    cap: usize,
    last_line: String,
}

impl StderrBuffer {
    fn new(cap: usize) -> Self {
        StderrBuffer {
            bytes: Vec::new(),
            dropped: 0,
            cap,
            last_line: String::new(),
        }
    }

    fn push(&mut self, chunk: &[u8]) {
        let room = self.cap.saturating_sub(self.bytes.len());
        let kept = room.min(chunk.len());
        self.bytes.extend_from_slice(&chunk[..kept]);
        self.dropped += chunk.len() - kept;
        let text = String::from_utf8_lossy(chunk);
        if let Some(line) = text.lines().rev().find(|l| !l.trim().is_empty()) {
            self.last_line = line.chars().take(200).collect();
        }
    }

    fn take(&mut self) -> String {
        let mut text = String::from_utf8_lossy(&self.bytes).into_owned();
        if self.dropped > 0 {
            text.push_str(&format!(
                "\n[realm: {} more bytes of stderr dropped]\n",
                self.dropped
            ));
        }
        self.bytes.clear();
        self.dropped = 0;
        text
    }

    fn last_line(&self) -> String {
        self.last_line.clone()
    }
}
