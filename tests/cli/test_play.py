"""``arena play``: a person at one seat against sandboxed bots, through typer's CliRunner with
scripted lines (numbers, notation, a multi-card play with a suit call, refused moves, hints,
quitting, whole games and a match), the table drawn at 80 columns, and no hidden card ever
printed."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import arena.cli.play as play_cli
from arena.cli import app
from arena.cli.render import PLAY_PROMPT, render_play, render_play_news, render_play_result
from arena.engine.actions import Play
from arena.engine.cards import NAMES, Card
from arena.engine.game import Game, Pending
from arena.engine.match import Match, MatchOutcome
from arena.engine.observation import Observation, observe
from arena.engine.outcome import Outcome, OutcomeReason
from arena.engine.rules import load_rules
from arena.services import play as play_service
from arena.play.faults import BotFault, FaultCode
from arena.services.play import BotFaulted, CardsLeft, HandOver, MoveRefused, Played, Session, Table, search_advisor
from arena.tournament.replay import replay_moves
from clients import QuietClient

runner = CliRunner()
CARD = re.compile(r"(?<!:)\b(?:[A2-9TJQK][CDHS]|X[12])\b")  # not the card a joker names (X1:JS)
HEADER = re.compile(r"^switch, you are seat (\d)$", re.MULTILINE)


def invoke(tmp: Path, *args: str, keys: str = ""):
    env = {"ARENA_HOME": str(tmp), "ARENA_SLOT_BASE": str(random.randrange(5000, 30000, 50)),
           "COLUMNS": "80"}
    return runner.invoke(app, ["play", *args], input=keys, env=env)


@pytest.fixture(autouse=True)
def no_search_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs without the search bot unless it installs a stand-in."""
    monkeypatch.setattr(play_cli, "search_advisor", lambda: None)


def first_view(rules: str, seats: int, seed: int, seat: int = 0) -> Observation:
    return observe(Match.new(load_rules(rules), seats, seed).current, seat)


def seed_where(rules: str, seats: int, wanted: Callable[[Observation], bool]) -> int:
    """The first seed whose deal lets seat 0 move first with ``wanted`` true of its view."""
    for seed in range(500):
        obs = first_view(rules, seats, seed)
        if obs.to_move == 0 and wanted(obs):
            return seed
    raise AssertionError("no such deal in 500 seeds")


# -- the command, scripted ----------------------------------------------------------------------


def test_numbers_play_a_whole_game_to_its_result(tmp_path: Path) -> None:
    result = invoke(tmp_path, "--vs", "random", "--seats", "2", "--seed", "4", keys="1\n" * 400)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert re.search(r"^(you win|seat 1 \(random\) wins|drawn game) \((emptied|blocked|cap)\)\n"
                     r"  places: seat \d \((you|random)\) [>=] seat \d", out, re.MULTILINE), out
    assert "hand 1 won by" not in out  # a single hand's end is the result
    assert out.rstrip().endswith("seed 4 (the same deal again: --seed 4)")
    assert "seat 0 (you) plays" in out and "seat 1 (random)" in out
    # the same seed and the same lines play the same game
    again = invoke(tmp_path, "--vs", "random", "--seats", "2", "--seed", "4", keys="1\n" * 400)
    assert again.stdout == out


def test_typed_notation_plays_a_multi_card_play_with_a_suit_call(tmp_path: Path) -> None:
    def long_call(obs: Observation) -> bool:
        return any(isinstance(a, Play) and len(a.cards) >= 2 and a.call is not None
                   for a in obs.legal_actions())
    seed = seed_where("switch", 3, long_call)
    obs = first_view("switch", 3, seed)
    chosen = next(t for t, a in zip(obs.legal, obs.legal_actions())
                  if isinstance(a, Play) and len(a.cards) >= 2 and a.call is not None)
    typed = chosen.lower()  # read generously: any case
    result = invoke(tmp_path, "--vs", "greedy", "--seats", "3", "--seed", str(seed),
                    keys=f"{typed}\nq\n")
    assert result.exit_code == 0, result.output
    suit = chosen.rsplit("=", 1)[1]
    assert f"seat 0 (you) plays {chosen}: calls {suit}" in result.stdout
    assert len(HEADER.findall(result.stdout)) == 2  # the first turn, then the next one
    assert "you left the game" in result.stdout


