"""Turning a tournament file into what the runner needs: bot specs, bot versions, rules.

Bot entries resolve as follows (until :mod:`arena.workspace` provides ``Workspace.resolve_bot``,
which is used as soon as it exists):

* a plain name (``random``, ``greedy``, ``heuristic``): the built-in bot of that name, the
  file ``bots/<name>.py`` of the arena repository;
* a file (``bots/my_bot.py``, ``bots/x.py:Cls``) or a mapping (``{name:, path:}`` /
  ``{name:, cmd: [...]}``): relative to the workspace folder (``--home``), else to the folder
  of the tournament file.

A bot's version is the SHA-256 of its file (of the command line plus the files it names, for a
command bot), so a changed bot cannot silently mix its results with the old ones.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping

import arena
from arena.errors import ConfigError
from arena.rules import RuleSet, load_rules, preset_names
from arena.sandbox import BotSpec
from arena.tournament.config import TournamentConfig, load_config
from arena.tournament.store import digest_file, digest_text

BUILTIN_BOTS_DIR = Path(arena.__file__).resolve().parent.parent / "bots"


@dataclass(frozen=True)
class Plan:
    """A validated tournament with its bots and rules resolved, ready to run."""

    config: TournamentConfig
    config_text: str
    source: str
    specs: dict[str, BotSpec]
    versions: dict[str, str]
    rules: RuleSet


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
    rules = _load_rules(config.rules, folders)
    rules.check_seats(config.seats)
    versions = {name: bot_version(spec) for name, spec in specs.items()}
    return Plan(config, config_text, source, specs, versions, rules)


def resolve_bot(spec: str | Mapping[str, Any], folders: list[Path], source: str = "<config>") -> BotSpec:
    """The :class:`BotSpec` of one raw bot entry (see the module docstring)."""
    workspace = _workspace(folders[0])
    if workspace is not None and isinstance(spec, str):
        return workspace.resolve_bot(spec)
    if isinstance(spec, str) and _is_plain_name(spec):
        return _builtin(spec, source)
    last: ConfigError | None = None
    for folder in folders:
        try:
            return BotSpec.parse(spec, folder)
        except ConfigError as error:
            last = error
    assert last is not None
    raise ConfigError(f"{source}: {last}")


def bot_version(spec: BotSpec) -> str:
    """SHA-256 of the bot's file, or of its command line and the files that names."""
    if spec.path is not None:
        return digest_file(spec.path)
    assert spec.command is not None
    files = [digest_file(arg) for arg in spec.command if Path(arg).is_file()]
    return digest_text(json.dumps([list(spec.command), files]))


def _folders(home: str | Path, base_dir: str | Path) -> list[Path]:
    folders = [Path(home).resolve(), Path(base_dir).resolve()]
    return folders if folders[0] != folders[1] else folders[:1]


def _is_plain_name(text: str) -> bool:
    return not text.endswith(".py") and "/" not in text and ":" not in text


def _builtin(name: str, source: str) -> BotSpec:
    path = BUILTIN_BOTS_DIR / f"{name}.py"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in BUILTIN_BOTS_DIR.glob("*.py")))
        raise ConfigError(f"{source}: unknown bot {name!r} (built-in bots: {known}; "
                          "or give a file like bots/my_bot.py)")
    return BotSpec(name=name, path=path)


def _load_rules(name: str, folders: list[Path]) -> RuleSet:
    if name in preset_names() or Path(name).is_absolute():
        return load_rules(name)
    for folder in folders:
        if (folder / name).is_file():
            return load_rules(folder / name)
    return load_rules(name)


def _workspace(home: Path) -> Any:
    """``arena.workspace.Workspace(home)`` once that module exists, else ``None``."""
    try:
        from arena.workspace import Workspace  # type: ignore[import-not-found]
    except ImportError:
        return None
    return Workspace(home)
