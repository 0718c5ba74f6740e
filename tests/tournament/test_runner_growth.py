"""Tournaments grow: more bots, more rounds or a new version of a bot play only what is missing.

Each step runs the grown file over the stored results, counts the games it played, and the end
is compared with the final file played from scratch in another workspace: the same games (ids,
tables, deals, results) and the same rankings, to the last bit of every rating.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tournament_helpers import untimed, untimed_rankings
from arena.tournament import ConfigChangedError
from arena.tournament.export import rankings_json
from arena.tournament.ratings import rank_store
from arena.tournament.replay import open_results
from arena.tournament.runner import Progress, run_tournament

HERE = Path(__file__).resolve().parent
FIRST_LEGAL = HERE / "bots" / "first_legal.py"
LAST_LEGAL = '''
class Bot:
    def act(self, obs):
        return obs.legal_actions()[-1]
'''


def write(folder: Path, bots: list[str], rounds: int) -> Path:
    path = folder / "grow.yaml"
    path.write_text(f"name: grow\nseats: 3\nseed: 17\nrounds: {rounds}\nbots: [{', '.join(bots)}]\n")
    return path


def stored(home: Path, details: bool = True) -> tuple[list[dict], dict]:
    """Every stored game without its duration (and, unless ``details``, its faults without
    their tracebacks and output, which name the run's own sandbox folder), and the rankings JSON."""
    with open_results(home, "grow") as store:
        games = [untimed(r) for r in store.games()]
        if not details:
            for game in games:
                game["faults"] = [{**f, "detail": None, "log_tail": None} for f in game["faults"]]
        return games, untimed_rankings(rankings_json(rank_store(store)))


def test_growing_plays_only_the_missing_games_and_ends_as_if_played_from_scratch(tmp_path: Path) -> None:
    home = tmp_path / "grown"
    home.mkdir()
    mine = home / "mine.py"
    mine.write_text(FIRST_LEGAL.read_text())
    bots = ["random", "greedy", str(FIRST_LEGAL), str(mine)]

    first = run_tournament(write(home, bots, rounds=1), home, workers=2)
    assert (first.played, first.growth) == (12, None)        # 4 tables x 1 deal x 3 rotations

    added = run_tournament(write(home, bots + ["heuristic"], rounds=1), home, workers=2)
    assert added.complete and added.played == 30 - 12        # 10 tables now: 6 new ones
    assert added.growth == ("tournament 'grow' grows: 1 bot added (heuristic): 18 new games "
                            "(12 stored games kept, 18 to play)")

    more = run_tournament(write(home, bots + ["heuristic"], rounds=2), home, workers=2)
    assert more.complete and more.played == 30                # round 2 at every table
    assert more.growth is not None and "rounds 1 -> 2: 30 new games" in more.growth

    mine.write_text(LAST_LEGAL)   # a new version: its 6 tables x 2 rounds x 3 rotations replay
    seen: list[Progress] = []
    stopped = run_tournament(write(home, bots + ["heuristic"], rounds=2), home, workers=2,
                             max_games=10, progress=seen.append)
    assert stopped.growth is not None and stopped.growth.startswith(
        "tournament 'grow' grows: bot 'mine' changed (sha256 ")
    assert "its 36 stored games will be replayed (24 stored games kept, 36 to play)" in stopped.growth
    assert seen[0].notice == stopped.growth and stopped.played == 10 and not stopped.complete
    resumed = run_tournament(write(home, bots + ["heuristic"], rounds=2), home, workers=2)
    assert resumed.complete and resumed.played == 26 and resumed.growth is None

    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (scratch / "mine.py").write_text(LAST_LEGAL)
    final = [*bots[:3], str(scratch / "mine.py"), "heuristic"]
    whole = run_tournament(write(scratch, final, rounds=2), scratch, workers=1)
    assert whole.played == 60
    grown_games, grown_table = stored(home)
    scratch_games, scratch_table = stored(scratch)
    assert [g["game_id"] for g in grown_games] == list(range(60))
    assert grown_games == scratch_games
    assert grown_table == scratch_table


def test_taking_a_bot_out_is_refused_naming_it(tmp_path: Path) -> None:
    bots = ["random", "greedy", "heuristic", str(FIRST_LEGAL)]
    run_tournament(write(tmp_path, bots, rounds=1), tmp_path, workers=1, max_games=2)
    with pytest.raises(ConfigChangedError, match=r"bot 'heuristic' taken out"):
        run_tournament(write(tmp_path, ["random", "greedy", str(FIRST_LEGAL)], rounds=1), tmp_path)


def test_fewer_rounds_keep_the_stored_games_when_none_lies_in_the_rounds_taken_out(tmp_path: Path) -> None:
    """A fixed schedule shortened before its later rounds were played (a long campaign cut to
    what there is time for): its stored games are the first rounds', which the shorter file
    plays the same way, so they are kept and the run ends as the shorter file from scratch."""
    bots = ["random", "greedy", "heuristic", str(FIRST_LEGAL)]   # 4 tables x 3 rotations a round
    home, scratch = tmp_path / "cut", tmp_path / "scratch"
    home.mkdir(), scratch.mkdir()
    started = run_tournament(write(home, bots, rounds=5), home, workers=2, max_games=20)
    assert started.stored == 20                   # rounds 1 and 2 (round 2 not finished)
    cut = run_tournament(write(home, bots, rounds=2), home, workers=2)
    assert cut.complete and cut.played == 24 - 20
    assert cut.growth == ("tournament 'grow' grows: rounds 5 -> 2 (no game of the rounds taken "
                          "out was stored) (20 stored games kept, 4 to play)")
    whole = run_tournament(write(scratch, bots, rounds=2), scratch, workers=1)
    assert whole.played == 24
    assert stored(home) == stored(scratch)


def test_fewer_rounds_are_refused_when_games_of_the_rounds_taken_out_are_stored(tmp_path: Path) -> None:
    bots = ["random", "greedy", "heuristic", str(FIRST_LEGAL)]
    run_tournament(write(tmp_path, bots, rounds=5), tmp_path, workers=1, max_games=25)  # into round 3
    with pytest.raises(ConfigChangedError, match=r"key 'rounds' lowered \(5 -> 2: games of round 3 "
                                                 r"are stored"):
        run_tournament(write(tmp_path, bots, rounds=2), tmp_path)
    with open_results(tmp_path, "grow") as store:
        assert store.game_count() == 25           # nothing lost


# Faults on some deals only (those where its first hand holds an ace), the same on every run.
FLAKY = '''
class Bot:
    def act(self, obs):
        if any(str(card).startswith("A") for card in obs.hand) and len(obs.hand) >= 7:
            raise RuntimeError("flaky: an ace")
        return obs.legal_actions()[0]
'''


def write_strict(folder: Path, bots: list[str], rounds: int) -> Path:
    path = folder / "grow.yaml"
    path.write_text(f"name: grow\nseats: 2\nseed: 5\nrounds: {rounds}\nmax_faults: {{in_a_row: 2}}\n"
                    f"bots: [{', '.join(bots)}]\n")
    return path


def test_growing_decides_disqualifications_again_in_the_grown_order(tmp_path: Path) -> None:
    """New tables come in between the stored games, so a flaky bot's run of faulty games is not
    the one it had: a kept game that a disqualification now precedes is played again, by the
    fallback, and the grown tournament still ends as the final file played from scratch."""
    home, scratch = tmp_path / "grown", tmp_path / "scratch"
    for folder in (home, scratch):
        folder.mkdir()
        (folder / "flaky.py").write_text(FLAKY)
    first = run_tournament(write_strict(home, ["random", str(home / "flaky.py")], rounds=6), home,
                           workers=2, check=False)
    assert first.complete
    grown = run_tournament(write_strict(home, ["random", str(home / "flaky.py"), "greedy"], rounds=6),
                           home, workers=2, check=False)
    assert grown.complete and grown.growth is not None
    assert grown.played > 24    # the 24 new games, and kept games played again by the fallback
    # what it announced is what it may do: it cannot know beforehand how many the decisions move
    assert "(up to 12 stored games kept and at least 24 to play: the disqualifications are " \
           "decided again in the new order" in grown.growth
    whole = run_tournament(write_strict(scratch, ["random", str(scratch / "flaky.py"), "greedy"],
                                        rounds=6), scratch, workers=1, check=False)
    grown_games, grown_table = stored(home, details=False)
    scratch_games, scratch_table = stored(scratch, details=False)
    assert whole.disqualified and "flaky" in whole.disqualified    # the scenario disqualifies
    assert grown.disqualified.keys() == whole.disqualified.keys()
    assert grown_games == scratch_games and grown_table == scratch_table


SCOUT = (HERE.parent / "attack_bots" / "deal_scout.py").read_text()
DEALT = re.compile(r"dealt \[((?:\w\w\w? ?)+)\]")   # the hand it tells (not its line of source)


def scouted(home: Path) -> tuple[dict[int, tuple], set[str]]:
    """Every stored game's (table, deal seed, places), and the hands the scout says it was dealt."""
    with open_results(home, "scouts") as store:
        games = list(store.games())
    told = (DEALT.search(f.detail or "") for g in games for f in g.faults)
    hands = {m.group(1) for m in told if m}
    return {g.game_id: (g.table, g.deal_seed, g.places) for g in games}, hands


def test_a_new_version_is_dealt_new_cards_so_its_earlier_version_cannot_tell_it_the_hands(
        tmp_path: Path) -> None:
    """The scout sits in both seats of each deal in turn and writes its hand into a fault
    message; had its new version been dealt the same cards again, it would hold every hand of
    every deal before the first move. The other tables keep their games."""
    home = tmp_path / "home"
    home.mkdir()
    scout = home / "scout.py"
    scout.write_text(SCOUT + "# version 1\n")
    path = home / "scouts.yaml"
    path.write_text("name: scouts\nseats: 2\nrounds: 2\nmax_faults: {in_a_row: null}\n"
                    f"bots: [random, greedy, {scout}]\n")
    assert run_tournament(path, home, workers=1, check=False).played == 12   # 3 tables x 2 x 2
    before, told = scouted(home)
    scout.write_text(SCOUT + "# version 2\n")
    grown = run_tournament(path, home, workers=1, check=False)
    assert grown.played == 8 and grown.growth is not None and "bot 'scout' changed" in grown.growth
    after, seen = scouted(home)

    assert len(told) == len(seen) == 8 and not seen & told   # not one hand dealt again
    old_seeds = {seed for table, seed, _ in before.values() if "scout" in table}
    assert not {seed for table, seed, _ in after.values() if "scout" in table} & old_seeds
    assert {g: v for g, v in after.items() if "scout" not in v[0]} == {
        g: v for g, v in before.items() if "scout" not in v[0]}