def test_a_number_plays_that_move_of_the_list(tmp_path: Path) -> None:
    seed = seed_where("switch", 2, lambda obs: len(obs.legal) >= 3)
    obs = first_view("switch", 2, seed)
    result = invoke(tmp_path, "--vs", "greedy", "--seats", "2", "--seed", str(seed), keys="3\nq\n")
    assert result.exit_code == 0, result.output
    assert f"seat 0 (you) {'draws' if obs.legal[2] == 'draw' else 'plays ' + obs.legal[2]}" in result.stdout


def test_a_move_that_cannot_be_played_gets_a_note_and_the_same_prompt(tmp_path: Path) -> None:
    seed = seed_where("switch", 2, lambda obs: any(isinstance(a, Play) for a in obs.legal_actions()))
    obs = first_view("switch", 2, seed)
    absent = next(NAMES[c] for c in range(52) if c not in obs.hand)
    keys = f"{absent}\nzz 9\n99\n\n1\nq\n"
    result = invoke(tmp_path, "--vs", "greedy", "--seats", "2", "--seed", str(seed), keys=keys)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert f"'{absent}' cannot be played: " in out
    assert "'zz 9' cannot be played: cannot read action" in out
    assert f"no move 99: the moves are numbered 1..{len(obs.legal)}" in out
    assert "type a move's number or notation" in out
    # four refusals at the first table, each followed by the same prompt, then the move
    first = re.split(r"seat 0 \(you\) (?:plays|draws|passes)", out)[0]
    assert first.count(PLAY_PROMPT) == 5 and len(HEADER.findall(first)) == 1
    assert len(HEADER.findall(out)) == 2


def test_a_digit_int_cannot_read_or_a_huge_line_is_refused_in_a_short_note(tmp_path: Path) -> None:
    """'²' is a digit to str.isdigit() and a line of 5,000 nines is past int()'s limit: both
    ended the game with a traceback. A line of 3,000 letters was echoed back three times."""
    seed = seed_where("switch", 2, lambda obs: len(obs.legal) >= 1)
    keys = "²\n" + "9" * 5000 + "\n" + "x" * 3000 + "\nq\n"
    result = invoke(tmp_path, "--vs", "greedy", "--seats", "2", "--seed", str(seed), keys=keys)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "'²' cannot be played: cannot read action" in out
    assert out.count(PLAY_PROMPT) == 4 and "you left the game" in out
    assert "x" * 100 not in out.replace("\n", "")   # the line is quoted cut short, not whole


def test_a_draw_while_a_play_is_legal_is_refused_with_the_rule(tmp_path: Path) -> None:
    seed = seed_where("switch", 2, lambda obs: "draw" not in obs.legal)
    result = invoke(tmp_path, "--vs", "greedy", "--seats", "2", "--seed", str(seed), keys="draw\nq\n")
    assert "'draw' cannot be played: drawing is allowed only when no play is legal" in result.stdout


def test_h_without_the_search_bot_says_so_and_q_quits(tmp_path: Path) -> None:
    result = invoke(tmp_path, "--vs", "greedy", "--seed", "1", keys="h\nq\n")
    assert result.exit_code == 0, result.output
    assert "no hint: the search bot is not installed" in result.stdout
    assert "you left the game" in result.stdout and "seed 1 (" in result.stdout
    assert "estimated win chance" not in result.stdout


class StandIn:
    """A stand-in for bots/mcts.py's Bot: advises the last legal move, 42%, and keeps what it saw."""

    built = 0
    seen: list[Observation] = []

    def __init__(self, **options: object) -> None:
        StandIn.built += 1

    def advise(self, obs: Observation) -> tuple[str, float]:
        StandIn.seen.append(obs)
        return obs.legal[-1], 0.42


