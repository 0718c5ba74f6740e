"""The tournament runner through the library: reproducibility, resume, stops, changed setups.

Small tournaments of fast bots (the built-in random bot and a first-legal-action test bot) in a
temporary workspace.
"""

from __future__ import annotations

import json
import hashlib
import multiprocessing
from pathlib import Path

import pytest

from tournament_helpers import untimed, untimed_rankings
from arena.errors import ConfigError
from arena.tournament import ConfigChangedError, Schedule, load_config, rank_store
from arena.tournament.export import rankings_json
from arena.tournament.replay import open_results, stored_game
from arena.tournament.runner import Progress, run_tournament
from arena.tournament.shipment import code_identity

HERE = Path(__file__).resolve().parent
FIRST_LEGAL = HERE / "bots" / "first_legal.py"


def write_config(folder: Path, name: str = "small", rounds: int = 2, bots: str | None = None,
                 seats: int = 3, extra: str = "") -> Path:
    """A tournament file in ``folder``; default: 4 bots, 3 seats, 4 tables x rounds x 3 rotations."""
    bots = bots or f"[random, greedy, heuristic, {FIRST_LEGAL}]"
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\nseats: {seats}\nbots: {bots}\nrounds: {rounds}\nseed: 11\n{extra}")
    return path


def stored(home: Path, name: str = "small") -> tuple[list[dict], dict]:
    """The stored games without their durations, and the rankings JSON."""
    with open_results(home, name) as store:
        games = [untimed(r) for r in store.games()]
        return games, untimed_rankings(rankings_json(rank_store(store)))


