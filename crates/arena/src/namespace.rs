//! Each bot in a PID namespace of its own, so that nothing it starts can outlive it.
//!
//! A process that calls `setsid` leaves its bot's process group; realm's subreaper sweep finds
//! it while realm lives, but after `kill -9` of realm it would run on under PID 1. Inside a PID
//! namespace that cannot happen: when the namespace's first process dies the kernel kills every
//! other process of the namespace, whatever group or session it moved to.
//!
//! Layout after `spawn`: realm → *keeper* (realm's direct child, group leader, outside the
//! namespace) → *init* (PID 1 of a new namespace, reaps orphans) → *bot* (`sh -c COMMAND`, an
//! ordinary process of the namespace, so signals from outside reach it as usual; PID 1 would
//! ignore them). Each level has the parent-death signal SIGKILL and holds no descriptor of the
//! bot. The init hands the bot's wait status to the keeper, which ends the same way (same exit
//! code, or killed by the same signal), so realm reads the bot's status from its own child.
//! realm dies → keeper killed → init killed → namespace emptied, all by the kernel.
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
    /// keeper and the namespace's init never return.
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
            // The init passes the bot's wait status to the keeper through this pipe: an init
            // cannot die of a signal sent by itself, so it could not pass a signal on.
            let mut status_pipe = [0; 2];
            if libc::pipe2(status_pipe.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
                return Err(io::Error::last_os_error());
            }
            let [read_end, write_end] = status_pipe;
            match libc::fork() {
                -1 => Err(io::Error::last_os_error()),
                0 => {
                    die_with_parent();
                    match libc::fork() {
                        -1 => libc::_exit(127),
                        0 => {
                            // The bot: an ordinary process of the namespace, so signals from
                            // outside reach it as they would any process.
                            die_with_parent();
                            Ok(())
                        }
                        bot => init(bot, write_end),
                    }
                }
                init_pid => keep(init_pid, read_end),
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

/// SIGKILL when the parent dies, so each level follows the one above it.
unsafe fn die_with_parent() {
    // SAFETY: prctl with integer arguments.
    unsafe {
        libc::prctl(
            libc::PR_SET_PDEATHSIG,
            libc::SIGKILL as libc::c_ulong,
            0,
            0,
            0,
        );
    }
}

/// A forked copy of realm keeps realm's signal handlers (Ctrl-C handling) until it execs; the
/// keeper and the init never exec, so they take the default dispositions and an empty mask, and
/// a SIGTERM sent to them acts as it would on any process.
unsafe fn default_signals() {
    // SAFETY: signal and sigprocmask with valid arguments; SIGKILL/SIGSTOP simply fail.
    unsafe {
        for signal in 1..32 {
            libc::signal(signal, libc::SIG_DFL);
        }
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
    }
}

/// Closes every descriptor but `keep` (so no pipe of the bot stays open through us, and realm's
/// `spawn` is not kept waiting on its exec-error pipe).
unsafe fn close_all_but(keep: libc::c_int) {
    // SAFETY: close_range/close on this process's own descriptors.
    unsafe {
        let keep = keep as libc::c_uint;
        let below = keep.checked_sub(1).map(|last| (0, last));
        for (first, last) in below.into_iter().chain([(keep + 1, libc::c_uint::MAX)]) {
            if libc::syscall(libc::SYS_close_range, first, last, 0u32) != 0 {
                for fd in first..last.min(1023) + 1 {
                    libc::close(fd as libc::c_int);
                }
            }
        }
    }
}

/// The namespace's init (PID 1): reaps every orphan of the namespace until the bot ends, hands
/// the bot's wait status to the keeper, and exits, which makes the kernel kill whatever is left
/// in the namespace.
unsafe fn init(bot: libc::pid_t, status_out: libc::c_int) -> ! {
    // SAFETY: only async-signal-safe calls, in the forked child (see the module).
    unsafe {
        default_signals();
        close_all_but(status_out);
        let mut status = 0;
        loop {
            let pid = libc::waitpid(-1, &mut status, 0);
            if pid == bot {
                break;
            }
            if pid < 0 && *libc::__errno_location() != libc::EINTR {
                libc::_exit(127);
            }
        }
        let bytes = status.to_ne_bytes();
        libc::write(status_out, bytes.as_ptr().cast(), bytes.len());
        libc::_exit(0)
    }
}

/// The keeper (realm's direct child, outside the namespace): waits for the bot's status from
/// the init, then ends as the bot ended (same exit code, or killed by the same signal).
unsafe fn keep(init: libc::pid_t, status_in: libc::c_int) -> ! {
    // SAFETY: only async-signal-safe calls, in the forked child (see the module).
    unsafe {
        default_signals();
        close_all_but(status_in);
        let mut bytes = [0u8; 4];
        let mut got = 0;
        while got < bytes.len() {
            let n = libc::read(
                status_in,
                bytes[got..].as_mut_ptr().cast(),
                bytes.len() - got,
            );
            if n > 0 {
                got += n as usize;
            } else if n == 0 || *libc::__errno_location() != libc::EINTR {
                break;
            }
        }
        let mut init_status = 0;
        while libc::waitpid(init, &mut init_status, 0) < 0
            && *libc::__errno_location() == libc::EINTR
        {}
        // Without the bot's status (the init was killed), the init's own stands for it.
        let status = if got == bytes.len() {
            i32::from_ne_bytes(bytes)
        } else {
            init_status
        };
        if libc::WIFEXITED(status) {
            libc::_exit(libc::WEXITSTATUS(status));
        }
        let signal = libc::WTERMSIG(status);
        libc::kill(libc::getpid(), signal);
        libc::_exit(128 + signal)
    }
}
