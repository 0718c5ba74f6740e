"""`arena duel` as a library: the tournament it plays, and the tally it reads from the stored games."""

from __future__ import annotations

import re
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest

from arena.engine.rules import load_rules
from arena.errors import ConfigError
from arena.sandbox import BotSpec
from arena.sandbox.workspace import Workspace
from arena.services.duel import duel, duel_plan
from arena.tournament.runner import BotRefusedError
from arena.tournament.schedule import Schedule
from arena.tournament.sprt import Sprt

RAISES = '''
class Bot:
    def act(self, obs):
        raise ValueError("boom in act")
'''


def builtins(tmp_path, *names: str) -> list[BotSpec]:
    return [Workspace(tmp_path).resolve_bot(name) for name in names]


def duel_games(tmp_path, names: tuple[str, ...], games: int, seats: int):
    """The games a duel plays, in order: the first ``games`` of its tournament's schedule."""
    plan = duel_plan(builtins(tmp_path, *names), load_rules("switch"), games, seats, seed=3)
    return list(Schedule.from_config(plan.config))[:games]


def test_two_bots_at_four_seats_sit_in_turn_and_swap_over_each_deal(tmp_path):
    games = duel_games(tmp_path, ("random", "greedy"), games=5, seats=4)
    ab, ba = ("random", "greedy") * 2, ("greedy", "random") * 2
    assert [g.table for g in games] == [ab, ba, ab, ba, ab]   # the third deal cut short
    assert games[0].deal_seed == games[1].deal_seed != games[2].deal_seed == games[3].deal_seed


def test_the_first_bot_named_takes_the_extra_seat_and_sits_in_every_one(tmp_path):
    games = duel_games(tmp_path, ("heuristic", "random", "greedy"), games=4, seats=4)
    assert [g.table for g in games] == [
        ("heuristic", "random", "greedy", "heuristic"),
        ("random", "greedy", "heuristic", "heuristic"),
        ("greedy", "heuristic", "heuristic", "random"),
        ("heuristic", "heuristic", "random", "greedy"),
    ]
    assert len({g.deal_seed for g in games}) == 1


def test_with_a_seat_each_the_bots_sit_in_name_order_as_at_a_tournament_table(tmp_path):
    games = duel_games(tmp_path, ("random", "heuristic", "greedy"), games=3, seats=3)
    assert [g.table for g in games] == [
        ("greedy", "heuristic", "random"),
        ("heuristic", "random", "greedy"),
        ("random", "greedy", "heuristic"),
    ]


def test_a_duel_refuses_what_it_cannot_seat(tmp_path):
    rules = load_rules("switch")
    with pytest.raises(ConfigError, match="at least two bots"):
        duel_plan(builtins(tmp_path, "random"), rules, 10)
    with pytest.raises(ConfigError, match="3 bots do not fit 2 seats"):
        duel_plan(builtins(tmp_path, "random", "greedy", "heuristic"), rules, 10, seats=2)
    with pytest.raises(ConfigError, match="must differ"):
        duel_plan(builtins(tmp_path, "random", "random"), rules, 10)


