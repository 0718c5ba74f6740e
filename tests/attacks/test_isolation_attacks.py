"""Issue 8's attack classes, each tried by a small bot of tests/attack_bots in a tournament, in
``submit`` and in a duel: with the isolation on, every attack finds nothing (or earns the fault
it deserves); with ``trusted=True`` (no isolation, a fresh process per game all the same) the
same bots find what an unconfined bot can, which proves that each one really attacks.

The runs are shared: one module-scoped set of runs per mode, the trusted control runs first
(they leave files and IPC objects on the machine for the confined bots to look for), the
confined runs second; the tests then read what each bot reported. Whatever the control runs
leave behind is removed at the end.
"""

from __future__ import annotations

import importlib.util
import os
import re
import secrets
import stat
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from arena.engine.observation import Observation
from arena.sandbox import BotSpec, Limits, SandboxedBot
from arena.sandbox.bench import SAMPLE_OBS
from arena.sandbox.leases import UID_COUNT, UID_FIRST
from attack_helpers import (REPO, Runs, differences, dumps_in, fill_bot, host_ipc_objects,
                            normalized, page_cache_observable, play_duel, play_tournament,
                            remove_ipc_objects, shm_text, submit, write_tournament)

IS_ROOT = os.geteuid() == 0
ATTACKERS = ("attack_proc", "attack_files", "attack_memory", "attack_leftovers", "attack_ipc",
             "attack_symlinks")
COLLUDERS = ("collude_writer", "collude_reader")
CHANNELS = ("file", "cmdline", "shm", "lock", "flock", "socket", "pagecache", "inode", "loginode",
            "sigpending")


@dataclass
class World:
    """The files of one test session: the bots (CONFIG filled in), their targets, the runs."""

    root: Path
    marker: str
    ipc_key: int
    collude_key: int
    bots: dict[str, Path] = field(default_factory=dict)
    victim: Path | None = None
    victim_before: tuple = ()
    left_on_host: dict = field(default_factory=dict)

    @property
    def mq_name(self) -> str:
        return f"/{self.marker}q"

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def trusted_home(self) -> Path:
        return self.root / "trusted-home"


def victim_state(path: Path) -> tuple:
    info = os.lstat(path)
    return (path.read_bytes(), stat.S_IMODE(info.st_mode), info.st_uid, info.st_gid,
            info.st_mtime_ns, info.st_ino, sorted(os.listdir(path.parent)))


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    root = tmp_path_factory.mktemp("attacks")
    marker = "zq" + secrets.token_hex(5)
    w = World(root, marker, ipc_key=0x40000000 + secrets.randbelow(1 << 29),
              collude_key=0x60000000 + secrets.randbelow(1 << 28))
    entrants = root / "entrants"
    entrants.mkdir()
    for home in (w.home, w.trusted_home):
        home.mkdir()
    secret = root / "secret.txt"
    secret.write_text("organiser's secret\n")
    (root / "victims").mkdir()
    w.victim = root / "victims" / "victim"
    w.victim.write_text("a file of the test's that no bot may change\n")
    w.victim.chmod(0o644)
    w.victim_before = victim_state(w.victim)
    yaml = root / "attacks.yaml"
    collude = {"marker": marker + "c", "key": w.collude_key, "lock_at": (1 << 30) + secrets.randbelow(1 << 20)}
    configs = {
        "attack_proc": {},
        "attack_files": {
            "read": [str(p) for p in (yaml, w.home / "results" / "attacks.sqlite",
                                      w.trusted_home / "results" / "attacks.sqlite", secret,
                                      entrants / "collude_reader.py", REPO / "bots" / "random.py",
                                      REPO / "arena" / "__init__.py")],
            "list": [str(p) for p in (entrants, root, w.home, w.trusted_home, REPO, REPO / "bots",
                                      Path.home())],
        },
        "attack_memory": {"marker": marker + "m"},
        "attack_leftovers": {"marker": marker + "f"},
        "attack_ipc": {"key": w.ipc_key, "mq": w.mq_name},
        "attack_symlinks": {"victim": str(w.victim)},
        "collude_writer": collude,
        "collude_reader": collude,
        "attack_mode_dump": {},
    }
    for name, config in configs.items():
        w.bots[name] = fill_bot(name, entrants, config)
    return w


