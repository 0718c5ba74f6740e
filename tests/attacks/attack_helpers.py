"""Running the attack bots of tests/attack_bots in the three modes, and reading what they found.

Every bot raises ``RuntimeError("LEAK: ...")`` when its attack finds anything; the referee
records that as a fault whose text holds ``LEAK``. :class:`Runs` collects, for one mode
(sandboxed or trusted), the faults of every bot in a tournament, in duels and in ``submit``.
"""

from __future__ import annotations

import base64
import ctypes
import ctypes.util
import json
import os
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from arena.services.duel import duel
from arena.engine.rules import load_rules
from arena.play.faults import FaultCode
from arena.sandbox import BotSpec
from arena.services.submit import ValidationReport, validate
from arena.tournament.replay import open_results
from arena.tournament.runner import run_tournament
from arena.sandbox.workspace import Workspace

BOTS = Path(__file__).resolve().parent.parent / "attack_bots"
REPO = Path(__file__).resolve().parents[2]
CONFIG_LINE = "CONFIG: dict = {}"


@dataclass(frozen=True)
class Found:
    """One fault of one bot: where it happened, its code, and its whole text (detail + log)."""

    where: str
    bot: str
    code: str
    text: str

    @property
    def leak(self) -> bool:
        return "LEAK" in self.text


@dataclass
class Runs:
    """What the attack bots produced in one mode: faults, games played, submit reports."""

    trusted: bool
    faults: list[Found] = field(default_factory=list)
    games: dict[tuple[str, str], int] = field(default_factory=dict)   # (where, bot) -> games
    reports: dict[str, ValidationReport] = field(default_factory=dict)

    def of(self, bot: str, where: str | None = None) -> list[Found]:
        return [f for f in self.faults if f.bot == bot and (where is None or f.where == where)]

    def leaks(self, bot: str, where: str | None = None) -> list[Found]:
        return [f for f in self.of(bot, where) if f.leak]

    def played(self, bot: str, where: str) -> int:
        return self.games.get((where, bot), 0)

    def add_games(self, where: str, names) -> None:  # type: ignore[no-untyped-def]
        for name in set(names):
            self.games[(where, name)] = self.games.get((where, name), 0) + 1


def fill_bot(name: str, folder: Path, config: dict) -> Path:
    """Copy ``tests/attack_bots/NAME.py`` into ``folder`` with its CONFIG filled in."""
    source = (BOTS / f"{name}.py").read_text()
    assert source.count(CONFIG_LINE) <= 1
    target = folder / f"{name}.py"
    target.write_text(source.replace(CONFIG_LINE, f"CONFIG: dict = {config!r}"))
    return target


def write_tournament(path: Path, name: str, bots: list[str], seats: int = 2, rounds: int = 1) -> Path:
    path.write_text(f"name: {name}\nseats: {seats}\nrounds: {rounds}\nseed: 5\n"
                    f"bots: [{', '.join(bots)}]\n")
    return path


def play_tournament(runs: Runs, config: Path, home: Path, name: str, where: str = "tournament",
                    workers: int = 2) -> None:
    """Run a tournament (without the checks before the first game: what the bots find in its
    games is the point); record every fault of a bot's own and how many games each played."""
    report = run_tournament(config, home, workers=workers, trusted=runs.trusted, check=False)
    assert report.complete, report
    with open_results(home, name) as store:
        for game in store.games():
            runs.add_games(where, game.table)
            for fault in game.faults:
                if fault.code is FaultCode.DISQUALIFIED:
                    continue  # a disqualified bot's seat, played by the fallback: not its own
                runs.faults.append(Found(where, fault.bot, fault.code.name,
                                         f"{fault.detail}\n{fault.log_tail}"))


def play_duel(runs: Runs, paths: list[Path], home: Path, games: int = 2, seats: int = 2,
              rules: str = "switch") -> None:
    """A duel of ``paths`` (``random`` added when only one is given); record every fault and
    how many games each bot played."""
    specs = [BotSpec.parse(str(p), p.parent) for p in paths]
    if len(specs) == 1:
        specs.append(Workspace(home).resolve_bot("random"))
    result = duel(specs, load_rules(rules), games, seats, seed=7, workers=1, trusted=runs.trusted)
    assert result.games == games
    for tally in result.tallies:
        runs.games[("duel", tally.name)] = runs.played(tally.name, "duel") + tally.games
    for fault in result.faults:
        runs.faults.append(Found("duel", fault.bot, fault.code.name, f"{fault.detail}\n{fault.log_tail}"))


def submit(runs: Runs, path: Path, home: Path) -> ValidationReport:
    """``arena submit``'s validation of one bot; a failed check's text is recorded as a fault."""
    report = validate(path, workspace=Workspace(home), trusted=runs.trusted)
    runs.reports[path.stem] = report
    failed = report.failed
    if failed is not None:
        code = failed.detail.split(":", 1)[0]
        runs.faults.append(Found("submit", path.stem, code, f"{failed.name}: {failed.detail}"))
    return report


