"""What is hashed is what runs: bot files copied once into a content-addressed folder.

A run (a tournament, a duel, a validation) snapshots every bot before its first game: each
file the bot is made of is read once, hashed, and written to ``FOLDER/<sha256>/<name>``; the
bot's spec then names the copy. Every template of the run starts from those bytes, so editing
or replacing a bot's file during the run changes nothing, and the hash a store records is the
hash of the code that played.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

from arena.digest import sha256_hex
from arena.errors import ArenaError
from arena.sandbox.runtime import is_system_program
from arena.sandbox.spec import BotSpec


class SnapshotError(ArenaError):
    """A bot file could not be read or its copy written (the message names the file)."""


def snapshot(spec: BotSpec, folder: Path) -> tuple[BotSpec, str]:
    """``spec`` naming copies under ``folder``, and its version (the SHA-256 of what runs).

    A bot's options are part of what runs: a bot with options is versioned by its files' hash
    and its options together, so one file under two settings is two versions, and a bot
    without options keeps the version it always had. (The class a file is played as is not
    hashed, so that every stored version stays what it was: a tournament entry that names
    another class is refused by :func:`arena.tournament.growth.setting_changes`.)
    """
    copied, version = _snapshot_files(spec, folder)
    if spec.options:
        version = sha256_hex(json.dumps([version, [list(pair) for pair in spec.options]]))
    return copied, version


def _snapshot_files(spec: BotSpec, folder: Path) -> tuple[BotSpec, str]:
    """``spec`` naming copies under ``folder``, and the hash of its files (and command)."""
    if spec.path is not None:
        copy, digest = _copy(spec.path, folder)
        return replace(spec, path=copy), digest
    assert spec.command is not None
    argv, digests = [], []
    for arg in spec.command:
        if _is_bot_file(arg):
            copy, digest = _copy(Path(arg), folder)
            argv.append(str(copy))
            digests.append(digest)
        else:
            argv.append(arg)
    version = sha256_hex(json.dumps([list(spec.command), digests]))
    return replace(spec, command=tuple(argv)), version


def _is_bot_file(arg: str) -> bool:
    """A command argument naming a file of the bot's (not a system program such as python3,
    nor the referee's own interpreter, which the template maps to its Python)."""
    return os.path.isfile(arg) and not is_system_program(arg)


def _copy(source: Path, folder: Path) -> tuple[Path, str]:
    """Copy ``source`` once to ``folder/<sha256>/<its name>``; the copy's path and hash."""
    try:
        data = source.read_bytes()
    except OSError as exc:
        raise SnapshotError(f"{source}: cannot read the bot file: {exc.strerror or exc}") from None
    digest = sha256_hex(data)  # of the bytes read, which are the bytes written
    target = folder / digest / source.name
    try:
        if not target.is_file() or target.read_bytes() != data:
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
            partial.write_bytes(data)
            partial.chmod(0o755 if os.access(source, os.X_OK) else 0o644)
            os.replace(partial, target)
    except OSError as exc:
        raise SnapshotError(f"{target}: cannot store the bot's copy: {exc.strerror or exc}") from None
    return target, digest
