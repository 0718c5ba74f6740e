"""Turning a tournament file into what the runner needs: bot specs, bot versions, rules.

Bot entries resolve through :meth:`arena.sandbox.workspace.Workspace.resolve_bot` of the workspace
(``--home``):

* a plain name: a registered bot, a file ``<home>/bots/<name>.py``, or a built-in bot
  (``random``, ``greedy``, ``heuristic``);
* a file (``bots/my_bot.py``, ``bots/x.py:Cls``) or a mapping (``{name:, path:}``): relative
  to the workspace folder, else to the folder of the tournament file;
* a command (``{name:, cmd: [...]}``, ``"cmd:./cbot"``): each argument naming a file relative to
  the folder of the tournament file, else to the workspace folder (docs/protocol.md).

Before the first game the runner snapshots every bot (:func:`snapshot_bots`): its files are
copied into the results folder under their SHA-256, the workers run those copies, and the
store records that hash as the bot's version. So a changed bot cannot silently mix its results
with the old ones, and editing a bot's file during a run changes nothing in the run.

The seed: a file's ``seed`` is used as written. A file without one gets a secret seed
(:func:`settle_seed`): the one drawn when the tournament was first run, kept in its results store,
so that a resume plays the same deals and is not taken for a changed setup; or, for a new
tournament or a restart, a fresh one (:func:`~arena.tournament.schedule.fresh_seed`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

import yaml

from arena.errors import ConfigError, RulesError
from arena.engine.rules import RuleSet, load_rules, preset_names
from arena.sandbox import BotSpec
from arena.sandbox.snapshot import snapshot
from arena.tournament.config import TournamentConfig, load_config
from arena.tournament.schedule import DEALS_BY_VERSION, fresh_seed
from arena.tournament.store import TournamentInfo
from arena.sandbox.workspace import Workspace


@dataclass(frozen=True)
class Plan:
    """A validated tournament with its bots and rules resolved; ready to run once its seed is
    settled (:func:`settle_seed`; ``config.seed`` is ``None`` until then for a file without one).
    """

    config: TournamentConfig
    config_text: str
    source: str
    specs: dict[str, BotSpec]
    rules: RuleSet
    versions: dict[str, str] = field(default_factory=dict)  # set by snapshot_bots
    seed_drawn: bool = False    # True when the seed was drawn at random (the file has none)
    deals: str = DEALS_BY_VERSION  # how a fresh store deals (arena.tournament.schedule)


def plan_from_file(path: str | Path, home: str | Path) -> Plan:
    """Read a tournament file and resolve everything it names (raises ``ArenaError``)."""
    config = load_config(path)
    text = Path(path).read_text(encoding="utf-8")
    return make_plan(config, text, home, Path(path).resolve().parent, source=str(path))


def make_plan(
    config: TournamentConfig, config_text: str, home: str | Path, base_dir: str | Path,
    source: str = "<config>",
) -> Plan:
    """Resolve the bots and rules of ``config`` against ``home`` then ``base_dir``."""
    folders = _folders(home, base_dir)
    specs = {
        entry.name: replace(resolve_bot(entry.spec, folders, source), name=entry.name)
        for entry in config.bots + config.candidates
    }
    try:
        rules = _load_rules(config.rules, folders)
    except RulesError as error:
        raise RulesError(_where(source, "rules", str(error))) from None
    try:
        rules.check_seats(config.seats)
    except RulesError as error:
        raise RulesError(_where(source, "seats", str(error))) from None
    return Plan(config, config_text, source, specs, rules)


def _where(source: str, key: str, message: str) -> str:
    """``message`` prefixed with the file and key it is about (once: a rule set's own errors
    already name their file)."""
    return message if message.startswith(f"{source}:") else f"{source}: key '{key}': {message}"


def resolved_plan(config: TournamentConfig, specs: Mapping[str, BotSpec], rules: RuleSet) -> Plan:
    """The plan of ``config`` whose bots and rules are already resolved (a duel's, named on the
    command line): ``specs`` by display name, its text written by :func:`config_text`."""
    rules.check_seats(config.seats)
    return Plan(config, config_text(config), "<config>", dict(specs), rules)


def config_text(config: TournamentConfig) -> str:
    """The YAML text a store records for a configuration built in memory, not read from a file:
    its canonical settings, without a ``seed`` key when it has none yet (as a file without one)."""
    settings = config.canonical()
    if settings["seed"] is None:
        del settings["seed"]
    return yaml.safe_dump(settings, sort_keys=True)


def snapshot_bots(plan: Plan, folder: Path) -> Plan:
    """``plan`` with every bot running from its snapshot under ``folder``, and the snapshots'
    hashes as the bots' versions (:mod:`arena.sandbox.snapshot`)."""
    taken = {name: snapshot(spec, folder) for name, spec in plan.specs.items()}
    return replace(plan, specs={n: t[0] for n, t in taken.items()},
                   versions={n: t[1] for n, t in taken.items()})


def settle_seed(plan: Plan, stored: TournamentInfo | None, restart: bool = False) -> Plan:
    """``plan`` with a seed: the file's, else the drawn one ``stored`` keeps, else a fresh one.

    ``stored`` is what the tournament's results store recorded (``None`` for a new store). Only
    a seed that was itself drawn is reused, so taking ``seed`` out of a file that had one still
    reads as a changed setup; ``restart`` always draws a fresh seed.
    """
    if plan.config.seed is not None:
        return plan
    if not restart and stored is not None and stored.seed_drawn and stored.seed is not None:
        seed = stored.seed
    else:
        seed = fresh_seed()
    return replace(plan, config=replace(plan.config, seed=seed), seed_drawn=True)


def resolve_bot(spec: str | Mapping[str, Any], folders: list[Path], source: str = "<config>") -> BotSpec:
    """The :class:`BotSpec` of one raw bot entry (see the module docstring)."""
    try:
        return Workspace(folders[0]).resolve_entry(spec, folders)
    except ConfigError as error:
        raise ConfigError(f"{source}: {error}") from None


def _folders(home: str | Path, base_dir: str | Path) -> list[Path]:
    folders = [Path(home).resolve(), Path(base_dir).resolve()]
    return folders if folders[0] != folders[1] else folders[:1]


def _load_rules(name: str, folders: list[Path]) -> RuleSet:
    if name in preset_names() or Path(name).is_absolute():
        return load_rules(name)
    for folder in folders:
        if (folder / name).is_file():
            return load_rules(folder / name)
    return load_rules(name)
