"""Tournament file validation: every error names the file and the key."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from arena.errors import ArenaError, ConfigError
from arena.settings import show
from arena.sandbox import Limits
from arena.tournament.config import Until, load_config, parse_config
from arena.tournament.discipline import FaultLimit
from arena.tournament.separation import DEFAULT_MARGIN

FULL = textwrap.dedent(
    """\
    name: demo
    rules: switch
    seats: 4
    bots: [random, greedy, heuristic, bots/my_bot.py, bots/x.py:Cls, {name: cbot, cmd: [./cbot]}]
    format: round-robin
    rounds: 10
    seatings: rotations
    seed: 2026
    workers: auto
    limits: {move_time: 1.0, memory_mb: 1024, wall_factor: 3, bank: 0, init_time: 5}
    """
)


def parse(text: str):
    return parse_config(text, source="demo.yaml", default_name="demo")


def test_full_example_parses_with_display_names():
    config = parse(FULL)
    assert config.name == "demo"
    assert config.bot_names == ("random", "greedy", "heuristic", "my_bot", "Cls", "cbot")
    assert config.bots[3].spec == "bots/my_bot.py"
    assert config.bots[5].spec == {"name": "cbot", "cmd": ["./cbot"]}
    assert (config.seats, config.rounds, config.seed) == (4, 10, 2026)
    assert config.workers is None and config.worker_count == (os.cpu_count() or 1)
    assert config.limits.move_time == 1.0 and config.limits.memory_mb == 1024
    assert config.limits.wall_factor == 3.0 and config.limits.bank == 0.0
    assert config.limits.init_time == 5.0


def test_defaults_for_a_minimal_file():
    config = parse("bots: [a, b, c, d]")
    assert config.name == "demo" and config.rules == "switch" and config.seats == 4
    assert config.format == "round-robin" and config.seatings == "rotations"
    assert config.rounds == 1 and config.limits == Limits()  # the sandbox's own defaults
    assert config.seed is None  # no fixed default: the runner draws a secret seed


def test_an_explicit_seed_zero_is_kept_apart_from_no_seed():
    with_zero, without = parse("bots: [a, b, c, d]\nseed: 0"), parse("bots: [a, b, c, d]")
    assert with_zero.seed == 0 and without.seed is None
    assert with_zero.config_hash != without.config_hash


def test_the_documented_seats_message():
    with pytest.raises(ConfigError) as err:
        parse("seats: x\nbots: [a, b]")
    assert str(err.value) == "demo.yaml: key 'seats': expected an integer 2..10, got 'x'"


@pytest.mark.parametrize(("text", "message"), [
    # seen: 'seats: 9' with two bots asked for 9 bots first; given them, the run then said
    # switch plays 2..6 seats
    ("seats: 9\nbots: [a, b]", "demo.yaml: key 'seats': rules 'switch': seats must be 2..6, got 9"),
    # seen: candidates in a round-robin, also named among the bots, was called a duplicate
    ("bots: [a, b]\ncandidates: [a]", "demo.yaml: key 'candidates': only used with format 'gauntlet'"),
])
def test_the_mistake_named_first_is_the_one_to_fix_first(text, message):
    with pytest.raises(ConfigError) as err:
        parse(text)
    assert str(err.value) == message


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("seats: 11\nbots: [a, b]", "seats"),
        ("seats: 1\nbots: [a, b]", "seats"),
        ("seats: true\nbots: [a, b]", "seats"),
        ("seats: 2.5\nbots: [a, b]", "seats"),
        ("rounds: 0\nbots: [a, b, c, d]", "rounds"),
        ("seed: -1\nbots: [a, b, c, d]", "seed"),
        ("seed: '7'\nbots: [a, b, c, d]", "seed"),
        ("format: ladder\nbots: [a, b, c, d]", "format"),
        ("seatings: all\nbots: [a, b, c, d]", "seatings"),
        ("workers: 0\nbots: [a, b, c, d]", "workers"),
        ("workers: many\nbots: [a, b, c, d]", "workers"),
        ("rules: ''\nbots: [a, b, c, d]", "rules"),
        ("name: ../evil\nbots: [a, b, c, d]", "name"),
        ("colour: red\nbots: [a, b, c, d]", "colour"),
        ("bots: a", "bots"),
        ("bots: []", "bots"),
        ("bots: [a, 5, c, d]", "bots[1]"),
        ("bots: [a, b, c, {cmd: []}]", "bots[3]"),
        ("bots: [a, b, c, {name: ''}]", "bots[3].name"),
        ("bots: [a, b, c, d]\nlimits: 3", "limits"),
        ("bots: [a, b, c, d]\nlimits: {cpu: 1}", "limits.cpu"),
        ("bots: [a, b, c, d]\nlimits: {move_time: 0}", "limits.move_time"),
        ("bots: [a, b, c, d]\nlimits: {memory_mb: 1.5}", "limits.memory_mb"),
        ("bots: [a, b, c, d]\nlimits: {bank: -1}", "limits.bank"),
        ("bots: [a, b, c, d]\nlimits: {wall_factor: .nan}", "limits.wall_factor"),
        ("bots: [a, b, c, d]\nlimits: {wall_factor: 0.5}", "limits.wall_factor"),
        ("bots: [a, b, c, d]\nlimits: {memory_mb: 16}", "limits.memory_mb"),
        ("bots: [a, b, c, d]\nlimits: {init_time: 0}", "limits.init_time"),
        ("bots: [a, b, c, d]\nlimits: {disk_mb: 0}", "limits.disk_mb"),
        ("bots: [a, b, c, d]\nlimits: {files: 4}", "limits.files"),
        ("bots: [a, b, c, d]\nlimits: {files: 100.5}", "limits.files"),
        ("bots: [a, b, c, d]\nlimits: {hook_time: 0}", "limits.hook_time"),
        ("bots: [a, b, c, d]\nlimits: {hook_time: yes}", "limits.hook_time"),
        ("bots: [a, b, c, d]\nlimits: {log_bytes: -1}", "limits.log_bytes"),
        ("bots: [a, b, c, d]\nlimits: {bank: .inf}", "limits.bank"),
        ("bots: [a, b, c, d]\nseed:", "seed"),
        ("bots: [a, bots/a.py, c, d]", "bots"),
        ("bots: [a, b, c]", "seats"),
        ("bots: [a, b, c, d]\ncandidates: [e]", "candidates"),
        ("bots: [a, b, c, d]\nformat: gauntlet", "candidates"),
        ("bots: [a, b, c, d]\nformat: gauntlet\ncandidates: [a]", "candidates"),
        ("bots: [a, b]\nformat: gauntlet\ncandidates: [x]", "seats"),
        ("bots: [a, b, c, d]\nmax_faults: {in_a_row: 0}", "max_faults.in_a_row"),
        ("bots: [a, b, c, d]\nmax_faults: {total: 2.5}", "max_faults.total"),
        ("bots: [a, b, c, d]\nmax_faults: {total: yes}", "max_faults.total"),
        ("bots: [a, b, c, d]\nmax_faults: 3", "max_faults"),
        ("bots: [a, b, c, d]\nuntil: 1.5", "until"),
        ("bots: [a, b, c, d]\nuntil: {margn: 1.5}", "until.margn"),
        ("bots: [a, b, c, d]\nuntil: {margin: 0}", "until.margin"),
        ("bots: [a, b, c, d]\nuntil: {margin: 11}", "until.margin"),
        ("bots: [a, b, c, d]\nuntil: {margin: .inf}", "until.margin"),
        ("bots: [a, b, c, d]\nuntil: {games: 0}", "until.games"),
        ("bots: [a, b, c, d]\nuntil: {games: 10.5}", "until.games"),
        ("bots: [a, b, c, d]\nuntil: {games: 3}", "until.games"),          # one round: 4 games
        ("bots: [a, b, c, d]\nformat: swiss", "until"),
        ("bots: [a, b, c, d]\nformat: swiss\nuntil: {margin: 2}", "until.games"),
        ("bots: [a, b, c, d]\nformat: swiss\nrounds: 5\nuntil: {games: 40}", "rounds"),
        ("bots: [a, b, c]\nformat: swiss\nuntil: {games: 40}", "seats"),
        ("bots: [a, b, c, d]\nformat: swiss\ncandidates: [e]\nuntil: {games: 40}", "candidates"),
    ],
)
def test_each_error_names_file_and_key(text, key):
    with pytest.raises(ConfigError) as err:
        parse(text)
    message = str(err.value)
    assert message.startswith(f"demo.yaml: key '{key}': "), message
    assert "\n" not in message


def test_limits_set_every_field_of_the_sandbox_limits():
    config = parse("bots: [a, b, c, d]\nlimits: {disk_mb: 4, files: 100, hook_time: 0.5, log_bytes: 4096,"
                   " move_time: 2}")
    assert config.limits == Limits(disk_mb=4, files=100, hook_time=0.5, log_bytes=4096, move_time=2.0)
    assert isinstance(config.limits.move_time, float)  # written 2, kept as seconds


def test_a_limit_error_says_what_the_sandbox_takes():
    with pytest.raises(ConfigError) as err:
        parse("bots: [a, b, c, d]\nlimits: {files: 4}")
    assert str(err.value) == "demo.yaml: key 'limits.files': expected an integer >= 8, got 4"


@pytest.mark.parametrize(("text", "message"), [
    ("bots: [a, b, c, d]\nlimits: {hook_tme: 1}",
     "demo.yaml: key 'limits.hook_tme': unknown key (did you mean 'hook_time'?)"),
    ("bots: [a, b, c, d]\nrouns: 3", "demo.yaml: key 'rouns': unknown key (did you mean 'rounds'?)"),
    ("bots: [a, b, c, d]\npaint: red",
     "demo.yaml: key 'paint': unknown key (known: backend, bots, candidates, cluster, format, "
     "limits, max_faults, name, rounds, rules, seatings, seats, seed, until, workers)"),
    ("bots: [a, b, c, d]\nmax_faults: {in_row: 3}",
     "demo.yaml: key 'max_faults.in_row': unknown key (did you mean 'in_a_row'?)"),
])
def test_an_unknown_key_is_named_with_the_closest_known_one(text, message):
    with pytest.raises(ConfigError) as err:
        parse(text)
    assert str(err.value) == message


@pytest.mark.parametrize(("text", "message"), [
    ("backend: dask", "demo.yaml: key 'cluster': required with backend 'dask': tcp://HOST:PORT, "
                      "tls://HOST:PORT or local:N (N worker processes on this machine)"),
    ("cluster: local:2", "demo.yaml: key 'cluster': only used with backend 'dask'"),
    ("backend: dask\ncluster: http://sched:8786",
     "demo.yaml: key 'cluster': expected tcp://HOST:PORT, tls://HOST:PORT or local:N (N worker "
     "processes on this machine), got 'http://sched:8786'"),
    ("backend: dask\ncluster: local:0", "demo.yaml: key 'cluster': local:N needs 1..1024 workers, got 'local:0'"),
    ("backend: slurm", "demo.yaml: key 'backend': expected one of local, dask, got 'slurm'"),
])
def test_a_cluster_is_named_by_an_address_only_with_backend_dask(text, message):
    with pytest.raises(ConfigError) as err:
        parse(f"bots: [a, b, c, d]\n{text}")
    assert str(err.value) == message


def test_where_the_games_are_played_is_not_part_of_the_tournament():
    local = parse("bots: [a, b, c, d]\nseed: 3")
    cluster = parse("bots: [a, b, c, d]\nseed: 3\nbackend: dask\ncluster: tcp://10.0.0.5:8786")
    assert (cluster.backend, cluster.cluster) == ("dask", "tcp://10.0.0.5:8786")
    assert cluster.config_hash == local.config_hash
    assert parse("bots: [a, b, c, d]\nbackend: dask\ncluster: local:4").cluster == "local:4"


# The identities stores recorded before tournament files could set every sandbox limit: a
# stored tournament resumes only if its file still gives the same one.
STORED_IDENTITIES = {
    "bots: [a, b, c, d]\n": "f50c26dd8dd9e9662a0901dd170b9ee839e4185de44e20b3c91200da96138fc7",
    "bots: [random, greedy, heuristic]\nseats: 2\nseed: 2026\nrounds: 1000\n"
    "limits: {move_time: 1.0, memory_mb: 512}\n":
        "a8d2ccf89b233f849297b677d656495c6023dc5dab17bf7d85998487f39c86b3",
    "bots: [a, b, c, d]\nlimits: {move_time: 0.5, memory_mb: 256, wall_factor: 3, bank: 0, init_time: 5}\n":
        "2763447630625d5a78c5cbea7773014834d8a40fd38b89ca8172ad7f809bd1d6",
    "bots: [a, b, c, d]\nlimits: {move_time: 1, memory_mb: 1024, wall_factor: 3.0, bank: 2, init_time: 10}\n":
        "e03dd94801a64624587e6a568c6c3193223032129c34c3bc35a40584f6fa40e5",
}


@pytest.mark.parametrize("text", STORED_IDENTITIES)
def test_files_without_the_new_limits_keep_their_stored_identity(text):
    assert parse_config(text, source="t.yaml", default_name="t").config_hash == STORED_IDENTITIES[text]


def test_the_shipped_demo_keeps_its_stored_identity():
    demo = Path(__file__).resolve().parents[2] / "tournaments" / "demo.yaml"
    assert load_config(demo).config_hash == (
        "5a799c61bd3f8f47a579021fe77e2154ae9cb1499427f88b071fa602419cc913")


@pytest.mark.parametrize("limit", ["disk_mb: 4", "files: 100", "hook_time: 0.5", "log_bytes: 4096",
                                   "disk_mb: 16"])
def test_a_new_limit_changes_the_identity_once_written(limit):
    plain = parse("bots: [a, b, c, d]")
    assert parse(f"bots: [a, b, c, d]\nlimits: {{{limit}}}").config_hash != plain.config_hash


def test_max_faults_defaults_to_three_in_a_row_and_takes_null_for_no_limit():
    assert parse("bots: [a, b, c, d]").max_faults == FaultLimit(in_a_row=3, total=None)
    config = parse("bots: [a, b, c, d]\nmax_faults: {in_a_row: null, total: 10}")
    assert config.max_faults == FaultLimit(in_a_row=None, total=10)
    with pytest.raises(ConfigError) as err:
        parse("bots: [a, b, c, d]\nmax_faults: {in_a_row: -1}")
    assert str(err.value) == ("demo.yaml: key 'max_faults.in_a_row': expected an integer >= 1, "
                              "or null for no limit, got -1")


def test_max_faults_joins_the_identity_only_when_it_changes_the_rule():
    def identity(text: str) -> str:
        return parse_config(f"bots: [a, b, c, d]\n{text}", source="t.yaml", default_name="t").config_hash

    plain = STORED_IDENTITIES["bots: [a, b, c, d]\n"]
    assert identity("max_faults: {in_a_row: 3, total: null}") == identity("") == plain
    assert identity("max_faults: {in_a_row: 4}") != plain
    assert identity("max_faults: {total: 50}") != plain


def test_missing_bots_is_named():
    with pytest.raises(ConfigError, match=r"^demo\.yaml: key 'bots': required"):
        parse("seats: 4")


def test_duplicate_bot_names_are_refused_across_forms():
    with pytest.raises(ConfigError, match="duplicate bot name 'x'"):
        parse("seats: 2\nbots: [bots/x.py, {name: x, cmd: [./x]}]")


def test_malformed_yaml_reports_line_and_column():
    with pytest.raises(ConfigError) as err:
        parse("name: demo\nbots: [a, b\nseats: 4\n")
    assert str(err.value).startswith("demo.yaml: line ")
    assert "column" in str(err.value)


def test_a_key_written_twice_is_refused_with_its_line():
    with pytest.raises(ConfigError, match=r"line 2, column 1: .*'seats' is written twice"):
        parse("seats: 2\nseats: 3\nbots: [a, b, c]")


def test_top_level_must_be_a_mapping():
    with pytest.raises(ConfigError, match="expected a mapping"):
        parse("- a\n- b\n")


def test_load_config_names_the_path_and_defaults_name_to_stem(tmp_path):
    path = tmp_path / "spring-cup.yaml"
    path.write_text("bots: [a, b, c, d]\n", encoding="utf-8")
    assert load_config(path).name == "spring-cup"
    path.write_text("bots: [a, b, c, d]\nrounds: x\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"^{path}: key 'rounds'"):
        load_config(path)


def test_missing_file_is_a_config_error(tmp_path):
    with pytest.raises(ArenaError, match="cannot read"):
        load_config(tmp_path / "nope.yaml")


def test_gauntlet_parses_candidates():
    config = parse("bots: [a, b, c]\nformat: gauntlet\ncandidates: [new.py]\nseats: 3")
    assert config.bot_names == ("a", "b", "c", "new")


def test_config_hash_is_sha256_hex_and_ignores_bot_order_and_workers():
    base = parse(FULL).config_hash
    assert len(base) == 64 and int(base, 16) >= 0
    reordered = FULL.replace(
        "[random, greedy, heuristic,", "[heuristic, random, greedy,"
    ).replace("workers: auto", "workers: 3")
    assert parse(reordered).config_hash == base


@pytest.mark.parametrize(
    ("old", "new"),
    [("rounds: 10", "rounds: 11"), ("seed: 2026", "seed: 2027"), ("rules: switch", "rules: x.yaml"),
     ("move_time: 1.0", "move_time: 2.0"), ("seatings: rotations", "seatings: permutations"),
     ("./cbot", "./cbot2")],
)
def test_config_hash_changes_with_any_result_affecting_key(old, new):
    assert FULL.count(old) == 1
    assert parse(FULL.replace(old, new)).config_hash != parse(FULL).config_hash


def test_config_hash_is_stable_across_processes(tmp_path):
    path = tmp_path / "demo.yaml"
    path.write_text(FULL, encoding="utf-8")
    code = f"from arena.tournament.config import load_config; print(load_config({str(path)!r}).config_hash)"
    hashes = set()
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        hashes.add(out.stdout.strip())
    assert hashes == {load_config(path).config_hash}


def test_until_makes_any_format_adaptive_and_joins_the_hash_only_when_written():
    plain = parse("bots: [a, b, c, d]\nrounds: 10")
    adaptive = parse("bots: [a, b, c, d]\nrounds: 10\nuntil: {margin: 2, games: 400}")
    assert (plain.until, plain.adaptive, "until" not in plain.canonical()) == (None, False, True)
    assert adaptive.until == Until(margin=2.0, games=400) and adaptive.adaptive
    assert adaptive.canonical()["until"] == {"margin": 2.0, "games": 400}
    assert adaptive.config_hash != plain.config_hash
    # written empty, it stops at the default margin, with no budget but the schedule's
    assert parse("bots: [a, b, c, d]\nuntil: {}").until == Until(DEFAULT_MARGIN, None)


def test_a_swiss_file_needs_a_budget_and_takes_no_rounds():
    config = parse("bots: [a, b, c, d, e]\nformat: swiss\nuntil: {games: 16}")
    assert (config.format, config.until, config.adaptive) == ("swiss", Until(DEFAULT_MARGIN, 16), True)
    with pytest.raises(ConfigError) as err:
        parse("bots: [a, b, c, d, e]\nformat: swiss\nuntil: {games: 7}")
    # five bots at four seats: two tables (three bots play twice), 4 rotations each
    assert str(err.value) == "demo.yaml: key 'until.games': 7 is less than one round, which plays 8 games"


def test_a_file_that_is_not_utf8_is_named_in_one_line(tmp_path):
    path = tmp_path / "latin.yaml"
    path.write_bytes("name: caf\u00e9\nbots: [a, b]\n".encode("latin-1"))
    with pytest.raises(ConfigError, match=rf"^{path}: tournament file is not UTF-8 text"):
        load_config(path)


def test_a_quoted_value_is_read_no_further_than_the_message_shows():
    """YAML aliases let a few lines stand for a billion items (``&b [*a, *a, ...]``, nested);
    a message quotes the start of a value, so it must not print the whole of it first."""
    printed = []

    class Item:
        def __repr__(self) -> str:
            printed.append(self)
            return "item"

    assert show([Item()] * 100_000).startswith("[item, item, ")
    assert len(printed) <= 30
    levels = ["&l0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    levels += [f"&l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 7)]
    with pytest.raises(ConfigError, match=r"^demo.yaml: key 'seats': expected an integer 2\.\.10, "
                                          r"got \[\[1, 1, 1"):
        parse(f"seats: [{', '.join(levels)}]\nbots: [a, b]\n")


def test_a_number_too_long_to_read_is_malformed_yaml_in_one_line():
    with pytest.raises(ConfigError, match=r"^demo.yaml: malformed YAML: Exceeds the limit \(4300 digits\)"):
        parse("seats: " + "9" * 5000 + "\nbots: [a, b]\n")
