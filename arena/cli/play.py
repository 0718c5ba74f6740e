"""``arena play``: a person plays one seat in the terminal against bots.

The session (:mod:`arena.services.play`) seats the bots in the sandbox and referees the game;
this command reads the person's lines and draws the table with :mod:`arena.cli.render`. Each
line is a move's number from the list, a move in notation (``7H 7C``, ``AS=D``, ``draw``;
docs/notation.md), ``h`` for the search bot's hint or ``q`` to leave (the end of input leaves
too). A move that cannot be played gets a note and the same prompt. On a terminal the screen is
cleared before each of the person's turns; piped, the turns follow one another.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console

from arena.cli.app import app, console, handles_errors
from arena.cli.bots import named_specs
from arena.cli.options import home_option, seed_option, trusted_option, workspace_of
from arena.cli.render import (PLAY_PROMPT, render_hint, render_note, render_play, render_play_news,
                              render_play_result)
from arena.engine.rules import DEFAULT_PRESET, load_rules
from arena.services.play import MoveRefused, News, NoHint, Session, Table, search_advisor
from arena.tournament.schedule import fresh_seed

_QUIT, _HINT = ("q", "quit"), ("h", "hint")
DEFAULT_OPPONENT = "heuristic"
EMPTY_NOTE = "type a move's number or notation (7H, AS=D, draw), h for a hint, q to quit"


@app.command()
@handles_errors
def play(
    rules_name: str = typer.Option(DEFAULT_PRESET, "--rules", help="A preset name or a rule-set file."),
    seats: Optional[int] = typer.Option(None, "--seats", min=2, help="Seats at the table (default: the preset's)."),
    vs: str = typer.Option(DEFAULT_OPPONENT, "--vs", metavar="BOT,...",
                           help="The bots of the other seats, in turn (built-in or registered names, "
                                "files, or cmd:COMMAND), comma-separated."),
    seat: int = typer.Option(0, "--seat", min=0, help="Your seat, 0 to seats-1 (the rules say who moves first)."),
    option: List[str] = typer.Option([], "--option", metavar="N:KEY=VALUE",
                                     help="Set option KEY of the N-th bot of --vs (1, 2, ...); repeatable."),
    seed: Optional[int] = seed_option(),
    trusted: bool = trusted_option(),
    home: Optional[Path] = home_option(),
) -> None:
    """Play a game in the terminal against bots: type a move's number or the move (7H 7C,
    AS=D, draw), h for a hint, q to quit."""
    specs = named_specs(workspace_of(home), [name.strip() for name in vs.split(",")], option)
    rule_set = load_rules(rules_name)
    chosen = fresh_seed() if seed is None else seed  # told at the end: it deals every hand
    out = console()
    with Table(rule_set, seat, specs, chosen, seats=seats, trusted=trusted,
               advisor=search_advisor()) as session:
        try:
            finished = _play(out, session)
        except KeyboardInterrupt:   # Ctrl-C leaves the game as q does: the seed deals it again
            out.print()
            render_play_result(out, None, session.names, session.seat, chosen)
            raise
        render_play_result(out, session.outcome if finished else None, session.names,
                           session.seat, chosen, session.cards_left() if finished else ())


def _play(out: Console, session: Session) -> bool:
    """The person's turns until the game ends (True) or the person leaves (False). On a
    terminal each turn is one screen: the news get the lines the table leaves them."""
    mine: list[News] = []
    while True:
        news = mine + _others_move(out, session)
        if session.is_over:
            _screen(out, news, session, RESULT_LINES + len(session.names))
            return True
        def table(console: Console) -> None:
            render_play(console, session.view(), session.names, session.hand, session.target,
                        session.wins)
        _screen(out, news, session, _height(out, table) + PROMPT_LINES)
        table(out)
        played = _turn(out, session)
        if played is None:
            return False
        mine = [played]


def _others_move(out: Console, session: Session) -> list[News]:
    """The bots' moves up to the person's turn, under a spinner on a terminal (a search bot
    thinks most of a second a move: the screen must not look hung)."""
    if not out.is_terminal:
        return session.advance()
    with out.status("the other seats are moving...", spinner="dots"):
        return session.advance()


PROMPT_LINES = 3  # the prompt, and a note under it that may wrap
RESULT_LINES = 5  # the result, the places, the seed (and a line for each seat's cards left)


def _screen(out: Console, news: list[News], session: Session, below: int) -> None:
    """A fresh screen on a terminal, and the news in the lines that ``below`` lines leave."""
    if out.is_terminal:
        out.clear()
    room = out.height - below if out.is_terminal else None
    render_play_news(out, news, session.names, room)


def _height(out: Console, draw: Callable[[Console], None]) -> int:
    """The lines ``draw`` takes at the console's width."""
    written = io.StringIO()
    draw(Console(file=written, width=out.width, color_system=None))
    return written.getvalue().count("\n")


def _turn(out: Console, session: Session) -> News | None:
    """Read lines until one is a move that is played (returned) or the person leaves (None)."""
    while True:
        out.print(PLAY_PROMPT, end="")
        line = sys.stdin.readline()
        if not line:
            out.print()
            return None  # the end of input
        key = line.strip()
        if key.lower() in _QUIT:
            return None
        if key.lower() in _HINT:
            try:
                render_hint(out, session.hint())
            except NoHint as refused:
                render_note(out, str(refused))
            continue
        if not key:
            render_note(out, EMPTY_NOTE)
            continue
        try:
            return session.move(key)
        except MoveRefused as refused:
            render_note(out, str(refused))
