"""How long each bot thinks: the referee times every move it asks for, the record keeps each
seat's (moves, seconds), the store's summary sums them per bot, and the rankings show the mean
milliseconds a move (``ms/move``), as chess tournament tools report each engine's time a move.

Stores written before the referee timed moves (schema 3 and older) are upgraded on first open:
their games count as untimed, so a bot's figure covers exactly the moves that were timed.
"""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from rich.console import Console
from clients import QuietClient
from tournament_helpers import (downgraded_store, make_config, play_synthetic, stored_schema,
                                upgrades_fail)

from arena.cli.render import render_rankings
from arena.engine.rules import load_rules
from arena.play.faults import FaultCode
from arena.play.referee import Referee
from arena.tournament.errors import RecordError
from arena.tournament.export import rankings_json
from arena.tournament.ratings import rank_games, rank_store
from arena.tournament.records import GameRecord
from arena.tournament.store import SCHEMA_VERSION, Store

SKILLS = {"ace": 2.0, "bob": 1.0, "cat": 0.0, "dan": -1.0}
CONFIG = make_config("bots: [ace, bob, cat, dan]\nrounds: 10\nseed: 5")
VERSIONS = {bot: "v" for bot in SKILLS}
# what each bot takes to answer a move in the synthetic games, in seconds
PACE = {"ace": 0.5, "bob": 0.125, "cat": 0.0625, "dan": 0.0}


class FakeClock:
    """The referee's clock, moved on only by the bots' replies."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class PacedBot(QuietClient):
    """Plays the first legal move after ``pace`` seconds of the fake clock; can answer garbage."""

    def __init__(self, clock: FakeClock, pace: float, garbage_at: int | None = None) -> None:
        self.clock, self.pace, self.garbage_at = clock, pace, garbage_at
        self.asked = 0

    def act(self, message: dict) -> str:
        self.asked += 1
        self.clock.now += self.pace
        if self.asked == self.garbage_at:
            return "not a card"
        return message["obs"]["legal"][0]


def timed(records: list[GameRecord], seed: int = 0) -> list[GameRecord]:
    """The records with each seat's thinking: a few moves at its bot's pace."""
    rng = random.Random(seed)
    out = []
    for record in records:
        think = []
        for bot in record.table:
            moves = rng.randint(0, 9)
            think.append((moves, moves * PACE[bot]))
        out.append(replace(record, think=tuple(think)))
    return out


def mean_ms(records: list[GameRecord]) -> dict[str, float | None]:
    """Each bot's milliseconds a move, summed from the records by hand."""
    moves = {bot: 0 for bot in SKILLS}
    seconds = {bot: 0.0 for bot in SKILLS}
    for record in records:
        for bot, (asked, waited) in zip(record.table, record.think):
            moves[bot] += asked
            seconds[bot] += waited
    return {bot: 1000 * seconds[bot] / moves[bot] if moves[bot] else None for bot in SKILLS}


def test_the_referee_times_every_move_it_asks_a_seat_for() -> None:
    clock = FakeClock()
    bots = [PacedBot(clock, 0.25), PacedBot(clock, 0.0)]
    result = Referee(load_rules("switch"), clock=clock).play(bots, deal_seed=3)
    assert bots[0].asked > 3 and bots[1].asked > 3
    assert result.think == ((bots[0].asked, pytest.approx(0.25 * bots[0].asked)), (bots[1].asked, 0.0))


def test_a_faulty_seat_is_timed_up_to_its_fault_and_its_fallback_moves_are_not() -> None:
    clock = FakeClock()
    bots = [PacedBot(clock, 0.5, garbage_at=2), PacedBot(clock, 0.125)]
    result = Referee(load_rules("switch"), clock=clock).play(bots, deal_seed=3)
    assert [f.code for f in result.faults] == [FaultCode.INVALID]
    assert bots[0].asked == 2          # asked no more once it faulted: its fallback played on
    assert result.think[0] == (2, 1.0)
    assert result.think[1] == (bots[1].asked, pytest.approx(0.125 * bots[1].asked))


def test_the_rankings_give_each_bot_its_mean_milliseconds_a_move() -> None:
    records = timed(play_synthetic(CONFIG, SKILLS, seed=1))
    rankings = rank_games("demo", records)
    want = mean_ms(records)
    got = {s.bot: s.stats.ms_per_move for s in rankings.standings}
    assert got == pytest.approx(want)
    assert got["ace"] == pytest.approx(500.0) and got["dan"] == 0.0
    bots = {line["bot"]: line for line in rankings_json(rankings)["bots"]}
    assert bots["bob"]["ms_per_move"] == pytest.approx(125.0)
    assert bots["bob"]["moves_asked"] == sum(m for r in records for b, (m, _) in zip(r.table, r.think)
                                             if b == "bob")


