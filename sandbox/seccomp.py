"""The system-call policy for bots: one policy, two renderings.

The policy starts from Docker's default seccomp profile as it applies to a container with no
capabilities (``moby/profiles``, ``seccomp/default.json`` of 2025, the version that no longer allows
``io_uring_*``) and is stricter in a few places (docs/sandbox.md has the list and the reasons):

* ``ptrace``, ``process_vm_readv`` and ``process_vm_writev`` are denied (Docker allows them on kernels
  from 4.8 on): a bot has nothing to trace, and they are a classic way to tamper with other processes;
* ``socket`` is allowed for ``AF_UNIX``, ``AF_INET``, ``AF_INET6`` and ``AF_NETLINK`` only (Docker allows
  about thirty address families, most of them rarely used kernel code);
* ``modify_ldt`` is denied (Docker allows it on x86; only 16-bit code and Wine need it);
* only the machine's native system-call ABI is allowed (Docker also allows x86's 32-bit and x32 ABIs).

Everything not allowed fails with ``EPERM`` (as in Docker), except ``clone3``, which fails with
``ENOSYS`` so that the C library falls back to ``clone``, whose flags can be checked: no namespace may be
created. So ``keyctl``/``add_key``/``request_key``, ``bpf``, ``perf_event_open``, ``userfaultfd``,
``mount``/``umount2``/``pivot_root``, ``unshare``/``setns``, ``io_uring_*``, ``kexec_*``,
``open_by_handle_at``, module loading, ``reboot``, ``swapon``, ``acct``, ``personality`` changes other
than the harmless ones, and every system call added to the kernel after the list was written are denied.

:func:`docker_profile` renders the policy in Docker's profile format (the docker runner passes it as
``security_opt``); :func:`bpf_program` compiles it with libseccomp (through ``pyseccomp``, ctypes
bindings with the API of libseccomp's own Python module) into the classic-BPF program that
``bwrap --seccomp FD`` installs just before it runs the bot. ``python -m sandbox.seccomp
[docker|gvisor|pfc]`` prints either form.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from typing import Any

from sandbox.errors import SandboxUnavailable

#: Allowed unconditionally: Docker's default list for a container without capabilities, less ptrace &
#: co. (see the module docstring). Names the local libseccomp does not know, or that do not exist on this
#: machine's ABI (the ``*32``/``*64`` variants of 32-bit ABIs), are skipped by :func:`bpf_program` (and
#: so stay denied); runc does the same with the profile.
ALLOWED: frozenset[str] = frozenset(
    """
    accept accept4 access adjtimex alarm bind brk cachestat capget capset chdir chmod chown chown32
    clock_adjtime clock_adjtime64 clock_getres clock_getres_time64 clock_gettime clock_gettime64
    clock_nanosleep clock_nanosleep_time64 close close_range connect copy_file_range creat dup dup2 dup3
    epoll_create epoll_create1 epoll_ctl epoll_ctl_old epoll_pwait epoll_pwait2 epoll_wait epoll_wait_old
    eventfd eventfd2 execve execveat exit exit_group faccessat faccessat2 fadvise64 fadvise64_64 fallocate
    fanotify_mark fchdir fchmod fchmodat fchmodat2 fchown fchown32 fchownat fcntl fcntl64 fdatasync
    fgetxattr flistxattr flock fork fremovexattr fsetxattr fstat fstat64 fstatat64 fstatfs fstatfs64 fsync
    ftruncate ftruncate64 futex futex_requeue futex_time64 futex_wait futex_waitv futex_wake futimesat
    getcpu getcwd getdents getdents64 getegid getegid32 geteuid geteuid32 getgid getgid32 getgroups
    getgroups32 getitimer getpeername getpgid getpgrp getpid getppid getpriority getrandom getresgid
    getresgid32 getresuid getresuid32 getrlimit get_robust_list getrusage getsid getsockname getsockopt
    get_thread_area gettid gettimeofday getuid getuid32 getxattr getxattrat inotify_add_watch inotify_init
    inotify_init1 inotify_rm_watch io_cancel ioctl io_destroy io_getevents io_pgetevents
    io_pgetevents_time64 ioprio_get ioprio_set io_setup io_submit ipc kill landlock_add_rule
    landlock_create_ruleset landlock_restrict_self lchown lchown32 lgetxattr link linkat listen listmount
    listxattr listxattrat llistxattr _llseek lremovexattr lseek lsetxattr lstat lstat64 madvise
    map_shadow_stack membarrier memfd_create memfd_secret mincore mkdir mkdirat mknod mknodat mlock mlock2
    mlockall mmap mmap2 mprotect mq_getsetattr mq_notify mq_open mq_timedreceive mq_timedreceive_time64
    mq_timedsend mq_timedsend_time64 mq_unlink mremap mseal msgctl msgget msgrcv msgsnd msync munlock
    munlockall munmap name_to_handle_at nanosleep newfstatat _newselect open openat openat2 pause
    pidfd_open pidfd_send_signal pipe pipe2 pkey_alloc pkey_free pkey_mprotect poll ppoll ppoll_time64
    prctl pread64 preadv preadv2 prlimit64 process_mrelease pselect6 pselect6_time64 pwrite64 pwritev
    pwritev2 read readahead readlink readlinkat readv recv recvfrom recvmmsg recvmmsg_time64 recvmsg
    remap_file_pages removexattr removexattrat rename renameat renameat2 restart_syscall rmdir rseq
    rt_sigaction rt_sigpending rt_sigprocmask rt_sigqueueinfo rt_sigreturn rt_sigsuspend rt_sigtimedwait
    rt_sigtimedwait_time64 rt_tgsigqueueinfo sched_getaffinity sched_getattr sched_getparam
    sched_get_priority_max sched_get_priority_min sched_getscheduler sched_rr_get_interval
    sched_rr_get_interval_time64 sched_setaffinity sched_setattr sched_setparam sched_setscheduler
    sched_yield seccomp select semctl semget semop semtimedop semtimedop_time64 send sendfile sendfile64
    sendmmsg sendmsg sendto setfsgid setfsgid32 setfsuid setfsuid32 setgid setgid32 setgroups setgroups32
    setitimer setpgid setpriority setregid setregid32 setresgid setresgid32 setresuid setresuid32 setreuid
    setreuid32 setrlimit set_robust_list setsid setsockopt set_thread_area set_tid_address setuid setuid32
    setxattr setxattrat shmat shmctl shmdt shmget shutdown sigaltstack signalfd signalfd4 sigprocmask
    sigreturn socketcall socketpair splice stat stat64 statfs statfs64 statmount statx symlink symlinkat
    sync sync_file_range syncfs sysinfo tee tgkill time timer_create timer_delete timer_getoverrun
    timer_gettime timer_gettime64 timer_settime timer_settime64 timerfd_create timerfd_gettime
    timerfd_gettime64 timerfd_settime timerfd_settime64 times tkill truncate truncate64 ugetrlimit umask
    uname unlink unlinkat uretprobe utime utimensat utimensat_time64 utimes vfork vmsplice wait4 waitid
    waitpid write writev
    """.split()  # noqa: SIM905 (a word list reads better than 330 quoted names)
)

#: Allowed only on one machine architecture (``os.uname().machine``).
ARCH_ALLOWED: dict[str, frozenset[str]] = {"x86_64": frozenset({"arch_prctl"})}

#: Denied although Docker's default profile allows them (for a container without capabilities).
STRICTER_THAN_DOCKER: frozenset[str] = frozenset(
    {"ptrace", "process_vm_readv", "process_vm_writev", "modify_ldt"}
)

#: Address families a bot may open sockets of: AF_UNIX, AF_INET, AF_INET6, AF_NETLINK (the C library
#: asks the kernel for the interfaces through netlink).
SOCKET_FAMILIES: tuple[int, ...] = (1, 2, 10, 16)

#: ``personality`` values allowed: PER_LINUX, PER_LINUX32, UNAME26, both, and the query 0xffffffff.
PERSONALITIES: tuple[int, ...] = (0x0, 0x8, 0x20000, 0x20008, 0xFFFFFFFF)

#: ``clone`` flags that create namespaces (NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET):
#: ``clone`` is allowed only with none of them.
CLONE_NAMESPACE_FLAGS = 0x7E020000

#: gVisor's names for system calls it calls otherwise than Linux does (its profile loader looks names up
#: in its own table and skips those it does not know: the call would be denied).
GVISOR_ALIASES: dict[str, str] = {"pselect6": "pselect"}

#: What every other system call returns.
DEFAULT_ERRNO = errno.EPERM


@dataclass(frozen=True)
class ArgRule:
    """Allow ``name`` when argument ``index`` compared by ``op`` (a libseccomp operator name without
    ``SCMP_CMP_``: ``EQ``, ``MASKED_EQ``) with ``value`` (and ``mask``) holds."""

    name: str
    index: int
    op: str
    value: int
    mask: int = 0


def arg_rules() -> list[ArgRule]:
    """The system calls allowed only with certain arguments (each rule allows on its own)."""
    rules = [ArgRule("socket", 0, "EQ", family) for family in SOCKET_FAMILIES]
    rules += [ArgRule("personality", 0, "EQ", value) for value in PERSONALITIES]
    rules.append(ArgRule("clone", 0, "MASKED_EQ", 0, CLONE_NAMESPACE_FLAGS))
    return rules


#: System calls that fail with their own errno instead of EPERM.
ERRNO_RULES: dict[str, int] = {"clone3": errno.ENOSYS}


def allowed_names(machine: str | None = None) -> frozenset[str]:
    """Every system call allowed without conditions on ``machine`` (default: this one)."""
    machine = machine or os.uname().machine
    return (ALLOWED | ARCH_ALLOWED.get(machine, frozenset())) - STRICTER_THAN_DOCKER


def docker_profile(machine: str | None = None, *, gvisor: bool = False) -> dict[str, Any]:
    """The policy in Docker's seccomp profile format (``security_opt=["seccomp=" + json.dumps(...)]``).

    No architectures are listed, so runc allows only the native ABI. For ``gvisor`` (``runsc
    --oci-seccomp``, which applies the profile inside its own kernel), ``clone3`` is left to gVisor, which
    does not implement it and answers ``ENOSYS`` itself: its profile loader ignores a rule's
    ``errnoRet``, and ``EPERM`` from ``clone3`` would stop the C library from starting threads; and
    gVisor's own names are added (:data:`GVISOR_ALIASES`).
    """
    names = allowed_names(machine)
    if gvisor:
        names |= frozenset(ERRNO_RULES) | {GVISOR_ALIASES[n] for n in names & GVISOR_ALIASES.keys()}
    syscalls: list[dict[str, Any]] = [{"names": sorted(names), "action": "SCMP_ACT_ALLOW"}]
    for rule in arg_rules():
        arg: dict[str, Any] = {"index": rule.index, "op": f"SCMP_CMP_{rule.op}"}
        if rule.op == "MASKED_EQ":
            arg |= {"value": rule.mask, "valueTwo": rule.value}
        else:
            arg |= {"value": rule.value}
        syscalls.append({"names": [rule.name], "action": "SCMP_ACT_ALLOW", "args": [arg]})
    for name, code in ERRNO_RULES.items():
        if not gvisor:
            syscalls.append({"names": [name], "action": "SCMP_ACT_ERRNO", "errnoRet": code})
    return {"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": DEFAULT_ERRNO, "syscalls": syscalls}


@functools.cache
def docker_security_opt(*, gvisor: bool = False) -> str:
    """The ``security_opt`` entry that installs :func:`docker_profile` (the profile's JSON, inline)."""
    return "seccomp=" + json.dumps(docker_profile(gvisor=gvisor), separators=(",", ":"))


@dataclass(frozen=True)
class CompiledFilter:
    """A compiled filter: the BPF program and the allowed names libseccomp did not know (denied)."""

    program: bytes
    unknown: frozenset[str]


def _build() -> tuple[Any, frozenset[str]]:
    try:
        import pyseccomp as sc
    except (ImportError, RuntimeError) as exc:  # RuntimeError: pyseccomp found no libseccomp
        raise SandboxUnavailable(
            f"the seccomp filter needs libseccomp and its bindings ({exc}): apt-get install libseccomp2; "
            "pip install pyseccomp (or 'uno-arena[bwrap]')"
        ) from exc

    filt = sc.SyscallFilter(sc.ERRNO(DEFAULT_ERRNO))
    # A binary search on the system-call number instead of ~300 comparisons in a row for each call.
    filt.set_attr(sc.Attr.CTL_OPTIMIZE, 2)
    unknown: set[str] = set()

    def number(name: str) -> int | None:
        nr = sc.resolve_syscall(sc.Arch.NATIVE, name)
        if nr < 0:  # unknown to libseccomp, or a pseudo number (not a system call on this ABI)
            unknown.add(name)
            return None
        return nr

    for name in sorted(allowed_names()):
        if (nr := number(name)) is not None:
            filt.add_rule(sc.ALLOW, nr)
    for rule in arg_rules():
        if (nr := number(rule.name)) is not None:
            op = getattr(sc, rule.op)
            arg = (
                sc.Arg(rule.index, op, rule.mask, rule.value)
                if rule.op == "MASKED_EQ"
                else sc.Arg(rule.index, op, rule.value)
            )
            filt.add_rule(sc.ALLOW, nr, arg)
    for name, code in ERRNO_RULES.items():
        if (nr := number(name)) is not None:
            filt.add_rule(sc.ERRNO(code), nr)
    return filt, frozenset(unknown)


def _export(filt: Any, method: str) -> bytes:
    with tempfile.TemporaryFile() as out:
        getattr(filt, method)(out)
        out.seek(0)
        return out.read()


@functools.cache
def compiled() -> CompiledFilter:
    """The policy compiled for this machine by libseccomp (built once per process, in ~ms)."""
    filt, unknown = _build()
    return CompiledFilter(_export(filt, "export_bpf"), unknown)


def bpf_program() -> bytes:
    """The classic-BPF program (``struct sock_filter`` array) that ``bwrap --seccomp`` installs."""
    return compiled().program


def program_fd() -> int:
    """A new close-on-exec memfd holding :func:`bpf_program`, positioned at 0, numbered 10 or more
    (so that a launching shell can use the low numbers): hand it to ``bwrap --seccomp``, which reads and
    closes its copy. The caller closes this one."""
    import fcntl

    memfd = os.memfd_create("uno-arena-seccomp", os.MFD_CLOEXEC)
    try:
        os.write(memfd, bpf_program())
        os.lseek(memfd, 0, os.SEEK_SET)
        return fcntl.fcntl(memfd, fcntl.F_DUPFD_CLOEXEC, 10)
    finally:
        os.close(memfd)


def main(argv: list[str]) -> int:
    """``python -m sandbox.seccomp [docker|gvisor|pfc]``: print a Docker profile or libseccomp's listing."""
    what = argv[0] if argv else "docker"
    if what in ("docker", "gvisor"):
        print(json.dumps(docker_profile(gvisor=what == "gvisor"), indent=2))
    elif what == "pfc":
        sys.stdout.write(_export(_build()[0], "export_pfc").decode())
    else:
        print("usage: python -m sandbox.seccomp [docker|gvisor|pfc]", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
