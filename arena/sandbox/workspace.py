"""The workspace: the folder a user's bots, tournaments and results live in, and the bot registry.

Every command works on one workspace: ``--home DIR``, else the ``ARENA_HOME`` environment
variable, else the current directory (:meth:`Workspace.locate`). Inside it:

* ``bots/`` -- the user's bots; ``bots/registry.json`` records the accepted ones (``arena submit``);
* ``tournaments/`` -- tournament files; ``results/`` -- their result stores.

A bot is named by a path (``bots/x.py``, ``x.py:MyBot``), by a registered name, by the stem of a
file in the workspace's ``bots/``, or by a built-in name (``random``, ``greedy``, ``heuristic``).
:meth:`Workspace.resolve_bot` maps any of these to a :class:`~arena.sandbox.BotSpec`. A
tournament is named by its file, or by a bare name (``demo``): a file of the workspace's
``tournaments/``, else one shipped with the package (:meth:`Workspace.tournament_file`).

The built-in bots and the demo tournament live in the repository's top-level ``bots/`` and
``tournaments/`` folders; an installed package (a wheel, ``pip install .``) carries them as
``arena/builtin_bots/`` and ``arena/builtin_tournaments/`` (pyproject.toml maps the folders), so
:func:`builtin_dir` and :func:`shipped_tournaments_dir` look there first, then in the clone.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

import arena
from arena.digest import file_sha256
from arena.errors import ConfigError
from arena.sandbox.spec import BotSpec
from arena.settings import did_you_mean

BUILTIN_BOTS = ("random", "greedy", "heuristic")
SHIPPED_TOURNAMENTS = ("demo",)
HOME_ENV = "ARENA_HOME"
REGISTRY_FILE = "registry.json"
NAME_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,39}$")


def builtin_dir() -> Path:
    """The folder of the built-in bots' files (and of ``examples/``), installed or in a clone."""
    return _shipped("builtin_bots", "bots")


def shipped_tournaments_dir() -> Path:
    """The folder of the tournaments shipped with the package (:data:`SHIPPED_TOURNAMENTS`)."""
    return _shipped("builtin_tournaments", "tournaments")


def _shipped(packaged: str, top_level: str) -> Path:
    """``arena/<packaged>`` of an installed package, else the clone's ``<top_level>/`` beside
    ``arena/`` (an editable install or PYTHONPATH imports the package from the clone itself)."""
    package = Path(arena.__file__).resolve().parent
    installed = package / packaged
    return installed if installed.is_dir() else package.parent / top_level


def check_name(name: str) -> str:
    """Return ``name`` if it can name a bot (a letter, then letters, digits, ``_`` or ``-``)."""
    if not NAME_PATTERN.match(name):
        raise ConfigError(f"bot name {name!r}: use a letter then letters, digits, '_' or '-' (40 at most)")
    return name


@dataclass(frozen=True)
class RegistryEntry:
    """One accepted bot: its name, file (relative to ``bots/``), class, SHA-256 and date (UTC, ISO)."""

    name: str
    file: str
    sha256: str
    date: str
    class_name: str = "Bot"