def test_h_asks_the_search_bot_with_the_persons_observation_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    StandIn.built, StandIn.seen = 0, []
    monkeypatch.setattr(play_cli, "search_advisor", lambda: StandIn)
    seed = seed_where("switch", 2, lambda obs: len(obs.legal) >= 2)
    obs = first_view("switch", 2, seed)
    result = invoke(tmp_path, "--vs", "greedy", "--seats", "2", "--seed", str(seed), keys="h\nh\nq\n")
    assert result.exit_code == 0, result.output
    line = f"hint: {obs.legal[-1]} (move {len(obs.legal)}), estimated win chance 42%"
    assert result.stdout.count(line) == 2
    assert StandIn.built == 1  # once per game, not per hint
    assert [o.seat for o in StandIn.seen] == [0, 0]
    assert StandIn.seen[0] == obs  # exactly the person's own observation


def test_the_search_bot_is_found_as_bots_mcts_py(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play_service, "builtin_dir", lambda: tmp_path)
    assert search_advisor() is None
    (tmp_path / "mcts.py").write_text(
        "class Bot:\n"
        "    def __init__(self, iterations=1000):\n"
        "        self.iterations = iterations\n"
        "    def advise(self, obs):\n"
        "        return obs.legal[0], 0.5\n")
    factory = search_advisor()
    assert factory is not None
    obs = first_view("switch", 2, 0)
    assert factory().advise(obs) == (obs.legal[0], 0.5)


def test_the_result_shows_every_seats_cards_left_as_at_a_real_tables_end(tmp_path: Path) -> None:
    """A blocked game, and every place after the winner, go by the cards left (or their points,
    F7): the person is shown them once the game is over."""
    result = invoke(tmp_path, "--vs", "random", "--seats", "2", "--seed", "4", keys="1\n" * 400)
    out = result.stdout
    left = re.findall(r"^  (seat [01] \((?:you|random)\))\s+(\d+): (.*)$", out, re.MULTILINE)
    assert [seat for seat, _, _ in left] == ["seat 0 (you)", "seat 1 (random)"], out
    for _, count, cards_text in left:
        assert int(count) == (0 if cards_text == "-" else len(cards_text.split()))
    winner = re.search(r"^(you win|seat 1 \(random\) wins) \(emptied\)$", out, re.MULTILINE)
    assert winner, out   # this seed's game goes out (the same lines play the same game)
    assert left[0 if winner[1] == "you win" else 1][1] == "0"


def test_cards_left_scored_by_points_say_so() -> None:
    outcome = MatchOutcome("won", OutcomeReason.BLOCKED, 1, ((1,), (0,)), (0, 1), 1)
    con = Console(file=io.StringIO(), width=80, color_system=None)
    render_play_result(con, outcome, ["you", "greedy"], 0, 9,
                       [CardsLeft(tuple(cards("KS", "QH")), 20, True), CardsLeft(tuple(cards("2C")), 2, True)])
    lines = con.file.getvalue().splitlines()
    assert lines[2:4] == ["  seat 0 (you)     2: KS QH = 20 points", "  seat 1 (greedy)  1: 2C = 2 points"]


def test_a_match_preset_plays_its_hands_to_the_match_result(tmp_path: Path) -> None:
    result = invoke(tmp_path, "--rules", "switch-classic", "--vs", "random", "--seats", "2",
                    "--seed", "2", keys="1\n" * 2000)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "switch-classic, hand 1, first to win 3 hands, you are seat 0" in out
    ends = re.findall(r"^hand (\d+) (?:won by seat \d \((?:you|random)\)|drawn) \(\w+\)\n"
                      r"  hands won \(first to 3\): seat 0 \(you\) (\d), seat 1 \(random\) (\d)$",
                      out, re.MULTILINE)
    assert ends and [int(n) for n, _, _ in ends] == list(range(1, len(ends) + 1))
    last_you, last_random = map(int, ends[-1][1:])
    assert max(last_you, last_random) == 3
    assert re.search(rf"^(you win|seat 1 \(random\) wins) the match after {len(ends)} hands$", out,
                     re.MULTILINE), out


