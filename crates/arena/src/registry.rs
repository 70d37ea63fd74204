//! Every child process realm starts, so that none outlives it, however realm ends.
//!
//! - Live bot process groups are listed, so an interrupt (Ctrl-C, SIGTERM, SIGHUP) can kill
//!   them all: bots run in their own groups and do not receive the terminal's signals.
//! - A watchdog, one `sh` per realm process started with the first bot, keeps the same list and
//!   kills every group still on it when realm dies, even by SIGKILL: its stdin is a close-on-exec
//!   pipe that only realm writes, so realm's death is its end of file. It ignores INT, TERM and
//!   HUP, lives in its own group, and exits right after that last sweep.
//! - realm is a child subreaper, so a process that left its bot's group (`setsid`) is
//!   reparented to realm when its parent dies. After each bot stops, realm kills and reaps every
//!   child it did not start itself.
//!
//! **Invariant**: every child realm starts goes through `spawn_group`, so the set of children
//! realm spawned is exact and a stranger is never mistaken for an escapee.
//! This module does not talk to bots; `process.rs` does.

use std::io::{self, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError, RwLock};
use std::thread;
use std::time::{Duration, Instant};

/// Reads `+PGID` (register) and `-PGID` (deregister) lines; at end of file (realm is gone)
/// sends SIGKILL to every group still registered. Only shell built-ins run per line.
const WATCHDOG_SCRIPT: &str = r#"trap '' INT TERM HUP
live=' '
while read -r line; do
  id=${line#?}
  case $line in
    +*) live="$live$id " ;;
    -*) case $live in *" $id "*) live="${live%% $id *} ${live#* $id }" ;; esac ;;
  esac
done
for id in $live; do kill -KILL -"$id" 2>/dev/null; done
"#;

/// Rounds of the escapee sweep: an escapee's own escaped children surface one round later.
const SWEEP_ROUNDS: usize = 8;

#[derive(Default)]
struct Registry {
    /// Process groups of live bots (each led by the bot's first process).
    groups: Vec<i32>,
    /// Children realm started and has not reaped yet; any other child is an escapee.
    spawned: Vec<i32>,
    watchdog: Option<Watchdog>,
}

struct Watchdog {
    child: Child,
    input: ChildStdin,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    groups: Vec::new(),
    spawned: Vec::new(),
    watchdog: None,
});
/// Spawning holds it shared, the escapee sweep and the interrupt exclusively: a child between
/// `fork` and its registration is never judged, and an interrupt never misses a starting bot.
static SPAWN_GATE: RwLock<()> = RwLock::new(());
static SUBREAPER: AtomicBool = AtomicBool::new(false);

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Starts `command` (which must put the child in a new process group led by itself) and
/// registers the group with the interrupt list and the watchdog.
pub(crate) fn spawn_group(command: &mut Command) -> io::Result<Child> {
    let _gate = SPAWN_GATE.read().unwrap_or_else(PoisonError::into_inner);
    registry().ensure_watchdog();
    let child = command.spawn()?;
    let pgid = child.id() as i32;
    let mut registry = registry();
    registry.spawned.push(pgid);
    registry.groups.push(pgid);
    registry.tell_watchdog('+', pgid);
    Ok(child)
}

/// Takes a killed group off the interrupt list and the watchdog's. Call it after SIGKILL and
/// before reaping the leader: the leader's zombie keeps the number from being reused meanwhile.
pub(crate) fn release_group(pgid: i32) {
    let mut registry = registry();
    registry.groups.retain(|&g| g != pgid);
    registry.tell_watchdog('-', pgid);
}

/// Forgets a child once it has been reaped.
pub(crate) fn forget_child(pid: i32) {
    registry().spawned.retain(|&p| p != pid);
}

/// Sends SIGKILL to every live bot's process group, then kills the processes that had left
/// those groups (`setsid`) as they are reparented to realm. Safe to call from a signal-handling
/// thread; it takes about 50 ms, which an interrupted realm can spare on its way out.
pub fn kill_all_bots() {
    {
        let _gate = SPAWN_GATE.write().unwrap_or_else(PoisonError::into_inner);
        let mut registry = registry();
        for pgid in registry.groups.clone() {
            // SAFETY: kill(2) on a process group realm created and has not reaped; no memory
            // involved.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
            registry.tell_watchdog('-', pgid);
        }
    }
    // An escapee is reparented only once its parent has died, a moment after the SIGKILL.
    for _ in 0..25 {
        kill_escapees();
        thread::sleep(Duration::from_millis(2));
    }
}

/// How many bot process groups are alive right now.
pub fn live_bots() -> usize {
    registry().groups.len()
}

/// Makes this process the reaper of its orphaned descendants (Linux `PR_SET_CHILD_SUBREAPER`),
/// so the processes a bot spawned are reaped by realm when they die instead of lingering as
/// zombies, and processes that left their bot's group can be found and killed. Call once at
/// start-up; from then on every child must be started by this crate (see the invariant above).
pub fn become_subreaper() {
    // SAFETY: prctl with integer arguments; no memory involved.
    let ok = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0) };
    if ok == 0 {
        SUBREAPER.store(true, Ordering::SeqCst);
    }
}

