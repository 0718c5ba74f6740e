"""The uid leases (root only): each from a random place in the table, so that a command bot,
which reads its outer uid in /proc/self/uid_map, cannot count the bots living on the machine."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena.sandbox import leases


def test_leases_start_at_a_random_uid(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "leases"
    monkeypatch.setattr(leases, "LEASE_DIR", str(folder))
    # A table of its own does not know the uids that runs on this machine hold: leasing one
    # must not kill their bots (the real lease kills what an earlier holder left behind).
    monkeypatch.setattr(leases, "kill_processes_of", lambda uid: None)
    if os.geteuid() != 0:  # an ordinary user leases nothing: the folder must be root's
        folder.mkdir(mode=0o700)
        with pytest.raises(leases.LeaseError, match="owned by root"):
            leases.lease_uid()
        return
    taken = []
    for _ in range(8):  # each given back before the next: the first free is any of them
        lease = leases.lease_uid()
        taken.append(lease.uid - leases.UID_FIRST)
        lease.release()
    assert all(0 <= index < leases.SPREAD for index in taken), taken
    assert len(set(taken)) > 1, taken  # from the start, all eight would be uid 0 of the table
    held = [leases.lease_uid() for _ in range(40)]  # and a held one is never given twice
    try:
        assert len({lease.uid for lease in held}) == 40
    finally:
        for lease in held:
            lease.release()