def test_the_person_takes_the_seat_asked_for(tmp_path: Path) -> None:
    result = invoke(tmp_path, "--vs", "greedy,random", "--seats", "3", "--seat", "2", "--seed", "5",
                    keys="q\n")
    assert result.exit_code == 0, result.output
    assert "switch, you are seat 2" in result.stdout
    assert "seat 0 (greedy)" in result.stdout and "seat 1 (random)" in result.stdout


@pytest.mark.parametrize("args, words", [
    (["--vs", "greedy,random,greedy", "--seats", "2"], ["--vs: 3 bots do not fit the 1 other seats"]),
    (["--seat", "5", "--seats", "2", "--vs", "greedy"], ["--seat 5: expected a seat 0..1"]),
    (["--vs", "nosuchbot"], ["nosuchbot"]),
    (["--rules", "swtich"], ["did you mean 'switch'"]),
    (["--seats", "9"], ["seats"]),
])
def test_what_cannot_be_played_is_one_line(tmp_path: Path, args: list[str], words: list[str]) -> None:
    result = invoke(tmp_path, *args, keys="q\n")
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for word in words:
        assert word in lines[0]


# -- nothing hidden is printed ----------------------------------------------------------------


def hidden_card_recorder(monkeypatch: pytest.MonkeyPatch) -> tuple[list[set[str]], list[Session]]:
    """After every ``advance`` (just before a table is printed), the cards hidden from the
    person that it has never seen: the other hands and the stock, less every card that was ever
    in its hand or laid on the pile (or named by a joker); and the session played."""
    snapshots: list[set[str]] = []
    sessions: list[Session] = []

    class Recording(Table):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            session, advance = self.session, self.session.advance
            sessions.append(session)
            known: set[int] = set()

            def recorded() -> list:
                news = advance()
                game = session.match.current
                known.update(game.hands[session.seat], game.discard)
                for event in game.history:
                    if isinstance(event.action, Play):
                        known.update(event.action.cards, event.action.acting)
                hidden = {c for s, hand in enumerate(game.hands) if s != session.seat for c in hand}
                snapshots.append({NAMES[c] for c in hidden | set(game.stock) if c not in known})
                return news

            session.advance = recorded  # type: ignore[method-assign]

    monkeypatch.setattr(play_cli, "Table", Recording)
    return snapshots, sessions


@pytest.mark.parametrize("rules, seats, seed", [("switch", 4, 9), ("london", 3, 2), ("blackjack", 4, 3)])
def test_no_hidden_card_appears_in_anything_printed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: str, seats: int, seed: int) -> None:
    snapshots, _ = hidden_card_recorder(monkeypatch)
    result = invoke(tmp_path, "--rules", rules, "--vs", "greedy,random", "--seats", str(seats),
                    "--seed", str(seed), keys="h\n1\n" * 300)
    assert result.exit_code == 0, result.output
    screens = result.stdout.split(PLAY_PROMPT)
    assert len(screens) > 10 and "places: " in screens[-1]  # a whole game was played
    # a screen is drawn after each advance; "h" prints a note under the same table
    tables = [s for s in screens if not s.startswith("no hint")]
    assert len(tables) == len(snapshots)
    # Not vacuous: cards are out of sight from the start (a long game can end up showing the
    # person every card, all of them having passed through its hand or the pile).
    assert snapshots[0] and sum(map(bool, snapshots)) * 2 >= len(snapshots)
    # once the game is over every seat's cards left are shown, as at a real table's end
    tables[-1] = tables[-1].split("\n  places: ")[0]
    for text, hidden in zip(tables, snapshots):
        leaked = set(CARD.findall(text)) & hidden
        assert not leaked, f"hidden cards {sorted(leaked)} printed in:\n{text}"


