"""Attacks that must have no effect: network, files outside the bot's folder, children, spying;
and what a game process is, seen from the outside: its own uid (as root), no capabilities,
seccomp, limits, a minimal environment, PID 1 of its own namespace."""

from __future__ import annotations

import dataclasses
import os
import socket
import time
import uuid
from pathlib import Path

import pytest

from arena.sandbox import BotFault, BotSpec, FaultCode, IsolationUnavailable, check_isolation, confine
from arena.sandbox.leases import UID_COUNT, UID_FIRST
from process_helpers import descendants
from sandbox_helpers import FAST, IS_ROOT, REPO, act_message


def reply_or_fault(bot, start: dict) -> str:  # type: ignore[no-untyped-def]
    """The reply text, or the fault code's value when the attack made the bot fail."""
    bot.start_game({"seat": 0, **start})
    try:
        return bot.act(act_message())
    except BotFault as fault:
        assert fault.code in (FaultCode.INVALID, FaultCode.CRASH), fault
        return fault.code.value


def status_of(pid: int) -> dict[str, str]:
    """/proc/PID/status as a mapping."""
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return {k: v.strip() for k, _, v in (line.partition(":") for line in lines)}


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


def test_files_outside_the_folder_are_not_created(make_bot, tmp_path: Path) -> None:
    tmp_path.chmod(0o777)  # even a world-writable folder of the referee's is out of reach
    targets = [tmp_path / "evil.txt", REPO / f"PWNED-{uuid.uuid4().hex}",
               Path("/tmp") / f"arena-escape-{uuid.uuid4().hex}",
               Path("/var/tmp") / f"arena-escape-{uuid.uuid4().hex}"]
    bot = make_bot("write_outside.py")
    outcome = reply_or_fault(bot, {"targets": [str(t) for t in targets]})
    # It ran (it wrote and read back its own file); inside, /tmp is its own folder, so only a
    # write there may succeed, and no file appears outside.
    assert outcome == "draw" or outcome.startswith("wrote "), outcome
    assert all(w.startswith("/tmp/") for w in outcome.split()[1:] if outcome != "draw")
    for target in targets:
        assert not target.exists(), target


@pytest.mark.parametrize("file", ["fork_child.py", "spawn_subprocess.py"])
def test_children_are_refused(make_bot, file: str) -> None:
    bot = make_bot(file)
    assert reply_or_fault(bot, {}) == "invalid"  # fork/exec refused inside the bot
    assert descendants(bot.pid) == set()


def test_no_machine_wide_inode_counter_is_within_reach(make_bot) -> None:
    """The inode numbers of pipes, in-memory files, pidfds and /proc entries come from counters
    the whole machine shares: a bot could move one (by making such files) and a partner, or
    its own next game, read it. Confined, none is reached; the control, trusted, reaches all."""
    assert reply_or_fault(make_bot("kernel_counters.py"), {}) == "draw"
    trusted = reply_or_fault(make_bot("kernel_counters.py", trusted=True), {})
    assert trusted == "reached pipe,memfd,pidfd,proc,clone-pidfd"


def test_calls_nobody_reviewed_are_refused_to_a_python_bot(make_bot) -> None:
    """The allow-list: a call outside what the interpreter and the standard library need is
    refused as if the kernel lacked it, whether or not the deny-list names it; the control,
    trusted, reaches the older ones (the newest may be missing from the kernel)."""
    names = ("personality", "getitimer", "ioprio_get", "get_mempolicy", "lsm_list_modules",
             "file_getattr")
    confined = reply_or_fault(make_bot("unreviewed_calls.py"), {})
    assert confined == " ".join(f"{name}=ENOSYS" for name in names)
    trusted = reply_or_fault(make_bot("unreviewed_calls.py", trusted=True), {})
    assert trusted.startswith("personality=ok getitimer=ok ioprio_get=ok get_mempolicy=ok ")


def test_the_shared_devices_keep_their_times(make_bot) -> None:
    """/dev/null, zero, random and urandom are the host's own (0666): writable, their times
    were a mark one bot set and another, now or in a later game, read. Confined they are bound
    read-only (and still read and write, see the tour below); the control, trusted, marks them."""
    assert reply_or_fault(make_bot("device_marks.py"), {}) == "draw"
    trusted = reply_or_fault(make_bot("device_marks.py", trusted=True), {})
    assert trusted == "marked null,zero,random,urandom"


def test_a_python_bot_may_use_the_standard_library_on_its_own_things(make_bot) -> None:
    """What an honest bot does (files in its folder, threads, sleep, clocks, randomness,
    compression, sqlite in memory, mappings, polling, signals to itself) all works confined:
    the filters refuse only calls that reach beyond the bot."""
    roomy = dataclasses.replace(FAST, move_time=5.0)
    assert reply_or_fault(make_bot("stdlib_tour.py", roomy), {}) == "draw"


def test_a_command_bot_keeps_pipes_and_a_proc_of_its_own(make_bot) -> None:
    """Runtimes of other languages need them as they start (Node.js's libuv makes a pipe; the
    loader's $ORIGIN and Java's launcher read /proc/self/exe): a command bot keeps them, and
    with them the inode-number channel that docs/sandbox.md names."""
    spec = BotSpec.parse({"name": "counters", "cmd": ["python3", "tests/hostile_bots/command_counters.py"]},
                         REPO)
    assert reply_or_fault(make_bot("", spec=spec), {}) == "reached pipe,memfd,exe"


