"""Adaptive tournaments through the runner, with sandboxed bots of known strength.

The bots are ``bots/dawdler.py`` at four settings under ``openspiel`` (drawing by choice): the
more a bot dawdles, the weaker it is, and games stay short. Four bots at two seats make three
linked tables a round (six games); a few rounds separate them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament_helpers import untimed, untimed_rankings
from arena.tournament.adaptive import End
from arena.tournament.export import rankings_json
from arena.tournament.ratings import rank_store
from arena.tournament.replay import open_results
from arena.tournament.runner import RunReport, run_tournament

DAWDLER = Path(__file__).resolve().parent / "bots" / "dawdler.py"
STRENGTHS = {"quick": 0.0, "steady": 0.4, "slow": 0.8, "stuck": 1.0}   # best first


def write(folder: Path, bots: dict[str, float], until: str, name: str = "ladder") -> Path:
    """A swiss tournament file of dawdlers (name -> dawdle) in ``folder``."""
    entries = ", ".join(f"{{name: {bot}, bot: {DAWDLER}, options: {{dawdle: {dawdle}}}}}"
                        for bot, dawdle in bots.items())
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\nrules: openspiel\nseats: 2\nformat: swiss\nseed: 5\n"
                    f"until: {until}\nbots: [{entries}]\n")
    return path


def stored(home: Path, name: str = "ladder") -> tuple[list[dict], dict]:
    """The stored games without their durations, and the rankings JSON."""
    with open_results(home, name) as store:
        games = [untimed(r) for r in store.games()]
        return games, untimed_rankings(rankings_json(rank_store(store)))


@pytest.fixture(scope="module")
def known(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, RunReport]:
    """The tournament of bots of known strength, run once with two workers."""
    home = tmp_path_factory.mktemp("known")
    return home, run_tournament(write(home, STRENGTHS, "{margin: 1.5, games: 120}"), home, workers=2)


def test_bots_of_known_strength_stop_separated_before_the_budget_in_the_right_order(known) -> None:
    home, report = known
    assert report.course is not None and report.course.end is End.SEPARATED
    assert report.complete and report.stored == report.total == report.course.games < 120
    assert report.stored % 6 == 0                                      # whole rounds
    with open_results(home, "ladder") as store:
        assert rank_store(store).bots == tuple(STRENGTHS)
    assert report.course.separation.complete


def test_one_worker_stores_the_same_rounds_games_and_rankings(known, tmp_path: Path) -> None:
    home, report = known
    serial = run_tournament(write(tmp_path, STRENGTHS, "{margin: 1.5, games: 120}"), tmp_path,
                            workers=1)
    assert serial.course == report.course
    assert stored(tmp_path) == stored(home)


def test_a_run_stopped_in_the_middle_of_a_round_resumes_as_if_never_stopped(known, tmp_path: Path) -> None:
    home, report = known
    config = write(tmp_path, STRENGTHS, "{margin: 1.5, games: 120}")
    first = run_tournament(config, tmp_path, workers=2, max_games=9)   # round 2 is half played
    assert first.stored == 9 and not first.complete
    assert first.course is not None and (first.course.rounds, first.course.end) == (2, None)
    resumed = run_tournament(config, tmp_path, workers=2)
    assert resumed.played == report.stored - 9 and resumed.course == report.course
    assert stored(tmp_path) == stored(home)
    again = run_tournament(config, tmp_path, workers=2)               # ended: nothing to play
    assert (again.played, again.complete, again.course) == (0, True, report.course)


def test_equal_bots_run_to_the_budget_and_a_higher_budget_goes_on_exactly(tmp_path: Path) -> None:
    copies = {f"copy{i}": 0.0 for i in range(4)}
    config = write(tmp_path / "grown", copies, "{margin: 1.5, games: 24}")
    report = run_tournament(config, tmp_path / "grown", workers=2)
    assert report.course is not None and report.course.end is End.BUDGET
    assert report.complete and report.stored == 24 and not report.course.separation.complete
    raised = write(tmp_path / "grown", copies, "{margin: 1.5, games: 36}")
    more = run_tournament(raised, tmp_path / "grown", workers=2)
    assert more.growth == ("tournament 'ladder' goes on: key 'until.games' raised (24 -> 36) "
                           "(its stored games are kept)")
    assert more.played == 12 and more.course is not None and more.course.end is End.BUDGET
    run_tournament(write(tmp_path / "straight", copies, "{margin: 1.5, games: 36}"),
                   tmp_path / "straight", workers=1)
    assert stored(tmp_path / "grown") == stored(tmp_path / "straight")