/// How long `reap_group` waits for a killed group to be gone. SIGKILL is certain but not
/// instant: on a loaded machine the dying members may wait for a core, so this bound is far
/// above any load (the old 200 polls of 1 ms were not) and is reached only by members that
/// escaped to another parent.
const REAP_BOUND: Duration = Duration::from_secs(10);

/// After SIGKILL of a group: reaps its members that were reparented to realm, until none is
/// left (or `REAP_BOUND` passes, for members that escaped to another parent). A process that
/// is not a subreaper (realm used as a library, from Python say) has nothing to wait for once
/// no child of its own is left in the group: the rest are dying orphans of another parent.
pub(crate) fn reap_group(pgid: i32) {
    let deadline = Instant::now() + REAP_BOUND;
    let mut pause = Duration::from_micros(500);
    while Instant::now() < deadline {
        // SAFETY: waitpid on our own children of that group, without blocking.
        let reaped = unsafe { libc::waitpid(-pgid, std::ptr::null_mut(), libc::WNOHANG) };
        if reaped > 0 {
            continue;
        }
        let no_child =
            reaped == -1 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD);
        if no_child && !SUBREAPER.load(Ordering::SeqCst) {
            return;
        }
        // SAFETY: signal 0 only tests for existence.
        if unsafe { libc::kill(-pgid, 0) } == -1 {
            return;
        }
        thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(10));
    }
}

/// Kills and reaps every child of realm that realm did not start and that is not in a live bot's
/// group: processes that left their bot's group and were reparented to realm when it died.
/// Does nothing unless realm is a subreaper (otherwise such orphans go elsewhere).
pub(crate) fn kill_escapees() {
    if !SUBREAPER.load(Ordering::SeqCst) {
        return;
    }
    for _ in 0..SWEEP_ROUNDS {
        let escapees: Vec<i32> = {
            let _gate = SPAWN_GATE.write().unwrap_or_else(PoisonError::into_inner);
            let registry = registry();
            own_children()
                .into_iter()
                .filter(|c| {
                    !registry.spawned.contains(&c.pid) && !registry.groups.contains(&c.pgid)
                })
                .map(|c| c.pid)
                .collect()
        };
        if escapees.is_empty() {
            return;
        }
        for &pid in &escapees {
            // SAFETY: kill(2) on a child realm has not reaped (so the number is still its own)
            // and on the group it leads, if any; no memory involved.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
                libc::kill(pid, libc::SIGKILL);
            }
        }
        for pid in escapees {
            reap_child(pid);
            reap_group(pid);
        }
    }
}

impl Registry {
    /// Starts the watchdog if none runs (first bot, or the last one died) and tells it every
    /// live group. Without `sh` bots still run, protected by the other mechanisms only.
    fn ensure_watchdog(&mut self) {
        if self.watchdog.is_some() {
            return;
        }
        let Ok(watchdog) = start_watchdog() else {
            return;
        };
        self.spawned.push(watchdog.child.id() as i32);
        self.watchdog = Some(watchdog);
        for pgid in self.groups.clone() {
            self.tell_watchdog('+', pgid);
        }
    }

    /// Writes `+PGID` or `-PGID` to the watchdog in one `write`. A watchdog that cannot be
    /// written to is gone: it is reaped, and the next spawn starts a new one.
    fn tell_watchdog(&mut self, sign: char, pgid: i32) {
        let Some(watchdog) = self.watchdog.as_mut() else {
            return;
        };
        let line = format!("{sign}{pgid}\n");
        if watchdog.input.write_all(line.as_bytes()).is_ok() {
            return;
        }
        if let Some(mut dead) = self.watchdog.take() {
            let _ = dead.child.kill();
            let _ = dead.child.wait();
            let pid = dead.child.id() as i32;
            self.spawned.retain(|&p| p != pid);
        }
    }
}

/// The watchdog process, in its own process group, its stdin a pipe only realm writes (the
/// write end is close-on-exec, so no bot inherits it).
fn start_watchdog() -> io::Result<Watchdog> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(WATCHDOG_SCRIPT)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()?;
    let input = child.stdin.take().expect("stdin is piped");
    Ok(Watchdog { child, input })
}

/// Reaps one killed child, waiting a short bound for it to die.
fn reap_child(pid: i32) {
    for _ in 0..200 {
        // SAFETY: waitpid on one of our own children, without blocking.
        let reaped = unsafe { libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG) };
        if reaped != 0 {
            return;
        }
        thread::sleep(Duration::from_millis(1));
    }
}

/// A child of this process and its process group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ChildProcess {
    pid: i32,
    pgid: i32,
}

