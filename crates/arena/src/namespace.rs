//! Each bot in a PID namespace of its own, so that nothing it starts can outlive it.
//!
//! A process that calls `setsid` leaves its bot's process group; realm's subreaper sweep finds
//! it while realm lives, but after `kill -9` of realm it would run on under PID 1. Inside a PID
//! namespace that cannot happen: when the namespace's first process dies the kernel kills every
//! other process of the namespace, whatever group or session it moved to.
//!
//! Layout after `spawn`: realm → *keeper* (realm's direct child, group leader, parent-death
//! signal SIGKILL, holds no descriptors) → *bot* (`sh -c COMMAND`, PID 1 of a new namespace,
//! parent-death signal SIGKILL). The keeper only waits for the bot and ends the same way (same
//! exit code, or killed by the same signal), so realm reads the bot's status from its own child.
//! realm dies → keeper killed → bot killed → namespace emptied, all by the kernel.
//!
//! Where PID namespaces are unavailable (no user namespaces for an unprivileged user, seccomp in
//! a container), `unshare` fails in the child and the bot starts as before: its group and the
//! watchdog still die with realm, and only `setsid` escapees may survive a `kill -9` of realm.
//! Everything here runs between `fork` and `exec`, so it only makes async-signal-safe calls and
//! touches memory prepared before the fork.

use std::io;

/// What the child needs to enter its namespace, prepared in the parent (no allocation after
/// `fork`).
pub(crate) struct NamespacePlan {
    /// Also a user namespace, for an unprivileged realm (root needs none).
    user: bool,
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
}

/// Set `REALM_NO_PID_NAMESPACE=1` to start bots without a namespace (for debugging a bot that
/// needs to see the machine's process IDs).
pub(crate) fn plan() -> Option<NamespacePlan> {
    if std::env::var_os("REALM_NO_PID_NAMESPACE").is_some_and(|v| v != "0") {
        return None;
    }
    // SAFETY: getuid/getgid/geteuid take no arguments and cannot fail.
    let (uid, gid, euid) = unsafe { (libc::getuid(), libc::getgid(), libc::geteuid()) };
    Some(NamespacePlan {
        user: euid != 0,
        uid_map: format!("{uid} {uid} 1\n").into_bytes(),
        gid_map: format!("{gid} {gid} 1\n").into_bytes(),
    })
}

impl NamespacePlan {
    /// Runs in the forked child before `exec`. Returns in the process that is to become the bot
    /// (inside the new namespace, or the child itself when no namespace could be made); the
    /// keeper never returns.
    ///
    /// # Safety
    /// Call only between `fork` and `exec` (a `pre_exec` hook) of a single-threaded child.
    pub(crate) unsafe fn enter(&self) -> io::Result<()> {
        // SAFETY: only async-signal-safe calls, in the forked child (see the module).
        unsafe {
            let flags = libc::CLONE_NEWPID | if self.user { libc::CLONE_NEWUSER } else { 0 };
            if libc::unshare(flags) != 0 {
                return Ok(()); // No namespaces here: the bot runs as before.
            }
            if self.user && !self.write_id_maps() {
                // A user namespace without a map would leave the bot as "nobody". Our own
                // namespaces only apply to children, so starting the bot without a fork is wrong
                // too (its children would be in an unmapped namespace): fail the spawn.
                return Err(io::Error::other(
                    "cannot map the user into the bot's namespace",
                ));
            }
            match libc::fork() {
                -1 => Err(io::Error::last_os_error()),
                0 => {
                    libc::prctl(
                        libc::PR_SET_PDEATHSIG,
                        libc::SIGKILL as libc::c_ulong,
                        0,
                        0,
                        0,
                    );
                    Ok(())
                }
                bot => keep(bot),
            }
        }
    }

    unsafe fn write_id_maps(&self) -> bool {
        // SAFETY: only async-signal-safe calls, in the forked child (see the module).
        unsafe {
            write_file(c"/proc/self/setgroups", b"deny")
                && write_file(c"/proc/self/uid_map", &self.uid_map)
                && write_file(c"/proc/self/gid_map", &self.gid_map)
        }
    }
}

unsafe fn write_file(path: &std::ffi::CStr, bytes: &[u8]) -> bool {
    // SAFETY: only async-signal-safe calls, in the forked child (see the module).
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return false;
        }
        let ok = libc::write(fd, bytes.as_ptr().cast(), bytes.len()) == bytes.len() as isize;
        libc::close(fd);
        ok
    }
}

/// The keeper: holds no descriptor (so the bot's pipes end with the bot, and `spawn` in realm
/// is not kept waiting on its exec-error pipe), waits for the bot, then ends as it ended.
unsafe fn keep(bot: libc::pid_t) -> ! {
    // SAFETY: only async-signal-safe calls, in the forked child (see the module).
    unsafe {
        if libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32) != 0 {
            for fd in 0..1024 {
                libc::close(fd);
            }
        }
        let mut status = 0;
        loop {
            if libc::waitpid(bot, &mut status, 0) == bot {
                break;
            }
            if *libc::__errno_location() != libc::EINTR {
                libc::_exit(127);
            }
        }
        if libc::WIFEXITED(status) {
            libc::_exit(libc::WEXITSTATUS(status));
        }
        let signal = libc::WTERMSIG(status);
        libc::signal(signal, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, signal);
        libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::kill(libc::getpid(), signal);
        libc::_exit(128 + signal)
    }
}
