"""Accepting a bot into a workspace: validate it in the sandbox, then copy and register it.

:func:`validate` runs the checks in order and stops at the first failure:

1. ``file`` -- the path is a readable ``.py`` file (a command bot: ``command`` -- its program
   is an executable file, or a name found where a game process looks for programs);
2. ``contract`` -- the file defines the class (``Bot`` by default) with an ``act`` method
   (read from the source, not run: :func:`arena.sandbox.contract.contract_problem`, the check a
   tournament runs too; a command bot has no such check: the games are its test);
3. ``load`` -- the bot starts in the sandbox and answers ``start`` within ``init_time`` (10 s);
4. ``self-play`` -- a validation game against copies of itself, without a fault;
5. ``vs-builtins`` -- a few games against the built-in bots, without a fault.

The validation games are dealt from one ``seed`` (default: a fresh secret one, so that a bot
cannot know the deals in advance; :attr:`ValidationReport.seed` gives it back and passing it
again replays the same games): game ``i`` from ``deal_seed(seed, i)``.

A failed check carries the fault code and detail (the traceback's last lines, the illegal action
and the rule it breaks). :func:`accept` copies an accepted bot into ``bots/`` and records it in
the registry; a name already taken needs ``replace=True``. :func:`accept_command` does the same
for a command bot, whose files go to ``bots/NAME/``. :func:`new_bot` writes a new bot from the
template.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field, replace as replaced
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from arena.digest import sha256_hex
from arena.errors import ArenaError, ConfigError
from arena.play.referee import BotClient, Referee
from arena.engine.rules import DEFAULT_PRESET, RuleSet, load_rules
from arena.sandbox import BotSpec, Limits, check_isolation
from arena.sandbox.contract import contract_problem
from arena.sandbox.options import declaration_file, with_options
from arena.sandbox.seating import Seating
from arena.sandbox.snapshot import snapshot
from arena.sandbox.spec import DEFAULT_CLASS
from arena.tournament.schedule import deal_seed, fresh_seed
from arena.sandbox.workspace import (BUILTIN_BOTS, RegistryEntry, Workspace, check_name, command_version,
                                    writing)

SELF_PLAY_GAMES = 1            # validation games against copies of itself
BUILTIN_GAMES = 3              # validation games against the built-in bots
TAIL_LINES = 8
CANDIDATE = "candidate"        # the validated bot's name at the tables (built-in names differ)
# The built-in bots of the validation games: not the search bot (mcts), whose every move takes
# its time budget, so that validating stays a matter of seconds.
OPPONENTS = ("random", "greedy", "heuristic")
COMMAND_PATH = "/usr/bin:/bin"  # where a game process looks for a command's program


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
    """The checks run on one bot, in order; the last one failed if any did; the seed of the
    validation games.

    A Python bot's ``content`` is the bytes validated (what :func:`accept` registers). A command
    bot's ``command`` is its argv with each of its files named by its file name, and ``files``
    those files' validated bytes (what :func:`accept_command` registers).
    """

    path: Path
    seed: int
    checks: list[Check] = field(default_factory=list)
    content: bytes = b""
    command: tuple[str, ...] | None = None
    files: dict[str, bytes] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        """True when every check passed."""
        return all(c.passed for c in self.checks)

    @property
    def failed(self) -> Check | None:
        """The failed check, if any."""
        return next((c for c in self.checks if not c.passed), None)


def validate(bot: Path | BotSpec, class_name: str = DEFAULT_CLASS, rules: RuleSet | None = None,
             limits: Limits | None = None, workspace: Workspace | None = None, *,
             seed: int | None = None, trusted: bool = False,
             options: Mapping[str, Any] | None = None) -> ValidationReport:
    """Run the checks of the module docstring on the bot file ``bot`` (a spec: a file's, whose
    class is ``class_name``, or a command's), dealing from ``seed``. The games play the bot
    with ``options`` (a file's; a command's spec carries its own), checked against what it
    declares once its contract holds (:class:`ConfigError` for a bad one, before any game).

    ``trusted`` plays without isolation; otherwise a machine without it is refused
    (:class:`~arena.sandbox.IsolationUnavailable`) before any check runs.
    """
    if not trusted:
        check_isolation()
    rules = rules or load_rules(DEFAULT_PRESET)
    limits = limits or Limits()
    workspace = workspace or Workspace.locate()
    chosen_seed = fresh_seed() if seed is None else seed
    if isinstance(bot, BotSpec) and bot.command is not None:
        return _validate_command(bot, chosen_seed, rules, limits, workspace, trusted)
    path = Path(bot) if not isinstance(bot, BotSpec) else Path(str(bot.path))
    report = ValidationReport(path, chosen_seed)
    detail = _check_file(path)
    report.checks.append(Check("file", detail is None, detail or ""))
    if detail is not None:
        return report
    # Every later check reads one snapshot of the file: what is validated is what is accepted.
    with tempfile.TemporaryDirectory(prefix="arena-submit-") as folder:
        spec, _ = snapshot(BotSpec(name=CANDIDATE, path=path.resolve(),
                                   class_name=class_name), Path(folder))
        assert spec.path is not None
        report.content = spec.path.read_bytes()
        detail = contract_problem(spec.path, class_name)
        report.checks.append(Check("contract", detail is None, detail or ""))
        if detail is None:
            # Checked on the file as the user names it, so that an error names it too.
            checked = with_options(BotSpec(name=path.stem, path=path.resolve(),
                                           class_name=class_name), options or {})
            spec = replaced(spec, options=checked.options)
            _play_checks(report, spec, rules, limits, workspace, trusted)
    return report


def _validate_command(bot: BotSpec, seed: int, rules: RuleSet, limits: Limits,
                      workspace: Workspace, trusted: bool) -> ValidationReport:
    """The ``command`` check, then the games, all on one snapshot of the command's files."""
    assert bot.command is not None
    named = [Path(arg) for arg in bot.command if Path(arg).is_absolute() and Path(arg).is_file()]
    report = ValidationReport(named[-1] if named else Path(bot.command[0]), seed)
    detail = _check_command(bot.command)
    report.checks.append(Check("command", detail is None, detail or ""))
    if detail is not None:
        return report
    with tempfile.TemporaryDirectory(prefix="arena-submit-") as folder:
        spec, _ = snapshot(replaced(bot, name=CANDIDATE), Path(folder))
        assert spec.command is not None
        copies = [Path(arg) for arg in spec.command if arg.startswith(folder)]
        report.files = {copy.name: copy.read_bytes() for copy in copies}
        declaration = declaration_file(bot)   # its options, which the registered copy keeps
        if declaration is not None:
            report.files[declaration.name] = declaration.read_bytes()
        report.command = tuple(Path(arg).name if arg.startswith(folder) else arg
                               for arg in spec.command)
        _play_checks(report, spec, rules, limits, workspace, trusted)
    return report


def _check_command(command: tuple[str, ...]) -> str | None:
    """The program exists (a file, or a name found where a game process looks for it)."""
    program = command[0]
    if "/" in program:
        if not os.path.isfile(program):
            return f"no such program: {program}"
        if not os.access(program, os.X_OK):
            return f"{program} is not executable (chmod +x, or name its interpreter first)"
        return None
    if shutil.which(program, path=COMMAND_PATH) is None:
        return f"program {program!r} not found in {COMMAND_PATH}"
    return None


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
    specs = {CANDIDATE: spec, **{name: workspace.resolve_bot(name) for name in OPPONENTS}}
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
    others = [OPPONENTS[(rotation + i) % len(OPPONENTS)] for i in range(seats - 1)]
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
           class_name: str = DEFAULT_CLASS, content: bytes | None = None) -> RegistryEntry:
    """Copy a validated bot to ``bots/NAME.py`` and record it; a taken name needs ``replace``.

    ``content`` (a :class:`ValidationReport`'s) is written instead of the file's current bytes,
    so that a file changed after its validation cannot slip in.
    """
    check_clash(workspace, name, Path(path), replace, class_name, content)
    target = workspace.bots_dir / f"{name}.py"
    with writing(target):
        workspace.bots_dir.mkdir(parents=True, exist_ok=True)
        if content is not None:
            target.write_bytes(content)
        elif Path(path).resolve() != target.resolve():
            shutil.copyfile(path, target)
    entry = workspace.registry.new_entry(name, target, class_name)
    workspace.registry.add(entry)
    return entry


