"""What a tournament names (:class:`BotSpec`) and how much a bot may use (:class:`Limits`)."""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Mapping

from arena.errors import ConfigError

_SPEC_KEYS = frozenset({"name", "path", "class", "cmd", "command"})
CMD_PREFIX = "cmd:"   # a command line written where a bot is named: "cmd:python3 bot.py"


DEFAULT_CLASS = "Bot"  # the class a bot file is played as unless named (file.py:Class)


class BotFileMissing(ConfigError):
    """A bot named by a file that is not there (``entry`` as written, ``path`` as resolved)."""

    def __init__(self, entry: str, path: Path) -> None:
        super().__init__(f"bot {entry!r}: no such file {str(path)!r}")
        self.entry, self.path = entry, path


@dataclass(frozen=True)
class BotSpec:
    """A bot: a Python file and class, or the argv of an executable speaking docs/protocol.md.

    Exactly one of ``path`` and ``command`` is set. Relative paths are resolved by
    :meth:`parse` against the folder of the file that named the bot. ``options`` are the values
    the bot is constructed with, by name, sorted (:func:`arena.sandbox.options.with_options`);
    empty for a bot that declares none.
    """

    name: str
    path: Path | None = None
    class_name: str = DEFAULT_CLASS
    command: tuple[str, ...] | None = None
    options: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        if (self.path is None) == (self.command is None):
            raise ConfigError(f"bot {self.name!r}: give exactly one of a path or a command")
        if self.command is not None and not self.command:
            raise ConfigError(f"bot {self.name!r}: the command is empty")
        if not self.class_name.isidentifier():
            raise ConfigError(f"bot {self.name!r}: class {self.class_name!r} is not a name")

    @staticmethod
    def parse(text_or_mapping: str | Mapping[str, Any], base_dir: Path, *more_dirs: Path) -> "BotSpec":
        """Read ``"bots/x.py"``, ``"bots/x.py:MyBot"``, ``"cmd:python3 bots/x.py"`` or a mapping
        ``{name:, cmd: [...]}`` / ``{name:, path:}``.

        A file is looked for under ``base_dir``; an argument of a command that names a file under
        ``base_dir``, else under the first of ``more_dirs`` that holds it, is made absolute (the
        command runs elsewhere). A ``cmd:`` bot is named after the first file its command names
        (``first_legal_cmd``), else after its program. Raises :class:`arena.errors.ConfigError`
        naming the input when it cannot be used.
        """
        dirs = [Path(base_dir), *map(Path, more_dirs)]
        if isinstance(text_or_mapping, str):
            if text_or_mapping.strip().startswith(CMD_PREFIX):
                return _parse_cmd_text(text_or_mapping.strip(), dirs)
            return _parse_text(text_or_mapping, dirs[0])
        if isinstance(text_or_mapping, Mapping):
            return _parse_mapping(text_or_mapping, dirs)
        raise ConfigError(f"a bot is a 'file.py[:Class]' text or a mapping, not {text_or_mapping!r}")


def is_command(entry: str | Mapping[str, Any]) -> bool:
    """True for an entry that names a command bot (``cmd:...`` or a mapping with ``cmd``)."""
    if isinstance(entry, str):
        return entry.strip().startswith(CMD_PREFIX)
    return isinstance(entry, Mapping) and ("cmd" in entry or "command" in entry)


def split_class(text: str) -> tuple[str, str | None]:
    """``file.py:ClassName`` as ``(file.py, ClassName)``; any other text as ``(text, None)``."""
    head, sep, tail = text.rpartition(":")
    return (head, tail) if sep and tail.isidentifier() else (text, None)


def _parse_text(text: str, base_dir: Path, name: str | None = None) -> BotSpec:
    """``file.py`` or ``file.py:ClassName``, the file resolved against ``base_dir``."""
    file_part, named = split_class(text.strip())
    class_name = named or DEFAULT_CLASS
    if not file_part.endswith(".py"):
        raise ConfigError(f"bot {text!r}: expected a Python file 'name.py' or 'name.py:Class' "
                          f"(a program in another language: '{CMD_PREFIX}{text.strip()}')")
    path = (base_dir / file_part).resolve()
    if not path.is_file():
        raise BotFileMissing(text, path)
    default = path.stem if class_name == DEFAULT_CLASS else f"{path.stem}:{class_name}"
    return BotSpec(name=name or default, path=path, class_name=class_name)


def _parse_cmd_text(text: str, dirs: list[Path]) -> BotSpec:
    """``cmd:COMMAND``: the command split as a shell would, named after its first file."""
    line = text[len(CMD_PREFIX):]
    try:
        argv = shlex.split(line)
    except ValueError as error:
        raise ConfigError(f"bot {text!r}: cannot split the command: {error}") from None
    if not argv:
        raise ConfigError(f"bot {text!r}: the command is empty (write {CMD_PREFIX}PROGRAM ARGS...)")
    command = _parse_command(argv, dirs, text)
    files = [Path(arg) for arg in command if Path(arg).is_absolute() and Path(arg).is_file()]
    program = Path(command[0]).name
    name = next((f.stem for f in files if f.name != program), Path(command[0]).stem)
    return BotSpec(name=name, command=command)


