"""Tournament configuration: load and validate a tournament YAML file.

Example file::

    name: demo
    rules: switch            # a preset name or a rule-set file path (the engine resolves it)
    seats: 4                 # players per table, 2..10
    bots: [random, greedy, bots/my_bot.py, bots/x.py:Cls, {name: cbot, cmd: [./cbot]},
           {name: eps-30, bot: bots/examples/epsilon.py, options: {epsilon: 0.3}}]
    format: round-robin      # or gauntlet, with candidates: [...] playing the field (bots),
                             # or swiss: rounds of tables of neighbours, drawn from the ratings
    rounds: 10               # fresh deals per table (not with swiss: it plays until 'until')
    until: {margin: 1.5, games: 4000}   # stop once the ranking is separated, or at the budget
    seatings: rotations      # or permutations
    seed: 2026               # leave it out to have a secret one drawn (and stored) at the first run
    workers: auto            # process count; auto = CPU count
    backend: local           # or dask, with cluster: tcp://HOST:PORT (or local:N): docs/cluster.md
    limits: {move_time: 1.0, memory_mb: 1024}   # any field of arena.sandbox.Limits
    max_faults: {in_a_row: 3, total: null}      # when faults disqualify a bot (null: never)

Only ``bots`` is required; the other keys default as in :class:`TournamentConfig` (``name``
defaults to the file's stem). ``limits`` may set every field of the sandbox's
:class:`~arena.sandbox.spec.Limits` (``move_time``, ``wall_factor``, ``bank``, ``memory_mb``,
``init_time``, ``log_bytes``, ``disk_mb``, ``files``, ``hook_time``), each checked against the
bound the sandbox sets; the others keep the sandbox's defaults. ``max_faults`` is the
disqualification rule (:class:`~arena.tournament.discipline.FaultLimit`): ``in_a_row`` faulty
games of a bot in a row (default 3) or ``total`` faulty games in all (default none), each an
integer >= 1 or null for no such limit. ``until`` makes a tournament adaptive
(:class:`Until`, :mod:`arena.tournament.adaptive`): ``margin`` (a number > 0, default
:data:`~arena.tournament.separation.DEFAULT_MARGIN`) is the gap, in sigmas, every neighbouring
pair of the ranking must reach for it to stop, ``games`` (an integer >= 1, or null for none) the
most games it may play, in whole rounds, so at least one round's games. ``format: swiss`` needs
``until.games`` (it has no other end) and takes no ``rounds``. ``backend: dask`` plays the games
on the Dask cluster that ``cluster`` names (:mod:`arena.tournament.address`); like ``workers``,
neither changes which games are played nor their results, so neither is part of the config
hash. Every problem raises
:class:`arena.errors.ConfigError` with one line naming the file and the key, e.g.
``demo.yaml: key 'seats': expected an integer 2..10, got 'x'``.

``seed`` stays ``None`` when the file has none: the runner then draws a secret one when the
tournament is first run and keeps it in the results store
(:func:`arena.tournament.setup.settle_seed`). A seed that bot authors know gives away every deal
(:func:`arena.tournament.schedule.deal_seed` is public), so real tournaments leave it out.

Bot entries stay raw (the sandbox layer parses them); each gets a display name: a preset's own
name, a file's stem (``bots/my_bot.py`` -> ``my_bot``), a class after a colon
(``bots/x.py:Cls`` -> ``Cls``), or a mapping's ``name`` (else the name its ``bot`` derives, else
the stem of its ``cmd[0]``). A mapping's ``options`` (option name -> a number, true/false or
a text) are checked here for their shape, and against what the bot declares when the bot is
resolved (:mod:`arena.sandbox.options`); they are part of the entry, so of the config hash, and
an entry without them hashes as it always did.

:attr:`TournamentConfig.config_hash` is a SHA-256 of a canonical JSON of the validated settings
that can change results (everything but ``workers``; bot order does not matter), used by the store
to refuse mixing results of a changed configuration under the same name. It is the same for a
file as it was before tournament files could set every limit (see ``_limits_identity``) or the
disqualification rule (``max_faults`` joins it only when it differs from the default; ``until``
only when written), so a stored tournament still resumes.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

from arena.digest import sha256_hex
from arena.engine.rules import load_rules, preset_names
from arena.errors import ConfigError, RulesError
from arena.sandbox.spec import (CMD_PREFIX, DEFAULT_CLASS, LIMIT_NAMES, Limits, limit_accepts,
                                limit_expectation, limit_kind, split_class)
from arena.settings import REQUIRED, Keys, load_yaml, read_text, refuse_other_kind, show
from arena.tournament.address import EXPECTED, parse_cluster
from arena.tournament.discipline import FaultLimit
from arena.tournament.separation import DEFAULT_MARGIN
from arena.tournament.swiss import table_count

SWISS = "swiss"
FORMATS = ("round-robin", "gauntlet", SWISS)
SEATINGS = ("rotations", "permutations")
MIN_SEATS, MAX_SEATS = 2, 10
MAX_ROUNDS = 1_000_000
MAX_SEED = 2**63 - 1        # seeds are 63-bit, as SQLite stores them
MAX_MARGIN = 10.0           # sigmas: a gap beyond this is never measured in a tournament's life
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_KEYS = ("name", "rules", "seats", "bots", "format", "candidates", "rounds", "seatings", "seed",
         "workers", "limits", "max_faults", "until")
_BACKEND_KEYS = ("backend", "cluster")   # where the games are played, never what they are
BACKENDS = ("local", "dask")
_FAULT_KEYS = ("in_a_row", "total")
_UNTIL_KEYS = ("margin", "games")
# The identity of the limits as stores have always recorded it (tournament files could set only
# these five): move_time and memory_mb always, the other three as null unless set. A limit
# added since joins the identity only when set, so every older store still resumes.
_ALWAYS_IDENTIFIED = ("move_time", "memory_mb")
_NULL_WHEN_UNSET = ("wall_factor", "bank", "init_time")

_Keys = Keys[ConfigError]


@dataclass(frozen=True)
class BotEntry:
    """One bot as written in the file (``spec``: a string or a mapping) plus its display name."""

    name: str
    spec: str | Mapping[str, Any] = field(hash=False)

    @property
    def class_named(self) -> str | None:
        """The class the entry names for a Python file (``two.py:First``, ``{path: two.py,
        class: First}``, ``{bot: two.py:First}``), ``Bot`` for a file that names none, and
        None for a command or a bot named by name (its class is the registry's)."""
        spec = self.spec
        if isinstance(spec, Mapping):
            if "class" in spec:
                return str(spec["class"])
            spec = spec.get("path", spec.get("bot"))
        if not isinstance(spec, str) or spec.strip().startswith(CMD_PREFIX):
            return None
        file_part, named = split_class(spec.strip())
        return named or (DEFAULT_CLASS if file_part.endswith(".py") else None)


@dataclass(frozen=True)
class Until:
    """When an adaptive tournament stops, judged after each round: once every neighbouring pair
    of its ranking is ``margin`` sigmas apart (:func:`~arena.tournament.separation.separation`),
    or before a round would take it past ``games`` (``None``: no budget but the schedule's)."""

    margin: float = DEFAULT_MARGIN
    games: int | None = None


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
    backend: str = "local"      # or "dask": the games are played on ``cluster``
    cluster: str | None = None  # the Dask cluster's address (arena.tournament.address)
    limits: Limits = Limits()   # the sandbox's limits of each bot, defaults where not written
    limits_written: frozenset[str] = frozenset()  # the ``limits`` keys the file writes
    max_faults: FaultLimit = FaultLimit()   # when faults disqualify a bot
    until: Until | None = None  # None: the whole schedule is played (not with swiss)

    @property
    def adaptive(self) -> bool:
        """True when the tournament is played a round at a time until ``until`` stops it."""
        return self.until is not None

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
        settings = {
            "name": self.name,
            "rules": self.rules,
            "seats": self.seats,
            "bots": _canonical_entries(self.bots),
            "format": self.format,
            "candidates": _canonical_entries(self.candidates),
            "rounds": self.rounds,
            "seatings": self.seatings,
            "seed": self.seed,
            "limits": self._limits_identity(),
        }
        if self.max_faults != FaultLimit():  # the default rule is the one stores always had
            settings["max_faults"] = {"in_a_row": self.max_faults.in_a_row,
                                      "total": self.max_faults.total}
        if self.until is not None:  # new with adaptive tournaments: absent, as before them
            settings["until"] = {"margin": self.until.margin, "games": self.until.games}
        return settings

    @property
    def config_hash(self) -> str:
        """SHA-256 (hex) of the canonical JSON of :meth:`canonical`."""
        return sha256_hex(json.dumps(self.canonical(), sort_keys=True, separators=(",", ":")))

    def _limits_identity(self) -> dict[str, Any]:
        """The limits in :meth:`canonical`: a limit counts as set when written or not the default."""
        default = Limits()
        identity: dict[str, Any] = {}
        for name in LIMIT_NAMES:
            value = getattr(self.limits, name)
            if name in _ALWAYS_IDENTIFIED or name in self.limits_written or value != getattr(default, name):
                identity[name] = value
            elif name in _NULL_WHEN_UNSET:
                identity[name] = None
        return identity


def load_config(path: str | Path) -> TournamentConfig:
    """Read and validate a tournament YAML file; raises :class:`ConfigError` naming file and key."""
    text = read_text(Path(path), "tournament file", ConfigError)
    return parse_config(text, source=str(path), default_name=Path(path).stem)


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
    refuse_other_kind(data, source, "tournament", ConfigError)
    keys = Keys(data, source, ConfigError, allowed=_KEYS + _BACKEND_KEYS)
    config = TournamentConfig(
        name=_name(keys, default_name),
        rules=keys.take("rules", str, "switch", lambda v: bool(v.strip()), "a non-empty string").strip(),
        seats=_integer(keys, "seats", MIN_SEATS, MAX_SEATS, 4),
        bots=_entries(keys, "bots"),
        format=keys.choice("format", FORMATS, "round-robin"),
        candidates=_entries(keys, "candidates") if keys.has("candidates") else (),
        rounds=_integer(keys, "rounds", 1, MAX_ROUNDS, 1),
        seatings=keys.choice("seatings", SEATINGS, "rotations"),
        seed=_integer(keys, "seed", 0, MAX_SEED, REQUIRED) if keys.has("seed") else None,
        workers=_workers(keys),
        **_backend(keys),
        **_limits(keys.sub("limits", allowed=LIMIT_NAMES)),
        max_faults=_max_faults(keys.sub("max_faults", allowed=_FAULT_KEYS)),
        until=_until(keys),
    )
    _check_preset_seats(config, source)
    _check_pool(config, source)
    _check_rounds(config, keys)
    return config


def display_name(spec: Any) -> str:
    """The display name of a raw bot entry (see the module docstring); ``""`` if none derives."""
    if isinstance(spec, str):
        return _name_from_text(spec)
    if isinstance(spec, Mapping):
        name = spec.get("name")
        if isinstance(name, str):
            return name.strip()
        if isinstance(spec.get("bot"), str):
            return _name_from_text(spec["bot"])
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


def _check_preset_seats(config: TournamentConfig, source: str) -> None:
    """A preset's seat range, checked before the bots are counted: more seats than the rules
    allow is the mistake to name first (a rule-set file is checked once it is loaded,
    :func:`arena.tournament.setup.make_plan`)."""
    if config.rules not in preset_names():
        return
    try:
        load_rules(config.rules).check_seats(config.seats)
    except RulesError as error:
        raise ConfigError(f"{source}: key 'seats': {error}") from None


def _check_pool(config: TournamentConfig, source: str) -> None:
    if config.candidates and config.format != "gauntlet":
        raise ConfigError(f"{source}: key 'candidates': only used with format 'gauntlet'")
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
    elif config.seats > len(config.bots):
        raise ConfigError(
            f"{source}: key 'seats': {config.seats} seats need at least {config.seats} bots "
            f"for a {'swiss' if config.format == SWISS else 'round-robin'}, got {len(config.bots)}"
        )


def _check_rounds(config: TournamentConfig, keys: _Keys) -> None:
    """A swiss tournament plays until ``until`` says stop: it needs a budget and takes no
    ``rounds``; every budget holds at least one round."""
    if config.format == SWISS:
        if keys.has("rounds"):
            raise keys.fail("rounds", "not used with format 'swiss', which plays rounds until "
                                      "'until' stops it (set until.games, its budget)")
        if config.until is None or config.until.games is None:
            raise keys.fail("until.games" if config.until else "until",
                            "required with format 'swiss': the most games it may play, "
                            "e.g. until: {margin: 1.5, games: 4000}")
    if config.until is not None and config.until.games is not None:
        per_round = _round_games(config)
        if config.until.games < per_round:
            raise keys.fail("until.games", f"{config.until.games} is less than one round, "
                                           f"which plays {per_round} games")


def _round_games(config: TournamentConfig) -> int:
    """The games of one round of a validated file: its tables times each deal's seatings
    (round-robin: every ``seats`` of the bots; gauntlet: each candidate with every
    ``seats - 1`` of the field; swiss: :func:`arena.tournament.swiss.table_count` tables)."""
    seats, bots = config.seats, len(config.bots)
    replays = math.factorial(seats) if config.seatings == "permutations" else seats
    if config.format == SWISS:
        return table_count(bots, seats) * replays
    if config.format == "gauntlet":
        return len(config.candidates) * math.comb(bots, seats - 1) * replays
    return math.comb(bots, seats) * replays


def _check_gauntlet(config: TournamentConfig, source: str) -> None:
    if not config.candidates:
        raise ConfigError(f"{source}: key 'candidates': format 'gauntlet' needs at least one candidate")
    if config.seats - 1 > len(config.bots):
        raise ConfigError(
            f"{source}: key 'seats': {config.seats} seats need at least {config.seats - 1} "
            f"field bots in a gauntlet, got {len(config.bots)}"
        )


def _name(keys: _Keys, default: str | None) -> str:
    name: str | None = keys.take("name", str, default, lambda v: bool(_NAME_RE.match(v)),
                                 "a name of letters, digits, '_', '.', '-'")
    if name is None:
        raise keys.fail("name", "required, the tournament's name")
    return name


def _integer(keys: _Keys, key: str, lo: int, hi: int, default: int | None) -> Any:
    return keys.take(key, int, default, lambda v: lo <= v <= hi, f"an integer {lo}..{hi}")


def _workers(keys: _Keys) -> int | None:
    value = keys.take("workers", (str, int), "auto", lambda v: v == "auto" or _is_int(v) and 1 <= v <= 1024,
                      "'auto' or an integer 1..1024")
    return None if value == "auto" else int(value)


def _backend(keys: _Keys) -> dict[str, Any]:
    """``backend`` and ``cluster``: a Dask cluster's address, which only ``backend: dask`` uses."""
    backend = keys.choice("backend", BACKENDS, "local")
    cluster = keys.take("cluster", str, None, lambda v: bool(v.strip()), f"an address: {EXPECTED}")
    if backend == "dask" and cluster is None:
        raise keys.fail("cluster", f"required with backend 'dask': {EXPECTED}")
    if backend != "dask" and cluster is not None:
        raise keys.fail("cluster", "only used with backend 'dask'")
    if cluster is not None:
        try:
            parse_cluster(cluster)
        except ConfigError as error:
            raise keys.fail("cluster", str(error)) from None
    return {"backend": backend, "cluster": cluster}


def _entries(keys: _Keys, key: str) -> tuple[BotEntry, ...]:
    value = keys.take(key, list, check=bool, expect="a non-empty list of bots")
    return tuple(_entry(keys, f"{key}[{i}]", spec) for i, spec in enumerate(value))


def _entry(keys: _Keys, key: str, spec: Any) -> BotEntry:
    if isinstance(spec, Mapping):
        if not all(isinstance(k, str) for k in spec):
            raise keys.fail(key, "a bot mapping's keys must be strings")
        if "name" in spec and (not isinstance(spec["name"], str) or not spec["name"].strip()):
            raise keys.fail(f"{key}.name", f"expected a non-empty string, got {show(spec['name'])}")
        if "options" in spec:
            _check_options(keys, f"{key}.options", spec["options"])
        spec = dict(spec)
    elif not isinstance(spec, str) or not spec.strip():
        raise keys.fail(key, f"expected a bot name, file or mapping, got {show(spec)}")
    name = display_name(spec)
    if not name or not name.isprintable():
        raise keys.fail(key, f"cannot derive a bot name from {show(spec)}; add 'name'")
    return BotEntry(name=name, spec=spec.strip() if isinstance(spec, str) else spec)


def _check_options(keys: _Keys, key: str, options: Any) -> None:
    """An entry's ``options``: a mapping of names to numbers, true/false or texts."""
    if not isinstance(options, Mapping):
        raise keys.fail(key, f"expected a mapping of option names to values, got {show(options)}")
    for name, value in options.items():
        if not isinstance(name, str) or not isinstance(value, (bool, int, float, str)):
            raise keys.fail(f"{key}.{name}", f"expected a number, true/false or a text, got {show(value)}")


def _limits(keys: _Keys) -> dict[str, Any]:
    """``limits``: the sandbox's :class:`Limits` with what the file writes; ``limits_written``."""
    default = Limits()
    values = {name: keys.take(name, limit_kind(name), getattr(default, name),
                              partial(limit_accepts, name), limit_expectation(name))
              for name in LIMIT_NAMES}
    return {"limits": Limits(**values),
            "limits_written": frozenset(name for name in LIMIT_NAMES if keys.has(name))}


def _max_faults(keys: _Keys) -> FaultLimit:
    """``max_faults``: each limit an integer >= 1, or null for none (absent: the default)."""
    default = FaultLimit()
    values = {name: keys.take(name, (int, type(None)), getattr(default, name),
                              lambda v: v is None or v >= 1, "an integer >= 1, or null for no limit")
              for name in _FAULT_KEYS}
    return FaultLimit(**values)


def _until(keys: _Keys) -> Until | None:
    """``until``: a margin in sigmas (> 0) and a budget of games (>= 1, or null for none)."""
    if not keys.has("until"):
        return None
    until = keys.sub("until", allowed=_UNTIL_KEYS)
    return Until(
        margin=until.take("margin", float, DEFAULT_MARGIN, lambda v: 0 < v <= MAX_MARGIN,
                          f"a number of sigmas above 0, at most {MAX_MARGIN:g}"),
        games=until.take("games", (int, type(None)), None, lambda v: v is None or v >= 1,
                         "an integer >= 1, or null for no budget"),
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
