"""Rule-set and position files are read the way tournament files are: a key the file kind does
not know is refused, named in full with the file, and a bad value names its key."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.engine.game import Pending
from arena.engine.position import load_position
from arena.engine.rules import load_rules
from arena.errors import PositionError, RulesError


def write(folder: Path, text: str, name: str = "custom.yaml") -> Path:
    path = folder / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(("text", "message"), [
    ("base: switch\ncolour: red\n", "key 'colour': unknown key (known: blocked, blocked_after, deal, "),
    ("base: switch\ndeal: {hand_sise: 5}\n", "key 'deal.hand_sise': unknown key (did you mean 'hand_size'?)"),
    ("base: switch\npowers: {\"8\": {skp: true}}\n", "key 'powers.8.skp': unknown key (did you mean 'skip'?)"),
    ("base: switch\nplay: {runs: maybe}\n", "key 'play.runs': expected true or false, got 'maybe'"),
    ("base: switch\nseats: {max: x}\n", "key 'seats.max': expected an integer >= 2, got 'x'"),
    ("base: switch\ndeal: {hand_size: {default: 5, two: 7}}\n",
     "key 'deal.hand_size.two': expected a seat count or 'default'"),
    ("base: switch\ndrawing: 3\n", "key 'drawing': expected a mapping of keys, got 3"),
])
def test_a_rule_set_names_the_file_and_the_full_key(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(RulesError) as err:
        load_rules(path)
    assert str(err.value).startswith(f"{path}: {message}"), str(err.value)
    assert "\n" not in str(err.value)


def test_a_bare_off_still_turns_the_last_card_rule_off(tmp_path: Path) -> None:
    """YAML reads `off` as false; the rule set means the word."""
    assert load_rules(write(tmp_path, "base: switch-classic\nlast_card: {rule: off}\n")).last_card == "off"


def test_hand_sizes_by_seat_count_are_read_beside_their_default(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, "base: switch\ndeal: {hand_size: {default: 5, 2: 7}}\n"))
    assert (rules.hand_size_for(2), rules.hand_size_for(3)) == (7, 5)


@pytest.mark.parametrize(("text", "message"), [
    ("rules: switch\nsede: 3\n", "key 'sede': unknown key (did you mean 'seed'?)"),
    ("rules: switch\nbogus: 1\n", "key 'bogus': unknown key (known: active_suit, direction, "),
    ("rules: switch\npending: {kind: two, amount: 2, hold: [two]}\n",
     "key 'pending.hold': unknown key (did you mean 'holds'?)"),
    ("rules: switch\npending: {kind: three, amount: 2}\n", "key 'pending.kind': expected one of jack, two, got 'three'"),
    ("rules: switch\npending: {kind: two}\n", "key 'pending.amount': required, an integer >= 0"),
    ("rules: switch\nto_move: 7\n", "key 'to_move': expected a seat 0..3, got 7"),
    ("rules: switch\nmoves: draw\n", "key 'moves': expected a list of actions, got 'draw'"),
    ("seed: 3\n", "key 'rules': required, a preset name or a rule-set file"),
    ("rules: switch\nhands: [[3S, KD], [3D, 4D]]\ntop: X1\n",   # not a joker's stand-in rule
     "key 'top': card X1 is not in the deck of rules 'switch'"),
])
def test_a_position_names_the_file_and_the_full_key(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text, "position.yaml")
    with pytest.raises(PositionError) as err:
        load_position(path)
    assert str(err.value).startswith(f"{path}: {message}"), str(err.value)


def test_a_position_sets_the_pending_penalty_it_writes(tmp_path: Path) -> None:
    path = write(tmp_path, "rules: switch\npending: {kind: two, amount: 4, holds: [two]}\n", "position.yaml")
    assert load_position(path).game.pending == Pending("two", 4)


def test_rule_sets_load_without_pyyaml() -> None:
    """Bots in the sandbox build rule sets from parsed settings, with no PyYAML to import."""
    code = ("import sys; sys.modules['yaml'] = None\n"
            "from arena.engine.rules import build_rules\n"
            "print(build_rules({'name': 'mini', 'seats': {'max': 3}}, 'mini').seats_max)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "3"


def test_a_rule_set_or_position_that_is_not_utf8_is_named_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "latin.yaml"
    path.write_bytes("base: switch\nname: caf\u00e9\n".encode("latin-1"))
    with pytest.raises(RulesError, match=rf"^{path}: rule set is not UTF-8 text"):
        load_rules(str(path))
    with pytest.raises(PositionError, match=rf"^{path}: position file is not UTF-8 text"):
        load_position(path)


def test_C1_a_starter_eight_with_no_suit_named_reads_back_from_its_replay_json(tmp_path: Path) -> None:
    """C1: an 8 turned as the starter names no suit, and the replay JSON says so with
    `"active_suit": null`. That JSON must read back as a position (one notation, both ways):
    `active_suit: null` was refused as "unknown suit None", and leaving it out meant the 8's own
    suit, a different game (5H would no longer be playable on 8S)."""
    import json

    from arena.engine.game import Game

    rules = load_rules("crazy-eights")
    game = next(g for g in (Game.new(rules, 4, seed) for seed in range(200)) if g.active_suit < 0)
    shown = game.to_json()
    assert shown["active_suit"] is None and shown["top"][0] == "8"
    keys = ("to_move", "direction", "top", "active_suit", "hands", "stock", "discard", "recycles_left")
    text = json.dumps({"rules": "crazy-eights", **{key: shown[key] for key in keys}})
    read = load_position(write(tmp_path, text, "position.yaml")).game
    assert read.active_suit < 0 and read.to_json() == shown


@pytest.mark.parametrize("preset", ["switch", "crazy-eights", "switch-classic", "london", "two-four-jacks",
                                    "blackjack", "irish", "openspiel"])
def test_any_position_of_a_random_game_reads_back_from_its_replay_json(tmp_path: Path, preset: str) -> None:
    """One notation both ways: the replay JSON of positions met in random games (penalties,
    mixed stacks, waiting skips, jokers on top, recycled stocks), written as a position file,
    loads as the very same position."""
    import json
    import random

    from arena.engine.game import Game

    keys = ("to_move", "direction", "top", "active_suit", "pending", "hands", "stock", "discard",
            "recycles_left", "pending_skip", "top_as")
    rules = load_rules(preset)
    checked = 0
    for seed in range(12):
        seats = rules.seats_min + seed % (min(rules.seats_max, 5) - rules.seats_min + 1)
        game, rng = Game.new(rules, seats, seed), random.Random(seed)
        while not game.is_over and game.decisions < 200:
            if rng.random() < 0.1:
                shown = game.to_json()
                data = {"rules": preset, "seats": seats, **{k: shown[k] for k in keys if k in shown}}
                read = load_position(write(tmp_path, json.dumps(data), "position.yaml")).game.to_json()
                assert {**read, "decisions": shown["decisions"]} == shown, (preset, seed, game.decisions)
                checked += 1
            game.apply(rng.choice(game.legal_actions()))
    assert checked > 20