def test_threads_are_capped_also_for_an_ordinary_user(make_bot) -> None:
    """Threads take pids from the machine's pool; a bot must not be able to take them all,
    under a leased uid (root) or under the user's own uid."""
    roomy = dataclasses.replace(FAST, move_time=5.0)  # starting threads on a busy machine
    reply = reply_or_fault(make_bot("thread_hoarder.py", roomy), {})
    assert reply.startswith("threads "), reply
    assert 0 < int(reply.split()[1]) < 64
    assert reply_or_fault(make_bot("thread_hoarder.py", roomy, trusted=True), {}) == "threads 100"


def test_referee_cannot_be_signalled_or_read(make_bot) -> None:
    assert reply_or_fault(make_bot("spy_referee.py"), {"referee": os.getpid()}) == "draw"


def test_a_game_process_signals_no_process_group_but_its_own(make_bot) -> None:
    """kill(0, ...) reaches the caller's process group: the game process has a session of its
    own, so its template and init, outside its PID namespace, are not in it."""
    bot = make_bot("signal_group.py")
    assert reply_or_fault(bot, {}) == "draw"
    template = bot._template
    assert template is not None and template.alive()
    bot.close_game()
    assert reply_or_fault(bot, {}) == "draw"
    assert bot._template is template  # the same template starts the next game


def test_a_game_process_is_alone_unprivileged_and_limited(make_bot) -> None:
    bot = make_bot("moody.py")
    bot.start_game({"seat": 0})
    status = status_of(bot.pid)
    assert status["NSpid"].split()[-1] == "1"  # PID 1 of a namespace of its own
    assert status["CapEff"] == status["CapPrm"] == "0000000000000000"
    assert status["Seccomp"] == "2" and status["NoNewPrivs"] == "1"
    assert status["Groups"] == ""
    uid = int(status["Uid"].split()[0])
    if IS_ROOT:  # a leased uid of its own
        assert UID_FIRST <= uid < UID_FIRST + UID_COUNT
    else:
        assert uid == os.getuid()
    limits = Path(f"/proc/{bot.pid}/limits").read_text()
    assert "Max address space" in limits and str(256 * 1024 * 1024) in limits
    environ = Path(f"/proc/{bot.pid}/environ").read_bytes().split(b"\0")
    assert sorted(e.split(b"=")[0] for e in environ if e) == [b"HOME", b"LANG", b"PATH", b"TMPDIR"]
    for kind in ("user", "mnt", "net", "ipc", "pid", "uts", "cgroup"):
        assert os.readlink(f"/proc/{bot.pid}/ns/{kind}") != os.readlink(f"/proc/self/ns/{kind}"), kind


def test_two_live_bots_never_share_a_uid_or_a_namespace(make_bot) -> None:
    first, second = make_bot("moody.py"), make_bot("moody.py")
    first.start_game({"seat": 0})
    second.start_game({"seat": 1})
    uids = [status_of(b.pid)["Uid"].split()[0] for b in (first, second)]
    assert (uids[0] != uids[1]) == IS_ROOT  # as an ordinary user, namespaces keep them apart
    for kind in ("user", "mnt", "ipc", "pid", "net"):
        assert os.readlink(f"/proc/{first.pid}/ns/{kind}") != os.readlink(f"/proc/{second.pid}/ns/{kind}")


def test_a_missing_layer_refuses_the_bot_naming_it(make_bot, monkeypatch) -> None:
    """Fail closed: no degraded mode; ``trusted`` is the explicit way without isolation."""
    monkeypatch.setattr(confine, "isolation_problem", lambda: "the kernel refuses user namespaces")
    with pytest.raises(IsolationUnavailable, match="refuses user namespaces.*--trusted"):
        check_isolation()
    bot = make_bot("moody.py")
    with pytest.raises(BotFault) as info:
        bot.start_game({"seat": 0})
    assert info.value.code is FaultCode.INIT_FAIL and "user namespaces" in info.value.detail
    trusted = make_bot("moody.py", trusted=True)
    trusted.start_game({"seat": 0})
    assert trusted.act(act_message()) == "7H"


def test_this_machine_offers_every_layer() -> None:
    """The machines the suite runs on (CI as root, and as an ordinary user) must isolate."""
    assert confine.isolation_problem() is None


def test_shared_memory_cannot_escape_the_memory_limit(make_bot) -> None:
    """Unattached SysV segments would escape RLIMIT_AS (1 GiB held under a 256 MiB limit):
    the filter refuses SysV and POSIX IPC altogether."""
    bot = make_bot("shm_hoarder.py")
    bot.start_game({"seat": 0})
    assert bot.act(act_message()) == "got 0"


def test_the_bots_folder_is_capped_in_bytes_and_files(make_bot) -> None:
    """Its folder is a tmpfs of Limits.disk_mb and Limits.files: a full folder is the bot's
    problem (ENOSPC, EFBIG), never the machine's."""
    limits = dataclasses.replace(FAST, disk_mb=4, files=100)
    bot = make_bot("disk_filler.py", limits)
    bot.start_game({"seat": 0})
    words = bot.act(act_message()).split()
    assert words[0] == "wrote" and int(words[1]) <= 4 and int(words[3]) <= 100
    assert int(words[1]) >= 1 and int(words[3]) >= 50  # it did write until the caps
