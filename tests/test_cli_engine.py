"""The engine commands through typer's runner: `arena rules`, `arena replay`, `arena bench`,
and their bad-input contract (one line naming the problem, exit 1, no traceback)."""

from __future__ import annotations

import builtins
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app

runner = CliRunner()

NOTATION_POSITION = """\
rules: switch
seed: 7
seats: 4
hands:
  - [7H, 2H, 2C, 5H, JH, 3S, KD]
  - [3D, 4D]
  - [5D, 6D]
  - [6H, 7D]
top: 9H
discard: [4C, 6C]
stock: [3C, 8C]
to_move: 0
direction: 1
active_suit: H
recycles_left: 20
moves: ["7H 2H 2C 5H JH"]
"""


def write(tmp_path: Path, text: str, name: str = "position.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def invoke(*args: str):
    return runner.invoke(app, list(args))


def assert_one_line_error(result, *fragments: str) -> None:
    """Exit 1, a single 'error: ...' line naming the problem, and no traceback."""
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in lines[0]


def test_replay_json_is_exactly_the_notation_example(tmp_path: Path) -> None:
    """NOTATION.md's replay JSON, key for key, for its own example position (the S4 7-flush)."""
    result = invoke("replay", str(write(tmp_path, NOTATION_POSITION)), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {
        "rules": "switch", "status": "playing", "winner": None, "reason": None,
        "to_move": 1, "direction": 1, "top": "JH", "active_suit": "H",
        "pending": None, "hands": [["3S", "KD"], ["3D", "4D"], ["5D", "6D"], ["6H", "7D"]],
        "stock": ["3C", "8C"], "discard": ["4C", "6C", "9H", "7H", "2H", "2C", "5H"],
        "recycles_left": 20, "decisions": 1, "places": None,
    }


def test_replay_to_the_end_reports_the_winner_and_places(tmp_path: Path) -> None:
    """Seat 1 sheds its last card and wins at once; G7: the others by fewest cards, equal
    counts sharing a place."""
    text = """\
rules: switch
hands: [[3S, KC], [4D], [5C, 6C], [6H]]
top: 9D
to_move: 1
moves: [4D]
"""
    result = invoke("replay", str(write(tmp_path, text)), "--json")
    assert result.exit_code == 0, result.output
    state = json.loads(result.output)
    assert (state["status"], state["winner"], state["reason"]) == ("won", 1, "emptied")
    assert state["places"] == [[1], [3], [0, 2]]


def test_a_move_after_the_game_ended_is_illegal_with_exit_2(tmp_path: Path) -> None:
    """G7: seat 1 sheds its last card and the game is over; a further move in the file is
    refused like any illegal one: the JSON error names it and its index, exit 2."""
    text = """\
rules: switch
hands: [[3S, KC], [4D], [5C, 6C], [6H]]
top: 9D
to_move: 1
moves: [4D, 5C]
"""
    result = invoke("replay", str(write(tmp_path, text)), "--json")
    assert result.exit_code == 2, result.output
    error = json.loads(result.output)
    assert (error["error"], error["move_index"], error["move"]) == ("illegal", 1, "5C")
    assert "over" in error["reason"]
    plain = invoke("replay", str(write(tmp_path, text)))
    assert plain.exit_code == 2 and "move 1 ('5C') is illegal" in plain.output


def test_replay_stops_at_an_illegal_move_with_exit_2(tmp_path: Path) -> None:
    """S12: drawing while a play is legal is illegal; the error object names the move."""
    text = NOTATION_POSITION.replace('moves: ["7H 2H 2C 5H JH"]', "moves: [draw]")
    result = invoke("replay", str(write(tmp_path, text)), "--json")
    assert result.exit_code == 2
    error = json.loads(result.output)
    assert error["error"] == "illegal" and error["move_index"] == 0 and error["move"] == "draw"
    assert "only when no play is legal" in error["reason"]


def test_replay_stops_at_an_unreadable_move_with_exit_2(tmp_path: Path) -> None:
    text = NOTATION_POSITION.replace('moves: ["7H 2H 2C 5H JH"]', 'moves: ["7H ZZ"]')
    result = invoke("replay", str(write(tmp_path, text)), "--json")
    assert result.exit_code == 2
    error = json.loads(result.output)
    assert error["error"] == "invalid" and error["move"] == "7H ZZ" and "ZZ" in error["reason"]


def test_replay_for_a_person_prints_every_turn(tmp_path: Path) -> None:
    text = NOTATION_POSITION.replace('moves: ["7H 2H 2C 5H JH"]', 'moves: ["7H 2H 2C 5H JH", draw]')
    result = invoke("replay", str(write(tmp_path, text)))
    assert result.exit_code == 0, result.output
    assert "seat 0 plays 7H 2H 2C 5H JH" in result.output
    assert "seat 1 draws 1" in result.output
    assert "seat 2 to move" in result.output


def test_replay_deals_from_the_seed_when_no_hands_are_given(tmp_path: Path) -> None:
    path = write(tmp_path, "rules: crazy-eights\nseed: 11\nseats: 3\n")
    first = json.loads(invoke("replay", str(path), "--json").output)
    again = json.loads(invoke("replay", str(path), "--json").output)
    assert first == again
    assert [len(h) for h in first["hands"]] == [5, 5, 5]  # C1: five cards each
    assert len(first["stock"]) == 52 - 15 - 1


@pytest.mark.parametrize("text,fragments", [
    ("rules: nosuch\n", ["rules", "nosuch"]),
    ("rules: switch\nhands: [[7H, ZZ]]\ntop: 9H\n", ["hands[0]", "ZZ"]),
    ("rules: switch\nhands: [[7H, 2C], [7H]]\ntop: 9H\n", ["7H", "already"]),
    ("rules: switch\nhands: [[7H]]\ntop: 9H\n", ["hands", "2..6", "1"]),
    ("rules: switch\nseats: 9\n", ["seats", "9"]),
    ("rules: switch\nbogus: 1\n", ["bogus", "unknown key"]),
    ("rules: [switch\n", ["malformed YAML", "line"]),
    ("rules: switch\nhands: [[7H], [8H]]\n", ["top", "required"]),
])
def test_bad_positions_give_one_line_and_exit_1(tmp_path: Path, text: str, fragments: list[str]) -> None:
    result = invoke("replay", str(write(tmp_path, text)), "--json")
    assert_one_line_error(result, *fragments)


def test_unreadable_position_file(tmp_path: Path) -> None:
    assert_one_line_error(invoke("replay", str(tmp_path / "missing.yaml")), "missing.yaml", "cannot read")


def test_rules_lists_every_preset_with_a_summary() -> None:
    result = invoke("rules")
    assert result.exit_code == 0
    assert "switch" in result.output and "crazy-eights" in result.output
    assert "7-flush" in result.output


def test_rules_shows_one_preset_settings_and_powers() -> None:
    result = invoke("rules", "switch")
    assert result.exit_code == 0
    for fragment in ("2-6, default 4", "pick up 5 (jack)", "opens its suit", "20"):
        assert fragment in result.output


def test_rules_of_a_user_file_built_on_a_preset(tmp_path: Path) -> None:
    path = write(tmp_path, 'base: switch\nname: no-flush\npowers: {"7": {}}\n', "no-flush.yaml")
    result = invoke("rules", str(path))
    assert result.exit_code == 0, result.output
    assert "no-flush" in result.output and "opens its suit" not in result.output


@pytest.mark.parametrize("text,fragments", [
    ("base: switch\ncolour: red\n", ["colour", "unknown key"]),
    ("base: nosuch\n", ["base", "nosuch"]),
    ("base: switch\npowers: {ZQ: {skip: true}}\n", ["ZQ"]),
    ("base: switch\ndeal: {hand_size: 20}\n", ["deal.hand_size", "deck holds 52"]),
    ("base: switch\nseats: {min: 2, max: 3, default: 9}\n", ["seats.default"]),
    ("base: switch\npowers: {\"2\": {pickup: -1, stack: two}}\n", ["pickup"]),
    ("base: switch\npowers: {\"2\": {answers: [queen]}}\n", ["powers.2.answers", "queen"]),
    ("base: switch\nplay: {skips: pending}\npowers: {\"8\": {}}\n", ["play.skips"]),
    ("base: irish\ndeal: {jokers: 2, starter: any}\n", ["deal.starter_refuses", "joker"]),
    ("base: london\nplay: {max_cards: 1}\n", ["play.max_cards", "runs"]),
    ("base: crazy-eights\ndrawing: {when: any}\n", ["drawing.after_draw", "must-play"]),
    ("base: switch-classic\nmatch: {wins: 0}\n", ["match.wins"]),
    ("base: switch-classic\ndeal: {starter_refuses: [A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K]}\n",
     ["deal.starter_refuses", "every card"]),
])
def test_bad_rule_sets_give_one_line_and_exit_1(tmp_path: Path, text: str, fragments: list[str]) -> None:
    assert_one_line_error(invoke("rules", str(write(tmp_path, text, "custom.yaml"))), *fragments)


SHIPPED_CUSTOM = Path(__file__).parent.parent / "tournaments"


@pytest.mark.parametrize("name,fragments", [
    ("switch-no-flush.yaml", ["switch-no-flush", "7", "plain", "2-6, default 4"]),
    ("crazy-eights-unlimited.yaml", ["crazy-eights-unlimited", "52 per turn", "must-play"]),
])
def test_rules_shows_the_shipped_custom_rule_sets(name: str, fragments: list[str]) -> None:
    """Issue 5 point 3: the two examples in tournaments/ load on their base preset and show."""
    result = invoke("rules", str(SHIPPED_CUSTOM / name))
    assert result.exit_code == 0, result.output
    for fragment in fragments:
        assert fragment in result.output


def test_a_rule_set_without_a_summary_does_not_borrow_its_bases_as_its_own(tmp_path: Path) -> None:
    """S4's 7-flush is switch's; a file that makes the 7 plain and writes no summary must not be
    described by switch's words alone: it says it is switch changed, then quotes the base."""
    mine = write(tmp_path, 'base: switch\nname: mine\npowers:\n  "7": {}\n')
    result = runner.invoke(app, ["rules", str(mine)], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    assert "switch with this file's changes (switch: " in result.output
    own = write(tmp_path, 'base: switch\nname: mine\nsummary: no flush here\npowers:\n  "7": {}\n')
    shown = runner.invoke(app, ["rules", str(own)], env={"COLUMNS": "400"}).output
    assert "no flush here" in shown and "this file's changes" not in shown


def test_rules_names_the_refused_starters_card_by_card_where_a_rank_is_split() -> None:
    """S1: the starter must be 3, 4, 5, 6, 9, K, Q♥ or Q♦; so of the queens only the black
    ones are refused, and the row must not read as if every queen were."""
    result = invoke("rules", "switch")
    assert result.exit_code == 0, result.output
    assert "refuses A 2 7 8 T J QC QS (new deal)" in result.output


@pytest.mark.parametrize("name", ["two-four-jacks", "switch-classic", "irish"])
def test_rules_shows_each_new_preset(name: str) -> None:
    """Every preset shows its settings; the new mechanisms have rows of their own."""
    result = invoke("rules", name)
    assert result.exit_code == 0, result.output
    for fragment in ("last card", "match", "starter"):
        assert fragment in result.output


@pytest.mark.parametrize("name", ["two-four-jacks", "switch-classic", "irish"])
def test_replay_and_bench_work_for_each_new_preset(tmp_path: Path, name: str) -> None:
    """Issue 5 point 4: a dealt replay prints NOTATION's JSON (plus only added keys) and bench runs."""
    result = invoke("replay", str(write(tmp_path, f"rules: {name}\nseed: 3\nmoves: []\n")), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) >= {"rules", "status", "hands", "stock", "discard", "pending", "places"}
    assert set(data) - {"rules", "status", "winner", "reason", "to_move", "direction", "top", "active_suit",
                        "pending", "hands", "stock", "discard", "recycles_left", "decisions",
                        "places"} <= {"pending_skip"}
    bench = invoke("bench", "--rules", name, "--games", "20", "--json")
    assert bench.exit_code == 0 and json.loads(bench.output)["games"] == 20


def test_unknown_preset_name() -> None:
    assert_one_line_error(invoke("rules", "nosuch"), "nosuch", "switch")


def test_bench_json_has_the_documented_keys() -> None:
    result = invoke("bench", "--rules", "crazy-eights", "--games", "20", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"rules", "games", "seconds", "games_per_s", "decisions_per_s", "build"} <= set(data)
    assert data["rules"] == "crazy-eights" and data["games"] == 20 and data["games_per_s"] > 0
    assert data["build"] == "python"  # the suite runs the sources (the installed wheel: "mypyc")


@pytest.mark.parametrize("name", ["switch", "london"])
def test_bench_playouts_reports_playouts_per_second_from_mid_game_positions(name: str) -> None:
    """Issue 13 point 2: `arena bench --playouts --rules NAME`."""
    result = invoke("bench", "--playouts", "--rules", name, "--games", "30", "--seats", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["rules"] == name and data["seats"] == 2 and data["playouts"] == 30
    assert data["playouts_per_s"] > 0 and data["decisions_per_playout"] > 0
    assert data["build"] == "python"  # the suite runs the sources
    shown = runner.invoke(app, ["bench", "--playouts", "--games", "10"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and "playouts/s" in shown.output and "switch, 4 seats" in shown.output
    assert "engine: pure Python" in shown.output


def test_bench_playouts_with_tries_times_the_informed_playouts_mcts_plays() -> None:
    """What mcts's search spends its budget on: informed playouts, ``playout_tries`` plays built
    a turn (the random ones are the engine's figure, issue 13 point 2)."""
    result = invoke("bench", "--playouts", "--tries", "3", "--games", "30", "--seats", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["playout"], data["tries"], data["playouts"]) == ("informed", 3, 30)
    assert data["playouts_per_s"] > 0 and data["decisions_per_playout"] > 0
    plain = json.loads(invoke("bench", "--playouts", "--games", "30", "--seats", "2", "--json").output)
    assert (plain["playout"], plain["tries"]) == ("random", 1)
    shown = runner.invoke(app, ["bench", "--playouts", "--tries", "2", "--games", "10"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and "10 informed (2 plays built a turn) playouts" in shown.output
    assert_one_line_error(invoke("bench", "--tries", "3"), "--tries", "--playouts")


def test_bench_rejects_a_bad_seat_count() -> None:
    assert_one_line_error(invoke("bench", "--rules", "switch", "--seats", "8"), "seats", "8")


def test_bench_peer_without_openspiel_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_pyspiel(name, *args, **kwargs):  # type: ignore[no-untyped-def]
        if name == "pyspiel":
            raise ImportError("No module named 'pyspiel'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyspiel)
    result = invoke("bench", "--games", "5", "--peer", "openspiel")
    assert_one_line_error(result, "python -m pip install open-spiel")
    assert "-e" not in result.output.split()  # an editable install would drop the compiled engine


def test_bench_peer_plays_the_openspiel_preset_and_openspiels_same_game() -> None:
    """Issue 12: without --rules, --peer openspiel benches the openspiel preset against
    OpenSpiel's crazy_eights with the same parameters, in one run: both rates and the ratio."""
    result = invoke("bench", "--games", "20", "--seats", "3", "--peer", "openspiel", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["rules"] == "openspiel" and data["peer"]["rules"] == "openspiel:crazy_eights"
    assert data["peer"]["games"] == 20 and data["peer"]["games_per_s"] > 0 and data["ratio"] > 0
    assert data["build"] == "python" and data["peer"]["build"] == "c++"
    shown = runner.invoke(app, ["bench", "--games", "10", "--peer", "openspiel"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and "games/s ratio arena / openspiel:crazy_eights" in shown.output
    assert "arena's engine: pure Python" in shown.output


def test_bench_peer_refuses_a_rule_set_openspiel_does_not_play() -> None:
    """crazy-eights has sets and at most three draws when stuck: not OpenSpiel's game."""
    result = invoke("bench", "--rules", "crazy-eights", "--games", "5", "--peer", "openspiel")
    assert_one_line_error(result, "crazy-eights", "--rules openspiel")


def test_rules_shows_how_london_plays_chain_and_its_jokers() -> None:
    """L2 (runs, mixed pickup stacks, covers), L7 (two seats: no emptying on a king), L8 jokers."""
    result = runner.invoke(app, ["rules", "london"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for fragment in ("run in suit", "stack pickup cards in any mix", "cover a queen",
                     "2, each standing for the card it names", "with two seats also K"):
        assert fragment in result.output


def test_bench_sandbox_json_has_the_documented_keys() -> None:
    """Issues 3 and 8: sandboxed games/s, the decision round trip and the raw IPC cost beside
    it, and the start of each game's fresh bot process."""
    result = invoke("bench", "--sandbox", "--games", "5", "--seats", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for key in ("games_per_s", "decisions_per_s", "round_trip_us", "raw_round_trip_us",
                "round_trip_ratio", "game_start_ms", "inprocess_games_per_s"):
        assert data[key] > 0, key
    assert data["rules"] == "switch" and data["games"] == 5


LONDON_STACK = """\
rules: london
hands: [[JH, 3C], [4D, 5D]]
top: JS
active_suit: S
pending: {kind: jack, amount: 7, holds: [two, jack]}
moves: [JH]
"""


def test_L3_a_position_can_pend_a_mixed_stack_that_a_red_jack_cancels(tmp_path: Path) -> None:
    """A 2 and a black jack in the stack (7 to pick up): the red jack cancels all of it."""
    result = invoke("replay", str(write(tmp_path, LONDON_STACK)), "--json")
    assert result.exit_code == 0, result.output
    state = json.loads(result.output)
    assert state["pending"] is None and state["hands"][0] == ["3C"] and state["to_move"] == 1


def test_L3_the_position_names_the_kinds_a_mixed_stack_holds(tmp_path: Path) -> None:
    """A red jack's answer depends on the stack's make-up, so the text view says it: 'jack 7'
    alone would not tell a player that JH cancels it."""
    result = invoke("replay", str(write(tmp_path, LONDON_STACK.replace("moves: [JH]\n", ""))))
    assert result.exit_code == 0, result.output
    assert "pending jack 7 (jack+two)," in result.output


def test_L3_a_red_jack_does_not_answer_a_stack_of_twos_only(tmp_path: Path) -> None:
    text = LONDON_STACK.replace("{kind: jack, amount: 7, holds: [two, jack]}", "{kind: two, amount: 4, holds: [two]}")
    result = invoke("replay", str(write(tmp_path, text)), "--json")
    assert result.exit_code == 2
    assert json.loads(result.output)["error"] == "illegal"


def test_a_pending_stack_with_an_unknown_kind_is_refused(tmp_path: Path) -> None:
    text = LONDON_STACK.replace("holds: [two, jack]", "holds: [two, queen]")
    assert_one_line_error(invoke("replay", str(write(tmp_path, text))), "pending", "holds")


def test_L8_a_joker_on_top_shows_the_card_it_stands_for(tmp_path: Path) -> None:
    """L8: X1 played as the jack of spades acts as it (a black-jack penalty) and keeps that
    identity on the pile; the JSON adds `top_as`, the person's view says `X1 (as JS)`."""
    text = "rules: london\nhands: [[X1, 3C, 4C], [4D, 5D]]\ntop: 9S\nmoves: [\"X1:JS\"]\n"
    path = write(tmp_path, text)
    state = json.loads(invoke("replay", str(path), "--json").output)
    assert (state["top"], state["top_as"], state["pending"]) == ("X1", "JS", {"kind": "jack", "amount": 5})
    assert "top X1 (as JS)" in invoke("replay", str(path)).output


def replay_lines(tmp_path: Path, text: str, columns: int = 200) -> list[str]:
    """The move lines a person's replay of position ``text`` prints (``   1. seat 0 ...``)."""
    result = runner.invoke(app, ["replay", str(write(tmp_path, text))], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return [line.strip() for line in result.output.splitlines() if line[:5].strip().rstrip(".").isdigit()]


FOUR = "[3D, 9D], [4H, 5S], [6D, 7H]"  # the other seats' hands of a 4-seat position


@pytest.mark.parametrize("text,marked", [
    (f"rules: switch\nhands: [[2H, 5C], {FOUR}]\ntop: 9H\nstock: [3C, 5D, 6S]\nmoves: [2H, draw]\n",
     ["1. seat 0 plays 2H: pickup +2 (two, 2 to pick up)",
      "2. seat 1 draws 2: takes the two penalty of 2"]),
    (f"rules: switch\nhands: [[2C, 5C], {FOUR}]\ntop: 2H\npending: {{kind: two, amount: 2}}\n"
     "stock: [3C, 5D, 6S, 7C, 8C]\nmoves: [2C, draw]\n",
     ["1. seat 0 plays 2C: pickup +2 (two, 4 to pick up)",
      "2. seat 1 draws 4: takes the two penalty of 4"]),
    (f"rules: switch\nhands: [[JH, 3C], {FOUR}]\ntop: JS\npending: {{kind: jack, amount: 5}}\nmoves: [JH]\n",
     ["1. seat 0 plays JH: cancels the jack penalty of 5"]),
    # L3, B3: in one play the black jack raises the two to a jack penalty of 7, then the red
    # jack cancels all 7 (it read 'cancels the two penalty of 2')
    (f"rules: london\nhands: [[JS, JH, 3C], {FOUR}]\ntop: 2S\npending: {{kind: two, amount: 2}}\nmoves: [JS JH]\n",
     ["1. seat 0 plays JS JH: pickup +5 (jack, 7 to pick up); cancels the jack penalty of 7"]),
    # two red jacks against two black ones: one run of cancels, nothing left to draw
    (f"rules: switch\nhands: [[JH, JD, 3C], {FOUR}]\ntop: JS\npending: {{kind: jack, amount: 10}}\n"
     "moves: [JH JD]\n",
     ["1. seat 0 plays JH JD: cancels the jack penalty of 10"]),
    # S8: one red jack against two black jacks takes 5 off and its player draws the other 5
    (f"rules: switch\nhands: [[JH, 3C], {FOUR}]\ntop: JS\npending: {{kind: jack, amount: 10}}\n"
     "stock: [3S, 4S, 6S, 7S, 8S, 9S]\nmoves: [JH]\n",
     ["1. seat 0 plays JH (drew 5): takes 5 off the jack penalty of 10, draws the other 5"]),
    # B3: the red jack cancels the whole penalty of 5; the card drawn is B5's penalty for the
    # missing last-card call (2, of which the pile, shuffled into the stock, held one)
    (f"rules: blackjack\nhands: [[JH, 3C], {FOUR}]\ntop: JS\npending: {{kind: jack, amount: 5}}\nmoves: [JH]\n",
     ["1. seat 0 plays JH (drew 1): cancels the jack penalty of 5; no last-card call (penalty 2); "
      "the pile is shuffled into the stock"]),
    (f"rules: switch\nhands: [[8H, 3C], {FOUR}]\ntop: 9H\nmoves: [8H, 4H]\n",
     ["1. seat 0 plays 8H: skips seat 1", "2. seat 2 plays 4H"]),
    (f"rules: switch\nhands: [[TH, 3C], {FOUR}]\ntop: 9H\nmoves: [TH, 7H]\n",
     ["1. seat 0 plays TH: reverses (direction -1)", "2. seat 3 plays 7H"]),
    (f"rules: switch\nhands: [[QS, 3C, 4C], {FOUR}]\ntop: 9S\nmoves: [QS]\n",
     ["1. seat 0 plays QS: swaps hands with seat 1  ->  top QS suit S  hands [2 2 2 2]"]),
    (f"rules: switch\nhands: [[AH, 3C], {FOUR}]\ntop: 9H\nmoves: [AH=S]\n",
     ["1. seat 0 plays AH=S: calls S  ->  top AH suit S"]),
    (f"rules: two-four-jacks\nhands: [[5H, 6H], {FOUR}]\ntop: 9H\nmoves: [5H !]\n",
     ["1. seat 0 plays 5H !: calls last card"]),
    ("rules: switch\nhands: [[8H, 3C, 4C], [3D, 4D]]\ntop: 9H\nmoves: [8H]\n",
     ["1. seat 0 plays 8H: goes again"]),
    (f"rules: blackjack\nhands: [[8H, 3C, 4C], {FOUR}]\ntop: 9H\nmoves: [8H, pass]\n",
     ["1. seat 0 plays 8H: a skip waits for seat 1", "2. seat 1 passes: accepts the skip"]),
    (f"rules: blackjack\nhands: [[3C, 4C], {FOUR}]\ntop: 9H\nstock: [3S, 5H]\nmoves: [3C]\n",
     ["1. seat 0 plays 3C (drew 2): illegal play, the cards stay"]),
    (f"rules: switch\nhands: [[3C, 4C], {FOUR}]\ntop: 9H\nstock: []\ndiscard: [KS, KD]\nmoves: [draw]\n",
     ["1. seat 0 draws 1: the pile is shuffled into the stock"]),
])
def test_replay_marks_what_each_move_did(tmp_path: Path, text: str, marked: list[str]) -> None:
    """S7 pickups stack and are drawn, S8 the red jack cancels, 8 skips, 10 reverses, the black
    queen swaps hands, the ace calls, W5 the last card is called, S15 two seats go again, B3 a
    skip waits to be answered, B4 a blunder keeps its cards, G4 the pile is recycled."""
    lines = replay_lines(tmp_path, text)
    assert len(lines) == len(marked)
    for line, start in zip(lines, marked):
        assert line.startswith(start), line


def test_replay_effects_come_from_the_engine_not_the_card_names(tmp_path: Path) -> None:
    """A rule set whose 8 is plain: the same play skips nobody, and no move says it does."""
    write(tmp_path, 'base: switch\nname: plain-eights\npowers: {"8": {}}\n', "plain-eights.yaml")
    text = f"rules: plain-eights.yaml\nhands: [[8H, 3C], {FOUR}]\ntop: 9H\nstock: [3S]\nmoves: [8H, draw]\n"
    assert [line.split("  ->")[0] for line in replay_lines(tmp_path, text)] == [
        "1. seat 0 plays 8H", "2. seat 1 draws 1"]


def test_a_narrow_replay_puts_the_effects_under_their_move(tmp_path: Path) -> None:
    text = f"rules: switch\nhands: [[QS, 3C, 4C], {FOUR}]\ntop: 9S\nmoves: [QS]\n"
    result = runner.invoke(app, ["replay", str(write(tmp_path, text))], env={"COLUMNS": "60"})
    lines = result.output.splitlines()
    at = next(i for i, line in enumerate(lines) if "1. seat 0 plays QS" in line)
    assert "swaps" not in lines[at] and lines[at + 1].strip() == "↳ swaps hands with seat 1"
    assert max(len(line) for line in lines) <= 60


def test_rules_names_the_cards_no_hand_may_finish_on_card_by_card_where_a_rank_is_split(
        tmp_path: Path) -> None:
    """L7's never-finish list may name single cards; "Q" alone would ban QD, which finishes."""
    mine = write(tmp_path, "base: switch\nfinish: {never_on: [black Q, QH, K]}\n")
    result = runner.invoke(app, ["rules", str(mine)], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    assert re.search(r"never finish on\s*│ QC QH QS K\s*│", result.output), result.output
    assert "(with two seats also" not in result.output
