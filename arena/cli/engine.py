"""Engine commands: ``arena rules``, ``arena replay``, ``arena bench``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional, Sequence

import typer
from rich.console import Console

from arena.services.bench import (
    bench_inprocess, bench_openspiel, bench_playouts, bench_rankings, bench_sandboxed,
    openspiel_parameters,
)
from arena.services.cluster_bench import bench_cluster
from arena.cli.app import USAGE_STATUS, app, console, emit, fail, handles_errors
from arena.cli.options import home_option, workspace_of
from arena.errors import GameOverError, IllegalActionError, InvalidActionError
from arena.engine.game import Game
from arena.engine.position import load_position
from arena.tournament.replay import load_stored_game, replay_moves
from arena.tournament.store import results_path
from arena.sandbox.workspace import builtin_dir, shipped_tournaments_dir
from arena.cli.render import (
    render_bench, render_cluster_bench, render_playout_bench, render_rankings_bench, render_outcome, render_position, render_rules, render_rules_list, render_sandbox_bench,
    render_step, render_stored_game, render_stored_result, seat_names,
)
from arena.engine.rules import load_rules, preset_names


@app.command()
@handles_errors
def rules(name: Optional[str] = typer.Argument(None, help="A preset name or a rule-set YAML file.")) -> None:
    """List the rule sets, or show one rule set's settings."""
    if name is None:
        render_rules_list(console(), [load_rules(n) for n in preset_names()])
    else:
        render_rules(console(), load_rules(name))


@app.command()
@handles_errors
def replay(
    target: Path = typer.Argument(..., help="A position file (YAML, docs/notation.md), or a tournament name with GAME_ID."),
    game_id: Optional[int] = typer.Argument(None, help="Replay this stored game of tournament TARGET."),
    as_json: bool = typer.Option(False, "--json", help="Print the final position as JSON."),
    home: Optional[Path] = home_option(),
) -> None:
    """Apply a position file's moves (or a stored game's) and show the game (exit 2 on an invalid or illegal move).

    A stored match of several hands is shown hand by hand (with --json: one object per hand).
    """
    names: Sequence[str] | None = None
    stored = None
    if game_id is None:
        if not target.exists() and results_path(str(target), workspace_of(home).results_dir).exists():
            fail(f"{target} is a tournament: give a GAME_ID too (arena games {target} lists them)",
                 USAGE_STATUS)
        position = load_position(target)
        hands = [(position.game, tuple(position.moves))]
    else:
        stored = load_stored_game(workspace_of(home).root, str(target), game_id)
        hands = [(h.game, h.moves) for h in stored.hands]
        names = stored.record.table
    out = console()
    if stored is not None and not as_json:
        render_stored_game(out, str(target), stored.record)
    for number, (game, moves) in enumerate(hands):
        if not as_json:
            if len(hands) > 1:
                out.rule(f"hand {number + 1} of {len(hands)}, seat {game.to_move} leads")
            render_position(out, game, names)
        _replay_moves(game, moves, as_json, out, None if names is None else seat_names(names))
        if as_json:
            emit(json.dumps(game.to_json()))
        else:
            render_outcome(out, game, names, of_hand=len(hands) > 1)
    if stored is not None and not as_json:
        # A match's stored result is the match's, not its last hand's: nothing to compare it to.
        render_stored_result(out, stored.record, hands[0][0].outcome if len(hands) == 1 else None)


def _replay_moves(game: Game, moves: Sequence[str], as_json: bool, out: Console,
                  names: Sequence[str] | None) -> None:
    """Apply the moves in order, printing each for a person; stop with exit 2 at a bad one."""
    applied = 0
    try:
        for step in replay_moves(game, moves):
            applied = step.index
            if not as_json:
                render_step(out, step, game, names)
    except (InvalidActionError, IllegalActionError, GameOverError) as error:
        _replay_error(error, applied, moves[applied], as_json)


