"""Rendering pinned with an in-memory console at 80 and 160 columns, and the exact JSON shapes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import io
import json
import re

import pytest
from rich.console import Console

from arena.engine.outcome import OutcomeReason
from arena.play.faults import FaultCode
from arena.tournament.ratings import Rankings, Standing
from arena.tournament.records import Fault, GameRecord
from arena.tournament.runner import Leader, Progress, RunReport
from arena.cli.render import (
    RANKINGS_LEGEND, progress_view, render_games, render_head_to_head, render_rankings,
    render_report, short_names,
)
from arena.tournament.export import games_json, rankings_json
from arena.tournament.seats import SeatBias, SeatRate
from arena.tournament.stats import BotStats, HeadToHead

LONG = "heuristic-with-a-very-long-name-v2"


def console(width: int = 160) -> Console:
    return Console(file=io.StringIO(), width=width, color_system=None)


def printed(render, data, width: int) -> str:
    """What ``render(console, data)`` prints on a console ``width`` columns wide."""
    con = console(width)
    render(con, data)
    return con.file.getvalue()


def table_rows(text: str, count: int, table: int = 0) -> list[list[str]]:
    """The header and the ``count`` body rows of the ``table``-th table printed in ``text``
    (the line above its rule, the lines under it), cells parted by two or more spaces."""
    lines = text.splitlines()
    rules = [i for i, line in enumerate(lines) if line and set(line) == {"─"}]
    at = rules[table]
    return [re.split(r"\s{2,}", line.strip()) for line in [lines[at - 1], *lines[at + 1:at + 1 + count]]]


def assert_fits(text: str, width: int) -> None:
    assert max(len(line) for line in text.splitlines()) <= width, text


def stats(bot: str, games: int, wins: int, place: float, faults: int = 0) -> BotStats:
    """A bot's statistics with plausible intervals around its rates."""
    rate = wins / games
    return BotStats(bot, games, wins, rate, (max(0.0, rate - 0.1), min(1.0, rate + 0.1)),
                    place, (place - 0.25, place + 0.25), faults)


RANKINGS = Rankings(
    tournament="demo",
    games=12,
    standings=(
        Standing(1, "greedy", 27.5, 1.25, BotStats("greedy", 9, 4, 4 / 9, (0.2, 0.7), 2.0, (1.5, 2.5), 0,
                                                   200, 1.5), False),
        Standing(2, "random", 24.0, 1.0, BotStats("random", 9, 2, 2 / 9, (0.0, 0.45), 2.75, (2.25, 3.0), 0,
                                                  160, 0.2), False),
        Standing(3, "flaky", 30.0, 2.0, BotStats("flaky", 6, 3, 0.5, (0.25, 0.75), 2.5, (2.0, 3.0), 2), False),
        Standing(4, "cheat", 20.0, 3.0, BotStats("cheat", 0, 0, None, None, None, None, 0), True),
    ),
    head_to_head={
        ("greedy", "random"): HeadToHead("greedy", "random", 9, 6, 2),
        ("random", "greedy"): HeadToHead("random", "greedy", 9, 2, 6),
        ("greedy", "flaky"): HeadToHead("greedy", "flaky", 6, 3, 3),
        ("flaky", "greedy"): HeadToHead("flaky", "greedy", 6, 3, 3),
    },
)

# Five bots, one of them with a long name, after a long tournament: the table of the issue.
FIVE = ("heuristic", LONG, "greedy", "random", "first_legal")
BIG = Rankings(
    tournament="big",
    games=20000,
    standings=tuple(
        Standing(rank, bot, 30.0 - rank, 0.81, stats(bot, 16000, 5000 - 600 * rank, 1.5 + rank / 4,
                                                     faults=7 if bot == LONG else 0), False)
        for rank, bot in enumerate(FIVE, 1)
    ),
    head_to_head={(a, b): HeadToHead(a, b, 12000, 6000 + 100 * (j - i), 6000 - 100 * (j - i))
                  for i, a in enumerate(FIVE) for j, b in enumerate(FIVE) if a != b},
)

GAMES = [
    GameRecord(0, 0, ("greedy", "random", "flaky"), 5, ((1,), (0, 2)), 1, OutcomeReason.EMPTIED, 31, 0.2),
    GameRecord(
        1, 0, ("random", "flaky", "greedy"), 5, ((0, 2), (1,)), None, OutcomeReason.BLOCKED, 8, 0.1,
        faults=(Fault(1, "flaky", FaultCode.TIMEOUT, "no reply in 1.0 s", "log"),),
    ),
]

