"""Accepting a bot into a workspace: validate it in the sandbox, then copy and register it.

:func:`validate` runs the checks in order and stops at the first failure:

1. ``file`` -- the path is a readable ``.py`` file;
2. ``contract`` -- the file defines the class (``Bot`` by default) with an ``act`` method
   (read from the source, not run: :func:`arena.sandbox.contract.contract_problem`, the check a
   tournament runs too);
3. ``load`` -- the bot starts in the sandbox and answers ``start`` within ``init_time`` (10 s);
4. ``self-play`` -- a validation game against copies of itself, without a fault;
5. ``vs-builtins`` -- a few games against the built-in bots, without a fault.

The validation games are dealt from one ``seed`` (default: a fresh secret one, so that a bot
cannot know the deals in advance; :attr:`ValidationReport.seed` gives it back and passing it
again replays the same games): game ``i`` from ``deal_seed(seed, i)``.

A failed check carries the fault code and detail (the traceback's last lines, the illegal action
and the rule it breaks). :func:`accept` copies an accepted bot into ``bots/`` and records it in
the registry; a name already taken needs ``replace=True``. :func:`new_bot` writes a new bot
from the template.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from arena.errors import ArenaError, ConfigError
from arena.play.referee import BotClient, Referee
from arena.engine.rules import DEFAULT_PRESET, RuleSet, load_rules
from arena.sandbox import BotSpec, Limits, check_isolation
from arena.sandbox.contract import contract_problem
from arena.sandbox.seating import Seating
from arena.sandbox.snapshot import snapshot
from arena.tournament.schedule import deal_seed, fresh_seed
from arena.sandbox.workspace import BUILTIN_BOTS, RegistryEntry, Workspace, check_name

SELF_PLAY_GAMES = 1            # validation games against copies of itself
BUILTIN_GAMES = 3              # validation games against the built-in bots
TAIL_LINES = 8
CANDIDATE = "candidate"        # the validated bot's name at the tables (built-in names differ)


class SubmitError(ArenaError):
    """A bot that cannot be accepted for a reason other than a failed check (a name clash)."""


@dataclass(frozen=True)
class Check:
    """One validation step: its name, whether it passed, and what went wrong."""

    name: str
    passed: bool
    detail: str = ""


@dataclass
class ValidationReport:
    """The checks run on one bot file, in order; the last one failed if any did; the seed of
    the validation games."""

    path: Path
    seed: int
    checks: list[Check] = field(default_factory=list)
    content: bytes = b""     # the bytes that were validated (what :func:`accept` registers)

    @property
    def passed(self) -> bool:
        """True when every check passed."""
        return all(c.passed for c in self.checks)

    @property
    def failed(self) -> Check | None:
        """The failed check, if any."""
        return next((c for c in self.checks if not c.passed), None)


def validate(path: Path, class_name: str = "Bot", rules: RuleSet | None = None,
             limits: Limits | None = None, workspace: Workspace | None = None, *,
             seed: int | None = None, trusted: bool = False) -> ValidationReport:
    """Run the checks of the module docstring on the bot file ``path``, dealing from ``seed``.

    ``trusted`` plays without isolation; otherwise a machine without it is refused
    (:class:`~arena.sandbox.IsolationUnavailable`) before any check runs.
    """
    if not trusted:
        check_isolation()
    report = ValidationReport(Path(path), fresh_seed() if seed is None else seed)
    rules = rules or load_rules(DEFAULT_PRESET)
    limits = limits or Limits()
    detail = _check_file(Path(path))
    report.checks.append(Check("file", detail is None, detail or ""))
    if detail is not None:
        return report
    # Every later check reads one snapshot of the file: what is validated is what is accepted.
    with tempfile.TemporaryDirectory(prefix="arena-submit-") as folder:
        spec, _ = snapshot(BotSpec(name=CANDIDATE, path=Path(path).resolve(),
                                   class_name=class_name), Path(folder))
        assert spec.path is not None
        report.content = spec.path.read_bytes()
        detail = contract_problem(spec.path, class_name)
        report.checks.append(Check("contract", detail is None, detail or ""))
        if detail is None:
            _play_checks(report, spec, rules, limits, workspace or Workspace.locate(), trusted)
    return report


def _check_file(path: Path) -> str | None:
    if path.suffix != ".py":
        return f"{path} is not a Python file (.py)"
    if not path.is_file():
        return f"no such file: {path}"
    try:
        path.read_bytes()
    except OSError as error:
        return f"cannot read {path}: {error.strerror or error}"
    return None


def _play_checks(report: ValidationReport, spec: BotSpec, rules: RuleSet, limits: Limits,
                 workspace: Workspace, trusted: bool) -> None:
    """``load``, ``self-play`` and ``vs-builtins``: sandboxed, stopping at the first fault."""
    seats = rules.seats_default
    specs = {CANDIDATE: spec, **{name: workspace.resolve_bot(name) for name in BUILTIN_BOTS}}
    # One CPU for every bot, as each tournament worker pins its own.
    seating = Seating(specs, limits, cpu=min(os.sched_getaffinity(0)), trusted=trusted)
    try:
        deals = game_seeds(report.seed)
        referee = Referee(rules)
        detail = _load(referee, seating.seat([CANDIDATE])[0], seats, deal_seed(report.seed, len(deals)))
        report.checks.append(Check("load", detail is None, detail or ""))
        if detail is not None:
            return
        detail = _games(referee, seating, [(CANDIDATE,) * seats], deals[:SELF_PLAY_GAMES])
        report.checks.append(Check("self-play", detail is None, detail or ""))
        if detail is not None:
            return
        tables = [_table(seats, rotation) for rotation in range(BUILTIN_GAMES)]
        detail = _games(referee, seating, tables, deals[SELF_PLAY_GAMES:])
        report.checks.append(Check("vs-builtins", detail is None, detail or ""))
    finally:
        seating.close()


def game_seeds(seed: int) -> list[int]:
    """The deal seeds of the validation games, from ``seed``: self-play first, then the games
    against the built-in bots. (The ``load`` check's start is dealt from the next one.)"""
    return [deal_seed(seed, i) for i in range(SELF_PLAY_GAMES + BUILTIN_GAMES)]


def _load(referee: Referee, bot: BotClient, seats: int, seed: int) -> str | None:
    """Start the bot as a game would (the referee's own start message, as a tournament's
    check of its bots does), then end that process: the validation games that follow each get
    a fresh one, as tournament games do."""
    fault = referee.probe(bot, seats, seed, move=False)
    return None if fault is None else _describe(fault.code.name, fault.detail, fault.log_tail)


def _table(seats: int, rotation: int) -> tuple[str, ...]:
    """The candidate in seat ``rotation % seats``, built-in bots in the other seats."""
    others = [BUILTIN_BOTS[(rotation + i) % len(BUILTIN_BOTS)] for i in range(seats - 1)]
    seat = rotation % seats
    return (*others[:seat], CANDIDATE, *others[seat:])


def _games(referee: Referee, seating: Seating, tables: list[tuple[str, ...]],
           seeds: list[int]) -> str | None:
    """Play one game per table; the first fault of the candidate (or any copy) as text."""
    for table, seed in zip(tables, seeds):
        result = referee.play(seating.seat(table), seed)
        for fault in result.faults:
            if table[fault.seat] == CANDIDATE:
                return _describe(fault.code.name, f"seat {fault.seat}, game seed {seed}: {fault.detail}",
                                 fault.log_tail)
    return None


def _describe(code: str, detail: str, log_tail: str) -> str:
    tail = "\n".join(log_tail.strip().splitlines()[-TAIL_LINES:])
    return f"{code}: {detail}" + (f"\n{tail}" if tail and tail not in detail else "")


# ---------------------------------------------------------------------------------------------
# Accepting


def accept(workspace: Workspace, path: Path, name: str, replace: bool = False,
           class_name: str = "Bot", content: bytes | None = None) -> RegistryEntry:
    """Copy a validated bot to ``bots/NAME.py`` and record it; a taken name needs ``replace``.

    ``content`` (a :class:`ValidationReport`'s) is written instead of the file's current bytes,
    so that a file changed after its validation cannot slip in.
    """
    check_clash(workspace, name, Path(path), replace)
    target = workspace.bots_dir / f"{name}.py"
    workspace.bots_dir.mkdir(parents=True, exist_ok=True)
    if content is not None:
        target.write_bytes(content)
    elif Path(path).resolve() != target.resolve():
        shutil.copyfile(path, target)
    entry = workspace.registry.new_entry(name, target, class_name)
    workspace.registry.add(entry)
    return entry


def check_clash(workspace: Workspace, name: str, path: Path, replace: bool) -> None:
    """Refuse a built-in name, and a registered or existing name unless ``replace`` is set."""
    check_name(name)
    if name in BUILTIN_BOTS:
        raise SubmitError(f"{name!r} is a built-in bot's name: choose another with --name")
    if replace:
        return
    if workspace.registry.get(name) is not None:
        raise SubmitError(f"a bot named {name!r} is already registered: use --replace to replace it")
    target = workspace.bots_dir / f"{name}.py"
    if target.exists() and target.resolve() != Path(path).resolve():
        raise SubmitError(f"{target} already exists: use --replace to overwrite it, or --name")


def new_bot(workspace: Workspace, name: str) -> Path:
    """Write ``bots/NAME.py`` from the template; never overwrite an existing file."""
    check_name(name)
    target = workspace.bots_dir / f"{name}.py"
    if target.exists():
        raise ConfigError(f"{target} already exists: not overwritten")
    template = (resources.files("arena.services") / "templates" / "bot_template.py.txt").read_text()
    workspace.bots_dir.mkdir(parents=True, exist_ok=True)
    target.write_text(template.replace("{name}", name))
    return target