def _tournament_files(w: World, trusted: bool) -> dict[str, Path]:
    shared = [str(w.bots[n]) for n in ATTACKERS] + ["random"]
    tag = "trusted-" if trusted else ""
    return {
        "attacks": write_tournament(w.root / "attacks.yaml", "attacks", shared),
        "collusion": write_tournament(w.root / f"{tag}collusion.yaml", "collusion",
                                      [str(w.bots[n]) for n in COLLUDERS], rounds=2),
        "dump": write_tournament(w.root / f"{tag}dump.yaml", "dump",
                                 [str(w.bots["attack_mode_dump"]), "random", "greedy", "heuristic"],
                                 seats=4),
    }


def _play_everything(w: World, trusted: bool) -> Runs:
    """A tournament, duels and submit for every attack bot, in one mode."""
    runs = Runs(trusted)
    home = w.trusted_home if trusted else w.home
    files = _tournament_files(w, trusted)
    play_tournament(runs, files["attacks"], home, "attacks", workers=2)
    # The colluders at a table of their own, one game at a time: two readers probing the page
    # cache at once would see each other's probes.
    play_tournament(runs, files["collusion"], home, "collusion", workers=1)
    if not trusted:
        play_tournament(runs, files["dump"], home, "dump", workers=1)
    # The attackers at one table in a duel: each attacks from its own process, whoever sits
    # beside it (a faulty seat is played by the fallback, so every one of them plays on).
    play_duel(runs, [w.bots[n] for n in ATTACKERS], home, games=2, seats=len(ATTACKERS))
    play_duel(runs, [w.bots[n] for n in COLLUDERS], home, games=4)
    play_duel(runs, [w.bots["attack_mode_dump"]], home, games=1, seats=4)
    for name in ATTACKERS + COLLUDERS + ("attack_mode_dump",):
        submit(runs, w.bots[name], home)
    return runs


@pytest.fixture(scope="module")
def trusted(world: World):  # type: ignore[no-untyped-def]
    """The control runs, without isolation; afterwards, what they left on the machine."""
    try:
        runs = _play_everything(world, trusted=True)
        world.left_on_host = {
            "ipc": host_ipc_objects(world.ipc_key, world.mq_name),
            "shm_text": shm_text(world.ipc_key),
            "tmp": sorted(p.name for p in Path("/tmp").glob(world.marker + "*")),
        }
        yield runs
    finally:
        remove_ipc_objects([world.ipc_key, world.collude_key], [world.mq_name])
        for path in Path("/tmp").glob(world.marker + "*"):
            path.unlink()
        assert host_ipc_objects(world.ipc_key, world.mq_name) == {"shm": False, "msg": False, "mq": False}


@pytest.fixture(scope="module")
def confined(world: World, trusted: Runs) -> Runs:
    """The same runs with every isolation layer on (after the control runs, on purpose)."""
    return _play_everything(world, trusted=False)


def _texts(found) -> str:  # type: ignore[no-untyped-def]
    return "\n---\n".join(f"[{f.where} {f.bot} {f.code}] {f.text}" for f in found)


def assert_clean(runs: Runs, bot: str) -> None:
    """The bot played in a tournament and a duel without any fault, and passed submit."""
    for where, games in (("tournament", 4), ("duel", 2)):  # each several in one template
        assert runs.played(bot, where) >= games, (where, runs.games)
    faults = {where: _texts(runs.of(bot, where)) for where in ("tournament", "duel", "submit")}
    assert faults == {"tournament": "", "duel": "", "submit": ""}, faults
    report = runs.reports[bot]
    assert report.passed, report.checks


def assert_leaks_everywhere(runs: Runs, bot: str, *words: str) -> str:
    """The control: the bot found something in the tournament, the duel and submit."""
    for where in ("tournament", "duel", "submit"):
        assert runs.leaks(bot, where), (where, _texts(runs.of(bot)))
    text = _texts(runs.leaks(bot))
    for word in words:
        assert word in text, (word, text)
    return text


# ---------------------------------------------------------------------------------------------
# 1. Other processes in /proc


def test_proc_shows_only_the_bot_itself(confined: Runs, trusted: Runs) -> None:
    assert_clean(confined, "attack_proc")
    text = assert_leaks_everywhere(trusted, "attack_proc", "pids visible", "cmdline of",
                                   "environ of", "context switches of")
    assert "arena_host.py" in text  # it read an opponent's (or its template's) command line


# 2. Files by absolute path, and listings