FOUR_SEATS = [
    GameRecord(game_id, game_id // 4, table, 9, ((0,), (1,), (2, 3)), 0, OutcomeReason.EMPTIED, 140, 0.3)
    for game_id, table in enumerate([FIVE[:4], FIVE[1:], (FIVE[4], *FIVE[:3]), FIVE[:4][::-1]])
]


def test_rankings_show_every_column_with_room() -> None:
    text = printed(render_rankings, RANKINGS, 160)
    assert text.splitlines()[0] == "demo: 12 games"
    assert table_rows(text, 4) == [
        ["#", "bot", "mu", "sigma", "mu-3σ", "games", "wins", "win % [95%]", "mean place [95%]", "faults",
         "ms/move"],
        ["1", "greedy", "27.50", "1.25", "23.75", "9", "4", "44.4 [20.0-70.0]", "2.00 [1.50-2.50]", "0",
         "7.5"],    # 1.5 s over 200 moves
        ["2", "random", "24.00", "1.00", "21.00", "9", "2", "22.2 [0.0-45.0]", "2.75 [2.25-3.00]", "0",
         "1.2"],
        ["3", "flaky !", "30.00", "2.00", "24.00", "6", "3", "50.0 [25.0-75.0]", "2.50 [2.00-3.00]", "2 (33.3%)",
         "-"],      # no move timed
        ["4", "cheat (DQ)", "20.00", "3.00", "11.00", "0", "0", "-", "-", "0", "-"],
    ]
    assert RANKINGS_LEGEND in text and "left out" not in text
    assert_fits(text, 160)


def test_rankings_of_five_bots_fit_80_columns_one_line_a_bot() -> None:
    """The issue's table: at 80 columns each row wrapped to four lines and a long name turned
    every number into `2…`; now each bot is one line, the long name is cut in the middle and
    shown whole once below, and what was left out is said."""
    text = printed(render_rankings, BIG, 80)
    assert_fits(text, 80)
    rows = table_rows(text, 5)
    assert rows[0] == ["#", "bot", "mu", "mu-3σ", "win % [95%]", "mean place [95%]", "faults"]
    assert [row[0] for row in rows[1:]] == ["1", "2", "3", "4", "5"]
    cut = rows[2][1]
    assert "…" in cut and cut.startswith("heurist") and cut.endswith("-v2 !")
    assert rows[2][2:] == ["28.00", "25.57", "23.8 [13.7-33.8]", "2.00 [1.75-2.25]", "7 (<0.1%)"]
    assert text.count(LONG) == 1 and f"{cut[:-2]} = {LONG}" in text
    assert "left out at this width: sigma, games, wins, ms/move" in text
    assert RANKINGS_LEGEND in text
    assert len(text.splitlines()) == 1 + 2 + 5 + 3  # title, header and rule, rows, notes


def test_rankings_use_the_width_when_there_is_more() -> None:
    text = printed(render_rankings, BIG, 160)
    assert_fits(text, 160)
    rows = table_rows(text, 5)
    assert rows[0][:7] == ["#", "bot", "mu", "sigma", "mu-3σ", "games", "wins"]
    assert rows[2][1] == f"{LONG} !" and text.count(LONG) == 1
    assert "…" not in text and "left out" not in text


def test_fault_counts_and_rates() -> None:
    text = printed(render_rankings, RANKINGS, 80)
    assert_fits(text, 80)
    faults = {row[1]: row[-1] for row in table_rows(text, 4)[1:]}
    assert faults == {"greedy": "0", "random": "0", "flaky !": "2 (33.3%)", "cheat (DQ)": "0"}


@pytest.mark.parametrize("width", [80, 160])
def test_head_to_head_names_each_bot_once_and_numbers_the_columns(width: int) -> None:
    text = printed(render_head_to_head, BIG, width)
    assert_fits(text, width)
    rows = table_rows(text, 5)
    assert rows[0] == ["#", "bot", "1", "2", "3", "4", "5"]
    assert rows[1] == ["1", "heuristic", "·", "6100/12000", "6200/12000", "6300/12000", "6400/12000"]
    assert rows[2][2:] == ["5900/12000", "·", "6100/12000", "6200/12000", "6300/12000"]
    # rows 1 and 2; at 80 columns the second is cut and shown whole once, beside its cut form
    assert text.count(LONG) == 1 and text.count("heuri") == (2 if width == 160 else 4)


def test_head_to_head_of_many_bots_splits_its_columns_into_blocks() -> None:
    bots = [f"bot{i:02d}" for i in range(12)]
    many = Rankings("many", 100, tuple(Standing(i + 1, b, 25.0, 1.0, stats(b, 50, 10, 2.0), False)
                                       for i, b in enumerate(bots)),
                    {(a, b): HeadToHead(a, b, 50, 25, 25) for a in bots for b in bots if a != b})
    text = printed(render_head_to_head, many, 80)
    assert_fits(text, 80)
    first, second = table_rows(text, 12, 0), table_rows(text, 12, 1)
    assert first[0][:2] == second[0][:2] == ["#", "bot"]
    assert first[0][2:] + second[0][2:] == [str(i) for i in range(1, 13)]
    assert all(len(row) == len(first[0]) for row in first)
    assert first[5][2:6] == ["25/50"] * 4


def test_games_list_with_room() -> None:
    text = printed(render_games, GAMES, 160)
    assert table_rows(text, 2) == [
        ["id", "deal", "seats", "winner", "finishing order", "reason", "moves", "faults"],
        ["0", "0", "greedy random flaky", "random", "random > greedy = flaky", "emptied", "31", "-"],
        ["1", "0", "random flaky greedy", "-", "random = greedy > flaky", "blocked", "8", "flaky: TIMEOUT"],
    ]


def test_games_of_four_seats_fit_80_columns_one_line_a_game() -> None:
    text = printed(render_games, FOUR_SEATS, 80)
    assert_fits(text, 80)
    rows = table_rows(text, 4)
    assert rows[0][0] == "id" and [row[0] for row in rows[1:]] == ["0", "1", "2", "3"]
    order = rows[1][rows[0].index("finishing order")]
    assert order.startswith("heuristic > heuristi…") and order.endswith("-v2 > greedy = random")
    assert text.count(LONG) == 1 and "left out at this width: seats" in text
    wide = printed(render_games, FOUR_SEATS, 160)
    assert_fits(wide, 160)
    assert table_rows(wide, 4)[0][:3] == ["id", "deal", "seats"]


def test_a_page_of_games_says_which() -> None:
    con = console(80)
    render_games(con, GAMES[1:], matched=2, first=1)
    assert "rows 2-2 of the 2 games selected" in con.file.getvalue()
    con = console(80)
    render_games(con, [], matched=2, first=5)
    assert "no game on this page: 2 selected" in con.file.getvalue()


PROGRESS = Progress(
    "big", 120000, 43210, 17, 43210, 2, 1234.5,
    (Leader(LONG, 1200, 400, 2400, 3, False), Leader("greedy", 1200, 300, 2600, 0, False),
     Leader("cheat", 30, 0, 120, 3, True)),
)


@pytest.mark.parametrize("width", [60, 80, 160])
def test_the_live_view_fits_on_one_line_a_bot(width: int) -> None:
    con = console(width)
    con.print(progress_view(PROGRESS, width))
    text = con.file.getvalue()
    assert_fits(text, width)
    counts = [line for line in text.splitlines() if "43227/120000 games" in line]
    assert len(counts) == 1 and "ETA 36:33" in counts[0] and "skipped 17" in counts[0]
    assert text.index("━") < text.index("43227")  # the bar before (or above) its numbers
    rows = table_rows(text, 3)
    assert [row[0] for row in rows[1:]] == ["1", "2", "3"]
    if width >= 80:
        assert rows[1][1] == LONG
    else:
        assert rows[1][1].startswith("heuristic") and "…" in rows[1][1] and rows[1][1].endswith("v2")
    assert rows[3][1] == "cheat (DQ)"


def test_short_names_stay_distinct() -> None:
    shown = short_names(["heuristic-alpha-v2", "heuristic-bravo-v2", "greedy"], 10)
    assert shown["greedy"] == "greedy"
    assert len(set(shown.values())) == 3 and all(len(s) == 10 for b, s in shown.items() if b != "greedy")


def test_rankings_json_shape_is_exact():
    data = rankings_json(RANKINGS)
    assert list(data) == ["tournament", "games", "seed", "seed_hidden", "bots", "seat_bias", "code_versions"]
    assert data["tournament"] == "demo" and data["games"] == 12 and data["seat_bias"] is None
    assert (data["seed"], data["seed_hidden"]) == (None, False)  # ranked from bare records: no seed
    assert data["code_versions"] == []
    assert [b["bot"] for b in data["bots"]] == ["greedy", "random", "flaky", "cheat"]
    assert data["bots"][0] == {
        "bot": "greedy", "mu": 27.5, "sigma": 1.25, "score": 23.75, "games": 9, "wins": 4,
        "win_rate": 4 / 9, "win_rate_ci": [0.2, 0.7], "mean_place": 2.0, "mean_place_ci": [1.5, 2.5],
        "faults": 0, "disqualified": False, "moves_asked": 200, "ms_per_move": 7.5,
    }
    cheat = data["bots"][3]
    assert cheat["win_rate"] is None and cheat["win_rate_ci"] is None and cheat["disqualified"] is True
    assert json.loads(json.dumps(data)) == data


# 20,000 games at 4 seats from 5,000 deals; seat 0 wins most, 1,000 games are drawn.
SEATED = replace(BIG, seat_bias=SeatBias(20000, tuple(
    SeatRate(seat, 20000, wins, 5000, wins / 20000, (wins / 20000 - 0.02, wins / 20000 + 0.02))
    for seat, wins in enumerate((6200, 4800, 4200, 3800)))))


def test_the_rankings_show_the_seat_bias_under_the_table_within_80_columns() -> None:
    text = printed(render_rankings, SEATED, 80)
    assert_fits(text, 80)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("win % by seat [95%]: "))
    assert lines[at - 1].startswith("5  first_legal")   # right under the last row
    shown = " ".join(lines[at:at + 3])
    for item in ("0: 31.0 [29.0-33.0]", "1: 24.0 [22.0-26.0]", "2: 21.0 [19.0-23.0]",
                 "3: 19.0 [17.0-21.0]", "fair share 25.0", "1,000 draws"):
        assert item in shown, text
    wide = printed(render_rankings, SEATED, 160).splitlines()
    assert any(line.startswith("win % by seat [95%]: 0: 31.0") and line.endswith("1,000 draws")
               for line in wide)


