"""The referee's handles on a bot's template process and on the game processes it forks.

A :class:`BotTemplate` starts the bot host (:mod:`arena.sandbox.host`) once per bot and worker;
:meth:`BotTemplate.new_game` asks it for a fresh, confined :class:`GameProcess` for every game.
The referee never touches a folder the bot can write: each game's folder is a tmpfs inside the
bot's own mount namespace, and its log an anonymous in-memory file owned by the referee.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
from typing import Any
from functools import lru_cache
from pathlib import Path

from arena.sandbox import confine, seccomp
from arena.sandbox.channel import LineChannel
from arena.sandbox.leases import UidLease, lease_uid
from arena.sandbox.runtime import (BOT_FILTER, COMMAND_FILTER, HOST_SCRIPT, SYSTEM_DIRS, find_python,
                                   get_runtime)
from arena.sandbox.spec import BotSpec, Limits

_CPUCLOCK_SCHED = 2         # Linux: a process CPU clock id is (~pid << 3) | CPUCLOCK_SCHED
# A frozen bot's threads, once the stop has taken hold: stopped, traced, zombie, dead.
STOPPED_STATES = (b"T", b"t", b"Z", b"X")
STOP_YIELDS = 8                                 # looks between yields of the CPU, at first
STOP_POLL_FIRST, STOP_POLL_LAST = 50e-6, 5e-3   # then seconds between looks while one runs on
_CREDS = struct.calcsize("3i")
# Modules a bot commonly imports, loaded once by the template rather than in every game.
PRELOAD = ("json", "random", "math", "itertools", "collections", "functools", "heapq",
           "dataclasses", "typing", "enum", "arena.errors", "arena.engine.cards",
           "arena.engine.rules", "arena.engine.game", "arena.engine.legality",
           "arena.engine.observation", "arena.engine.seat_view")


class TemplateError(Exception):
    """The template could not be started or stopped answering (the text says why)."""


class BotTemplate:
    """A running template of one bot: a host process that has loaded the runtime, not the bot.

    ``confine`` False (``--trusted``) skips every namespace, the uid lease and seccomp: the
    game processes are still fresh forks, so no state carries from one game to the next.
    """

    def __init__(self, spec: BotSpec, limits: Limits, *, confine_bots: bool,
                 cpus: set[int] | None = None) -> None:
        self.spec, self.limits, self.confined = spec, limits, confine_bots
        self.lease: UidLease | None = lease_uid() if confine_bots and confine.is_root() else None
        self.workdir: Path | None = None
        try:
            self._start(cpus)
        except BaseException:
            self.close()
            raise

    # -- start -------------------------------------------------------------------------

    def _start(self, cpus: set[int] | None) -> None:
        runtime = get_runtime()
        python = find_python(self.lease is not None)
        if python is None:
            raise TemplateError("no Python 3.11 that an unprivileged uid can run "
                                "(install the system's python3.11)")
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        ours.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.control = ours
        self.log_fd = os.memfd_create("arena-template-log", os.MFD_CLOEXEC)
        conf = confine.Confinement(
            uid=self.lease.uid if self.lease else None,
            memory_bytes=self.limits.memory_mb * 1024 * 1024,
            file_bytes=max(1 << 20, 8 * self.limits.log_bytes), cpus=cpus)
        home = "/bot" if self.confined else str(self._trusted_workdir(runtime.base))
        env = {"HOME": home, "TMPDIR": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        try:
            self.proc = subprocess.Popen(
                [python, "-I", "-S", "-B", str(runtime.rt / HOST_SCRIPT)], stdin=theirs.fileno(),
                stdout=subprocess.DEVNULL, stderr=self.log_fd, env=env, cwd="/",
                preexec_fn=conf.preexec, start_new_session=True, close_fds=True)
        finally:
            theirs.close()
        self.pidfd = os.pidfd_open(self.proc.pid)
        self.init_pidfd: int | None = None
        self._send_setup(runtime.rt, runtime.root, home, python)
        self._await_ready(time.monotonic() + self.limits.init_time)

    def _trusted_workdir(self, base: Path) -> Path:
        """A folder of the referee's for a trusted bot (it holds a copy of the bot file)."""
        self.workdir = Path(os.path.join(base, f"trusted-{os.getpid()}-{id(self):x}"))
        self.workdir.mkdir(mode=0o700)
        return self.workdir

    def _send_setup(self, rt: Path, root: Path, home: str, python: str) -> None:
        """The host's setup, with a descriptor for each file the bot is made of."""
        files, command = self._files_and_command(python)
        chosen = COMMAND_FILTER if command is not None else BOT_FILTER
        setup = {"confine": self.confined, "runtime": str(rt), "root": str(root),
                 "workdir": home, "files": [p.name for p in files], "class": self.spec.class_name,
                 "command": command, "options": dict(self.spec.options),
                 "log_bytes": self.limits.log_bytes,
                 "disk_bytes": self.limits.disk_mb << 20, "files_max": self.limits.files,
                 "filter": chosen if (rt / chosen).exists() else "", "preload": PRELOAD}
        fds = [os.open(p, os.O_RDONLY | os.O_CLOEXEC) for p in files]
        try:
            socket.send_fds(self.control, [json.dumps(setup).encode()], fds)
        finally:
            for fd in fds:
                os.close(fd)

    def _files_and_command(self, python: str) -> tuple[list[Path], list[str] | None]:
        """The files to copy into each game's folder, and the command that runs there.

        A Python bot is its one file. A confined command bot runs its program from the
        system's folders (``/usr``, or the template's Python, which also stands in for the
        referee's own), and gets a copy of every other file its arguments name (each as
        ``/bot/NAME``); a trusted one runs as written.
        """
        if self.spec.command is None:
            assert self.spec.path is not None
            return [self.spec.path], None
        if not self.confined:
            return [], list(self.spec.command)
        visible = _visible_prefixes(python)
        files: list[Path] = []
        argv: list[str] = []
        for arg in self.spec.command:
            real = os.path.realpath(arg) if os.path.isfile(arg) else ""
            if real and real == os.path.realpath(sys.executable):
                argv.append(python)
            elif real and any(real.startswith(prefix) for prefix in visible):
                argv.append(arg)
            elif real:
                path = Path(arg)
                if path.name in {f.name for f in files}:
                    raise TemplateError(f"two files named {path.name!r} in the command")
                files.append(path)
                argv.append(f"/bot/{path.name}")
            else:
                argv.append(arg)
        if len(files) > 15:
            raise TemplateError("a command may name at most 15 files")
        return files, argv

    def _await_ready(self, deadline: float) -> None:
        """Wait for ``ready`` (and, confined, the init's pid first)."""
        while True:
            message = self._receive(deadline)[0]
            if "error" in message:
                raise TemplateError(f"sandbox setup failed: {message['error']}")
            if "init" in message:
                self.init_pidfd = os.pidfd_open(int(message["init"]))
            if message.get("ready"):
                return

    # -- control messages --------------------------------------------------------------

    def _receive(self, deadline: float) -> tuple[dict[str, Any], int | None]:
        """The next control message and the pid in its credentials (if the kernel sent any)."""
        poller = select.poll()
        poller.register(self.control.fileno(), select.POLLIN)
        if not poller.poll(max(0, int((deadline - time.monotonic()) * 1000) + 1)):
            raise TemplateError("the sandbox did not answer in time")
        data, ancillary, _, _ = self.control.recvmsg(4096, socket.CMSG_SPACE(_CREDS))
        if not data:
            raise TemplateError(f"the sandbox stopped: {self.describe_exit()}")
        pid = None
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                pid = struct.unpack("3i", payload[:_CREDS])[0]
        try:
            return json.loads(data), pid
        except ValueError:
            raise TemplateError(f"the sandbox sent {data[:80]!r}") from None

    def describe_exit(self) -> str:
        """What the template's own log says (its last line), for an error message."""
        self.proc.poll()
        text = os.pread(self.log_fd, 4096, max(0, os.fstat(self.log_fd).st_size - 4096))
        last = text.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        return f"exit status {self.proc.returncode}: {last[0]}"

    # -- games -------------------------------------------------------------------------

    def new_game(self) -> "GameProcess":
        """A fresh game process with new pipes and log; :class:`TemplateError` if impossible."""
        to_bot_r, to_bot_w = os.pipe2(os.O_CLOEXEC)
        from_bot_r, from_bot_w = os.pipe2(os.O_CLOEXEC)
        log_fd = os.memfd_create("arena-bot-log", os.MFD_CLOEXEC)
        try:
            socket.send_fds(self.control, [b'{"game": true}'], [to_bot_r, from_bot_w, log_fd])
        except OSError as exc:
            for fd in (to_bot_w, from_bot_r, log_fd):
                os.close(fd)
            raise TemplateError(f"the sandbox is gone ({exc.strerror})") from None
        finally:
            os.close(to_bot_r)
            os.close(from_bot_w)
        deadline = time.monotonic() + self.limits.init_time
        while True:
            message, creds_pid = self._receive(deadline)
            if "error" in message:
                raise TemplateError(str(message["error"]))
            if "game" in message:
                break
        local = int(message["game"])
        pid = creds_pid if self.confined else local
        if pid is None:
            raise TemplateError("the sandbox did not say which process plays")
        return GameProcess(self, pid, local, LineChannel(to_bot_w, from_bot_r), log_fd)

    def exit_status(self, local_pid: int, deadline: float) -> int | None:
        """The exit status the template reports for its game process ``local_pid``."""
        while time.monotonic() < deadline:
            try:
                message, _ = self._receive(deadline)
            except TemplateError:
                return None
            if message.get("exit") == local_pid:
                return int(message["status"])
        return None

    def alive(self) -> bool:
        """Whether the template still runs."""
        return self.proc.poll() is None

    def close(self) -> None:
        """Stop the template and every process of the bot; give its uid back."""
        if getattr(self, "control", None) is not None:
            self.control.close()
            self.control = None  # type: ignore[assignment]
        proc = getattr(self, "proc", None)
        if proc is not None:
            for fd in (self.init_pidfd, self.pidfd):
                if fd is not None:
                    _kill_and_wait(fd)
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            proc.wait()
            for fd in (self.init_pidfd, self.pidfd, self.log_fd):
                if fd is not None:
                    os.close(fd)
            self.proc = None  # type: ignore[assignment]  # closed: nothing uses it again
        if self.lease is not None:
            self.lease.release()
            self.lease = None
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None