def test_the_recorder_would_see_a_leak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above can fail: a table that prints the next seat's hand is caught."""
    snapshots, sessions = hidden_card_recorder(monkeypatch)
    original = play_cli.render_play

    def leaky(console: Console, obs: Observation, *args: object) -> None:
        original(console, obs, *args)  # type: ignore[arg-type]
        console.print(" ".join(NAMES[c] for c in sessions[0].match.current.hands[1]))

    monkeypatch.setattr(play_cli, "render_play", leaky)
    result = invoke(tmp_path, "--vs", "greedy", "--seats", "2", "--seed", "9", keys="q\n")
    assert set(CARD.findall(result.stdout.split(PLAY_PROMPT)[0])) & snapshots[0]


# -- the table at 80 columns --------------------------------------------------------------------


def cards(*names: str) -> list[int]:
    return [Card.parse(n) for n in names]


def table_text(game: Game, names: list[str], seat: int = 0, width: int = 80, hand: int = 0,
               target: int = 1, wins: tuple[int, ...] | None = None) -> str:
    con = Console(file=io.StringIO(), width=width, color_system=None)
    render_play(con, observe(game, seat), names, hand, target, wins or (0,) * game.seats)
    return con.file.getvalue()


@pytest.mark.parametrize("preset, told", [("crazy-eights", "you drew KC: play it"),
                                           ("blackjack", "you drew KC: play it or pass")])
def test_the_drawn_card_note_offers_only_what_the_rules_allow(preset: str, told: str) -> None:
    """C4: in crazy-eights a playable drawn card must be played; the note offered 'or pass'."""
    game = Game.setup(load_rules(preset), [cards("3D", "4D"), cards("5S", "6S")], Card.parse("9C"),
                      stock=cards("KC", "8H", "TD"))
    game.apply("draw")
    lines = table_text(game, ["you", "greedy"]).splitlines()
    assert told in lines


def test_the_table_marks_the_playable_cards_the_penalty_and_numbers_the_moves() -> None:
    game = Game.setup(load_rules("switch"), [cards("2C", "AS", "9D", "KH"), cards("3D", "4D"),
                                             cards("5D", "6D", "7D")], Card.parse("2H"),
                      stock=cards("3C", "8C", "9C"), pending=Pending("two", 2))
    text = table_text(game, ["you", "greedy", "heuristic"])
    lines = text.splitlines()
    assert lines[0] == "switch, you are seat 0"
    assert lines[1].startswith("▶ seat 0 (you)") and "4 cards" in lines[1]
    assert "seat 2 (heuristic)   3 cards" in lines[3]
    assert lines[4] == "top 2H  suit H  two 2 to pick up  direction +1  stock 3"
    assert lines[5] == "your hand (* playable): 2C* 9D KH AS"
    assert lines[6] == "moves: 1 2C"  # a 2 must answer the 2 (drawing only when stuck)
    assert max(len(line) for line in lines) <= 80


def test_suit_calls_share_a_range_of_numbers_and_the_lines_fit_80_columns() -> None:
    hand = cards("AC", "AD", "AH", "AS", "7D", "7C", "7H", "7S", "3D", "4D")
    game = Game.setup(load_rules("switch"), [hand, cards("3C", "4C")], Card.parse("5D"),
                      stock=cards("2C", "8C", "9C"))
    obs = observe(game, 0)
    text = table_text(game, ["you", "greedy"])
    moves = text[text.index("moves: "):]
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "1-4 " in moves and "=C/D/H/S" in moves
    last = max(int(n) for n in re.findall(r"(\d+)(?:-\d+)? ", moves.replace("-", " ")))
    assert last == len(obs.legal)  # every move has its number


def test_a_match_table_shows_the_hand_and_each_seats_wins_and_last_action() -> None:
    game = Game.new(load_rules("switch-classic"), 2, 5)
    game.apply(str(game.legal_actions()[0]))
    lines = table_text(game, ["random", "you"], seat=1, hand=1, target=3, wins=(1, 0)).splitlines()
    assert lines[0] == "switch-classic, hand 2, first to win 3 hands, you are seat 1"
    assert "won 1" in lines[1] and "won 0" in lines[2]
    assert lines[1].rstrip().endswith(str(game.history[0].action)) or "draws" in lines[1]