def test_rankings_without_games_show_no_seat_bias() -> None:
    assert "by seat" not in printed(render_rankings, RANKINGS, 160)


def test_the_seat_bias_json_shape_is_exact() -> None:
    data = rankings_json(SEATED)["seat_bias"]
    assert data == {
        "games": 20000, "deals": 5000, "draws": 1000, "fair_share": 0.25,
        "seats": [{"seat": seat, "games": 20000, "wins": wins, "win_rate": wins / 20000,
                   "win_rate_ci": [wins / 20000 - 0.02, wins / 20000 + 0.02]}
                  for seat, wins in enumerate((6200, 4800, 4200, 3800))],
    }
    assert json.loads(json.dumps(data)) == data


def test_games_json_shape_is_exact():
    assert games_json(GAMES) == [
        {"id": 0, "seats": ["greedy", "random", "flaky"], "winner": "random", "places": [[1], [0, 2]],
         "reason": "emptied", "decisions": 31, "faults": []},
        {"id": 1, "seats": ["random", "flaky", "greedy"], "winner": None, "places": [[0, 2], [1]],
         "reason": "blocked", "decisions": 8,
         "faults": [{"seat": 1, "bot": "flaky", "code": "TIMEOUT", "detail": "no reply in 1.0 s"}]},
    ]


