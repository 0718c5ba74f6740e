"""Rendering pinned with an in-memory console, and the exact JSON shapes."""

from __future__ import annotations

import io
import json

from rich.console import Console

from arena.engine.outcome import OutcomeReason
from arena.play.faults import FaultCode
from arena.tournament.ratings import Rankings, Standing
from arena.tournament.records import Fault, GameRecord
from arena.cli.render import render_games, render_head_to_head, render_rankings
from arena.tournament.export import games_json, rankings_json
from arena.tournament.stats import BotStats, HeadToHead


def console() -> Console:
    return Console(file=io.StringIO(), width=120, color_system=None)


def cells(text: str) -> list[list[str]]:
    """The cells of every table row (header and body) printed with rich's box characters."""
    rows = []
    for line in text.splitlines():
        for bar in ("│", "┃"):
            if line.startswith(bar):
                rows.append([c.strip() for c in line.strip(bar).split(bar)])
    return rows


RANKINGS = Rankings(
    tournament="demo",
    games=12,
    standings=(
        Standing(1, "greedy", 27.5, 1.25, BotStats("greedy", 9, 4, 4 / 9, (0.2, 0.7), 2.0, (1.5, 2.5), 0), False),
        Standing(2, "random", 24.0, 1.0, BotStats("random", 9, 2, 2 / 9, (0.0, 0.45), 2.75, (2.25, 3.0), 0), False),
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

GAMES = [
    GameRecord(0, 0, ("greedy", "random", "flaky"), 5, ((1,), (0, 2)), 1, OutcomeReason.EMPTIED, 31, 0.2),
    GameRecord(
        1, 0, ("random", "flaky", "greedy"), 5, ((0, 2), (1,)), None, OutcomeReason.BLOCKED, 8, 0.1,
        faults=(Fault(1, "flaky", FaultCode.TIMEOUT, "no reply in 1.0 s", "log"),),
    ),
]


def test_rankings_table_rows():
    con = console()
    render_rankings(con, RANKINGS)
    text = con.file.getvalue()
    assert text.splitlines()[0].strip() == "demo: 12 games"
    assert cells(text) == [
        ["#", "bot", "mu", "sigma", "mu-3σ", "games", "wins", "win rate [95%]", "mean place [95%]", "faults"],
        ["1", "greedy", "27.50", "1.25", "23.75", "9", "4", "44.4% [20.0%-70.0%]", "2.00 [1.50-2.50]", "0"],
        ["2", "random", "24.00", "1.00", "21.00", "9", "2", "22.2% [0.0%-45.0%]", "2.75 [2.25-3.00]", "0"],
        ["3", "flaky !", "30.00", "2.00", "24.00", "6", "3", "50.0% [25.0%-75.0%]", "2.50 [2.00-3.00]", "2"],
        ["4", "cheat (DQ)", "20.00", "3.00", "11.00", "0", "0", "-", "-", "0"],
    ]
    assert max(len(line) for line in text.splitlines()) <= 120


def test_head_to_head_crosstable():
    con = console()
    render_head_to_head(con, RANKINGS)
    rows = cells(con.file.getvalue())
    assert rows[0] == ["bot", "greedy", "random", "flaky", "cheat"]
    assert rows[1] == ["greedy", "·", "6/9", "3/6", "-"]
    assert rows[2] == ["random", "2/9", "·", "-", "-"]
    assert rows[3] == ["flaky", "3/6", "-", "·", "-"]
    assert rows[4] == ["cheat", "-", "-", "-", "·"]


def test_games_list():
    con = console()
    render_games(con, GAMES)
    assert cells(con.file.getvalue()) == [
        ["id", "deal", "seats", "winner", "finishing order", "reason", "decisions", "faults"],
        ["0", "0", "greedy random flaky", "random", "random > greedy = flaky", "emptied", "31", "-"],
        ["1", "0", "random flaky greedy", "-", "random = greedy > flaky", "blocked", "8", "flaky: TIMEOUT"],
    ]


def test_rankings_json_shape_is_exact():
    data = rankings_json(RANKINGS)
    assert list(data) == ["tournament", "games", "seed", "bots"]
    assert data["tournament"] == "demo" and data["games"] == 12
    assert [b["bot"] for b in data["bots"]] == ["greedy", "random", "flaky", "cheat"]
    assert data["bots"][0] == {
        "bot": "greedy", "mu": 27.5, "sigma": 1.25, "score": 23.75, "games": 9, "wins": 4,
        "win_rate": 4 / 9, "mean_place": 2.0, "faults": 0, "disqualified": False,
    }
    assert data["bots"][3]["win_rate"] is None and data["bots"][3]["disqualified"] is True
    assert json.loads(json.dumps(data)) == data


def test_games_json_shape_is_exact():
    assert games_json(GAMES) == [
        {"id": 0, "seats": ["greedy", "random", "flaky"], "winner": "random", "places": [[1], [0, 2]],
         "reason": "emptied", "decisions": 31, "faults": []},
        {"id": 1, "seats": ["random", "flaky", "greedy"], "winner": None, "places": [[0, 2], [1]],
         "reason": "blocked", "decisions": 8,
         "faults": [{"seat": 1, "bot": "flaky", "code": "TIMEOUT", "detail": "no reply in 1.0 s"}]},
    ]


def test_the_live_view_shows_each_leaders_trueskill_score():
    from arena.cli.render import progress_view
    from arena.tournament.runner import Leader, Progress

    leaders = (Leader("greedy", 8, 4, 14, 0, False, mu=27.5, sigma=1.25),
               Leader("random", 8, 2, 20, 0, False))   # not yet rated: the prior, 25 - 3 x 8.33
    out = console()
    out.print(progress_view(Progress("demo", 20, 8, 0, 8, 0, 4.0, leaders)))
    rows = cells(out.file.getvalue())
    header = rows[0]
    score = header.index("mu-3σ")
    assert [row[score] for row in rows[1:]] == ["23.8", "0.0"]