def accept_command(workspace: Workspace, report: ValidationReport, name: str,
                   replace: bool = False) -> RegistryEntry:
    """Register a validated command bot: its validated files are written to ``bots/NAME/`` and
    its command (file arguments relative to that folder) is recorded; a taken name needs
    ``replace`` (which empties the folder first)."""
    assert report.command is not None, "not a command bot's report"
    check_clash(workspace, name, None, replace)
    folder = workspace.bots_dir / name
    with writing(folder):
        if folder.is_dir():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        for file_name, data in report.files.items():
            target = folder / file_name
            target.write_bytes(data)
            target.chmod(0o755)  # a program or a script: it may be run directly
    entry = workspace.registry.new_command_entry(name, report.command,
                                                 command_version(report.command, report.files))
    workspace.registry.add(entry)
    return entry


def check_clash(workspace: Workspace, name: str, path: Path | None, replace: bool,
                class_name: str = DEFAULT_CLASS, content: bytes | None = None) -> None:
    """Refuse a built-in name, a registered or existing name unless ``replace`` is set
    (``path``: the Python file being submitted, whose bytes are ``content`` when given; ``None``
    for a command bot), and a workspace whose ``bots/`` cannot be written."""
    _check_not_builtin(name, "choose another with --name")
    workspace.check_writable()
    if replace:
        if path is not None:
            _check_same_class(workspace, name, class_name, path, content)
        return
    if workspace.registry.get(name) is not None:
        raise SubmitError(f"a bot named {name!r} is already registered: use --replace to replace it")
    targets = [workspace.bots_dir / f"{name}.py"] + ([workspace.bots_dir / name] if path is None else [])
    for target in targets:
        if target.exists() and (path is None or target.resolve() != Path(path).resolve()):
            raise SubmitError(f"{target} already exists: use --replace to overwrite it, or --name")