def test_the_run_summary_of_a_big_demo_fits_80_columns_without_wrapping() -> None:
    report = RunReport("demo", Path("results/demo.sqlite"), Path("results/demo.log"), total=600000,
                       stored=600000, skipped=0, played=600000, elapsed=12345.6, workers=16)
    text = printed(render_report, report, 80)
    assert text.splitlines() == [
        "demo: 600000 of 600000 games stored; this run played 600000 in 12345.6s",
        "48.6 games/s with 16 workers; parent CPU 0.00 ms/game",
        "log: results/demo.log",
    ]


def test_the_live_view_shows_each_leaders_trueskill_score() -> None:
    leaders = (Leader("greedy", 8, 4, 14, 0, False, mu=27.5, sigma=1.25),
               Leader("random", 8, 2, 20, 0, False))   # not yet rated: the prior, 25 - 3 x 8.33
    text = printed(lambda con, p: con.print(progress_view(p, 80)),
                   Progress("demo", 20, 8, 0, 8, 0, 4.0, leaders), 80)
    rows = table_rows(text, 2)
    score = rows[0].index("mu-3σ")
    assert [row[score] for row in rows[1:]] == ["23.8", "0.0"]


def test_the_sandbox_bench_compares_no_engines() -> None:
    """`arena bench --sandbox` printed 'games/s ratio arena / switch: 0.00', the --peer line,
    dividing sandboxed games/s by in-process ones under a label that names two engines. Only
    a peer engine's run gets that line."""
    from arena.cli.render import render_bench, render_sandbox_bench
    from arena.services.bench import BenchResult, SandboxBenchResult

    sandboxed = BenchResult("switch (sandboxed)", 10, 4, 0.44, 374)
    inprocess = BenchResult("switch", 10, 4, 0.01, 936)
    out = Console(file=io.StringIO(), width=80, color_system=None)
    render_sandbox_bench(out, SandboxBenchResult(sandboxed, 272, 0.12, 43.6, 71.2, inprocess, 6.1))
    text = out.file.getvalue()  # type: ignore[attr-defined]
    assert "ratio arena" not in text and "decision round trip to a sandboxed bot: 441.2 us" in text
    peer = Console(file=io.StringIO(), width=80, color_system=None)
    render_bench(peer, [inprocess, BenchResult("openspiel:crazy_eights", 10, 4, 0.02, 900, "c++")])
    assert "games/s ratio arena / openspiel:crazy_eights: 2.00" in peer.file.getvalue()  # type: ignore[attr-defined]