class Registry:
    """The accepted bots of a workspace, kept in ``bots/registry.json`` (sorted by name)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def entries(self) -> dict[str, RegistryEntry]:
        """Every registered bot by name (empty when there is no registry yet)."""
        if not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text())
            return {e["name"]: RegistryEntry(**e) for e in data.get("bots", [])}
        except (OSError, ValueError, TypeError, KeyError) as error:
            raise ConfigError(f"{self.path}: unreadable bot registry ({error})") from None

    def get(self, name: str) -> RegistryEntry | None:
        """The entry of ``name``, or None."""
        return self.entries().get(name)

    def add(self, entry: RegistryEntry) -> None:
        """Record ``entry``, replacing any entry of the same name; written atomically."""
        entries = self.entries()
        entries[entry.name] = entry
        data = {"bots": [asdict(entries[n]) for n in sorted(entries)]}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(data, indent=2) + "\n")
        os.replace(tmp, self.path)

    @staticmethod
    def new_entry(name: str, file: Path, class_name: str = "Bot") -> RegistryEntry:
        """An entry for ``file`` (already in ``bots/``) stamped with its hash and the time now."""
        date = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
        return RegistryEntry(name, Path(file).name, file_sha256(file), date, class_name)


class Workspace:
    """A folder holding ``bots/``, ``tournaments/`` and ``results/`` (created when written to)."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root).resolve()
        self.bots_dir = self.root / "bots"
        self.results_dir = self.root / "results"
        self.tournaments_dir = self.root / "tournaments"
        self.registry = Registry(self.bots_dir / REGISTRY_FILE)

    @classmethod
    def locate(cls, home: Path | str | None = None) -> Workspace:
        """The workspace of ``home``, else of ``$ARENA_HOME``, else of the current directory."""
        chosen = home or os.environ.get(HOME_ENV) or Path.cwd()
        root = Path(chosen).expanduser()
        if root.exists() and not root.is_dir():
            raise ConfigError(f"workspace {str(root)!r} is not a folder")
        return cls(root)

    def resolve_bot(self, name_or_path: str, base_dir: Path | None = None) -> BotSpec:
        """The bot a command names: a path (``x.py[:Class]``), a registered, local or built-in name.

        Paths are resolved against ``base_dir`` (default: the current directory). Raises
        :class:`ConfigError` naming the input and the known names when nothing matches.
        """
        text = name_or_path.strip()
        if text.endswith(".py") or ".py:" in text or "/" in text:
            return BotSpec.parse(text, base_dir or Path.cwd())
        entry = self.registry.get(text)
        if entry is not None:
            return self._spec(text, self.bots_dir / entry.file, entry.class_name)
        local = self.bots_dir / f"{text}.py"
        if local.is_file():
            return self._spec(text, local)
        builtin = builtin_dir() / f"{text}.py"
        if text in BUILTIN_BOTS and builtin.is_file():
            return self._spec(text, builtin)
        names = self.known_names()
        raise ConfigError(f"unknown bot {text!r}{did_you_mean(text, names)}: give a file (bots/x.py) "
                          f"or one of: {', '.join(names) or 'none'}")

    def known_names(self) -> list[str]:
        """Built-in, registered and local bot names, sorted, without repeats."""
        names = set(BUILTIN_BOTS) | set(self.registry.entries())
        if self.bots_dir.is_dir():
            names |= {p.stem for p in self.bots_dir.glob("*.py")}
        return sorted(names)

    def tournament_file(self, name_or_path: str | Path) -> Path:
        """The tournament file a command names: a path as given (``tournaments/demo.yaml``); a
        bare name (``demo``) is ``tournaments/NAME.yaml`` of the workspace, else a shipped one.

        Raises :class:`ConfigError` for a bare name that names neither, with the known names.
        """
        path = Path(name_or_path)
        if path.exists() or path.suffix in (".yaml", ".yml") or len(path.parts) != 1:
            return path
        name = path.name
        for folder, names in ((self.tournaments_dir, None), (shipped_tournaments_dir(), SHIPPED_TOURNAMENTS)):
            candidate = folder / f"{name}.yaml"
            if (names is None or name in names) and candidate.is_file():
                return candidate
        known = sorted({p.stem for p in self.tournaments_dir.glob("*.yaml")} | set(SHIPPED_TOURNAMENTS))
        raise ConfigError(f"unknown tournament {name!r}{did_you_mean(name, known)}: give a tournament "
                          f"file, or the name of one in {self.tournaments_dir} or shipped with the "
                          f"arena ({', '.join(SHIPPED_TOURNAMENTS)})")

    @staticmethod
    def _spec(name: str, path: Path, class_name: str = "Bot") -> BotSpec:
        if not path.is_file():
            raise ConfigError(f"bot {name!r}: its file {str(path)!r} is missing")
        return BotSpec(name=name, path=path.resolve(), class_name=class_name)
