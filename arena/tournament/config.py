"""Tournament configuration: load and validate a tournament YAML file.

Example file::

    name: demo
    rules: switch            # a preset name or a rule-set file path (the engine resolves it)
    seats: 4                 # players per table, 2..10
    bots: [random, greedy, bots/my_bot.py, bots/x.py:Cls, {name: cbot, cmd: [./cbot]}]
    format: round-robin      # or gauntlet, with candidates: [...] playing the field (bots)
    rounds: 10               # fresh deals per table
    seatings: rotations      # or permutations
    seed: 2026               # leave it out to have a secret one drawn (and stored) at the first run
    workers: auto            # process count; auto = CPU count
    limits: {move_time: 1.0, memory_mb: 1024}   # also wall_factor, bank, init_time

Only ``bots`` is required; the other keys default as in :class:`TournamentConfig` (``name``
defaults to the file's stem). Every problem raises :class:`arena.errors.ConfigError` with one line
naming the file and the key, e.g. ``demo.yaml: key 'seats': expected an integer 2..10, got 'x'``.

``seed`` stays ``None`` when the file has none: the runner then draws a secret one when the
tournament is first run and keeps it in the results store
(:func:`arena.tournament.setup.settle_seed`). A seed that bot authors know gives away every deal
(:func:`arena.tournament.schedule.deal_seed` is public), so real tournaments leave it out.

Bot entries stay raw (the sandbox layer parses them); each gets a display name: a preset's own
name, a file's stem (``bots/my_bot.py`` -> ``my_bot``), a class after a colon
(``bots/x.py:Cls`` -> ``Cls``), or a mapping's ``name`` (else the stem of its ``cmd[0]``).

:attr:`TournamentConfig.config_hash` is a SHA-256 of a canonical JSON of the validated settings
that can change results (everything but ``workers``; bot order does not matter), used by the store
to refuse mixing results of a changed configuration under the same name.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from arena.settings import load_yaml

from arena.errors import ConfigError

FORMATS = ("round-robin", "gauntlet")
SEATINGS = ("rotations", "permutations")
MIN_SEATS, MAX_SEATS = 2, 10
MAX_ROUNDS = 1_000_000
MAX_SEED = 2**63 - 1        # seeds are 63-bit, as SQLite stores them
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_KEYS = frozenset(
    {"name", "rules", "seats", "bots", "format", "candidates", "rounds", "seatings", "seed",
     "workers", "limits"}
)
_LIMIT_KEYS = frozenset({"move_time", "memory_mb", "wall_factor", "bank", "init_time"})


@dataclass(frozen=True)
class BotEntry:
    """One bot as written in the file (``spec``: a string or a mapping) plus its display name."""

    name: str
    spec: str | Mapping[str, Any] = field(hash=False)


@dataclass(frozen=True)
class Limits:
    """Resource limits for each bot; ``None`` leaves the sandbox layer's default."""

    move_time: float = 1.0
    memory_mb: int = 1024
    wall_factor: float | None = None
    bank: float | None = None
    init_time: float | None = None


