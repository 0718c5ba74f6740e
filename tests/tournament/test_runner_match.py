"""Matches in tournaments (RULINGS F2): `switch-classic` is played and rated as a match, first to
3 hand wins, with every hand stored and replayable in turn."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from arena.cli import app
from arena.engine.game import Game
from arena.engine.outcome import OutcomeReason
from arena.engine.rules import load_rules
from arena.tournament.replay import open_results, stored_game
from arena.tournament.runner import run_tournament

runner = CliRunner()


def match_tournament(folder: Path) -> Path:
    path = folder / "classic.yaml"
    path.write_text("name: classic\nrules: switch-classic\nseats: 2\n"
                    "bots: [random, greedy]\nrounds: 2\nseed: 5\n")
    return path


def test_F2_a_tournament_game_of_switch_classic_is_a_whole_match(tmp_path: Path) -> None:
    report = run_tournament(match_tournament(tmp_path), tmp_path, workers=1)
    assert report.complete and report.stored == 4  # 1 table x 2 deals x 2 seatings
    with open_results(tmp_path, "classic") as store:
        records = list(store.games())
    for record in records:
        wins = [0, 0]
        for index, hand in enumerate(record.hands):
            assert hand["lead"] == index % 2  # the lead moves one seat each hand
            if hand["winner"] is not None:
                wins[hand["winner"]] += 1
        assert max(wins) == 3 and record.winner == wins.index(3)  # first to three hand wins
        assert record.places[0] == (record.winner,)
        assert record.decisions == sum(len(h["moves"]) for h in record.hands) == len(record.moves)
        assert record.reason is OutcomeReason.WINS


def test_F2_every_stored_hand_replays_to_its_stored_outcome(tmp_path: Path) -> None:
    run_tournament(match_tournament(tmp_path), tmp_path, workers=1)
    with open_results(tmp_path, "classic") as store:
        stored = stored_game(store, 0)
    assert len(stored.hands) == len(stored.record.hands) >= 3
    for hand, record in zip(stored.hands, stored.record.hands):
        for move in hand.moves:
            hand.game.apply(move)
        assert hand.game.outcome.winner == record["winner"]
        assert [list(p) for p in hand.game.outcome.places] == record["places"]


def test_F2_replay_shows_a_stored_match_hand_by_hand(tmp_path: Path) -> None:
    run_tournament(match_tournament(tmp_path), tmp_path, workers=1)
    result = runner.invoke(app, ["replay", "classic", "0", "--json", "--home", str(tmp_path)])
    assert result.exit_code == 0, result.output
    hands = [json.loads(line) for line in result.stdout.splitlines()]
    with open_results(tmp_path, "classic") as store:
        record = store.game(0)
    assert [h["winner"] for h in hands] == [h["winner"] for h in record.hands]
    person = runner.invoke(app, ["replay", "classic", "0", "--home", str(tmp_path)])
    assert f"hand 1 of {len(record.hands)}, seat 0 leads" in person.stdout
    assert f"hand 2 of {len(record.hands)}, seat 1 leads" in person.stdout


def test_the_first_hand_of_a_match_is_the_game_dealt_from_its_seed() -> None:
    rules = load_rules("switch-classic")
    from arena.engine.match import Match

    match = Match.new(rules, 3, 42)
    assert match.current.hands == Game.new(rules, 3, 42).hands