def test_no_file_of_the_workspace_the_user_or_other_bots_is_reachable(
        world: World, confined: Runs, trusted: Runs) -> None:
    assert_clean(confined, "attack_files")
    text = assert_leaks_everywhere(trusted, "attack_files", "listed", "ustat answered",
                                   "a seccomp listener was granted")
    for target in (world.root / "attacks.yaml", world.root / "secret.txt",
                   world.root / "entrants" / "collude_reader.py", REPO / "bots" / "random.py",
                   world.trusted_home / "results" / "attacks.sqlite"):
        assert f"read {target}: b" in text, (target, text)


# 3. Memory of an earlier game


def test_no_module_state_survives_a_game(world: World, confined: Runs, trusted: Runs) -> None:
    assert_clean(confined, "attack_memory")
    # Trusted too: every game is a fresh process, the isolation or not.
    assert trusted.of("attack_memory") == [], _texts(trusted.of("attack_memory"))
    assert trusted.played("attack_memory", "tournament") >= 4
    assert trusted.reports["attack_memory"].passed
    # The control: the same bot, kept in one process for two games as before, remembers.
    text = _two_games_in_one_process(world.bots["attack_memory"], world.marker + "m")
    for word in ("module variable", "class attribute", "builtins.", "sys.modules", "environment"):
        assert word in text, (word, text)


def _two_games_in_one_process(path: Path, mark: str) -> str:
    import builtins

    spec = importlib.util.spec_from_file_location(f"memory_control_{mark}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    obs = Observation.from_wire(SAMPLE_OBS, (), {"name": "switch", "settings": {}})
    info = {"seat": 0, "seats": 2, "seed": 1, "rules": {"name": "switch", "settings": {}}}
    try:
        spec.loader.exec_module(module)
        first = module.Bot()
        first.on_game_start(info)
        first.act(obs)
        with pytest.raises(RuntimeError, match="LEAK") as caught:
            module.Bot().on_game_start(info)
        return str(caught.value)
    finally:
        if hasattr(builtins, mark):
            delattr(builtins, mark)
        sys.modules.pop(mark, None)
        os.environ.pop(mark, None)


# 4. Files left in its own folder


def test_no_file_survives_a_game_or_a_run(world: World, confined: Runs, trusted: Runs) -> None:
    assert_clean(confined, "attack_leftovers")
    assert_leaks_everywhere(trusted, "attack_leftovers", "from this run")
    # submit and the duels ran after the tournament: they found its files in /tmp.
    later = _texts(trusted.leaks("attack_leftovers", "submit") + trusted.leaks("attack_leftovers", "duel"))
    assert "/tmp/" in later and "from another run" in later, later
    assert world.left_on_host["tmp"], "the control runs left nothing in /tmp"


# 5. System V and POSIX IPC objects


def test_no_ipc_object_survives_a_game_or_a_run(world: World, confined: Runs, trusted: Runs) -> None:
    assert_clean(confined, "attack_ipc")
    assert_leaks_everywhere(trusted, "attack_ipc", "shm from", "msg from", "mq from",
                            "a shared futex wait on os.py was let wait", "getrusage answered")
    later = _texts(trusted.leaks("attack_ipc", "submit"))
    assert "from another run" in later, later
    # The control runs' objects outlived them, and the confined bots never reached them.
    assert world.left_on_host["ipc"] == {"shm": True, "msg": True, "mq": True}
    left = shm_text(world.ipc_key)
    assert left == world.left_on_host["shm_text"] and left and not left.startswith(b"/arena"), left


# 6. Collusion at one table


def test_colluders_pass_submit_and_play(confined: Runs) -> None:
    for bot in COLLUDERS:
        assert_clean(confined, bot)
    assert confined.played("collude_reader", "duel") == 4


@pytest.mark.parametrize("channel", CHANNELS)
def test_colluders_share_nothing(world: World, confined: Runs, trusted: Runs, channel: str) -> None:
    found = [f for f in confined.leaks("collude_reader") if _channel_found(f.text, channel)]
    assert found == [], _texts(found)
    # The control: unconfined, the reader finds the writer's hand through this channel.
    control = [f for f in trusted.leaks("collude_reader") if _channel_found(f.text, channel)]
    # (The page cache only where this machine lets a process evict and probe pages at all.)
    if channel != "pagecache" or page_cache_observable(
            Path(os.__file__).parent / "pydoc_data" / "topics.py"):
        assert {f.where for f in control} >= {"tournament", "duel"}, _texts(trusted.of("collude_reader"))


def _channel_found(text: str, channel: str) -> bool:
    names = {n for group in re.findall(r"LEAK: channels=([\w,-]+);", text) for n in group.split(",")}
    return any(n == channel or n.startswith(channel + "-") for n in names)


# 7. Uids of live bots, and symlinks for the referee


def test_live_bots_never_share_an_outer_uid(world: World) -> None:
    spec = BotSpec.parse(str(world.bots["attack_symlinks"]), world.root)
    limits = Limits(init_time=5.0)
    info = {"seat": 0, "seats": 2, "seed": 1, "rules": {"name": "switch", "settings": {}}}
    other = subprocess.Popen(
        [sys.executable, "-c", _OTHER_PROCESS, str(spec.path)], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, text=True, cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)})
    bots: list[SandboxedBot] = []
    try:
        for _ in range(2):
            bots.append(SandboxedBot(spec, limits))
            bots[-1].start_game(info)
        line = other.stdout.readline()
        assert line.strip().isdigit(), line
        pids = [bot.pid for bot in bots] + [int(line)]
        statuses = [_status(pid) for pid in pids]
        outer = [int(s["Uid"].split()[0]) for s in statuses]
        if IS_ROOT:  # each live bot has a uid of its own, leased machine-wide
            assert len(set(outer)) == 3, outer
            assert all(UID_FIRST <= uid < UID_FIRST + UID_COUNT for uid in outer), outer
        else:  # one uid for all (the user's), so each is alone in a user namespace of its own
            assert outer == [os.getuid()] * 3, outer
        namespaces = {os.readlink(f"/proc/{pid}/ns/user") for pid in pids}
        assert len(namespaces) == 3 and os.readlink("/proc/self/ns/user") not in namespaces
        for pid, uid in zip(pids, outer):
            assert Path(f"/proc/{pid}/uid_map").read_text().split() == ["1000", str(uid), "1"]
    finally:
        for bot in bots:
            bot.close()
        other.communicate("", timeout=30)
    assert other.returncode == 0


