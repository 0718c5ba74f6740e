"""What travels to a cluster worker with a run's games: the bots' files, the rules, the limits.

A worker of a Dask cluster shares no folder with the parent, so the run sends it everything a
local worker process would read from disk (:class:`Shipment`): the bytes of every file its bots
are made of (the run's snapshots, each named by its SHA-256: :mod:`arena.sandbox.snapshot`),
the rule set's settings, the limits and the bots' specs. The worker checks all of it before its
first game (:func:`unpack`), and refuses the run with one line rather than play a different game:

* every file must hash to the SHA-256 it is named by (the version the store records);
* the rule settings must hash to the digest the parent computed;
* the worker must run the same arena code on the same Python as the parent
  (:func:`code_identity`): another engine deals and scores other games from the same seeds.

The files are written under the worker's own folder as ``<sha256>/<name>``, where the bots'
templates open them (root-only: the referee passes the bot its file, the bot never sees it).
"""

from __future__ import annotations

import json
import os
import re
import sys
import uuid
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

import arena
from arena.digest import sha256_hex
from arena.errors import ArenaError
from arena.sandbox import BotSpec, Limits

_DIGEST = re.compile(r"[0-9a-f]{64}")


class ShipmentError(ArenaError):
    """What a cluster worker received is not what the run plays (the message says which part)."""


@dataclass(frozen=True)
class Shipment:
    """Everything a cluster worker needs to play a run's games (see the module doc).

    ``specs`` name each file of a bot by its key in ``files``: ``"<sha256>/<file name>"``.
    ``run`` is unique to one run: the worker keeps the bots it started for it under that name.
    """

    run: str
    code: str
    rules_settings: dict[str, Any]
    rules_digest: str
    specs: dict[str, BotSpec]
    files: dict[str, bytes]
    executable: frozenset[str]
    bot_order: tuple[str, ...]
    limits: Limits
    trusted: bool


def pack(specs: dict[str, BotSpec], rules_settings: dict[str, Any], bot_order: tuple[str, ...],
         limits: Limits, trusted: bool) -> Shipment:
    """The shipment of a run whose bots run from their snapshots (``specs``, as the runner has
    them after :func:`~arena.tournament.setup.snapshot_bots`)."""
    files: dict[str, bytes] = {}
    shipped = {name: _ship_spec(spec, files) for name, spec in specs.items()}
    executable = frozenset(key for name, spec in specs.items()
                           for key, path in zip(_files_of(shipped[name]), _paths_of(spec))
                           if os.access(path, os.X_OK))
    return Shipment(run=uuid.uuid4().hex, code=code_identity(), rules_settings=rules_settings,
                    rules_digest=rules_digest(rules_settings), specs=shipped, files=files,
                    executable=executable, bot_order=bot_order, limits=limits, trusted=trusted)


def unpack(shipment: Shipment, folder: Path) -> dict[str, BotSpec]:
    """Check ``shipment`` (the module doc's list) and write its files under ``folder``; the bots'
    specs naming those copies. Raises :class:`ShipmentError` naming what does not match."""
    mine = code_identity()
    if shipment.code != mine:
        raise ShipmentError(
            f"this worker runs other arena code or another Python (code {mine[:12]}, the run's "
            f"{shipment.code[:12]}): install the parent's arena version and Python on every worker")
    if rules_digest(shipment.rules_settings) != shipment.rules_digest:
        raise ShipmentError("the rule set arrived changed (its settings do not hash to the run's "
                            f"{shipment.rules_digest[:12]}): not played")
    owners = {key: name for name, spec in shipment.specs.items() for key in _files_of(spec)}
    for key, data in shipment.files.items():
        actual = sha256_hex(data)
        if actual != PurePosixPath(key).parent.name:
            raise ShipmentError(
                f"bot {owners.get(key, '?')!r}: its file {PurePosixPath(key).name} arrived with "
                f"SHA-256 {actual[:12]}, not {key[:12]}: not played")
        _write(folder / key, data, key in shipment.executable)
    missing = sorted(key for key in owners if key not in shipment.files)
    if missing:
        raise ShipmentError(f"bot {owners[missing[0]]!r}: its file {missing[0]} was not sent")
    return {name: _local_spec(spec, folder, shipment.files) for name, spec in shipment.specs.items()}


