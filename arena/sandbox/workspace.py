"""The workspace: the folder a user's bots, tournaments and results live in, and the bot registry.

Every command works on one workspace: ``--home DIR``, else the ``ARENA_HOME`` environment
variable, else the current directory (:meth:`Workspace.locate`). Inside it:

* ``bots/`` -- the user's bots; ``bots/registry.json`` records the accepted ones (``arena submit``);
* ``tournaments/`` -- tournament files; ``results/`` -- their result stores.

A bot is named by a path (``bots/x.py``, ``x.py:MyBot``), by a command line in any language
(``cmd:python3 bots/examples/first_legal_cmd.py``), by a registered name, by the stem of a file in
the workspace's ``bots/``, or by a built-in name (``random``, ``greedy``, ``heuristic``), whose
files ship in the repository's ``bots/`` folder. :meth:`Workspace.resolve_bot` maps any of these
to a :class:`~arena.sandbox.BotSpec`; :meth:`Workspace.resolve_entry` resolves a tournament
file's entry. A registered command bot keeps its files in ``bots/NAME/``.
A tournament is named by its file, or by a bare name (``demo``): a file of the workspace's
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
import shlex
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import arena
from arena.digest import file_sha256, sha256_hex
from arena.errors import ArenaError, ConfigError
from arena.sandbox.options import declaration_file, with_options
from arena.sandbox.spec import CMD_PREFIX, DEFAULT_CLASS, BotFileMissing, BotSpec, is_command
from arena.settings import did_you_mean

BUILTIN_BOTS = ("random", "greedy", "heuristic", "mcts")
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


class WorkspaceError(ArenaError):
    """A file of the workspace could not be written (the message names it and why)."""


@contextmanager
def writing(place: Path) -> Iterator[None]:
    """Turn a failure to write under ``place`` (a read-only folder, a full disk) into a
    :class:`WorkspaceError` naming the file."""
    try:
        yield
    except OSError as error:
        raise WorkspaceError(f"cannot write {error.filename or place}: {error.strerror or error}") from None


def check_name(name: str) -> str:
    """Return ``name`` if it can name a bot (a letter, then letters, digits, ``_`` or ``-``)."""
    if not NAME_PATTERN.match(name):
        raise ConfigError(f"bot name {name!r}: use a letter then letters, digits, '_' or '-' (40 at most)")
    return name


@dataclass(frozen=True)
class RegistryEntry:
    """One accepted bot: its name, file (relative to ``bots/``), class, SHA-256 and date (UTC, ISO).

    A command bot's ``file`` is its folder (``NAME``), ``command`` its argv, whose file
    arguments are relative to that folder, and ``sha256`` the hash of its command and files.
    """

    name: str
    file: str
    sha256: str
    date: str
    class_name: str = DEFAULT_CLASS
    command: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The entry as ``registry.json`` holds it (a Python bot's without ``command``)."""
        data = asdict(self)
        if self.command is None:
            del data["command"]
        else:
            data["command"] = list(self.command)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RegistryEntry:
        """The entry :meth:`to_dict` wrote."""
        command = data.get("command")
        fields = {**data, "command": None if command is None else tuple(str(a) for a in command)}
        return cls(**fields)


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
            return {e["name"]: RegistryEntry.from_dict(e) for e in data.get("bots", [])}
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as error:
            # AttributeError: JSON of another shape (a list where the object should be)
            raise ConfigError(f"{self.path}: unreadable bot registry ({error})") from None

    def get(self, name: str) -> RegistryEntry | None:
        """The entry of ``name``, or None."""
        return self.entries().get(name)

    def add(self, entry: RegistryEntry) -> None:
        """Record ``entry``, replacing any entry of the same name; written atomically."""
        entries = self.entries()
        entries[entry.name] = entry
        data = {"bots": [entries[n].to_dict() for n in sorted(entries)]}
        with writing(self.path):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".json.tmp")
            tmp.write_text(json.dumps(data, indent=2) + "\n")
            os.replace(tmp, self.path)

    @staticmethod
    def new_entry(name: str, file: Path, class_name: str = DEFAULT_CLASS) -> RegistryEntry:
        """An entry for ``file`` (already in ``bots/``) stamped with its hash and the time now."""
        return RegistryEntry(name, Path(file).name, file_sha256(file), _now(), class_name)

    @staticmethod
    def new_command_entry(name: str, command: tuple[str, ...], sha256: str) -> RegistryEntry:
        """An entry for a command bot whose files are in ``bots/NAME/``, stamped with the time now."""
        return RegistryEntry(name, name, sha256, _now(), command=command)