# ---------------------------------------------------------------------------------------------
# IPC objects left on the machine by the trusted (unconfined) control runs


_libc = ctypes.CDLL(None, use_errno=True)
_libc.shmat.restype = ctypes.c_void_p
_libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
_libc.shmdt.argtypes = [ctypes.c_void_p]
IPC_RMID = 0


def _mq_lib() -> ctypes.CDLL | None:
    for lib in (_libc, ctypes.CDLL(ctypes.util.find_library("rt") or "librt.so.1", use_errno=True)):
        if hasattr(lib, "mq_open"):
            return lib
    return None


def shm_text(key: int) -> bytes | None:
    """The text in the System V segment under ``key`` (None if there is none)."""
    ident = _libc.shmget(key, 0, 0)
    if ident < 0:
        return None
    addr = _libc.shmat(ident, None, 0o10000)
    if addr in (None, ctypes.c_void_p(-1).value):
        return b""
    try:
        return ctypes.string_at(addr, 256).split(b"\0", 1)[0]
    finally:
        _libc.shmdt(addr)


def host_ipc_objects(key: int, mq_name: str) -> dict[str, bool]:
    """Which of the IPC objects of attack_ipc.py exist on this machine (in our namespace)."""
    lib = _mq_lib()
    found = {"shm": _libc.shmget(key, 0, 0) >= 0, "msg": _libc.msgget(key, 0) >= 0, "mq": False}
    if lib is not None:
        fd = lib.mq_open(mq_name.encode(), os.O_RDONLY | os.O_NONBLOCK)
        found["mq"] = fd >= 0
        if fd >= 0:
            os.close(fd)
    return found


def remove_ipc_objects(keys: list[int], mq_names: list[str]) -> None:
    """Remove the segments, message queues and POSIX queues the control runs left."""
    for key in keys:
        ident = _libc.shmget(key, 0, 0)
        if ident >= 0:
            _libc.shmctl(ident, IPC_RMID, None)
        ident = _libc.msgget(key, 0)
        if ident >= 0:
            _libc.msgctl(ident, IPC_RMID, None)
    lib = _mq_lib()
    for name in mq_names:
        if lib is not None:
            lib.mq_unlink(name.encode())


# ---------------------------------------------------------------------------------------------
# The page cache, as the collusion bots use it


def page_cache_observable(path: Path) -> bool:
    """Whether this process can evict pages of ``path`` and then tell a cached page from an
    uncached one without reading it (what collude_reader.py tries inside the sandbox)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        try:
            os.preadv(fd, [bytearray(1)], 8 * 4096, os.RWF_NOWAIT)
            return False  # still cached: eviction does not work here
        except BlockingIOError:
            pass
        os.pread(fd, 1, 8 * 4096)
        os.preadv(fd, [bytearray(1)], 8 * 4096, os.RWF_NOWAIT)
        return True
    except OSError:
        return False
    finally:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)


# ---------------------------------------------------------------------------------------------
# The surroundings dumped by attack_mode_dump.py


_DUMP = re.compile(r"DUMP ([A-Za-z0-9+/=]+)\s*$", re.MULTILINE)


def dumps_in(found: list[Found]) -> list[dict]:
    """Every dump in these fault texts (one per fault, the first one found in each)."""
    result = []
    for fault in found:
        match = _DUMP.search(fault.text)
        if match:
            result.append(json.loads(zlib.decompress(base64.b64decode(match.group(1)))))
    return result


def normalized(dump: dict) -> dict:
    """A dump without what differs from run to run by construction, not by mode: the name of
    the referee's runtime folder (its pid and a random part), the machine-wide counters in mount ids and anonymous
    device numbers, the outer uid (a lease as root: which one depends on how many bots
    are alive on the machine, not on the mode), and which CPU the bot is pinned to (every mode
    pins each bot to one CPU, the one its worker runs on: only the count is compared)."""
    text = json.dumps(dump, sort_keys=True)
    text = re.sub(r"arena-sandbox-[A-Za-z0-9_-]+", "arena-sandbox-X", text)
    outer = dump.get("uid_map", "").split()
    if len(outer) >= 2 and outer[1] != "0":
        text = re.sub(rf"\b{re.escape(outer[1])}\b", "OUTER", text)
    outer_gid = dump.get("gid_map", "").split()
    if len(outer_gid) >= 2 and outer_gid[1] != "0":
        text = re.sub(rf"\b{re.escape(outer_gid[1])}\b", "OUTER", text)
    result = json.loads(text)
    if "cpus" in result:
        result["cpus"] = len(result["cpus"])
    result["mounts"] = [re.sub(r"\b0:\d+\b", "0:N", " ".join(line.split()[2:]))
                        for line in result.get("mounts", "").splitlines()]
    return result


def differences(a: dict, b: dict) -> dict:
    """The keys whose values differ, with both values (for an assertion message)."""
    return {k: (a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}
