"""``SandboxedBot``: the referee's handle on one bot process, speaking docs/protocol.md."""

from __future__ import annotations

import json
import signal
import time
from types import TracebackType
from typing import Iterable

from arena.errors import ArenaError
from arena.sandbox import confine
from arena.sandbox.channel import ChannelClosed, ReplyTooLong
from arena.sandbox.faults import BotFault, FaultCode
from arena.sandbox.process import BotFolder, BotProcess, warn_once
from arena.sandbox.runtime import find_python
from arena.sandbox.spec import BotSpec, Limits

WALL_SLACK = 0.25    # seconds added to every wall-clock watchdog (process wake-up, scheduling)
CPU_SLACK = 0.005    # seconds of CPU measurement noise forgiven per decision
MEMORY_EXIT = 86     # the host's exit status after a MemoryError (host.MEMORY_EXIT)


class _Timeout(Exception):
    """Internal: no reply in time (``str`` says which clock ran out)."""


class SandboxedBot:
    """One bot in its own confined process, reused across games.

    ``slot`` selects the concurrent sandbox slot, hence the bot's own unprivileged uid;
    two bots running at the same time must use different slots. ``cpus`` pins the bot
    to those CPUs (pinning referee and bot to one core saves the cross-core wake-ups).
    """

    def __init__(self, spec: BotSpec, limits: Limits, slot: int = 0, *,
                 cpus: Iterable[int] | None = None) -> None:
        self.spec, self.limits, self.slot = spec, limits, slot
        self._cpus = set(cpus) if cpus is not None else None
        self._proc: BotProcess | None = None
        self._folder: BotFolder | None = None
        self._cgroup: confine.Cgroup | None = None
        self._faulted = False
        self._bank_left = limits.bank
        self._final_tail = ""

    # -- lifecycle -------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        """The bot process id while it runs."""
        return self._proc.pid if self._proc else None

    def start_game(self, info: dict) -> None:
        """Send ``start``; (re)start the process first if it is not running or faulted.

        Raises :class:`BotFault` (``INIT_FAIL``, or ``MEMORY``) if no ``ok`` arrives within
        ``limits.init_time``.
        """
        if self._proc is not None and self._faulted:
            self._stop()
        self._faulted = False
        deadline = time.monotonic() + self.limits.init_time
        if self._proc is None:
            self._launch()
        assert self._proc is not None and self._folder is not None
        self._folder.trim_log(self.limits.log_bytes)
        try:
            self._expect_ok({**info, "type": "start"}, deadline)
        except BotFault as fault:
            raise self._as_init_fail(fault) from None
        self._proc.ensure_cpu_backstop()
        self._bank_left = self.limits.bank

    def act(self, message: dict) -> str:
        """Send ``act`` with ``message`` (``{"obs": ...}``); return the reply text, stripped.

        Raises :class:`BotFault` with ``TIMEOUT``, ``CRASH``, ``MEMORY`` or ``INVALID``.
        Whether the text is a legal action is for the referee to decide.
        """
        proc = self._running()
        budget = self.limits.move_time + self._bank_left
        wall = max(self.limits.move_time * self.limits.wall_factor, budget) + WALL_SLACK
        cpu0 = proc.cpu()
        line = self._request({**message, "type": "act"}, time.monotonic() + wall, cpu0 + budget)
        used = proc.cpu() - cpu0
        if used > budget + CPU_SLACK:
            raise self._fault(FaultCode.TIMEOUT, f"used {used:.3f}s of CPU, {budget:.3f}s allowed")
        self._bank_left -= max(0.0, used - self.limits.move_time)
        return self._action(line)

    def end_game(self, result: dict) -> None:
        """Send ``end``; wait for ``ok``. A fault is raised, and the process restarts next game."""
        if self._proc is None:
            return
        self._expect_ok({"type": "end", "result": result}, time.monotonic() + self.limits.init_time)

    def close(self) -> None:
        """Kill everything the bot started and remove its folder, log and cgroup."""
        self._stop()
        if self._folder is not None:
            self._final_tail = self._read_tail(self.limits.log_bytes)
            self._folder.remove()
            self._folder = None
        if self._cgroup is not None:
            self._cgroup.remove()
            self._cgroup = None

    def log_tail(self, lines: int = 20) -> str:
        """The last ``lines`` lines of the bot's own output (prints and stderr)."""
        text = self._read_tail(self.limits.log_bytes) if self._folder else self._final_tail
        return "\n".join(text.splitlines()[-lines:])

    def __enter__(self) -> "SandboxedBot":
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- process ---------------------------------------------------------------------

    def _launch(self) -> None:
        """Create the folder (once) and start a confined process."""
        layers = confine.available_layers()
        uid = confine.slot_uid(self.slot) if layers.uid else None
        if uid is not None and self.spec.path is not None and find_python(True) is None:
            warn_once("python", "no Python 3.11 reachable by an unprivileged uid: Python bots "
                      "keep the referee's uid (install python3.11 system-wide)")
            uid = None
        if self._folder is None:
            self._folder = BotFolder(self.spec, self.slot, uid)
            if layers.cgroup:
                self._cgroup = confine.Cgroup(f"arena-{self._folder.name}")
        try:
            self._proc = BotProcess(self.spec, self.limits, self._folder, self._cgroup, self._cpus)
        except (OSError, ArenaError, ValueError) as exc:
            raise self._fault(FaultCode.INIT_FAIL, f"could not start: {exc}") from exc
        except Exception as exc:  # subprocess.SubprocessError from a failed confinement step
            raise self._fault(FaultCode.INIT_FAIL, f"could not confine: {exc}") from exc

    def _stop(self) -> int | None:
        """Kill the process (if any); its status."""
        proc, self._proc = self._proc, None
        return proc.kill() if proc is not None else None

    def _running(self) -> BotProcess:
        """The live process, or CRASH when the referee asks a stopped bot."""
        if self._proc is None:
            raise self._fault(FaultCode.CRASH, "the bot is not running (start_game first)")
        return self._proc

    # -- one exchange ----------------------------------------------------------------

    def _request(self, message: dict, deadline: float, cpu_limit: float | None = None) -> bytes:
        """Send one message and return the reply line; any failure is a :class:`BotFault`."""
        proc = self._running()
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        try:
            proc.channel.send(data, max(0.0, deadline - time.monotonic()))
            return self._wait_line(proc, deadline, cpu_limit)
        except (TimeoutError, _Timeout) as exc:
            raise self._fault(FaultCode.TIMEOUT, str(exc) or "no reply in time") from None
        except ReplyTooLong as exc:
            raise self._fault(FaultCode.INVALID, str(exc)) from None
        except ChannelClosed as exc:
            raise self._death_fault(str(exc)) from None

    def _wait_line(self, proc: BotProcess, deadline: float, cpu_limit: float | None) -> bytes:
        """Poll for the reply, waking only when the CPU budget could be spent.

        The CPU clock cannot run faster than the wall clock, so sleeping for the CPU time
        left costs nothing on the fast path and still catches a busy loop on time.
        """
        started = time.monotonic()
        while True:
            wall_left = deadline - time.monotonic()
            cpu_left = (cpu_limit - proc.cpu() + CPU_SLACK) if cpu_limit is not None else wall_left
            if cpu_left <= 0:
                raise _Timeout(f"over its CPU time ({self.limits.move_time}s per move + bank)")
            if wall_left <= 0:
                raise _Timeout("no reply within the wall-clock watchdog "
                               f"({deadline - started:.2f}s)")
            line = proc.channel.read_line(min(cpu_left, wall_left))
            if line is not None:
                return line

    def _expect_ok(self, message: dict, deadline: float) -> None:
        """A request whose only good answer is ``ok``."""
        line = self._request(message, deadline)
        if line.strip() != b"ok":
            self._action(line)  # raises for a "!error"/"!memory" report
            raise self._fault(FaultCode.INVALID, f"expected 'ok', got {_shorten(line)}")

    def _action(self, line: bytes) -> str:
        """The reply as text; reports and unreadable bytes become faults."""
        try:
            text = line.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise self._fault(FaultCode.INVALID, f"reply is not UTF-8: {_shorten(line)}",
                              kill=False) from None
        if text.startswith("!"):
            raise self._report_fault(text)
        if not text:
            raise self._fault(FaultCode.INVALID, "empty reply", kill=False)
        return text

    # -- faults ----------------------------------------------------------------------

    def _report_fault(self, text: str) -> BotFault:
        """``!error <json>`` is INVALID (the bot lives on); ``!memory`` is MEMORY."""
        marker, _, rest = text.partition(" ")
        try:
            detail = json.loads(rest) if rest else ""
        except ValueError:
            detail = rest
        detail = str(detail)
        if marker == "!memory":
            return self._fault(FaultCode.MEMORY, f"out of memory: {detail}")
        return self._fault(FaultCode.INVALID, detail or text, kill=False)

    def _death_fault(self, reason: str) -> BotFault:
        """The channel closed: wait briefly for the exit status, then name the death."""
        assert self._proc is not None
        status = self._proc.wait_exit(1.0)
        if status is None:
            self._stop()
            return self._fault(FaultCode.CRASH, f"{reason} (still running: killed)")
        self._stop()
        tail = self.log_tail(40)
        if status == MEMORY_EXIT or "MemoryError" in tail:
            return self._fault(FaultCode.MEMORY, f"out of memory ({_describe(status)})", returncode=status)
        return self._fault(FaultCode.CRASH, f"{reason}: {_describe(status)}", returncode=status)

    def _fault(self, code: FaultCode, detail: str, *, kill: bool = True,
               returncode: int | None = None) -> BotFault:
        """Build the fault; a desynchronised or dead process is killed now."""
        self._faulted = True
        if kill:
            self._stop()
        return BotFault(code, detail, self.log_tail(), bot=self.spec.name, returncode=returncode)

    def _as_init_fail(self, fault: BotFault) -> BotFault:
        """During ``start`` everything but MEMORY is INIT_FAIL; the process is stopped."""
        self._stop()
        if fault.code in (FaultCode.MEMORY, FaultCode.INIT_FAIL):
            return fault
        return BotFault(FaultCode.INIT_FAIL, f"{fault.code.value}: {fault.detail}", fault.log_tail,
                        bot=fault.bot, returncode=fault.returncode)

    def _read_tail(self, size: int) -> str:
        """The end of the log as text."""
        if self._folder is None:
            return self._final_tail
        return self._folder.read_log_tail(size).decode("utf-8", "replace")


def _describe(status: int | None) -> str:
    """``exit status 3`` or ``killed by SIGSEGV``."""
    if status is None:
        return "exit status unknown"
    if status < 0:
        try:
            return f"killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    return f"exit status {status}"


def _shorten(line: bytes, limit: int = 80) -> str:
    """A reply quoted for an error message."""
    return repr(line[:limit]) + ("..." if len(line) > limit else "")