# the package's folders that are data, not the code that plays (code_identity)
_NOT_CODE = ("builtin_bots", "builtin_tournaments")


@lru_cache(maxsize=1)
def code_identity() -> str:
    """The SHA-256 of this process's arena package (every ``.py`` file, by its path in the
    package) and of its Python's major.minor version: what plays the games.

    The built-in bots and tournaments are left out: an installed package holds them
    (``arena/builtin_bots/``), a clone keeps them beside it (``bots/``), and a bot is identified
    by its own file's hash anyway. So a clone and a wheel of the same commit agree."""
    root = Path(arena.__file__).resolve().parent
    parts = [f"python {sys.version_info[0]}.{sys.version_info[1]}"]
    for path in sorted(root.rglob("*.py")):
        if path.relative_to(root).parts[0] in _NOT_CODE:
            continue
        parts.append(f"{path.relative_to(root).as_posix()} {sha256_hex(path.read_bytes())}")
    return sha256_hex("\n".join(parts))


def rules_digest(settings: dict[str, Any]) -> str:
    """The SHA-256 of a rule set's settings (canonical JSON)."""
    return sha256_hex(json.dumps(settings, sort_keys=True, separators=(",", ":")))


def _ship_spec(spec: BotSpec, files: dict[str, bytes]) -> BotSpec:
    """``spec`` with each of its snapshot files replaced by its key, the bytes put in ``files``."""
    if spec.path is not None:
        return replace(spec, path=Path(_ship_file(spec.name, spec.path, files)))
    assert spec.command is not None
    return replace(spec, command=tuple(_ship_file(spec.name, Path(arg), files) if _is_snapshot(arg)
                                       else arg for arg in spec.command))


def _ship_file(bot: str, path: Path, files: dict[str, bytes]) -> str:
    """Read one snapshot file into ``files``; its key. A snapshot whose bytes no longer hash to
    its folder's name was changed since the run took it: refused here, before any game."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ShipmentError(f"bot {bot!r}: cannot read its snapshot {path}: {exc.strerror or exc}") from None
    if not _DIGEST.fullmatch(path.parent.name) or sha256_hex(data) != path.parent.name:
        raise ShipmentError(f"bot {bot!r}: {path} is not an unchanged snapshot (its folder is not "
                            "named by its SHA-256)")
    key = f"{path.parent.name}/{path.name}"
    files[key] = data
    return key


def _is_snapshot(arg: str) -> bool:
    """A command argument naming a snapshot copy (a file in a folder named by a SHA-256); the
    others (system programs, flags) travel as written."""
    return bool(_DIGEST.fullmatch(Path(arg).parent.name)) and os.path.isfile(arg)


def _files_of(spec: BotSpec) -> list[str]:
    """The keys of the files a shipped spec names."""
    if spec.path is not None:
        return [spec.path.as_posix()]
    assert spec.command is not None
    return [arg for arg in spec.command if _DIGEST.fullmatch(PurePosixPath(arg).parent.name)]


def _paths_of(spec: BotSpec) -> list[Path]:
    """The snapshot files a runner's spec names, in the order :func:`_files_of` lists their keys."""
    if spec.path is not None:
        return [spec.path]
    assert spec.command is not None
    return [Path(arg) for arg in spec.command if _is_snapshot(arg)]


def _local_spec(spec: BotSpec, folder: Path, files: dict[str, bytes]) -> BotSpec:
    """A shipped spec naming the copies written under ``folder``."""
    if spec.path is not None:
        return replace(spec, path=folder / spec.path.as_posix())
    assert spec.command is not None
    return replace(spec, command=tuple(str(folder / arg) if arg in files else arg
                                       for arg in spec.command))


def _write(target: Path, data: bytes, executable: bool) -> None:
    """Write one file with its snapshot's mode (the worker's folder is its own: 0700)."""
    try:
        target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        target.write_bytes(data)
        target.chmod(0o755 if executable else 0o644)
    except OSError as exc:
        raise ShipmentError(f"{target}: cannot write a bot's file on this worker: "
                            f"{exc.strerror or exc}") from None