@dataclass(frozen=True)
class TournamentConfig:
    """A validated tournament file; build it with :func:`load_config` or :func:`parse_config`."""

    name: str
    bots: tuple[BotEntry, ...]
    rules: str = "switch"
    seats: int = 4
    format: str = "round-robin"
    candidates: tuple[BotEntry, ...] = ()
    rounds: int = 1
    seatings: str = "rotations"
    seed: int | None = None     # None: not in the file, to be drawn at random when first run
    workers: int | None = None
    limits: Limits = Limits()

    @property
    def bot_names(self) -> tuple[str, ...]:
        """Display names of every bot that plays: the field, then any gauntlet candidates."""
        return tuple(entry.name for entry in self.bots + self.candidates)

    @property
    def worker_count(self) -> int:
        """The number of worker processes: ``workers``, or the CPU count for ``auto``."""
        return self.workers if self.workers is not None else (os.cpu_count() or 1)

    def canonical(self) -> dict[str, Any]:
        """The settings that can change results, as plain JSON data with a fixed layout."""
        return {
            "name": self.name,
            "rules": self.rules,
            "seats": self.seats,
            "bots": _canonical_entries(self.bots),
            "format": self.format,
            "candidates": _canonical_entries(self.candidates),
            "rounds": self.rounds,
            "seatings": self.seatings,
            "seed": self.seed,
            "limits": vars(self.limits),
        }

    @property
    def config_hash(self) -> str:
        """SHA-256 (hex) of the canonical JSON of :meth:`canonical`."""
        text = json.dumps(self.canonical(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load_config(path: str | Path) -> TournamentConfig:
    """Read and validate a tournament YAML file; raises :class:`ConfigError` naming file and key."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{source}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{source}: not UTF-8 text: {exc.reason}") from exc
    return parse_config(text, source=source, default_name=Path(path).stem)


def parse_config(text: str, source: str = "<config>", default_name: str | None = None) -> TournamentConfig:
    """Validate tournament YAML ``text``; ``source`` names it in error messages.

    ``default_name`` is used when the text has no ``name`` key (else ``name`` is required).
    """
    data = load_yaml(text, source, ConfigError)
    return config_from_mapping(data, source, default_name)


def config_from_mapping(
    data: Any, source: str = "<config>", default_name: str | None = None
) -> TournamentConfig:
    """Validate already-parsed YAML data (a mapping) into a :class:`TournamentConfig`."""
    check = _Checker(source)
    if not isinstance(data, Mapping):
        raise ConfigError(f"{source}: expected a mapping of keys at the top, got {_show(data)}")
    check.no_unknown(data, _KEYS, "")
    if "bots" not in data:
        raise ConfigError(f"{source}: key 'bots': required, a list of bots")
    fmt = check.choice(data, "format", FORMATS, "round-robin")
    config = TournamentConfig(
        name=check.name(data, default_name),
        rules=check.text(data, "rules", "switch"),
        seats=check.integer(data, "seats", MIN_SEATS, MAX_SEATS, 4),
        bots=check.entries(data, "bots"),
        format=fmt,
        candidates=check.entries(data, "candidates") if "candidates" in data else (),
        rounds=check.integer(data, "rounds", 1, MAX_ROUNDS, 1),
        seatings=check.choice(data, "seatings", SEATINGS, "rotations"),
        seed=check.integer(data, "seed", 0, MAX_SEED, 0) if "seed" in data else None,
        workers=check.workers(data),
        limits=check.limits(data),
    )
    _check_pool(config, source)
    return config


def display_name(spec: Any) -> str:
    """The display name of a raw bot entry (see the module docstring); ``""`` if none derives."""
    if isinstance(spec, str):
        return _name_from_text(spec)
    if isinstance(spec, Mapping):
        if isinstance(spec.get("name"), str):
            return spec["name"].strip()
        cmd = spec.get("cmd")
        if isinstance(cmd, list) and cmd and isinstance(cmd[0], str):
            return PurePosixPath(cmd[0]).stem
        if isinstance(cmd, str):
            return PurePosixPath(cmd.split()[0]).stem if cmd.split() else ""
    return ""


def _name_from_text(spec: str) -> str:
    spec = spec.strip()
    path, _, cls = spec.partition(":")
    if cls and (path.endswith(".py") or "/" in path):
        return cls.strip()
    if spec.endswith(".py") or "/" in spec:
        return PurePosixPath(spec).stem
    return spec


def _canonical_entries(entries: tuple[BotEntry, ...]) -> list[dict[str, Any]]:
    ordered = sorted(entries, key=lambda entry: entry.name)
    return [{"name": entry.name, "spec": _plain(entry.spec)} for entry in ordered]


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _check_pool(config: TournamentConfig, source: str) -> None:
    names = config.bot_names
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        key = "candidates" if config.candidates else "bots"
        raise ConfigError(
            f"{source}: key '{key}': duplicate bot name {dupes[0]!r}; "
            "give one of them another name with the mapping form {name: ..., ...}"
        )
    if config.format == "gauntlet":
        _check_gauntlet(config, source)
    elif config.candidates:
        raise ConfigError(f"{source}: key 'candidates': only used with format 'gauntlet'")
    elif config.seats > len(config.bots):
        raise ConfigError(
            f"{source}: key 'seats': {config.seats} seats need at least {config.seats} bots "
            f"for a round-robin, got {len(config.bots)}"
        )


def _check_gauntlet(config: TournamentConfig, source: str) -> None:
    if not config.candidates:
        raise ConfigError(f"{source}: key 'candidates': format 'gauntlet' needs at least one candidate")
    if config.seats - 1 > len(config.bots):
        raise ConfigError(
            f"{source}: key 'seats': {config.seats} seats need at least {config.seats - 1} "
            f"field bots in a gauntlet, got {len(config.bots)}"
        )


class _Checker:
    """Reads one key at a time, raising ConfigError that names the source and the key."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, message: str) -> ConfigError:
        return ConfigError(f"{self.source}: key '{key}': {message}")

    def no_unknown(self, data: Mapping[Any, Any], known: frozenset[str], prefix: str) -> None:
        for key in data:
            if key not in known:
                allowed = ", ".join(sorted(known))
                raise self.fail(f"{prefix}{key}", f"unknown key (allowed: {allowed})")

    def name(self, data: Mapping[str, Any], default: str | None) -> str:
        value = data.get("name", default)
        if value is None:
            raise self.fail("name", "required, the tournament's name")
        if not isinstance(value, str) or not _NAME_RE.match(value):
            raise self.fail(
                "name", f"expected a name of letters, digits, '_', '.', '-', got {_show(value)}"
            )
        return value

    def text(self, data: Mapping[str, Any], key: str, default: str) -> str:
        value = data.get(key, default)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"expected a non-empty string, got {_show(value)}")
        return value.strip()

    def choice(self, data: Mapping[str, Any], key: str, options: tuple[str, ...], default: str) -> str:
        value = data.get(key, default)
        if value not in options:
            raise self.fail(key, f"expected one of {', '.join(options)}, got {_show(value)}")
        return str(value)

    def integer(self, data: Mapping[str, Any], key: str, lo: int, hi: int, default: int) -> int:
        value = data.get(key, default)
        if not _is_int(value) or not lo <= value <= hi:
            raise self.fail(key, f"expected an integer {lo}..{hi}, got {_show(value)}")
        return int(value)

    def workers(self, data: Mapping[str, Any]) -> int | None:
        value = data.get("workers", "auto")
        if value == "auto":
            return None
        if not _is_int(value) or not 1 <= value <= 1024:
            raise self.fail("workers", f"expected 'auto' or an integer 1..1024, got {_show(value)}")
        return int(value)

    def entries(self, data: Mapping[str, Any], key: str) -> tuple[BotEntry, ...]:
        value = data[key]
        if not isinstance(value, list) or not value:
            raise self.fail(key, f"expected a non-empty list of bots, got {_show(value)}")
        return tuple(self.entry(f"{key}[{i}]", spec) for i, spec in enumerate(value))

    def entry(self, key: str, spec: Any) -> BotEntry:
        if isinstance(spec, Mapping):
            if not all(isinstance(k, str) for k in spec):
                raise self.fail(key, "a bot mapping's keys must be strings")
            if "name" in spec and (not isinstance(spec["name"], str) or not spec["name"].strip()):
                raise self.fail(f"{key}.name", f"expected a non-empty string, got {_show(spec['name'])}")
            spec = dict(spec)
        elif not isinstance(spec, str) or not spec.strip():
            raise self.fail(key, f"expected a bot name, file or mapping, got {_show(spec)}")
        name = display_name(spec)
        if not name or not name.isprintable():
            raise self.fail(key, f"cannot derive a bot name from {_show(spec)}; add 'name'")
        return BotEntry(name=name, spec=spec.strip() if isinstance(spec, str) else spec)

    def limits(self, data: Mapping[str, Any]) -> Limits:
        value = data.get("limits", {})
        if not isinstance(value, Mapping):
            raise self.fail("limits", f"expected a mapping, got {_show(value)}")
        self.no_unknown(value, _LIMIT_KEYS, "limits.")
        base = Limits()
        return Limits(
            move_time=self.positive(value, "move_time", base.move_time),
            memory_mb=int(self.positive(value, "memory_mb", base.memory_mb, integer=True)),
            wall_factor=self.optional_positive(value, "wall_factor"),
            bank=self.optional_positive(value, "bank", allow_zero=True),
            init_time=self.optional_positive(value, "init_time"),
        )

    def positive(
        self, data: Mapping[str, Any], key: str, default: float, integer: bool = False
    ) -> float:
        value = data.get(key, default)
        ok = _is_int(value) if integer else _is_number(value)
        if not ok or value <= 0:
            kind = "a positive integer" if integer else "a positive number"
            raise self.fail(f"limits.{key}", f"expected {kind}, got {_show(value)}")
        return value if integer else float(value)

    def optional_positive(
        self, data: Mapping[str, Any], key: str, allow_zero: bool = False
    ) -> float | None:
        if key not in data:
            return None
        value = data[key]
        if not _is_number(value) or value < 0 or (value == 0 and not allow_zero):
            kind = "a number >= 0" if allow_zero else "a positive number"
            raise self.fail(f"limits.{key}", f"expected {kind}, got {_show(value)}")
        return float(value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value


def _show(value: Any) -> str:
    if value is None:
        return "nothing"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