_OTHER_PROCESS = """
import sys
from pathlib import Path
from arena.sandbox import BotSpec, Limits, SandboxedBot
spec = BotSpec.parse(sys.argv[1], Path(sys.argv[1]).parent)
with SandboxedBot(spec, Limits(init_time=5.0)) as bot:
    bot.start_game({"seat": 1, "seats": 2, "seed": 2, "rules": {"name": "switch", "settings": {}}})
    print(bot.pid, flush=True)
    sys.stdin.read()
"""


def _status(pid: int) -> dict[str, str]:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return {k: v.strip() for k, _, v in (line.partition(":") for line in lines)}


def test_symlinks_in_the_bot_folder_leave_the_target_untouched(
        world: World, confined: Runs, trusted: Runs) -> None:
    for runs in (confined, trusted):
        for where in ("tournament", "duel", "submit"):
            planted = runs.of("attack_symlinks", where)
            assert planted and all("PLANTED" in f.text for f in planted), _texts(planted)
            assert all(int(f.text.split("PLANTED ")[1].split()[0]) >= 20 for f in planted), _texts(planted)
        assert runs.leaks("attack_symlinks") == []
        failed = runs.reports["attack_symlinks"].failed
        assert failed is not None and failed.name == "self-play" and "PLANTED" in failed.detail
    assert world.victim is not None
    assert victim_state(world.victim) == world.victim_before


# 8. Which mode is this?


def test_a_bot_cannot_tell_submit_from_duel_from_a_tournament(confined: Runs, trusted: Runs) -> None:
    views = {}
    for where in ("tournament", "duel", "submit"):
        dumps = dumps_in(confined.of("attack_mode_dump", where))
        assert dumps, (where, _texts(confined.of("attack_mode_dump", where)))
        views[where] = [normalized(d) for d in dumps]
    reference = views["tournament"][0]
    assert reference["ids"][0] == 1 and reference["hostname"] == "arena"
    seen = {}
    for where, dumps in views.items():
        for index, dump in enumerate(dumps):
            for key, (ours, theirs) in differences(reference, dump).items():
                seen.setdefault(key, {})[f"{where} #{index}"] = str(theirs)[:300]
                seen[key]["tournament #0"] = str(ours)[:300]
    assert not seen, "what tells the modes apart:\n" + "\n".join(
        f"  {key}: " + "; ".join(f"{w} = {v}" for w, v in sorted(by.items())) for key, by in seen.items())
    # The control: unconfined, the same dumps do tell the runs apart.
    control = {w: [normalized(d) for d in dumps_in(trusted.of("attack_mode_dump", w))]
               for w in ("duel", "submit")}
    assert control["duel"] and control["submit"]
    assert differences(control["duel"][0], control["submit"][0])