def command_version(command: Sequence[str], files: Mapping[str, bytes]) -> str:
    """A registered command bot's hash: of its command and of each of its files by name."""
    digests = {name: sha256_hex(data) for name, data in sorted(files.items())}
    return sha256_hex(json.dumps({"command": list(command), "files": digests}, sort_keys=True))


def _named_entry(entry: Mapping[str, Any]) -> str:
    """The bot a ``{bot: ...}`` mapping names, as a text entry (its name is the mapping's)."""
    others = sorted(set(entry) - {"name", "bot"})
    if others:
        raise ConfigError(f"bot {dict(entry)!r}: 'bot' names the bot; it does not go with {others}")
    bot = entry["bot"]
    if not isinstance(bot, str) or not bot.strip():
        raise ConfigError(f"bot {dict(entry)!r}: 'bot' must be a bot's name, file or cmd:COMMAND")
    return bot


def _now() -> str:
    """The time now, UTC, in ISO form to the second."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


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

    def resolve_bot(self, name_or_path: str, base_dir: Path | None = None,
                    options: Mapping[str, Any] | None = None) -> BotSpec:
        """The bot a command names: a path (``x.py[:Class]``), a registered, local or built-in name,
        with ``options`` (checked against what it declares, defaults filled in).

        Paths are resolved against ``base_dir`` (default: the current directory). Raises
        :class:`ConfigError` naming the input and the known names when nothing matches.
        """
        return with_options(self._find_bot(name_or_path, base_dir), options or {})

    def _find_bot(self, name_or_path: str, base_dir: Path | None) -> BotSpec:
        text = name_or_path.strip()
        if is_command(text) or text.endswith(".py") or ".py:" in text or "/" in text:
            return BotSpec.parse(text, base_dir or Path.cwd())
        entry = self.registry.get(text)
        if entry is not None:
            self._check_unchanged(entry)
            if entry.command is not None:
                return self._command_spec(entry)
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

    def resolve_entry(self, entry: str | Mapping[str, Any], folders: Sequence[Path]) -> BotSpec:
        """The bot a tournament file's entry names; relative paths are looked for in ``folders``
        (the workspace, then the tournament file's folder), the first that has the file winning.

        A command's file arguments are looked for the other way round, in the tournament file's
        folder first (docs/protocol.md), each in the first folder that holds it. A mapping may
        name its bot as a command would (``{name: fast, bot: heuristic}``) and give it
        ``options`` (:mod:`arena.sandbox.options`).
        """
        if not isinstance(entry, Mapping):
            return with_options(self._find_entry(entry, folders), {})
        options = entry.get("options") or {}
        found = {key: value for key, value in entry.items() if key != "options"}
        spec = self._find_entry(_named_entry(found) if "bot" in found else found, folders)
        name = entry.get("name")
        # An error about an option names the entry as the file does.
        return with_options(replace(spec, name=name) if isinstance(name, str) else spec, options)

    def _find_entry(self, entry: str | Mapping[str, Any], folders: Sequence[Path]) -> BotSpec:
        if is_command(entry):
            return BotSpec.parse(entry, *reversed(folders))
        errors: list[ConfigError] = []
        for folder in folders:
            try:
                if isinstance(entry, str):
                    return self._find_bot(entry, base_dir=folder)
                return BotSpec.parse(entry, folder)
            except ConfigError as error:
                errors.append(error)
        missing = [error for error in errors if isinstance(error, BotFileMissing)]
        paths = list(dict.fromkeys(str(error.path) for error in missing))   # an absolute one: once
        if len(paths) > 1 and len(missing) == len(errors):  # looked for in each folder: name them all
            places = " nor ".join(map(repr, paths))
            raise ConfigError(f"bot {missing[0].entry!r}: no such file {places} (looked for in this order)")
        raise errors[0]

    def check_writable(self) -> None:
        """Raise :class:`WorkspaceError` when ``bots/`` cannot be written: a submit should say
        so before it plays its validation games, not after."""
        place = self.bots_dir
        while not place.exists() and place != place.parent:
            place = place.parent
        if not place.is_dir() or not os.access(place, os.W_OK):
            why = "not a folder" if not place.is_dir() else "not writable"
            raise WorkspaceError(f"cannot write {self.bots_dir}: {place} is {why}")

    def local_bots(self) -> list[Path]:
        """The Python files in ``bots/`` that no registered bot is: played by their name as
        they are, never validated by ``arena submit``."""
        if not self.bots_dir.is_dir():
            return []
        registered = {entry.file for entry in self.registry.entries().values()}
        builtins = {(builtin_dir() / f"{name}.py").resolve() for name in BUILTIN_BOTS}
        # a clone's own bots/ holds the built-in files themselves: they are listed as built-in
        return sorted(p for p in self.bots_dir.glob("*.py")
                      if p.name not in registered and p.resolve() not in builtins)

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

    def current_version(self, entry: RegistryEntry) -> str | None:
        """The hash a registered bot's files have now, as :meth:`Registry.new_entry` or
        :func:`command_version` computed it when it was submitted (None: its files are gone)."""
        place = self.bots_dir / entry.file
        try:
            if entry.command is None:
                return file_sha256(place)
            return command_version(entry.command, self._registered_files(entry))
        except (OSError, ConfigError):
            return None

    def _registered_files(self, entry: RegistryEntry) -> dict[str, bytes]:
        """A registered command's files as ``arena submit`` recorded them: the files its command
        names, and its options' declaration (whatever else lies in its folder does not run)."""
        spec = self._command_spec(entry)
        assert spec.command is not None
        folder = (self.bots_dir / entry.file).resolve()
        named = [Path(arg) for arg in spec.command if Path(arg).is_absolute() and Path(arg).parent == folder]
        declaration = declaration_file(spec)
        files = [*named, *([declaration] if declaration is not None else [])]
        return {path.name: path.read_bytes() for path in files if path.is_file()}

    def _check_unchanged(self, entry: RegistryEntry) -> None:
        """Refuse a registered bot whose files changed after ``arena submit`` validated them:
        the name stands for the bytes that passed the checks, nothing else."""
        now = self.current_version(entry)
        if now is None or now == entry.sha256:
            return  # a missing file is named by the spec's own check
        place = self.bots_dir / entry.file
        if entry.command is not None:
            command = shlex.quote(CMD_PREFIX + shlex.join(entry.command))
            again = f"from its source folder (arena submit {command} --name {entry.name} --replace)"
        else:
            named = place if entry.class_name == DEFAULT_CLASS else f"{place}:{entry.class_name}"
            again = (f"(arena submit {shlex.quote(str(named))} --replace), or name the file to play "
                     "it as it is")
        raise ConfigError(f"bot {entry.name!r}: {place} changed after it was submitted (sha256 "
                          f"{entry.sha256[:12]}, now {now[:12]}): submit it again {again}")

    def _command_spec(self, entry: RegistryEntry) -> BotSpec:
        """A registered command bot, its file arguments under ``bots/<its folder>``."""
        assert entry.command is not None
        folder = self.bots_dir / entry.file
        if not folder.is_dir():
            raise ConfigError(f"bot {entry.name!r}: its folder {str(folder)!r} is missing")
        return BotSpec.parse({"name": entry.name, "cmd": list(entry.command)}, folder)

    @staticmethod
    def _spec(name: str, path: Path, class_name: str = DEFAULT_CLASS) -> BotSpec:
        if not path.is_file():
            raise ConfigError(f"bot {name!r}: its file {str(path)!r} is missing")
        return BotSpec(name=name, path=path.resolve(), class_name=class_name)
