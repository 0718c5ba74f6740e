"""Secret deals: a tournament file without ``seed`` gets one drawn at random, stored, and reused.

A known seed gives away every deal, so a seedless file must not fall back to a fixed seed: each
new tournament draws its own, the store keeps it (a resume deals the same cards and is not taken
for a changed setup), and the rankings show it.
"""

from __future__ import annotations

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


def scheduled_deal_seeds(path: Path, seed: int) -> dict[int, int]:
    """game id -> deal seed of the same file with ``seed`` written in it."""
    config = parse_config(path.read_text() + f"seed: {seed}\n", default_name="secret")
    return {game.game_id: game.deal_seed for game in Schedule.from_config(config)}


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
    assert stored_deal_seeds(tmp_path) == scheduled_deal_seeds(path, first.seed)


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
    assert stored_deal_seeds(tmp_path)[0] == scheduled_deal_seeds(seedless(tmp_path / "x"), 31)[0]


def test_restarting_a_seedless_tournament_draws_a_fresh_seed(tmp_path: Path) -> None:
    path = seedless(tmp_path)
    first = run(path, tmp_path, max_games=1)
    restarted = run(path, tmp_path, max_games=1, restart=True)
    assert restarted.archive is not None and restarted.seed_drawn
    assert restarted.seed != first.seed
    assert stored_deal_seeds(tmp_path) == {0: scheduled_deal_seeds(path, restarted.seed)[0]}


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