@lru_cache(maxsize=4)
def _visible_prefixes(python: str) -> tuple[str, ...]:
    """Folders a game process sees as they are on the host: the system's and the template's
    interpreter's (the host mounts both read-only). Asked once per interpreter."""
    prefix = subprocess.run([python, "-I", "-S", "-c", "import sys; print(sys.base_prefix)"],
                            capture_output=True, text=True, timeout=30).stdout.strip()
    return SYSTEM_DIRS + ((os.path.realpath(prefix) + "/",) if prefix else ())


@lru_cache(maxsize=1)
def _read_prefix() -> bytes | None:
    """How /proc/PID/syscall starts for ``read(0, ...)`` on this machine (None if unknown)."""
    number = seccomp.syscall_number("read")
    return None if number is None else f"{number} 0x0 ".encode()


class GameProcess:
    """One game's bot process: its channel, its CPU clock, its log, and how to kill it."""

    def __init__(self, template: BotTemplate, pid: int, local_pid: int, channel: LineChannel,
                 log_fd: int) -> None:
        self.template, self.pid, self.local_pid = template, pid, local_pid
        self.channel, self.log_fd = channel, log_fd
        self.pidfd = os.pidfd_open(pid)
        self._clock = (~pid << 3) | _CPUCLOCK_SCHED
        self._stat_fd: int | None = None
        self._task_fd: int | None = None
        self._syscall_fd: int | None = None
        self._fd_dir: int | None = None
        requests = os.fstat(channel.write_fd)  # the pipe's two ends share one inode
        self._request_pipe = (requests.st_dev, requests.st_ino)
        self.last_cpu = 0.0
        self.charged = 0.0      # CPU seconds already charged to a request (all since fork)
        self.status: int | None = None
        self.dead = False
        self.frozen = False

    def cpu(self) -> float:
        """CPU seconds used by the process (all its threads), from its kernel CPU clock."""
        try:
            self.last_cpu = time.clock_gettime(self._clock)
        except OSError:
            self.last_cpu = self._cpu_from_proc()
        return self.last_cpu

    def _cpu_from_proc(self) -> float:
        """utime+stime from /proc (clock-tick resolution), if the CPU clock is refused."""
        try:
            if self._stat_fd is None:
                self._stat_fd = os.open(f"/proc/{self.pid}/stat", os.O_RDONLY | os.O_CLOEXEC)
            fields = os.pread(self._stat_fd, 1024, 0).rpartition(b")")[2].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return self.last_cpu

    def freeze(self, until: float) -> None:
        """Once its reply is in, the bot runs nothing until its next request, so it cannot think
        on its rivals' time or take their CPU: stopped (SIGSTOP), unless it is a single thread
        already blocked reading that request, which nothing else can wake (the seccomp filter
        denies the timers that could). A command bot is always stopped: it may keep a copy of
        its request pipe and block reading something else at descriptor 0 (a file opened
        with O_DIRECT sleeps in each read), which would look the same.

        A thread stops only on its way back from the kernel, and some calls look only for
        fatal signals (``MADV_POPULATE_WRITE`` of a large mapping runs on for a second): so
        this returns once every thread has stopped, and that work is the bot's own, charged
        to the request that just ended. :class:`TimeoutError` if one still runs at ``until``.
        """
        if self.frozen or self.dead:
            return
        if self.template.spec.command is None and self._waits_soon():
            return
        self._signal(signal.SIGSTOP)
        self.frozen = True
        self._await_stop(until)

    def _waits_soon(self) -> bool:
        """:meth:`_waits_for_request`, now or after a yield: pinned to one CPU with the referee,
        the bot is often still on its way back to its read when its reply wakes the referee."""
        if self._waits_for_request():
            return True
        os.sched_yield()
        return self._waits_for_request()

    def _task_folder(self) -> int:
        """/proc/PID/task, opened once: one link per thread, each thread's stat inside."""
        if self._task_fd is None:
            self._task_fd = os.open(f"/proc/{self.pid}/task", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        return self._task_fd

    def _await_stop(self, until: float) -> None:
        """Give way (the bot may share this CPU: it must run to stop) until no thread of the
        process runs: by yielding at first, which is soon over, then by sleeping longer and
        longer while a system call goes on."""
        for _ in range(STOP_YIELDS):
            if self._all_stopped():
                return
            os.sched_yield()
        pause = STOP_POLL_FIRST
        while not self._all_stopped():
            if time.monotonic() >= until:
                raise TimeoutError("still running after its reply (a system call that would "
                                   "not stop)")
            time.sleep(pause)
            pause = min(pause * 2, STOP_POLL_LAST)

    def _all_stopped(self) -> bool:
        """Whether every thread is stopped (or gone), read from /proc/PID/task/*/stat. (A
        thread waiting for a CPU reads as running there, in a system call or not.)"""
        try:
            folder = self._task_folder()
            tasks = os.listdir(folder)
        except OSError:  # the process is gone
            return True
        for task in tasks:
            try:  # through the folder opened for this process: never another one's, reused pid
                fd = os.open(f"{task}/stat", os.O_RDONLY | os.O_CLOEXEC, dir_fd=folder)
            except OSError:  # a thread that ended meanwhile
                continue
            try:
                state = os.read(fd, 512).rpartition(b")")[2][1:2]
            except OSError:
                continue
            finally:
                os.close(fd)
            if state not in STOPPED_STATES:
                return False
        return True

    def _waits_for_request(self) -> bool:
        """Whether the process is one thread blocked in ``read`` on its request pipe (fd 0).

        Descriptor 0 must still be that pipe: a Python bot may put another file there (it
        cannot copy the pipe first, see seccomp.py, so it never gets it back)."""
        prefix = _read_prefix()
        if prefix is None:
            return False
        try:
            threads = os.fstat(self._task_folder()).st_nlink - 2
            if self._syscall_fd is None:
                self._syscall_fd = os.open(f"/proc/{self.pid}/syscall", os.O_RDONLY | os.O_CLOEXEC)
            if self._fd_dir is None:
                self._fd_dir = os.open(f"/proc/{self.pid}/fd", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            # One thread, then what it does.
            if not (threads == 1 and os.pread(self._syscall_fd, 64, 0).startswith(prefix)):
                return False
            reads = os.stat("0", dir_fd=self._fd_dir)
            return (reads.st_dev, reads.st_ino) == self._request_pipe
        except OSError:
            return False

    def thaw(self) -> None:
        """Let the bot run again (SIGCONT), just after its next request was written."""
        if self.frozen and not self.dead:
            self._signal(signal.SIGCONT)
            self.frozen = False

    def _signal(self, signum: int) -> None:
        try:
            signal.pidfd_send_signal(self.pidfd, signum)
        except ProcessLookupError:
            self.dead = True

    def wait_exit(self, timeout: float) -> int | None:
        """The exit status (minus the signal number) if the process ends within ``timeout``."""
        if self.status is not None or self.dead:
            return self.status
        poller = select.poll()
        poller.register(self.pidfd, select.POLLIN)
        if not poller.poll(max(0, int(timeout * 1000))):
            return None
        return self._reaped(timeout)

    def kill_for_status(self, timeout: float) -> int | None:
        """SIGKILL the process and return how it ended: ``-SIGKILL`` when the kill ended it,
        its own status when it had already exited (on a busy machine a bot can take longer to
        finish exiting than :meth:`wait_exit` waited); None if the template never says."""
        if self.status is not None or self.dead:
            return self.status
        _kill_and_wait(self.pidfd)
        return self._reaped(timeout)

    def _reaped(self, timeout: float) -> int | None:
        """The process is gone: its exit status, as the template reports it."""
        self.dead = True
        self.status = self.template.exit_status(self.local_pid, time.monotonic() + timeout)
        return self.status

    def kill(self) -> None:
        """SIGKILL the process (PID 1 of its namespace: everything it started dies too)."""
        if not self.dead:
            _kill_and_wait(self.pidfd)
            self.dead = True
        self.channel.close()
        for fd in (self.pidfd, self._stat_fd, self._task_fd, self._syscall_fd, self._fd_dir):
            if fd is not None:
                os.close(fd)
        self.pidfd = self._stat_fd = self._task_fd = self._syscall_fd = self._fd_dir = None  # type: ignore[assignment]

    def read_log_tail(self, size: int) -> bytes:
        """The last ``size`` bytes of this game's log."""
        try:
            end = os.fstat(self.log_fd).st_size
            return os.pread(self.log_fd, size, max(0, end - size))
        except OSError:
            return b""

    def close_log(self) -> None:
        """Release the log (after its tail was read)."""
        if self.log_fd >= 0:
            os.close(self.log_fd)
            self.log_fd = -1


def _kill_and_wait(pidfd: int, timeout: float = 5.0) -> None:
    """SIGKILL through a pidfd (no pid reuse race) and wait until the process is gone."""
    try:
        signal.pidfd_send_signal(pidfd, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        pass
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    poller.poll(int(timeout * 1000))