def test_a_bot_with_no_timed_move_has_no_figure() -> None:
    rankings = rank_games("demo", play_synthetic(CONFIG, SKILLS, seed=2))  # records without think
    assert {s.stats.ms_per_move for s in rankings.standings} == {None}
    text = rendered(rankings)
    assert "ms/move" in text
    ace = next(line for line in text.splitlines() if " ace " in line)
    assert ace.rstrip().rstrip("│").rstrip().endswith("-")


def test_the_table_shows_the_milliseconds_a_move() -> None:
    text = rendered(rank_games("demo", timed(play_synthetic(CONFIG, SKILLS, seed=3))))
    ace = next(line for line in text.splitlines() if " ace " in line)
    bob = next(line for line in text.splitlines() if " bob " in line)
    assert ace.rstrip().rstrip("│").rstrip().endswith("500")
    assert bob.rstrip().rstrip("│").rstrip().endswith("125")


def rendered(rankings) -> str:
    out = io.StringIO()
    render_rankings(Console(file=out, width=160, color_system=None), rankings)
    return out.getvalue()


def test_the_stored_summary_sums_the_thinking_as_a_count_afresh_does(tmp_path) -> None:
    records = timed(play_synthetic(CONFIG, SKILLS, seed=4), seed=4)
    with Store.open(tmp_path / "t.sqlite") as store:
        store.init_tournament(CONFIG, "", {}, VERSIONS)
        for start in range(0, len(records), 7):
            store.add_games(records[start:start + 7])
    with Store.open(tmp_path / "t.sqlite", readonly=True) as reader:
        stored = rank_store(reader)
    fresh = rank_games("demo", records)
    assert {s.bot: (s.stats.moves_asked, s.stats.think_s) for s in stored.standings} == {
        s.bot: (s.stats.moves_asked, s.stats.think_s) for s in fresh.standings}
    assert {s.bot: s.stats.ms_per_move for s in stored.standings} == pytest.approx(mean_ms(records))


def test_a_record_whose_thinking_does_not_fit_its_table_is_refused() -> None:
    record = play_synthetic(make_config("bots: [ace, bob]\nseats: 2\nrounds: 1\nseed: 1"), SKILLS)[0]
    with pytest.raises(RecordError, match="every seat"):
        replace(record, think=((3, 0.5),))
    with pytest.raises(RecordError, match="neither negative"):
        replace(record, think=((3, 0.5), (-1, 0.0)))
    with pytest.raises(RecordError, match="malformed"):
        GameRecord.from_dict({**record.to_dict(), "think": [[1, 2, 3], [4, 5, 6]]})


def schema_3_store(path, records) -> None:
    """A results file as the store wrote it before the referee timed moves (schema 3), its
    ratings marked so that a re-rating would show."""
    downgraded_store(path, CONFIG, VERSIONS, records, 3, [
        "ALTER TABLE games DROP COLUMN think", "ALTER TABLE summary_bots DROP COLUMN asked",
        "ALTER TABLE summary_bots DROP COLUMN think_s",
        "UPDATE summary_bots SET mu = 99.0 WHERE bot = 'dan'"])


def test_a_store_of_schema_3_is_upgraded_on_first_open_and_its_games_count_as_untimed(tmp_path) -> None:
    records = play_synthetic(CONFIG, SKILLS, seed=6)
    path = tmp_path / "old.sqlite"
    schema_3_store(path, records[:40])
    with Store.open(path, readonly=True) as reader:   # arena rankings on an old file
        rankings = rank_store(reader)
        assert reader.game(0) == records[0]
    dan = next(s for s in rankings.standings if s.bot == "dan")
    assert dan.mu == 99.0                              # not rated again
    assert {s.stats.ms_per_move for s in rankings.standings} == {None}
    assert stored_schema(path) == str(SCHEMA_VERSION)
    later = timed(records[40:])
    with Store.open(path) as store:                    # a resume stores timed games
        store.add_games(later)
        figures = {s.bot: s.stats.ms_per_move for s in rank_store(store).standings}
    assert figures == pytest.approx(mean_ms(later))    # the timed games only


def test_a_schema_3_store_that_cannot_be_written_is_read_as_it_is(tmp_path, monkeypatch) -> None:
    records = play_synthetic(CONFIG, SKILLS, seed=7)
    path = tmp_path / "old.sqlite"
    schema_3_store(path, records)

    upgrades_fail(monkeypatch)
    with Store.open(path, readonly=True) as reader:
        rankings = rank_store(reader)
        assert list(reader.games()) == records
    assert rankings.standings == rank_games("demo", records).standings   # from the games
    assert stored_schema(path) == "3"
