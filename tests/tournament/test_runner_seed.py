"""Secret deals: a tournament file without ``seed`` gets one drawn at random, stored, and reused.

A known seed gives away every deal, so a seedless file must not fall back to a fixed seed: each
new tournament draws its own, the store keeps it (a resume deals the same cards and is not taken
for a changed setup), and the rankings show it.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest
import yaml

from arena.tournament import ConfigChangedError, Schedule, load_config, parse_config, rank_store
from arena.tournament.replay import open_results
from arena.tournament.runner import RunReport, run_tournament

FIRST_LEGAL = Path(__file__).resolve().parent / "bots" / "first_legal.py"
GAMES = 4  # one two-seat table x 2 deals x 2 rotations


def seedless(folder: Path, extra: str = "") -> Path:
    """A small tournament file with no ``seed`` key (plus ``extra`` lines)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "secret.yaml"
    path.write_text(f"name: secret\nseats: 2\nbots: [random, {FIRST_LEGAL}]\nrounds: 2\n{extra}")
    return path


def run(path: Path, home: Path, **options) -> RunReport:
    return run_tournament(path, home, workers=1, **options)


def stored_deal_seeds(home: Path) -> dict[int, int]:
    """game id -> deal seed of every stored game."""
    with open_results(home, "secret") as store:
        return {record.game_id: record.deal_seed for record in store.games()}


def scheduled_deal_seeds(path: Path, seed: int, home: Path) -> dict[int, int]:
    """game id -> deal seed of the same file with ``seed`` written in it, its bots the versions
    stored in ``home`` (a deal's seed counts them)."""
    config = parse_config(path.read_text() + f"seed: {seed}\n", default_name="secret")
    with open_results(home, "secret") as store:
        versions = store.bot_versions()
    return {game.game_id: game.deal_seed for game in Schedule.from_config(config, versions=versions)}


def test_a_file_without_seed_draws_one_stores_it_and_resumes_with_it(tmp_path: Path) -> None:
    path = seedless(tmp_path)
    first = run(path, tmp_path, max_games=2)
    assert first.seed_drawn and first.seed is not None and not first.complete
    with open_results(tmp_path, "secret") as store:
        info = store.tournament()
        assert info is not None and (info.seed, info.seed_drawn) == (first.seed, True)
        assert rank_store(store).tournament_seed == first.seed

    resumed = run(path, tmp_path)  # not refused as a changed setup
    assert resumed.complete and resumed.played == GAMES - 2
    assert (resumed.seed, resumed.seed_drawn) == (first.seed, True)
    # every game, before and after the resume, was dealt from the stored seed
    assert stored_deal_seeds(tmp_path) == scheduled_deal_seeds(path, first.seed, tmp_path)


def test_two_fresh_runs_of_the_same_seedless_file_draw_different_seeds(tmp_path: Path) -> None:
    path = seedless(tmp_path / "files")
    one, two = run(path, tmp_path / "one", max_games=1), run(path, tmp_path / "two", max_games=1)
    assert one.seed_drawn and two.seed_drawn and one.seed != two.seed
    assert stored_deal_seeds(tmp_path / "one")[0] != stored_deal_seeds(tmp_path / "two")[0]


def test_a_file_with_a_seed_keeps_it(tmp_path: Path) -> None:
    path = seedless(tmp_path, extra="seed: 31\n")
    report = run(path, tmp_path, max_games=1)
    assert (report.seed, report.seed_drawn) == (31, False)
    with open_results(tmp_path, "secret") as store:
        info = store.tournament()
        assert info is not None and (info.seed, info.seed_drawn) == (31, False)
    scheduled = scheduled_deal_seeds(seedless(tmp_path / "x"), 31, tmp_path)
    assert stored_deal_seeds(tmp_path)[0] == scheduled[0]


def test_restarting_a_seedless_tournament_draws_a_fresh_seed(tmp_path: Path) -> None:
    path = seedless(tmp_path)
    first = run(path, tmp_path, max_games=1)
    restarted = run(path, tmp_path, max_games=1, restart=True)
    assert restarted.archive is not None and restarted.seed_drawn
    assert restarted.seed != first.seed
    assert stored_deal_seeds(tmp_path) == {0: scheduled_deal_seeds(path, restarted.seed, tmp_path)[0]}


def test_taking_the_seed_out_of_a_file_is_a_changed_setup(tmp_path: Path) -> None:
    path = seedless(tmp_path, extra="seed: 31\n")
    run(path, tmp_path, max_games=1)
    seedless(tmp_path)  # the same file without its seed
    with pytest.raises(ConfigChangedError, match="seed changed"):
        run(path, tmp_path)
    assert list(stored_deal_seeds(tmp_path)) == [0]


def test_writing_a_new_seed_into_a_seedless_file_is_a_changed_setup(tmp_path: Path) -> None:
    path = seedless(tmp_path)
    drawn = run(path, tmp_path, max_games=1).seed
    seedless(tmp_path, extra=f"seed: {drawn + 1}\n")
    with pytest.raises(ConfigChangedError, match="seed changed"):
        run(path, tmp_path)


def test_a_config_object_without_seed_draws_one(tmp_path: Path) -> None:
    config = load_config(seedless(tmp_path))
    assert config.seed is None
    report = run_tournament(config, tmp_path, workers=1, max_games=1)
    assert report.seed_drawn and report.seed is not None
    with open_results(tmp_path, "secret") as store:
        info = store.tournament()
        assert info is not None and info.seed == report.seed
        assert "seed" not in yaml.safe_load(info.config_text)  # the snapshot has no seed key


def by_name(seed: int, round_index: int, members: list[str]) -> int:
    """A deal's seed from the bots' names alone, as the stores begun before versions counted
    were dealt: the first 63 bits of SHA-256 of "seed:round:[names]"."""
    text = f"{seed}:{round_index}:" + json.dumps(members, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def test_a_store_begun_before_versions_counted_deals_on_by_the_names(tmp_path: Path) -> None:
    """Its games were dealt from the bots' names, even under a secret seed; a resume deals the
    rest the same way, so the store holds the games one run of the old arena would have played."""
    path = seedless(tmp_path)
    seed = run(path, tmp_path, max_games=2).seed         # round 0, both rotations
    assert seed is not None
    members = sorted(["random", FIRST_LEGAL.stem])
    with sqlite3.connect(tmp_path / "results" / "secret.sqlite") as raw:   # as the old arena left it
        raw.execute("DELETE FROM meta WHERE key = 'deals'")
        raw.execute("UPDATE games SET deal_seed = ?", (by_name(seed, 0, members),))
    raw.close()
    assert run(path, tmp_path).played == 2
    assert stored_deal_seeds(tmp_path) == {0: by_name(seed, 0, members), 1: by_name(seed, 0, members),
                                           2: by_name(seed, 1, members), 3: by_name(seed, 1, members)}
