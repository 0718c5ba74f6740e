"""One confined bot process: its folder, log, pipes, CPU clock, and how to kill it whole."""

from __future__ import annotations

import logging
import os
import resource
import secrets
import shutil
import signal
import subprocess
import time
from pathlib import Path

from arena.sandbox import confine
from arena.sandbox.channel import LineChannel
from arena.sandbox.runtime import HOST_SCRIPT, find_python, get_runtime, reachable_by_others
from arena.sandbox.spec import BotSpec, Limits

log = logging.getLogger("arena.sandbox")

CPU_BACKSTOP = 600          # seconds of RLIMIT_CPU ahead of what the bot has used
_CPUCLOCK_SCHED = 2         # Linux: a process CPU clock id is (~pid << 3) | CPUCLOCK_SCHED
_warned: set[str] = set()


def warn_once(key: str, message: str) -> None:
    """A degraded layer is reported once per referee process, never silently."""
    if key not in _warned:
        _warned.add(key)
        log.warning("sandbox layer unavailable: %s", message)


class BotFolder:
    """The bot's private folder (cwd, HOME, TMPDIR) and its log file, outside that folder."""

    def __init__(self, spec: BotSpec, slot: int, uid: int | None) -> None:
        runtime = get_runtime(confine.available_layers().seccomp_host)
        safe = "".join(c if c.isalnum() else "_" for c in spec.name)[:40]
        self.name = f"slot{slot}-{safe}-{secrets.token_hex(4)}"
        self.path = runtime.base / self.name
        self.uid = uid
        self.log_path = runtime.logs / f"{self.name}.log"
        # O_APPEND on both sides: the host and the referee may each cut the file back.
        self.log_fd = os.open(self.log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)

    def reset(self) -> None:
        """An empty folder owned by the bot's uid (wiped on every process start)."""
        shutil.rmtree(self.path, ignore_errors=True)
        self.path.mkdir(mode=0o700)
        self.own(self.path)

    def own(self, path: Path) -> None:
        """Give ``path`` to the bot's uid."""
        if self.uid is not None:
            os.chown(path, self.uid, self.uid)

    def copy_in(self, source: Path) -> Path:
        """A copy of ``source`` the bot can read even when the repository is private to root."""
        target = self.path / source.name
        shutil.copy2(source, target)
        self.own(target)
        return target

    def trim_log(self, keep: int) -> None:
        """Cut the log back to its last ``keep`` bytes once it is twice that long."""
        if os.fstat(self.log_fd).st_size <= 2 * keep:
            return
        tail = self.read_log_tail(keep)
        os.ftruncate(self.log_fd, 0)
        os.write(self.log_fd, tail)

    def read_log_tail(self, size: int) -> bytes:
        """The last ``size`` bytes of the log."""
        with open(self.log_path, "rb") as f:
            f.seek(max(0, os.fstat(f.fileno()).st_size - size))
            return f.read()

    def remove(self) -> None:
        """Delete the folder and the log."""
        os.close(self.log_fd)
        shutil.rmtree(self.path, ignore_errors=True)
        try:
            os.unlink(self.log_path)
        except OSError:
            pass