def test_a_lone_joker_is_one_range_to_type() -> None:
    game = Game.setup(load_rules("london"), [cards("X2", "5C", "9D"), cards("3C", "4D")],
                      Card.parse("4C"), stock=cards("2C", "8C", "9C"))
    obs = observe(game, 0)
    lone = [n for n, text in enumerate(obs.legal, 1) if text.startswith("X2:") and " " not in text]
    text = table_text(game, ["you", "greedy"])
    assert f"{lone[0]}-{lone[-1]} X2 as the card you name (X2:" in text
    assert len(text.splitlines()) <= 8


def test_six_seats_fit_24_lines() -> None:
    game = Game.new(load_rules("switch"), 6, 3)
    names = ["you", "heuristic", "greedy", "random", "greedy", "heuristic-with-a-long-name"]
    lines = table_text(game, names).splitlines()
    assert len(lines) <= 14 and max(len(line) for line in lines) <= 80  # room for ten moves' news


def test_one_seats_draws_in_a_row_are_one_line_of_news() -> None:
    """openspiel draws a card at a time: five seats drawing filled a 24-line screen with
    'draws 1' before the table (the first of them scrolled off unread)."""
    game = Game.setup(load_rules("openspiel"), [cards("3D", "4D"), cards("5S", "6S")], Card.parse("9C"),
                      stock=cards("KH", "8H", "TD", "JD", "2D"))
    news = [Played(0, step) for step in replay_moves(game, ["draw", "draw", "draw", "8H=S"])]
    con = Console(file=io.StringIO(), width=80, color_system=None)
    render_play_news(con, news, ["you", "random"])
    assert con.file.getvalue().splitlines() == ["  seat 0 (you) draws 3",
                                                "  seat 0 (you) plays 8H=S: calls S"]


def test_news_longer_than_the_room_left_show_the_latest_and_count_the_rest() -> None:
    game = Game.setup(load_rules("switch"), [cards("2H", "5C", "9S", "3H"), cards("2D", "KC", "4S", "3D")],
                      Card.parse("9H"), stock=cards("3C", "4C", "5D", "6C", "8C", "9C"))
    news = [Played(0, step) for step in replay_moves(game, ["2H", "2D", "draw", "3D", "3H"])]
    con = Console(file=io.StringIO(), width=80, color_system=None)
    render_play_news(con, news, ["you", "greedy"], room=3)
    assert con.file.getvalue().splitlines() == [
        "  (3 earlier moves not shown)", "  seat 1 (greedy) plays 3D", "  seat 0 (you) plays 3H"]


def test_news_fit_their_room_by_wrapped_height_and_keep_a_hands_end() -> None:
    """A hand's end takes two lines and long moves wrap: counting items as lines let a
    switch-classic turn at 6 seats take 25 lines, and the cut could drop the hand's result."""
    game = Game.setup(load_rules("switch"), [cards("2H", "5C", "9S", "3H"), cards("2D", "KC", "4S", "3D")],
                      Card.parse("9H"), stock=cards("3C", "4C", "5D", "6C", "8C", "9C"))
    moves = [Played(0, step) for step in replay_moves(game, ["2H", "2D", "draw", "3D", "3H"])]
    over = HandOver(0, Outcome("won", OutcomeReason.EMPTIED, 1, ((1,), (0,))), (0, 1), 3)
    con = Console(file=io.StringIO(), width=40, color_system=None)
    render_play_news(con, [*moves[:3], over, *moves[3:]], ["you", "greedy"], room=7)
    lines = con.file.getvalue().splitlines()
    assert len(lines) <= 7, lines
    assert lines[0].startswith("  (") and "earlier moves not shown" in lines[0]
    assert any(line.startswith("hand 1 won by seat 1 (greedy)") for line in lines)
    assert lines[-1] == "  seat 0 (you) plays 3H"


