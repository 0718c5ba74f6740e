"""Attacks that must have no effect: network, files outside the bot's folder, children, spying."""

from __future__ import annotations

import dataclasses
import logging
import os
import socket
import time
import uuid
from pathlib import Path

import pytest

from arena.sandbox import BotFault, FaultCode, confine
from sandbox_helpers import IS_ROOT, REPO, act_message, needs_root


def reply_or_fault(bot, start: dict) -> str:  # type: ignore[no-untyped-def]
    """The reply text, or the fault code's value when the attack made the bot fail."""
    bot.start_game({"seat": 0, **start})
    try:
        return bot.act(act_message())
    except BotFault as fault:
        assert fault.code in (FaultCode.INVALID, FaultCode.CRASH), fault
        return fault.code.value


def live_pids(bot) -> list[int]:  # type: ignore[no-untyped-def]
    """Processes of the bot's uid (root) or of its cgroup, besides the bot itself."""
    pids = confine.pids_of_uid(confine.slot_uid(bot.slot)) if IS_ROOT else []
    return [p for p in pids if p != bot.pid]


@needs_root
def test_loopback_connection_is_blocked(make_bot) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.setblocking(False)
        port = listener.getsockname()[1]
        outcome = reply_or_fault(make_bot("socket_connect.py"), {"port": port})
        time.sleep(0.1)
        with pytest.raises(BlockingIOError):
            listener.accept()
    assert outcome == "invalid"  # the bot's connect raised inside it


@needs_root
def test_files_outside_the_folder_are_not_created(make_bot, tmp_path: Path) -> None:
    shared_tmp = Path("/tmp") / f"arena-escape-{uuid.uuid4().hex}"
    targets = [tmp_path / "evil.txt", REPO / f"PWNED-{uuid.uuid4().hex}", shared_tmp,
               Path("/var/tmp") / f"arena-escape-{uuid.uuid4().hex}"]
    bot = make_bot("write_outside.py")
    outcome = reply_or_fault(bot, {"targets": [str(t) for t in targets]})
    assert outcome == "draw"  # it ran (and wrote its own file) but every target failed
    assert (bot._folder.path / "own-file.txt").read_text() == "mine"
    for target in targets:
        assert not target.exists(), target


@needs_root
@pytest.mark.parametrize("file", ["fork_child.py", "spawn_subprocess.py"])
def test_children_are_blocked_and_none_survives(make_bot, file: str) -> None:
    bot = make_bot(file)
    outcome = reply_or_fault(bot, {})
    layers = confine.available_layers()
    if layers.seccomp_base is not None:
        assert outcome == "invalid"  # fork/exec refused inside the bot: PermissionError
    assert live_pids(bot) == [] or layers.seccomp_base is None
    bot.close()
    assert confine.pids_of_uid(confine.slot_uid(bot.slot)) == []


@needs_root
def test_referee_cannot_be_signalled_or_read(make_bot) -> None:
    assert reply_or_fault(make_bot("spy_referee.py"), {}) == "draw"


@needs_root
def test_bot_runs_under_its_slot_uid_with_limits(make_bot) -> None:
    bot = make_bot("moody.py")
    bot.start_game({"seat": 0})
    status = Path(f"/proc/{bot.pid}/status").read_text()
    uid = confine.slot_uid(bot.slot)
    assert f"Uid:\t{uid}\t{uid}\t{uid}\t{uid}" in status
    groups = next(line for line in status.splitlines() if line.startswith("Groups:"))
    assert groups.split(":")[1].split() == []
    limits = Path(f"/proc/{bot.pid}/limits").read_text()
    assert "Max address space" in limits and str(256 * 1024 * 1024) in limits
    if confine.available_layers().seccomp_base is not None:
        assert "Seccomp:\t2" in status
    # the environment carries nothing of the referee's
    environ = Path(f"/proc/{bot.pid}/environ").read_bytes().split(b"\0")
    assert sorted(e.split(b"=")[0] for e in environ if e) == [
        b"HOME", b"LANG", b"PATH", b"PYTHONUNBUFFERED", b"TMPDIR"]


NON_ROOT_PROBE = """
import logging, sys
logging.basicConfig(level=logging.WARNING, stream=sys.stdout, format="%(message)s")
from arena.sandbox import confine
layers = confine.available_layers()
print("uid", layers.uid, "netns", layers.netns, "cgroup", layers.cgroup)
"""


def test_without_root_layers_degrade_with_a_warning(caplog) -> None:
    """A referee that is not root gets fewer layers, and one clear warning says so. As root,
    the probe runs in a child process that has dropped to an unprivileged uid."""
    if not IS_ROOT:
        confine.available_layers.cache_clear()
        with caplog.at_level(logging.WARNING, logger="arena.sandbox"):
            layers = confine.available_layers()
        assert not layers.uid and not layers.netns
        assert any("not running as root" in r.message for r in caplog.records)
        return
    output = _run_as_nobody(NON_ROOT_PROBE)
    assert "uid False netns False cgroup False" in output
    assert "not running as root" in output


def _run_as_nobody(code: str) -> str:
    """Run ``code`` with a world-readable copy of the arena package, as uid/gid 65534."""
    import shutil
    import subprocess
    import tempfile

    from arena.sandbox.runtime import find_python

    python = find_python(True)
    assert python is not None, "no Python reachable by an unprivileged uid"
    folder = Path(tempfile.mkdtemp(prefix="arena-nonroot-"))
    try:
        shutil.copytree(Path(confine.__file__).resolve().parents[1], folder / "arena",
                        ignore=shutil.ignore_patterns("__pycache__"))
        for path in [folder, *folder.rglob("*")]:
            path.chmod(0o755)
        result = subprocess.run([str(python), "-I", "-c", f"import sys; sys.path.insert(0, {str(folder)!r})\n{code}"],
                                user=65534, group=65534, extra_groups=[], capture_output=True,
                                text=True, timeout=30, cwd=folder)
        return result.stdout + result.stderr
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@needs_root
@pytest.mark.parametrize("cgroup", [True, False])
def test_without_seccomp_escaped_descendants_are_still_killed(make_bot, monkeypatch, cgroup: bool) -> None:
    """The cgroup (or, without it, the uid sweep) finds a grandchild that left the group."""
    layers = dataclasses.replace(confine.available_layers(), seccomp_base=None, cgroup=cgroup)
    monkeypatch.setattr(confine, "available_layers", lambda: layers)
    bot = make_bot("escape_setsid.py")
    assert reply_or_fault(bot, {}) == "draw"  # fork allowed: seccomp is off
    escaped = live_pids(bot)
    assert escaped, "the grandchild should be running until the bot is stopped"
    assert all(os.getpgid(p) != bot.pid for p in escaped)
    bot.close()
    assert confine.pids_of_uid(confine.slot_uid(bot.slot)) == []