class BotProcess:
    """A started, confined bot process with a :class:`LineChannel` to it."""

    def __init__(self, spec: BotSpec, limits: Limits, folder: BotFolder,
                 cgroup: confine.Cgroup | None, cpus: set[int] | None) -> None:
        self.layers = confine.available_layers()
        self.folder, self.cgroup = folder, cgroup
        folder.reset()
        argv = self._argv(spec, limits)
        conf = confine.Confinement(
            layers=self.layers, uid=folder.uid, workdir=str(folder.path),
            memory_bytes=limits.memory_mb * 1024 * 1024,
            file_bytes=max(1 << 20, 8 * limits.log_bytes), cpu_seconds=CPU_BACKSTOP,
            cgroup_procs=cgroup.procs_file if cgroup else None, cpus=cpus,
        )
        self.cpu_limit = CPU_BACKSTOP
        self.proc, self.channel = _spawn(argv, folder, conf)
        self.pid = self.proc.pid
        self._clock = (~self.pid << 3) | _CPUCLOCK_SCHED
        self._stat_fd: int | None = None
        self.last_cpu = 0.0

    def _argv(self, spec: BotSpec, limits: Limits) -> list[str]:
        """The host running a Python bot, or the bot's own command."""
        if spec.command is not None:
            return [self._reachable_arg(a) for a in spec.command]
        assert spec.path is not None
        python = find_python(self.folder.uid is not None)
        if python is None:
            raise OSError("no Python 3.11 that the bot's uid can run (install Debian's python3.11)")
        rt = get_runtime(self.layers.seccomp_host).rt
        bot_file = self.folder.copy_in(spec.path)
        return [python, "-I", "-S", "-B", str(rt / HOST_SCRIPT), str(rt), str(bot_file),
                spec.class_name, str(limits.log_bytes)]

    def _reachable_arg(self, arg: str) -> str:
        """A file argument the bot's uid cannot reach is copied into its folder."""
        if self.folder.uid is None or not os.path.isfile(arg) or reachable_by_others_readable(arg):
            return arg
        return str(self.folder.copy_in(Path(arg)))

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

    def ensure_cpu_backstop(self) -> None:
        """Keep RLIMIT_CPU about CPU_BACKSTOP seconds ahead of the bot's total use."""
        used = self.cpu()
        if self.cpu_limit - used > CPU_BACKSTOP / 2:
            return
        soft = int(used) + CPU_BACKSTOP
        hard = soft + confine.CPU_HARD_GRACE if self.folder.uid is not None else resource.RLIM_INFINITY
        try:
            resource.prlimit(self.pid, resource.RLIMIT_CPU, (soft, hard))
            self.cpu_limit = soft
        except OSError as exc:
            log.debug("could not raise RLIMIT_CPU of %d: %s", self.pid, exc)

    def wait_exit(self, timeout: float) -> int | None:
        """The exit status (minus the signal number) if it exits within ``timeout``."""
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> int | None:
        """SIGKILL the process, its group and everything it started; reap; close the pipes."""
        _killpg(self.pid)
        self._sweep()
        status = self.wait_exit(5.0)
        deadline = time.monotonic() + 2.0
        while self._sweep() and time.monotonic() < deadline:
            time.sleep(0.002)
        self.channel.close()
        if self._stat_fd is not None:
            os.close(self._stat_fd)
            self._stat_fd = None
        return status

    def _sweep(self) -> bool:
        """Kill what is left in the cgroup (or of the uid); True if anything was found."""
        if self.cgroup is not None:
            pids = self.cgroup.pids()
        elif self.folder.uid is not None:
            pids = confine.pids_of_uid(self.folder.uid)
        else:
            return False  # without root, only the process group is reachable
        confine.kill_pids(pids)
        return bool(pids)


def reachable_by_others_readable(path: str) -> bool:
    """Whether another uid can read ``path`` (folders o+x, file o+r)."""
    real = os.path.realpath(path)
    try:
        return reachable_by_others(os.path.dirname(real) + "/.") and bool(os.stat(real).st_mode & 0o004)
    except OSError:
        return False


def _killpg(pgid: int) -> None:
    """SIGKILL a process group (the bot leads its own session)."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _spawn(argv: list[str], folder: BotFolder, conf: confine.Confinement
           ) -> tuple[subprocess.Popen, LineChannel]:
    """Start the process on fresh pipes with a minimal environment (no referee secrets)."""
    to_bot_r, to_bot_w = os.pipe2(os.O_CLOEXEC)
    from_bot_r, from_bot_w = os.pipe2(os.O_CLOEXEC)
    env = {"HOME": str(folder.path), "TMPDIR": str(folder.path), "PATH": "/usr/bin:/bin",
           "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1"}
    try:
        proc = subprocess.Popen(
            argv, stdin=to_bot_r, stdout=from_bot_w, stderr=folder.log_fd, cwd=str(folder.path),
            env=env, preexec_fn=conf.preexec, start_new_session=True, close_fds=True,
        )
    except BaseException:
        for fd in (to_bot_r, to_bot_w, from_bot_r, from_bot_w):
            os.close(fd)
        raise
    os.close(to_bot_r)
    os.close(from_bot_w)
    return proc, LineChannel(to_bot_w, from_bot_r)