def test_the_news_announce_every_action_card_in_the_replays_words() -> None:
    game = Game.setup(load_rules("switch"), [cards("2H", "5C", "9S"), cards("2D", "KC", "4S"),
                                             cards("6D", "7C", "8S")], Card.parse("9H"),
                      stock=cards("3C", "4C", "5D", "6C", "8C", "9C"))
    news = [Played(0, step) for step in replay_moves(game, ["2H", "2D", "draw"])]
    over = HandOver(0, Outcome("won", OutcomeReason.EMPTIED, 1, ((1,), (0, 2))), (0, 1, 0), 3)
    con = Console(file=io.StringIO(), width=80, color_system=None)
    render_play_news(con, [*news, over], ["you", "greedy", "random"])
    lines = con.file.getvalue().splitlines()
    assert lines == [
        "  seat 0 (you) plays 2H: pickup +2 (two, 2 to pick up)",
        "  seat 1 (greedy) plays 2D: pickup +2 (two, 4 to pick up)",
        "  seat 2 (random) draws 4: takes the two penalty of 4",
        "hand 1 won by seat 1 (greedy) (emptied)",
        "  hands won (first to 3): seat 0 (you) 0, seat 1 (greedy) 1, seat 2 (random) 0",
    ]


# -- the session, in-process --------------------------------------------------------------------


class FirstLegal(QuietClient):
    """An in-process bot client: plays the first legal move, or faults from its ``fault_at``-th
    decision on."""

    def __init__(self, fault_at: int | None = None) -> None:
        self.fault_at, self.asked, self.started, self.closed = fault_at, 0, 0, 0

    def start_game(self, info: dict) -> None:
        self.started += 1

    def act(self, message: dict) -> str:
        self.asked += 1
        if self.fault_at is not None and self.asked >= self.fault_at:
            raise BotFault(FaultCode.CRASH, "boom")
        return message["obs"]["legal"][0]

    def close_game(self) -> None:
        self.closed += 1


def play_out(session: Session) -> list:
    news = session.advance()
    while not session.is_over:
        news.append(session.move("1"))
        news += session.advance()
    return news


def test_a_faulty_bot_is_told_played_on_by_the_fallback_and_placed_last() -> None:
    faulty, clean = FirstLegal(fault_at=2), FirstLegal()
    with Session(load_rules("switch"), 0, [faulty, clean], 7, ["you", "a", "b"]) as session:
        news = play_out(session)
    faults = [n for n in news if isinstance(n, BotFaulted)]
    assert [(f.seat, f.code) for f in faults] == [(1, "CRASH")]
    assert faulty.asked == 2  # never asked again once faulted
    outcome = session.outcome
    assert outcome is not None and outcome.places[-1] == (1,)
    assert faulty.closed == clean.closed == 1


class FailsToStart(FirstLegal):
    """A bot whose file does not load: its first message fails, and the fallback plays it."""

    def start_game(self, info: dict) -> None:
        raise BotFault(FaultCode.INIT_FAIL, "SyntaxError: expected ':' (broken.py, line 2)")


def test_a_bot_that_fails_to_start_is_told_before_the_first_move() -> None:
    """Else the fallback played under the bot's name as if the bot were playing, unseen."""
    broken = FailsToStart()
    with Session(load_rules("switch"), 0, [broken], 7, ["you", "broken"]) as session:
        news = play_out(session)
    assert isinstance(news[0], BotFaulted)
    assert (news[0].seat, news[0].code) == (1, "INIT_FAIL") and "line 2" in news[0].detail
    assert [n.seat for n in news if isinstance(n, BotFaulted)] == [1] and broken.asked == 0


def test_each_hand_of_a_match_starts_the_bots_again() -> None:
    bot = FirstLegal()
    with Session(load_rules("switch-classic"), 1, [bot], 3, ["a", "you"]) as session:
        news = play_out(session)
    hands = [n for n in news if isinstance(n, HandOver)]
    assert bot.started == len(hands) >= 3 and max(hands[-1].wins) == 3
    assert [n.step.index for n in news if isinstance(n, Played) and n.hand == 0] == list(
        range(1, 1 + sum(1 for n in news if isinstance(n, Played) and n.hand == 0)))


