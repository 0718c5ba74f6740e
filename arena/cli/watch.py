"""``arena watch``: step through a stored game (or a position file's moves) move by move.

The frames come from :func:`arena.tournament.watch.frames` (the replay's steps and effects) and
are drawn by :func:`arena.cli.render.render_watch`. The keys, each a line of input: ``n`` or
enter the next move, ``b`` back one, ``s`` the start, ``e`` the end, a number that move (0: the
deal), ``q`` quit (end of input quits too). On a terminal the screen is cleared between frames;
piped, the frames follow one another.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from arena.cli.app import USAGE_STATUS, app, console, fail, handles_errors
from arena.cli.options import home_option, workspace_of
from arena.cli.render import WATCH_KEYS, render_watch
from arena.engine.game import Game
from arena.engine.position import load_position
from arena.services.play import typed_number
from arena.settings import show
from arena.tournament.records import GameRecord
from arena.tournament.replay import load_stored_game
from arena.tournament.watch import Frame, UnplayableMoveError, frames

_NEXT, _BACK, _START, _END, _QUIT = ("n", "next", ""), ("b", "back"), ("s", "start"), ("e", "end"), ("q", "quit")


@app.command()
@handles_errors
def watch(
    name: Optional[str] = typer.Argument(None, help="The tournament whose game to watch."),
    game_id: Optional[int] = typer.Argument(None, help="The stored game's id (arena games NAME lists them)."),
    position: Optional[Path] = typer.Option(None, "--position", help="Watch a position file's moves instead (docs/notation.md)."),
    home: Optional[Path] = home_option(),
) -> None:
    """Step through a game move by move, every hand shown: n/enter next, b back, s start, e end,
    a number to jump to that move, q quit."""
    names: Sequence[str] | None = None
    record: GameRecord | None = None
    if position is not None:
        if name is not None or game_id is not None:
            fail("give a tournament NAME and GAME_ID, or --position FILE, not both", USAGE_STATUS)
        loaded = load_position(position)
        title = str(position)
        shown = _frames_of(title, [(loaded.game, loaded.moves)])
    else:
        if name is None or game_id is None:  # a command line that cannot be run: usage status
            fail("give a tournament NAME and GAME_ID (or --position FILE)", USAGE_STATUS)
        stored = load_stored_game(workspace_of(home).root, name, game_id)
        names, record = stored.record.table, stored.record
        title = f"game {game_id} of {name}"
        shown = _frames_of(title, [(hand.game, hand.moves) for hand in stored.hands])
    _step_through(console(), shown, title, names, record)


def _frames_of(source: str, hands: Sequence[tuple[Game, Sequence[str]]]) -> list[Frame]:
    """The frames of ``hands``; a move that cannot be played is named with its ``source``."""
    try:
        return frames(hands)
    except UnplayableMoveError as error:
        raise UnplayableMoveError(f"{source}: {error}") from None


def _step_through(out: Console, shown: list[Frame], title: str, names: Sequence[str] | None,
                  record: GameRecord | None) -> None:
    """Show a frame, read a key, move; until ``q`` or the end of input. ``record``: the stored
    game's, whose result the last frame shows."""
    at, last = 0, len(shown) - 1
    note = ""
    while True:
        if out.is_terminal:
            out.clear()
        render_watch(out, shown[at], shown[last].move, title, names, record)
        if note:
            out.print(note, style="yellow", highlight=False)
        out.print(WATCH_KEYS, style="dim", highlight=False)
        line = sys.stdin.readline()
        if not line:
            return  # the end of input
        at, note = _move(line.strip().lower(), at, shown)
        if at < 0:
            return


def _move(key: str, at: int, shown: list[Frame]) -> tuple[int, str]:
    """The frame a key leads to from frame ``at`` (-1: quit), and a note for a key that
    cannot be followed."""
    last = len(shown) - 1
    if key in _QUIT:
        return -1, ""
    if key in _NEXT:
        return (at + 1, "") if at < last else (at, "the last move: nothing after it")
    if key in _BACK:
        return (at - 1, "") if at > 0 else (at, "the deal: nothing before it")
    if key in _START:
        return 0, ""
    if key in _END:
        return last, ""
    wanted = typed_number(key)
    if wanted is not None:
        found = [i for i, frame in enumerate(shown) if frame.move == wanted]
        if not found:
            return at, f"no move {wanted}: the game has moves 0..{shown[last].move}"
        return found[0], ""  # the move itself, not the next hand's deal that follows it in a match
    return at, f"unknown key {show(key)}"