def test_a_faulty_bot_plays_every_game_and_its_faults_are_counted(tmp_path, monkeypatch):
    """No disqualification in a duel (a tournament's would stop it after three games), and
    the temporary store is gone afterwards."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    source = tmp_path / "raiser.py"
    source.write_text(RAISES)
    raiser = BotSpec.parse(str(source), tmp_path)
    result = duel([raiser, *builtins(tmp_path, "greedy")], load_rules("switch"), 5, seats=2,
                  seed=8, workers=1)
    faulty, greedy = result.tallies
    assert (result.games, faulty.games, greedy.games) == (5, 5, 5)
    assert faulty.faults == {"INVALID": 5} and not greedy.faults
    # A faulty seat is placed last: it never wins, and a game its fallback empties first is
    # won by nobody.
    assert faulty.wins == 0 and greedy.wins + result.draws == 5
    assert [f.bot for f in result.faults] == ["raiser"] * 5
    assert all("boom in act" in f.detail + f.log_tail for f in result.faults)
    assert not list(tmp_path.glob("arena-duel-*"))


def test_a_file_that_cannot_be_a_bot_is_refused_before_the_first_game(tmp_path):
    """A syntax error is no match to count: the duel says so, as a tournament does, rather
    than play its fallback under its name (a bot that breaks in play still plays, above)."""
    source = tmp_path / "broken.py"
    source.write_text("class Bot:\n    def act(self, obs)\n        return obs.legal[0]\n")
    with pytest.raises(BotRefusedError, match=r"^bot refused before the first game, nothing was "
                                              r"played: 'broken' \(.*broken\.py\): .*line 2"):
        duel([BotSpec.parse(str(source), tmp_path), *builtins(tmp_path, "greedy")],
             load_rules("switch"), 4, seats=2, seed=8, workers=1)


def test_the_drawn_seed_comes_back_and_replays_the_duel(tmp_path):
    bots, rules = builtins(tmp_path, "random", "greedy"), load_rules("switch")
    first = duel(bots, rules, 6, workers=1)
    again = duel(bots, rules, 6, seed=first.seed, workers=2)
    assert again == first
    assert sum(t.wins for t in first.tallies) + first.draws == 6
    assert [(t.name, t.seats, t.games) for t in first.tallies] == [("random", 2, 6), ("greedy", 2, 6)]
    # every move a bot was asked for was timed: the same moves both times, some time each
    assert all(t.moves_asked > 6 and t.think_s > 0 and t.ms_per_move > 0 for t in first.tallies)
    assert [t.moves_asked for t in again.tallies] == [t.moves_asked for t in first.tallies]


SALTED_RANDOM = '''
import random


class Bot:
    """random's play from another stream of numbers: as strong, but not its mirror."""

    def on_game_start(self, info):
        self.rng = random.Random(f"salted:{info['seed']}")

    def act(self, obs):
        return self.rng.choice(obs.legal_actions())