def test_a_blunder_is_refused_not_charged() -> None:
    def holds_unplayable(obs: Observation) -> bool:
        return any(not obs.is_legal(NAMES[c]) for c in obs.hand)
    seed = seed_where("blackjack", 2, holds_unplayable)
    with Session(load_rules("blackjack"), 0, [FirstLegal()], seed, ["you", "a"]) as session:
        session.advance()
        obs = session.view()
        card = next(NAMES[c] for c in obs.hand if not obs.is_legal(NAMES[c]))
        with pytest.raises(MoveRefused, match=f"'{card}' cannot be played: "):
            session.move(card)
        assert session.view() == obs  # nothing changed


def test_ctrl_c_leaves_the_game_with_its_seed_and_status_130(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C at the prompt ended with 'error: interrupted' and no seed: the deal was lost."""
    def interrupted(out, session):
        raise KeyboardInterrupt
    monkeypatch.setattr(play_cli, "_turn", interrupted)
    result = invoke(tmp_path, "--vs", "greedy", "--seats", "2", "--seed", "5")
    assert result.exit_code == 130, result.output
    assert "you left the game" in result.stdout
    assert "seed 5 (the same deal again: --seed 5)" in result.stdout


def test_a_seat_below_zero_is_a_usage_error(tmp_path: Path) -> None:
    result = invoke(tmp_path, "--seat", "-1")
    assert result.exit_code == 64 and "--seat" in result.output


def test_the_person_is_told_the_cards_it_drew_and_no_other_seats() -> None:
    """openspiel keeps no drawn card in the observation: 'seat 0 (you) draws 1' left the
    person to find the new card in a sorted hand. Its own draws name their cards; a bot's
    draws never do."""
    class Drawer(FirstLegal):
        def act(self, message: dict) -> str:
            return "draw" if "draw" in message["obs"]["legal"] else message["obs"]["legal"][0]

    seed = seed_where("openspiel", 2, lambda obs: "draw" in obs.legal and obs.to_move == 0)
    with Session(load_rules("openspiel"), 0, [Drawer()], seed, ["you", "a"]) as session:
        session.advance()
        before = set(session.view().hand)
        played = session.move("draw")
        after = session.view().hand
        assert played.drew == tuple(c for c in after if c not in before) and len(played.drew) == 1
        others = [n for n in play_out(session) if isinstance(n, Played) and n.step.seat == 1]
        assert any(n.step.drew for n in others) and not any(n.drew for n in others)
    con = Console(file=io.StringIO(), width=80, color_system=None)
    render_play_news(con, [played], ["you", "a"])
    assert con.file.getvalue() == f"  seat 0 (you) draws 1 ({NAMES[played.drew[0]]})\n"


def test_a_laid_card_drawn_back_through_the_recycled_pile_is_named_too() -> None:
    """B5: `QH 5H` without the last-card call draws two; the stock is empty, so the pile under
    the new top (9H, then QH) is shuffled in and both come back. Only 9H was named."""
    rules = load_rules("blackjack")
    with Session(rules, 0, [FirstLegal()], 1, ["you", "bot"]) as session:
        session.match.current = Game.setup(rules, [cards("QH", "5H", "9C"), cards("3S", "4S", "6S")],
                                           Card.parse("9H"))
        played = session.move("QH 5H")
        assert played.step.drew == 2
        assert sorted(NAMES[c] for c in played.drew) == ["9H", "QH"]
        assert sorted(NAMES[c] for c in session.match.current.hands[0]) == ["9C", "9H", "QH"]


def test_a_seat_of_one_card_keeps_the_columns_after_it_aligned() -> None:
    game = Game.setup(load_rules("switch"), [cards("2C", "AS", "9D"), cards("3D"), cards("5D", "6D")],
                      Card.parse("9H"), stock=cards("3C", "8C", "9C"))
    lines = table_text(game, ["you", "greedy", "random"], target=3).splitlines()
    rows = [line for line in lines if re.search(r"\d cards? +won \d", line)]
    assert len(rows) == 3 and len({row.index(" won ") for row in rows}) == 1, rows
