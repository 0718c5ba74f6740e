"""The address of the Dask cluster a tournament plays on: ``tcp://HOST:PORT``, ``tls://HOST:PORT``
(a running scheduler, docs/cluster.md), or ``local:N`` (a cluster of N worker processes that the
run starts on this machine and stops at its end, to try the backend on one machine)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from arena.errors import ConfigError

MAX_LOCAL_WORKERS = 1024
_SCHEDULER = re.compile(r"(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[^\s/:\[\]]+):(\d{1,5})")
_LOCAL = re.compile(r"local:(\d+)")
EXPECTED = "tcp://HOST:PORT, tls://HOST:PORT or local:N (N worker processes on this machine)"


@dataclass(frozen=True)
class ClusterAddress:
    """A parsed cluster address: a scheduler's (``scheduler``) or ``local_workers`` to start."""

    text: str
    scheduler: str | None = None
    local_workers: int | None = None

    def __str__(self) -> str:
        return self.text


def parse_cluster(text: str) -> ClusterAddress:
    """Read a cluster address (see the module doc); raises :class:`ConfigError` saying what is
    expected (the caller prefixes where the text came from)."""
    text = text.strip()
    if match := _LOCAL.fullmatch(text):
        count = int(match.group(1))
        if not 1 <= count <= MAX_LOCAL_WORKERS:
            raise ConfigError(f"local:N needs 1..{MAX_LOCAL_WORKERS} workers, got {text!r}")
        return ClusterAddress(text, local_workers=count)
    if (match := _SCHEDULER.fullmatch(text)) and 1 <= int(match.group(3)) <= 65535:
        return ClusterAddress(text, scheduler=text)
    raise ConfigError(f"expected {EXPECTED}, got {text!r}")
