//! The process groups of every live bot, so an interrupted realm (Ctrl-C) can kill them all
//! before exiting: bots run in their own groups and do not receive the terminal's SIGINT.

use std::sync::Mutex;
use std::thread;
use std::time::Duration;

static LIVE_GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());

pub(crate) fn register(pgid: i32) {
    if let Ok(mut groups) = LIVE_GROUPS.lock() {
        groups.push(pgid);
    }
}

pub(crate) fn unregister(pgid: i32) {
    if let Ok(mut groups) = LIVE_GROUPS.lock() {
        groups.retain(|&g| g != pgid);
    }
}

/// Sends SIGKILL to every live bot's process group. Safe to call from a signal-handling thread.
pub fn kill_all_bots() {
    let groups = LIVE_GROUPS.lock().map(|g| g.clone()).unwrap_or_default();
    for pgid in groups {
        // SAFETY: kill(2) on a process group we created; no memory involved.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

/// How many bot process groups are alive right now.
pub fn live_bots() -> usize {
    LIVE_GROUPS.lock().map(|g| g.len()).unwrap_or(0)
}

/// Makes this process the reaper of its orphaned descendants (Linux `PR_SET_CHILD_SUBREAPER`),
/// so the processes a bot spawned are reaped by realm when they die instead of lingering as
/// zombies under an init that may never wait for them. Call once at start-up.
pub fn become_subreaper() {
    // SAFETY: prctl with integer arguments; no memory involved.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0);
    }
}

/// After SIGKILL of a group: reaps its members that were reparented to realm, until none is
/// left (or a short bound passes, for members that escaped to another parent).
pub(crate) fn reap_group(pgid: i32) {
    for _ in 0..200 {
        // SAFETY: waitpid on our own children of that group, without blocking.
        let reaped = unsafe { libc::waitpid(-pgid, std::ptr::null_mut(), libc::WNOHANG) };
        if reaped > 0 {
            continue;
        }
        // SAFETY: signal 0 only tests for existence.
        if unsafe { libc::kill(-pgid, 0) } == -1 {
            return;
        }
        thread::sleep(Duration::from_millis(1));
    }
}