def _replay_error(error: Exception, index: int, text: str, as_json: bool) -> None:
    # A move after the end is illegal like any other the rules refuse: the file is wrong there.
    kind = "invalid" if isinstance(error, InvalidActionError) else "illegal"
    reason = error.reason if isinstance(error, IllegalActionError) else str(error)
    if as_json:
        emit(json.dumps({"error": kind, "move_index": index, "move": text, "reason": reason}))
    else:
        console().print(f"[bold red]move {index} ({text!r}) is {kind}[/]: {reason}")
    raise typer.Exit(2)


@app.command()
@handles_errors
def bench(
    rules_name: Optional[str] = typer.Option(
        None, "--rules", help="A preset name or a rule-set file (default: switch; openspiel with --peer)."),
    games: int = typer.Option(1000, "--games", min=1, help="Games to play."),
    seats: Optional[int] = typer.Option(None, "--seats", min=2, help="Seats per game (default: the preset's)."),
    seed: int = typer.Option(0, "--seed", help="First deal seed."),
    peer: Optional[str] = typer.Option(None, "--peer", help="Also run a peer engine: 'openspiel'."),
    sandbox: bool = typer.Option(False, "--sandbox", help="Every seat a sandboxed random bot process."),
    rankings: bool = typer.Option(False, "--rankings", help="Time `arena rankings` on a temporary store of --games synthetic games."),
    playouts: bool = typer.Option(False, "--playouts", help="Time --games random playouts (a search's samples) from mid-game positions."),
    tries: int = typer.Option(
        1, "--tries", min=1, max=16,
        help="With --playouts: informed playouts building N plays a turn, as mcts plays them (its playout_tries, 3 by default); 1: random ones."),
    cluster: Optional[str] = typer.Option(
        None, "--cluster", metavar="local:N",
        help="Play --games games of the demo tournament on the local pool and on a Dask "
             "LocalCluster of N workers each; games/s, CPU, the cost of a batch (docs/cluster.md)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Play random-vs-random games in-process and report games/s and decisions/s (or, with
    --rankings, how long the rankings of a stored tournament of --games games take; with
    --playouts, the random playouts per second a search gets from mid-game positions, or
    with --tries N the informed ones mcts plays; with
    --cluster, the local pool against the Dask backend)."""
    if cluster is not None:
        compared = bench_cluster(shipped_tournaments_dir() / "demo.yaml", cluster, games)
        if as_json:
            emit(json.dumps(compared.to_json()))
        else:
            render_cluster_bench(console(), compared)
        return
    if rankings:
        timed = bench_rankings(games, seed)
        if as_json:
            emit(json.dumps(timed.to_json()))
        else:
            render_rankings_bench(console(), timed)
        return
    if peer is not None and peer != "openspiel":
        raise typer.BadParameter("the only peer is 'openspiel'", param_hint="--peer")
    rule_set = load_rules(rules_name or ("openspiel" if peer else "switch"))
    seat_count = rule_set.seats_default if seats is None else seats
    rule_set.check_seats(seat_count)
    if peer is not None:
        openspiel_parameters(rule_set, seat_count)  # the same game, or one line saying why not
    if tries != 1 and not playouts:
        fail("--tries: informed playouts are timed with --playouts only")
    if playouts:
        timed_playouts = bench_playouts(rule_set, games, seat_count, seed, tries)
        if as_json:
            emit(json.dumps(timed_playouts.to_json()))
        else:
            render_playout_bench(console(), timed_playouts)
        return
    if sandbox:
        measured = bench_sandboxed(rule_set, games, seat_count, builtin_dir() / "random.py", seed)
        if as_json:
            emit(json.dumps(measured.to_json()))
        else:
            render_sandbox_bench(console(), measured)
        return
    result = bench_inprocess(rule_set, games, seat_count, seed)
    results = [result]
    if peer is not None:
        results.append(bench_openspiel(rule_set, games, seat_count, seed))
    if as_json:
        data = result.to_json()
        if len(results) == 2:
            data["peer"] = results[1].to_json()
            data["ratio"] = round(result.games_per_s / results[1].games_per_s, 3)
        emit(json.dumps(data))
    else:
        render_bench(console(), results)