def _parse_mapping(data: Mapping[str, Any], dirs: list[Path]) -> BotSpec:
    """``{name:, path: "x.py[:Class]", class:}`` or ``{name:, cmd: [argv...] | "a b c"}``."""
    unknown = set(data) - _SPEC_KEYS
    if unknown:
        raise ConfigError(f"bot {dict(data)!r}: unknown key(s) {sorted(unknown)}")
    name = data.get("name")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise ConfigError(f"bot {dict(data)!r}: 'name' must be a non-empty text")
    cmd = data.get("cmd", data.get("command"))
    if ("path" in data) == (cmd is not None):
        raise ConfigError(f"bot {dict(data)!r}: give exactly one of 'path' and 'cmd'")
    if cmd is None:
        text = str(data["path"])
        if "class" in data:
            text = f"{text}:{data['class']}"
        return _parse_text(text, dirs[0], name)
    if not name:
        raise ConfigError(f"bot {dict(data)!r}: a command bot needs a 'name'")
    return BotSpec(name=name, command=_parse_command(cmd, dirs, name))


def _parse_command(cmd: Any, dirs: list[Path], name: str) -> tuple[str, ...]:
    """Split a command and make arguments that name files under one of ``dirs`` absolute."""
    argv = shlex.split(cmd) if isinstance(cmd, str) else cmd
    if not isinstance(argv, (list, tuple)) or not argv or not all(isinstance(a, str) for a in argv):
        raise ConfigError(f"bot {name!r}: 'cmd' must be a non-empty list of texts, not {cmd!r}")
    # Relative file arguments are relative to the file that named the bot, not to the bot's cwd
    # (which is its private folder), so they are made absolute here.
    return tuple(_absolute(arg, dirs) for arg in argv)


def _absolute(arg: str, dirs: list[Path]) -> str:
    """``arg`` made absolute when it names an existing file under one of ``dirs`` (the first
    that holds it); any other argument (``-u``, ``python3``, an absolute path) as it is."""
    if arg.startswith(("-", "/")):
        return arg
    for folder in dirs:
        if (folder / arg).is_file():
            return str((folder / arg).resolve())
    return arg


def _limit(default: float, low: float, *, above: bool = False) -> Any:
    """A field of :class:`Limits`: its default, whose type is the field's (an ``int`` default
    takes whole numbers only), and its bound: ``>= low``, or ``> low`` when ``above``."""
    return field(default=default, metadata={"low": low, "above": above})


@dataclass(frozen=True)
class Limits:
    """Resource limits of one bot. Times are seconds, CPU time unless said otherwise.

    ``move_time``: CPU seconds per decision. ``bank``: CPU seconds a bot may exceed
    ``move_time`` by, in total, across one game. ``wall_factor``: the wall-clock watchdog of
    a decision is ``max(move_time * wall_factor, move_time + bank left)`` plus a small
    constant, so a sleeping or blocked bot is caught. ``init_time``: wall seconds to start
    the process and answer ``start``. ``log_bytes``: the bot's own output kept. ``disk_mb`` and
    ``files``: the size and the number of files and folders of its writable folder (a fresh
    tmpfs every game). ``hook_time``: CPU seconds for loading the bot and its
    ``on_game_start``, and again for its ``on_game_end``.

    Each field's bound (:func:`limit_accepts`, :func:`limit_expectation`) is checked here and,
    naming the key, when a tournament file sets it.
    """

    move_time: float = _limit(1.0, 0, above=True)
    wall_factor: float = _limit(3.0, 1)
    bank: float = _limit(2.0, 0)
    memory_mb: int = _limit(1024, 32)
    init_time: float = _limit(10.0, 0, above=True)
    log_bytes: int = _limit(64 * 1024, 0)
    disk_mb: int = _limit(16, 1)
    files: int = _limit(512, 8)
    hook_time: float = _limit(2.0, 0, above=True)

    def __post_init__(self) -> None:
        for name in LIMIT_NAMES:
            value = getattr(self, name)
            if not limit_accepts(name, value):
                raise ConfigError(f"limits: {name} must be {limit_expectation(name)}, not {value!r}")


_LIMIT_FIELDS = {f.name: f for f in fields(Limits)}
LIMIT_NAMES = tuple(_LIMIT_FIELDS)  # in the order of the fields


def limit_kind(name: str) -> type:
    """``int`` for a limit counted in whole units (``memory_mb``, ``files``...), else ``float``."""
    return int if isinstance(_LIMIT_FIELDS[name].default, int) else float


def limit_expectation(name: str) -> str:
    """What limit ``name`` takes, as an error message says it: ``"an integer >= 32"``."""
    meta = _LIMIT_FIELDS[name].metadata
    kind = "an integer" if limit_kind(name) is int else "a number"
    return f"{kind} {'>' if meta['above'] else '>='} {meta['low']:g}"


def limit_accepts(name: str, value: Any) -> bool:
    """True when ``value`` is of limit ``name``'s kind (a finite number) and within its bound."""
    if isinstance(value, bool) or not isinstance(value, int if limit_kind(name) is int else (int, float)):
        return False
    meta = _LIMIT_FIELDS[name].metadata
    return math.isfinite(value) and (value > meta["low"] if meta["above"] else value >= meta["low"])