def test_serial_and_parallel_runs_store_identical_results(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    serial = run_tournament(config, tmp_path / "one", workers=1)
    parallel = run_tournament(config, tmp_path / "two", workers=2)
    assert serial.complete and parallel.complete
    assert serial.stored == parallel.stored == len(Schedule.from_config(load_config(config))) == 24
    assert stored(tmp_path / "one") == stored(tmp_path / "two")
    assert multiprocessing.active_children() == []


def test_a_stopped_run_resumes_and_stores_each_game_once(tmp_path: Path) -> None:
    config = write_config(tmp_path, rounds=1)
    first = run_tournament(config, tmp_path, workers=2, max_games=5)
    assert (first.stored, first.complete) == (5, False)
    second = run_tournament(config, tmp_path, workers=2)
    assert second.complete and second.played == 12 - 5
    games, table = stored(tmp_path)
    assert [g["game_id"] for g in games] == list(range(12))
    run_tournament(config, tmp_path / "straight", workers=1)
    assert stored(tmp_path / "straight") == (games, table)


def test_interrupt_keeps_finished_games_and_stops_every_process(tmp_path: Path) -> None:
    # enough games that the ones already handed out when Ctrl-C comes cannot be all of them
    config = write_config(tmp_path, rounds=8)
    seen: list[Progress] = []

    def stop_after_three(progress: Progress) -> None:
        seen.append(progress)
        if progress.stored >= 3:
            raise KeyboardInterrupt

    report = run_tournament(config, tmp_path, workers=2, progress=stop_after_three)
    assert report.interrupted and 3 <= report.stored < report.total
    assert seen[-1].stored <= report.stored  # every game committed before Ctrl-C was written
    assert multiprocessing.active_children() == []
    with open_results(tmp_path, "small") as store:
        assert store.game_count() == report.stored
    resumed = run_tournament(config, tmp_path, workers=1)
    assert resumed.complete and resumed.played == report.total - report.stored


def test_a_second_ctrl_c_while_the_workers_stop_does_not_cut_the_clean_stop_short(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """People press Ctrl-C again while a run stops. Seen: three presses within 0.3 s ended
    the run with 'error: interrupted' and no summary nor resume command. Here a SIGINT comes
    in while the workers are being stopped: the run still ends with its report."""
    import os
    import signal

    from arena.tournament.pool import LocalPool

    stop = LocalPool.stop

    def pressed_again(self):  # type: ignore[no-untyped-def]
        os.kill(os.getpid(), signal.SIGINT)
        return stop(self)

    monkeypatch.setattr(LocalPool, "stop", pressed_again)

    def stop_after_three(progress: Progress) -> None:
        if progress.stored >= 3:
            raise KeyboardInterrupt

    config = write_config(tmp_path, rounds=8)
    try:
        report = run_tournament(config, tmp_path, workers=2, progress=stop_after_three)
    except KeyboardInterrupt:
        pytest.fail("the second Ctrl-C cut the stop short: no report")
    assert report.interrupted and 3 <= report.stored < report.total
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler   # restored after the run
    assert multiprocessing.active_children() == []


def test_progress_reports_counts_rate_and_leaders(tmp_path: Path) -> None:
    seen: list[Progress] = []
    report = run_tournament(write_config(tmp_path, rounds=1), tmp_path, workers=1, progress=seen.append)
    last = seen[-1]
    assert (last.total, last.stored, last.done, last.played) == (12, 12, 12, 12)
    assert last.games_per_s > 0 and last.eta_s == 0
    table = stored(tmp_path)[1]
    # the live table ranks as the final rankings do, with the same TrueSkill ratings
    assert [lead.bot for lead in last.leaders] == [line["bot"] for line in table["bots"]]
    final = {line["bot"]: line for line in table["bots"]}
    for lead in last.leaders:
        line = final[lead.bot]
        assert (lead.games, lead.wins, lead.faults) == (line["games"], line["wins"], line["faults"])
        assert lead.mean_place == pytest.approx(line["mean_place"])
        assert (lead.mu, lead.sigma, lead.score) == (line["mu"], line["sigma"], line["score"])
    assert report.parent_cpu_s > 0 and report.parent_ms_per_game == report.parent_cpu_s / 12 * 1000
    assert report.log_path == tmp_path / "results" / "small.log"
    log_text = report.log_path.read_text()
    assert "small-worker-0" in log_text and "worker 0 started" in log_text


def test_a_changed_config_is_refused_unless_restarted(tmp_path: Path) -> None:
    run_tournament(write_config(tmp_path, rounds=1), tmp_path, workers=1)
    changed = write_config(tmp_path, rounds=1, seats=2)  # no stored game survives other seats
    with pytest.raises(ConfigChangedError, match=r"key 'seats' changed \(3 -> 2\).*--restart"):
        run_tournament(changed, tmp_path, workers=1)
    assert stored(tmp_path)[1]["games"] == 12  # nothing damaged
    report = run_tournament(changed, tmp_path, workers=2, restart=True)
    assert report.archive is not None and report.archive.exists()
    assert report.complete and report.stored == 12  # 6 two-seat tables x 1 deal x 2 rotations


def test_a_stored_game_replays_to_its_stored_result(tmp_path: Path) -> None:
    run_tournament(write_config(tmp_path, rounds=1), tmp_path, workers=1)
    with open_results(tmp_path, "small") as store:
        for record in store.games():
            (hand,) = stored_game(store, record.game_id).hands  # switch: one hand a game
            for move in hand.moves:
                hand.game.apply(move)
            assert hand.game.outcome is not None
            assert hand.game.outcome.places == record.places
            assert hand.game.decisions == record.decisions


def test_unknown_bots_are_refused_with_one_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown bot 'nosuchbot'"):
        run_tournament(write_config(tmp_path, bots="[random, nosuchbot]", seats=2), tmp_path)
    with pytest.raises(ConfigError, match="no such file"):
        run_tournament(write_config(tmp_path, bots="[random, bots/missing.py]", seats=2), tmp_path)
    assert not (tmp_path / "results" / "small.sqlite").exists()


def test_rankings_json_shape(tmp_path: Path) -> None:
    run_tournament(write_config(tmp_path, rounds=1), tmp_path, workers=1)
    with open_results(tmp_path, "small") as store:
        table = rankings_json(rank_store(store))
    assert set(table) == {"tournament", "games", "seed", "seed_hidden", "bots", "seat_bias", "code_versions"}
    assert (table["seed"], table["seed_hidden"]) == (11, False) and table["code_versions"] == [code_identity()]
    assert [seat["games"] for seat in table["seat_bias"]["seats"]] == [table["games"]] * 3
    for line in table["bots"]:
        assert set(line) == {"bot", "disqualified", "faults", "games", "mean_place", "mean_place_ci",
                             "mu", "score", "sigma", "wins", "win_rate", "win_rate_ci",
                             "moves_asked", "ms_per_move"}
        assert line["moves_asked"] > 0 and line["ms_per_move"] > 0  # every bot asked, and timed
    json.dumps(table)


SWAPPED = """
class Bot:
    def act(self, obs):
        raise RuntimeError("the replaced file ran")
"""


def test_replacing_a_bot_file_during_a_run_changes_nothing(tmp_path: Path) -> None:
    """What is hashed is what runs (issue 9): the run plays the snapshot taken when it was
    planned, and the store records that snapshot's hash."""
    bot = tmp_path / "mine.py"
    bot.write_text(FIRST_LEGAL.read_text())
    original = hashlib.sha256(bot.read_bytes()).hexdigest()
    config = write_config(tmp_path, bots=f"[random, {bot}]", seats=2, rounds=40)

    def swap(progress: Progress) -> None:
        if progress.done >= 2:  # mid-run: the workers' templates start after this, too
            bot.write_text(SWAPPED)

    report = run_tournament(config, tmp_path, workers=2, progress=swap)
    assert report.complete and bot.read_text() == SWAPPED
    with open_results(tmp_path, "small") as store:
        assert all(g.faults == () for g in store.games())
        assert store.bot_versions()["mine"] == original
    assert (tmp_path / "results" / "bots" / original / "mine.py").read_text() == FIRST_LEGAL.read_text()