/// This process's children: from `/proc/self/task/*/children` where the kernel provides it
/// (`CONFIG_PROC_CHILDREN`), otherwise by reading every `/proc/PID/stat`.
///
/// Nothing when `/proc` belongs to another PID namespace (realm itself running as a bot, say as
/// an external referee, under another realm): its numbers are not ours, and acting on them would
/// kill strangers. Escapees there are left to the kernel, which empties each bot's namespace.
fn own_children() -> Vec<ChildProcess> {
    static PROC_IS_OURS: OnceLock<bool> = OnceLock::new();
    static HAS_CHILDREN_FILES: OnceLock<bool> = OnceLock::new();
    if !*PROC_IS_OURS.get_or_init(proc_is_ours) {
        return Vec::new();
    }
    let has_files = *HAS_CHILDREN_FILES.get_or_init(|| {
        std::path::Path::new(&format!("/proc/self/task/{}/children", std::process::id())).exists()
    });
    if has_files {
        children_from_task_files()
    } else {
        children_from_stat_files()
    }
}

/// Whether `/proc/self` is this process as its own PID namespace numbers it.
fn proc_is_ours() -> bool {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let pid = stat.split(' ').next().and_then(|p| p.parse::<u32>().ok());
    pid == Some(std::process::id())
}

fn children_from_task_files() -> Vec<ChildProcess> {
    let mut children = Vec::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return children;
    };
    for task in tasks.flatten() {
        let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        for pid in text
            .split_whitespace()
            .filter_map(|p| p.parse::<i32>().ok())
        {
            // SAFETY: getpgid on a pid; no memory involved.
            let pgid = unsafe { libc::getpgid(pid) };
            if pgid > 0 {
                children.push(ChildProcess { pid, pgid });
            }
        }
    }
    children
}

fn children_from_stat_files() -> Vec<ChildProcess> {
    let me = std::process::id() as i32;
    let mut children = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return children;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.parse::<i32>().ok()) else {
            continue;
        };
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        if let Some((ppid, pgid)) = parent_and_group(&stat) {
            if ppid == me {
                children.push(ChildProcess { pid, pgid });
            }
        }
    }
    children
}

/// The parent pid and process group of a `/proc/PID/stat` line (`pid (comm) state ppid pgrp
/// ...`; comm may hold spaces and parentheses, so fields are counted after the last `)`).
fn parent_and_group(stat: &str) -> Option<(i32, i32)> {
    let mut fields = stat.get(stat.rfind(')')? + 1..)?.split_whitespace().skip(1);
    let ppid = fields.next()?.parse().ok()?;
    let pgid = fields.next()?.parse().ok()?;
    Some((ppid, pgid))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_give_parent_and_group_even_with_odd_names() {
        assert_eq!(
            parent_and_group("4242 (sleep) S 17 4242 17 0 -1 4194304"),
            Some((17, 4242))
        );
        assert_eq!(parent_and_group("9 (a) b (c) R 3 5 3 0"), Some((3, 5)));
        assert_eq!(parent_and_group("garbage"), None);
    }

    #[test]
    fn this_process_sees_its_own_children() {
        let mut command = Command::new("sleep");
        command.arg("30").process_group(0);
        let mut child = spawn_group(&mut command).unwrap();
        let pid = child.id() as i32;
        let found = own_children();
        assert!(
            found.contains(&ChildProcess { pid, pgid: pid }),
            "{found:?}"
        );
        assert_eq!(
            children_from_stat_files()
                .iter()
                .filter(|c| c.pid == pid)
                .count(),
            1
        );
        // SAFETY: kill(2) on our own child's group.
        unsafe { libc::kill(-pid, libc::SIGKILL) };
        release_group(pid);
        child.wait().unwrap();
        forget_child(pid);
    }

    /// The watchdog script alone: it must kill what is registered at end of file and spare what
    /// was deregistered.
    #[test]
    fn the_watchdog_kills_registered_groups_at_end_of_file() {
        let mut watchdog = start_watchdog().unwrap();
        let sleeper = |seconds: &str| {
            Command::new("sleep")
                .arg(seconds)
                .process_group(0)
                .spawn()
                .unwrap()
        };
        let mut kept = sleeper("30");
        let mut killed = sleeper("30");
        let mut other = sleeper("30");
        let lines = format!(
            "+{k}\n+{x}\n+{o}\n-{k}\n-{o}\n+{o}\n-{o}\n-999999\n",
            k = kept.id(),
            x = killed.id(),
            o = other.id()
        );
        watchdog.input.write_all(lines.as_bytes()).unwrap();
        drop(watchdog.input);
        assert!(watchdog.child.wait().unwrap().success());
        let status = killed.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(libc::SIGKILL));
        assert_eq!(
            kept.try_wait().unwrap(),
            None,
            "a deregistered group was killed"
        );
        assert_eq!(
            other.try_wait().unwrap(),
            None,
            "a deregistered group was killed"
        );
        for mut child in [kept, other] {
            child.kill().unwrap();
            child.wait().unwrap();
        }
    }
}
