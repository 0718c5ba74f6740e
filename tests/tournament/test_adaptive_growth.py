"""Changing an adaptive tournament over its stored games: kept only when it would stop no sooner."""

from __future__ import annotations

from pathlib import Path

import pytest
from tournament_helpers import make_config, play_course, play_synthetic

from arena.tournament.adaptive import course_of
from arena.tournament.errors import ConfigChangedError
from arena.tournament.store import Opening, Store, results_path

SWISS = "bots: [a, b, c, d]\nseats: 2\nformat: swiss\nseed: 5\nuntil: {margin: 1.5, games: 40}\n"
ROBIN = "bots: [a, b, c, d]\nseats: 2\nrounds: 4\nseed: 5\n"
VERSIONS = {bot: bot * 64 for bot in "abcde"}
SKILLS = dict.fromkeys("abcde", 0.0)


def stored(folder: Path, text: str) -> Store:
    """A store holding the first games of the tournament ``text``."""
    config = make_config(text)
    course = course_of(config)
    records = play_course(course, SKILLS) if course is not None else play_synthetic(config, SKILLS)
    store = Store.open(results_path("demo", folder))
    store.init_tournament(config, text, {}, {b: VERSIONS[b] for b in config.bot_names})
    store.add_games(records[:7])
    return store


def reopen(store: Store, text: str, versions: dict[str, str] | None = None) -> Opening:
    config = make_config(text)
    return store.init_tournament(config, text, {}, versions or {b: VERSIONS[b] for b in config.bot_names})


def test_a_swiss_tournament_with_a_higher_budget_or_margin_goes_on_from_its_games(tmp_path: Path) -> None:
    with stored(tmp_path, SWISS) as store:
        raised = SWISS.replace("games: 40", "games: 80")
        assert reopen(store, raised) == Opening(growth=(
            "tournament 'demo' goes on: key 'until.games' raised (40 -> 80) (its stored games "
            "are kept)"))
        assert store.game_count() == 7
        assert store.tournament().config_hash == make_config(raised).config_hash
        assert reopen(store, raised) == Opening()                  # recorded: a plain resume now
        assert reopen(store, raised.replace("margin: 1.5", "margin: 2")).growth == (
            "tournament 'demo' goes on: key 'until.margin' raised (1.5 -> 2.0) (its stored games "
            "are kept)")


@pytest.mark.parametrize(("change", "refusal"), [
    (lambda t: t.replace("games: 40", "games: 20"),
     "key 'until.games' lowered (40 -> 20: it could have stopped before some of the stored games)"),
    (lambda t: t.replace("margin: 1.5", "margin: 1"), "key 'until.margin' lowered (1.5 -> 1.0"),
    (lambda t: t.replace("[a, b, c, d]", "[a, b, c, d, e]"),
     "bots added (e): a swiss tournament's rounds are drawn from the stored games without them"),
])
def test_a_swiss_tournament_refuses_every_other_change(tmp_path: Path, change, refusal: str) -> None:
    with stored(tmp_path, SWISS) as store:
        with pytest.raises(ConfigChangedError, match=f"holds 7 games of a different setup .*{refusal}"
                           .replace("(", r"\(").replace(")", r"\)")):
            reopen(store, change(SWISS))
        assert store.game_count() == 7


def test_a_new_version_of_a_bot_is_refused_in_an_adaptive_tournament(tmp_path: Path) -> None:
    with stored(tmp_path, SWISS) as store:
        with pytest.raises(ConfigChangedError, match="bot 'a' changed .* drawn from its old games"):
            reopen(store, SWISS, {**VERSIONS, "a": "f" * 64})


def test_a_round_robin_grows_into_more_rounds_or_out_of_its_until(tmp_path: Path) -> None:
    adaptive = ROBIN + "until: {margin: 1.5}\n"
    with stored(tmp_path, adaptive) as store:
        more = reopen(store, adaptive.replace("rounds: 4", "rounds: 6"))
        assert more.growth == ("tournament 'demo' grows: rounds 4 -> 6: 24 new games (7 stored "
                               "games kept, up to 65 more to play)")
        plain = reopen(store, ROBIN.replace("rounds: 4", "rounds: 6"))
        assert plain.growth == ("tournament 'demo' grows: key 'until' taken out: every round is "
                                "played (7 stored games kept, 65 to play)")


def test_a_round_robin_refuses_an_until_added_and_bots_added_under_one(tmp_path: Path) -> None:
    with stored(tmp_path, ROBIN) as store:
        with pytest.raises(ConfigChangedError, match="key 'until' added"):
            reopen(store, ROBIN + "until: {margin: 1.5}\n")
    adaptive = ROBIN + "until: {margin: 1.5}\n"
    with stored(tmp_path / "adaptive", adaptive) as store:
        with pytest.raises(ConfigChangedError, match="bots added \\(e\\): its stops were decided"):
            reopen(store, adaptive.replace("[a, b, c, d]", "[a, b, c, d, e]"))


def test_cutting_the_rounds_of_a_tournament_that_had_until_names_the_real_reason(tmp_path: Path) -> None:
    """An adaptive round-robin stored 7 games (round 1 of 4); taking 'until' out and cutting to
    2 rounds is refused (only a fixed schedule is cut). Seen: the refusal said the stored games
    of the rounds taken out would no longer belong, though none lay there."""
    with stored(tmp_path, ROBIN + "until: {margin: 1.5}\n") as store:
        with pytest.raises(ConfigChangedError, match=r"key 'rounds' lowered \(4 -> 2: only a fixed "
                                                     r"schedule, without 'until' before and after, "
                                                     r"keeps its games when cut\)"):
            reopen(store, ROBIN.replace("rounds: 4", "rounds: 2"))
        assert store.game_count() == 7


def test_a_swiss_file_changed_in_nothing_its_games_depend_on_says_so(tmp_path: Path) -> None:
    """Seen: 'goes on:  (its stored games are kept)', an empty reason, for a default limit
    written into a swiss file."""
    with stored(tmp_path, SWISS) as store:
        assert reopen(store, SWISS + "limits: {bank: 2.0}\n").growth == (
            "tournament 'demo' goes on: its file changed, not its games (its stored games are kept)")