def _check_same_class(workspace: Workspace, name: str, class_name: str, path: Path,
                      content: bytes | None) -> None:
    """Refuse to replace a registered bot by another class of the very same bytes: tournaments
    tell a bot's versions apart by the hash of its file, so the name's stored games would be
    kept as if the new class had played them. (An unreadable file is for validation to name.)"""
    entry = workspace.registry.get(name)
    if entry is None or entry.command is not None or entry.class_name == class_name:
        return
    try:
        data = content if content is not None else path.read_bytes()
    except OSError:
        return
    if entry.sha256 == sha256_hex(data):
        raise SubmitError(f"bot {name!r} is this very file playing class {entry.class_name}: "
                          f"register class {class_name} under another name (--name), so that "
                          "no stored game of one is taken for the other's")


def _check_not_builtin(name: str, advice: str) -> None:
    """Refuse a name that cannot name a bot, or that a built-in bot has: a workspace's
    ``bots/NAME.py`` would take its place in every tournament, duel and calibration."""
    check_name(name)
    if name in BUILTIN_BOTS:
        raise SubmitError(f"{name!r} is a built-in bot's name: {advice}")


def new_bot(workspace: Workspace, name: str) -> Path:
    """Write ``bots/NAME.py`` from the template; never overwrite an existing file, nor take a
    built-in bot's name."""
    _check_not_builtin(name, "choose another")
    workspace.check_writable()
    target = workspace.bots_dir / f"{name}.py"
    if target.exists():
        raise ConfigError(f"{target} already exists: not overwritten")
    template = (resources.files("arena.services") / "templates" / "bot_template.py.txt").read_text()
    with writing(target):
        workspace.bots_dir.mkdir(parents=True, exist_ok=True)
        target.write_text(template.replace("{name}", name))
    return target
