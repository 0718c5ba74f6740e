"""SHA-256 fingerprints in hex, the one way the arena names contents by hash.

A bot's file in the registry and in a run's snapshot, a command bot's version, a tournament
configuration's identity: all are :func:`sha256_hex` of bytes or of a text (UTF-8), so the
same contents always give the same name, whichever part of the arena computed it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path


def sha256_hex(data: bytes | str) -> str:
    """The SHA-256 of ``data`` in hex; a text is hashed as its UTF-8 bytes."""
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


def file_sha256(path: str | Path) -> str:
    """The SHA-256 of a file's bytes in hex (an unreadable file raises ``OSError``)."""
    return sha256_hex(Path(path).read_bytes())