'''
STDERR_THEN_CRASH = ("import sys\n"
                     "for line in sys.stdin:\n"
                     "    print('thinking hard about', line[:12], file=sys.stderr, flush=True)\n"
                     "    if '\"act\"' in line:\n"
                     "        print('giving up now', file=sys.stderr, flush=True)\n"
                     "        sys.exit(3)\n"
                     "    print('ok', flush=True)\n")


SCOUT = Path(__file__).resolve().parent.parent / "attack_bots" / "deal_scout.py"
DEALT = re.compile(r"dealt \[((?:\w\w\w? ?)+)\]")   # the hand it tells (not its line of source)


def test_one_seed_deals_a_bots_next_version_the_same_cards(tmp_path):
    """A duel keeps nothing to grow, and its seed is the user's own: with it, two versions of a
    bot are compared on the same deals (a tournament deals a new version anew)."""
    told = []
    for version in (1, 2):
        source = tmp_path / "scout.py"
        source.write_text(SCOUT.read_text() + f"# version {version}\n")
        result = duel([BotSpec.parse(str(source), tmp_path), *builtins(tmp_path, "greedy")],
                      load_rules("switch"), 4, seats=2, seed=11, workers=1)
        told.append([m.group(1) for f in result.faults if (m := DEALT.search(f.detail))])
    assert len(told[0]) == 4 and len(set(told[0])) == 4 and told[1] == told[0]


def test_an_sprt_accepts_a_known_gap_and_stops_at_the_same_pair_with_any_worker_count(tmp_path):
    """greedy beats random by about 130 Elo: the test of +50 nElo against 0 accepts H1 long
    before the budget, and one or two workers stop at the same game."""
    bots, rules = builtins(tmp_path, "greedy", "random"), load_rules("switch")
    one = duel(bots, rules, 2000, 2, seed=1, workers=1, sprt=Sprt(0, 50))
    assert one.sprt is not None and one.sprt.verdict == "H1"
    assert one.games == one.sprt.games < 2000 and one.games % 2 == 0
    assert one.sprt.llr >= one.sprt.sprt.upper and one.deals == one.games // 2
    greedy = one.tallies[0].score
    assert greedy is not None and greedy.interval[0] > 0.5 and greedy.elo_interval[0] > 0
    assert greedy.los > 0.99
    assert one.pairs is not None and one.pairs.pairs == one.deals
    assert sum(t.games for t in one.tallies) == 2 * one.games
    two = duel(bots, rules, 2000, 2, seed=1, workers=2, sprt=Sprt(0, 50))
    assert two == one


def test_a_bot_against_its_mirror_splits_every_pair_and_the_sprt_accepts_h0(tmp_path):
    """Two copies of random get the same seat seeds, so each pair's return game is the first
    one mirrored: every pair splits, the score is exactly even."""
    first, = builtins(tmp_path, "random")
    copy = replace(first, name="random-copy")
    result = duel([first, copy], load_rules("switch"), 400, 2, seed=2, workers=2, sprt=Sprt(0, 50))
    assert result.pairs is not None and result.pairs.counts == (0, 0, result.deals, 0, 0)
    score = result.tallies[0].score
    assert score is not None and score.interval == (0.5, 0.5) and score.los == 0.5
    assert result.sprt is not None and result.sprt.verdict == "H0"


def test_two_bots_of_equal_strength_show_no_difference_and_the_sprt_does_not_accept_h1(tmp_path):
    salted = tmp_path / "salted.py"
    salted.write_text(SALTED_RANDOM)
    bots = [*builtins(tmp_path, "random"), BotSpec.parse(str(salted), tmp_path)]
    result = duel(bots, load_rules("switch"), 600, 2, seed=3, workers=2, sprt=Sprt(0, 50))
    score = result.tallies[0].score
    assert score is not None
    low, high = score.elo_interval
    assert low < 0 < high and 0.025 < score.los < 0.975  # not significant either way (95%)
    assert result.sprt is not None and result.sprt.verdict != "H1"
    assert set(result.pairs.counts[i] for i in (0, 2, 4)) != {0}   # wins and losses both ways


def test_an_sprt_is_refused_before_any_game_unless_two_bots_hold_two_seats(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with pytest.raises(ConfigError, match="two bots at two seats"):
        duel(builtins(tmp_path, "random", "greedy", "heuristic"), load_rules("switch"), 10,
             sprt=Sprt(0, 5))
    assert not list(tmp_path.glob("arena-duel-*"))


def test_more_than_two_bots_are_scored_against_the_field(tmp_path):
    result = duel(builtins(tmp_path, "greedy", "random", "heuristic"), load_rules("switch"), 12,
                  seats=3, seed=4, workers=1)
    assert result.deals == 4 and result.pairs is None and result.sprt is None
    scores = [t.score for t in result.tallies]
    assert all(s is not None and s.units == 4 for s in scores)
    # Every comparison one bot wins another loses: the field's scores average to one half.
    assert sum(s.score for s in scores if s is not None) == pytest.approx(1.5)


def test_the_progress_callback_sees_the_games_counted_so_far(tmp_path):
    seen = []
    result = duel(builtins(tmp_path, "greedy", "random"), load_rules("switch"), 40, 2, seed=5,
                  workers=1, sprt=Sprt(0, 50), progress=seen.append)
    assert seen, "no progress while 40 games were played"
    assert [p.games for p in seen] == sorted(p.games for p in seen)
    assert all(p.budget == 40 and p.first == "greedy" and p.sprt is not None for p in seen)
    assert seen[-1].games == result.games   # the last count is sent, however soon it came


def test_the_last_count_is_sent_however_soon_after_the_one_before(tmp_path, monkeypatch):
    """The relay sends at most one snapshot every PROGRESS_EVERY seconds; the duel's end is
    sent anyway (a piped duel's last line then says where it stopped)."""
    import arena.services.duel as duel_service

    monkeypatch.setattr(duel_service, "PROGRESS_EVERY", 1e9)   # only the first gets through
    seen = []
    result = duel(builtins(tmp_path, "greedy", "random"), load_rules("switch"), 12, 2, seed=5,
                  workers=1, progress=seen.append)
    assert result.games == 12 and seen[-1].games == 12 and len(seen) <= 2


def test_a_command_bots_stderr_comes_with_its_fault(tmp_path):
    """The sandbox keeps what a command bot writes to stderr; its faults carry the last lines."""
    script = tmp_path / "talker.py"
    script.write_text(STDERR_THEN_CRASH)
    talker = BotSpec.parse(f"cmd:python3 {script.name}", tmp_path)
    result = duel([talker, *builtins(tmp_path, "random")], load_rules("switch"), 2, 2, seed=6,
                  workers=1)
    assert [f.code.name for f in result.faults] == ["CRASH", "CRASH"]
    for fault in result.faults:
        assert fault.bot == "talker" and "closed its output" in fault.detail
        assert fault.log_tail.splitlines()[-1] == "giving up now"
        assert "thinking hard about" in fault.log_tail


def test_more_games_than_a_tournament_may_hold_are_refused_in_one_line(tmp_path):
    with pytest.raises(ConfigError, match=r"^999,999,999,999,999,999,999 games would take "):
        duel_plan(builtins(tmp_path, "random", "greedy"), load_rules("switch"), 10**21 - 1, 2)
