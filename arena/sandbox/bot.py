"""``SandboxedBot``: the referee's handle on one bot process, speaking docs/protocol.md."""

from __future__ import annotations

import json
import signal
import time
from types import TracebackType
from typing import Any, Iterable

from arena.sandbox import confine
from arena.sandbox.channel import ChannelClosed, ReplyTooLong
from arena.play.faults import BotFault, FaultCode
from arena.sandbox.confine import IsolationUnavailable
from arena.sandbox.leases import LeaseError
from arena.sandbox.template import BotTemplate, GameProcess, TemplateError
from arena.sandbox.spec import BotSpec, Limits

WALL_SLACK = 0.25    # seconds added to every wall-clock watchdog (process wake-up, scheduling)
CPU_SLACK = 0.005    # seconds of CPU measurement noise forgiven per decision
STOP_GRACE = 1.0     # seconds a reply near its watchdog still gives the bot's threads to stop
MEMORY_EXIT = 86     # the host's exit status after a MemoryError (host.MEMORY_EXIT)


class _Timeout(Exception):
    """Internal: no reply in time (``str`` says which clock ran out)."""


class SandboxedBot:
    """One bot: a template process, and a fresh confined process for every game it plays.

    The first :meth:`start_game` after construction or after :meth:`close_game` starts a new
    game process (a match of several hands keeps its process from hand to hand); a fault kills
    it. ``trusted`` skips the isolation (only for bots you wrote yourself); otherwise the
    template refuses to start where the isolation is unavailable (``INIT_FAIL`` naming what
    is missing). ``cpus`` pins the bot to those CPUs.
    """

    def __init__(self, spec: BotSpec, limits: Limits, *, cpus: Iterable[int] | None = None,
                 trusted: bool = False) -> None:
        self.spec, self.limits, self.trusted = spec, limits, trusted
        self._cpus = set(cpus) if cpus is not None else None
        self._template: BotTemplate | None = None
        self._game: GameProcess | None = None
        self._last: GameProcess | None = None   # the latest game's process, for its log
        self._faulted = False
        self._bank_left = limits.bank

    # -- lifecycle -------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        """The game process's pid (in the referee's PID namespace) while it runs."""
        return self._game.pid if self._game else None

    def start_game(self, info: dict[str, Any]) -> None:
        """Send ``start``, in a fresh game process unless one is open for this match.

        Raises :class:`BotFault` (``INIT_FAIL``, or ``MEMORY``) if no ``ok`` arrives within
        ``limits.init_time``.
        """
        if self._game is not None and self._faulted:
            self.close_game()
        self._faulted = False
        deadline = time.monotonic() + self.limits.init_time
        if self._game is None:
            self._open_game()
        try:
            # The CPU clock of a fresh process counts its loading of the bot too.
            self._expect_ok({**info, "type": "start"}, deadline, "on_game_start")
        except BotFault as fault:
            raise self._as_init_fail(fault) from None
        self._bank_left = self.limits.bank

    def act(self, message: dict[str, Any]) -> str:
        """Send ``act`` with ``message`` (``{"obs": ...}``); return the reply text, stripped.

        Raises :class:`BotFault` with ``TIMEOUT``, ``CRASH``, ``MEMORY`` or ``INVALID``.
        Whether the text is a legal action is for the referee to decide.
        """
        proc = self._running()
        budget = self.limits.move_time + self._bank_left
        wall = max(self.limits.move_time * self.limits.wall_factor, budget) + WALL_SLACK
        line = self._request({**message, "type": "act"}, time.monotonic() + wall,
                             proc.charged + budget, f"{self.limits.move_time}s per move + bank")
        used = self._charge(proc)
        if used > budget + CPU_SLACK:
            raise self._fault(FaultCode.TIMEOUT, f"used {used:.3f}s of CPU, {budget:.3f}s allowed")
        self._bank_left -= max(0.0, used - self.limits.move_time)
        return self._action(line)

    def end_game(self, result: dict[str, Any]) -> None:
        """Send ``end``; wait for ``ok``. A fault is raised (and the process killed)."""
        if self._game is None:
            return
        self._expect_ok({"type": "end", "result": result}, time.monotonic() + self.limits.init_time,
                        "on_game_end")

    def close_game(self) -> None:
        """End the game's process: the next :meth:`start_game` plays in a fresh one."""
        self._stop()

    def close(self) -> None:
        """Kill every process of the bot and give back what it held."""
        self._stop()
        if self._template is not None:
            self._template.close()
            self._template = None

    def log_tail(self, lines: int = 20) -> str:
        """The last ``lines`` lines of the bot's own output in its latest game."""
        if self._last is None:
            return ""
        text = self._last.read_log_tail(self.limits.log_bytes).decode("utf-8", "replace")
        return "\n".join(text.splitlines()[-lines:])

    def __enter__(self) -> "SandboxedBot":
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- processes -------------------------------------------------------------------

    def _open_game(self) -> None:
        """A fresh game process from the template (started, or restarted, as needed)."""
        try:
            if self._template is not None and not self._template.alive():
                self._template.close()
                self._template = None
            if self._template is None:
                if not self.trusted:
                    confine.check_isolation()
                self._template = BotTemplate(self.spec, self.limits, confine_bots=not self.trusted,
                                             cpus=self._cpus)
            game = self._template.new_game()
        except (TemplateError, IsolationUnavailable, LeaseError, OSError) as exc:
            raise self._fault(FaultCode.INIT_FAIL, f"could not start: {exc}") from None
        if self._last is not None:
            self._last.close_log()
        self._game = self._last = game

    def _stop(self) -> None:
        """Kill the game process (if any)."""
        game, self._game = self._game, None
        if game is not None:
            game.kill()

    def _running(self) -> GameProcess:
        """The live process, or CRASH when the referee asks a stopped bot."""
        if self._game is None:
            raise self._fault(FaultCode.CRASH, "the bot is not running (start_game first)")
        return self._game

    # -- one exchange ----------------------------------------------------------------

    def _request(self, message: dict[str, Any], deadline: float, cpu_limit: float | None = None,
                 allowance: str = "") -> bytes:
        """Send one message and return the reply line; any failure is a :class:`BotFault`.

        The bot runs only from the moment its request is written until its reply is read: it
        is frozen the rest of the time.
        """
        proc = self._running()
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        try:
            proc.channel.send(data, max(0.0, deadline - time.monotonic()), proc.thaw)
            proc.thaw()
            line = self._wait_line(proc, deadline, cpu_limit, allowance)
            proc.freeze(max(deadline, time.monotonic() + STOP_GRACE))
            return line
        except (TimeoutError, _Timeout) as exc:
            raise self._fault(FaultCode.TIMEOUT, str(exc) or "no reply in time") from None
        except ReplyTooLong as exc:
            raise self._fault(FaultCode.INVALID, str(exc)) from None
        except ChannelClosed as exc:
            raise self._death_fault(str(exc)) from None

    def _wait_line(self, proc: GameProcess, deadline: float, cpu_limit: float | None,
                   allowance: str) -> bytes:
        """Poll for the reply, waking only when the CPU budget could be spent.

        The CPU clock cannot run faster than the wall clock, so sleeping for the CPU time
        left costs nothing on the fast path and still catches a busy loop on time.
        """
        started = time.monotonic()
        while True:
            wall_left = deadline - time.monotonic()
            cpu_left = (cpu_limit - proc.cpu() + CPU_SLACK) if cpu_limit is not None else wall_left
            if cpu_left <= 0:
                raise _Timeout(f"over its CPU time ({allowance})")
            if wall_left <= 0:
                raise _Timeout("no reply within the wall-clock watchdog "
                               f"({deadline - started:.2f}s)")
            line = proc.channel.read_line(min(cpu_left, wall_left))
            if line is not None:
                return line

    @staticmethod
    def _charge(proc: GameProcess) -> float:
        """The CPU the bot used since its last charge: every bit of it is charged to the request
        that just ended, including what its threads did until their freeze took hold."""
        now = proc.cpu()
        used, proc.charged = now - proc.charged, now
        return used

    def _expect_ok(self, message: dict[str, Any], deadline: float, hook: str) -> None:
        """A request whose only good answer is ``ok``, within ``limits.hook_time`` of CPU."""
        proc = self._running()
        line = self._request(message, deadline, proc.charged + self.limits.hook_time,
                             f"{hook}: {self.limits.hook_time}s")
        used = self._charge(proc)
        if used > self.limits.hook_time + CPU_SLACK:
            raise self._fault(FaultCode.TIMEOUT, f"{hook} used {used:.3f}s of CPU, "
                              f"{self.limits.hook_time:.3f}s allowed")
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
        except Exception:  # any text at all, nested or huge: never the referee's failure
            detail = rest
        detail = _shorten_text(str(detail))
        if marker == "!memory":
            return self._fault(FaultCode.MEMORY, f"out of memory: {detail}")
        return self._fault(FaultCode.INVALID, detail or text, kill=False)

    def _death_fault(self, reason: str) -> BotFault:
        """The channel closed: wait briefly for the exit status, then name the death (a bot
        still running then is killed, and called so only if the kill is what ended it)."""
        assert self._game is not None
        status = self._game.wait_exit(1.0)
        if status is None:
            status = self._game.kill_for_status(1.0)
            if status is None or status == -signal.SIGKILL:
                self._stop()
                return self._fault(FaultCode.CRASH, f"{reason} (still running: killed)")
        last_words = self._last_words()
        self._stop()
        if last_words is not None:
            return self._report_fault(last_words)
        tail = self.log_tail(40)
        if status == MEMORY_EXIT or "MemoryError" in tail:
            return self._fault(FaultCode.MEMORY, f"out of memory ({_describe(status)})", returncode=status)
        return self._fault(FaultCode.CRASH, f"{reason}: {_describe(status)}", returncode=status)

    def _last_words(self) -> str | None:
        """A report (``!error``, ``!memory``) a dead bot left unread in the reply pipe.

        A bot that fails to load reports it and exits at once, as soon as its process is
        forked: on a busy machine that is before the referee writes ``start``, whose write then
        finds the pipe closed. Only a report counts; any other line was never asked for.
        """
        assert self._game is not None
        try:
            line = self._game.channel.read_line(0.0)
        except (ChannelClosed, ReplyTooLong):
            return None
        text = line.decode("utf-8", "replace").strip() if line is not None else ""
        return text if text.startswith("!") else None

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


def _shorten_text(text: str, limit: int = 2000) -> str:
    """A bot's own words, cut to a size fit for a record."""
    return text if len(text) <= limit else text[:limit] + "..."


def _shorten(line: bytes, limit: int = 80) -> str:
    """A reply quoted for an error message."""
    return repr(line[:limit]) + ("..." if len(line) > limit else "")
