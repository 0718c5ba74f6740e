"""No reply can stop the referee (issue 9, point 1): a bot answering with hostile bytes, from
deep nesting to forged reports and invalid UTF-8, is only ever a fault of its own seat."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.play.referee import Referee
from arena.engine.rules import load_rules
from arena.sandbox import BotFault, BotSpec, FaultCode, Limits, SandboxedBot
from arena.sandbox.bench import SAMPLE_OBS
from arena.tournament.replay import open_results
from arena.tournament.runner import run_tournament

FUZZ = Path(__file__).resolve().parents[1] / "hostile_bots" / "fuzz_replies.py"


def test_hostile_replies_are_faults_and_the_run_goes_on(tmp_path: Path) -> None:
    config = tmp_path / "fuzz.yaml"
    config.write_text(
        "name: fuzz\nseats: 2\nrounds: 12\nseed: 9\n"
        "limits: {move_time: 0.5, init_time: 10}\n"
        f"bots: [random, {{name: fuzz, cmd: [python3, {FUZZ}]}}]\n")
    # Unchecked: its probe would refuse it before the first game; its games are the point.
    report = run_tournament(config, tmp_path, workers=2, check=False)
    assert report.complete and not report.interrupted
    assert list(report.disqualified) == ["fuzz"]  # three faulty games in a row
    with open_results(tmp_path, "fuzz") as store:
        games = list(store.games())
        assert len(games) == 24  # its remaining games are played by its fallback
        out = [f for g in games[3:] for f in g.faults]
        assert [f.code for f in out] == [FaultCode.DISQUALIFIED] * 21
        faults = [f for g in games[:3] for f in g.faults]
        assert len(faults) == 3 and all(f.bot == "fuzz" for f in faults)
        assert {f.code for f in faults} <= {FaultCode.INVALID, FaultCode.ILLEGAL, FaultCode.MEMORY,
                                            FaultCode.CRASH}
        for fault in faults:
            fault.detail.encode("utf-8")  # stored as valid text, whatever was sent
            assert len(fault.detail) < 5000
    again = run_tournament(config, tmp_path, workers=1, check=False)  # it reads all back
    assert again.complete and again.played == 0


def _fuzz_bot() -> SandboxedBot:
    return SandboxedBot(BotSpec("fuzz", command=("python3", str(FUZZ))),
                        Limits(move_time=0.5, memory_mb=256))


@pytest.mark.parametrize("payload", range(16))
def test_every_adversarial_reply_is_a_fault_or_a_text(payload: int) -> None:
    bot = _fuzz_bot()
    try:
        bot.start_game({"seat": 0, "seed": 1, "payload": payload})
        try:
            text = bot.act({"obs": SAMPLE_OBS})
        except BotFault as fault:
            assert fault.code in (FaultCode.INVALID, FaultCode.MEMORY), fault
            fault.detail.encode("utf-8")
        else:
            assert isinstance(text, str) and "\n" not in text
    finally:
        bot.close()


def test_forty_games_of_random_bytes_never_stop_the_referee() -> None:
    referee = Referee(load_rules("switch"))
    fuzz = _fuzz_bot()
    other = SandboxedBot(BotSpec("random", Path(__file__).resolve().parents[2] / "bots" / "random.py"),
                         Limits(move_time=0.5, memory_mb=256))
    try:
        for seed in range(40):
            table = [fuzz, other] if seed % 2 else [other, fuzz]
            result = referee.play(table, seed)
            assert result.reason  # the game ended normally
            assert [f.seat for f in result.faults] in ([table.index(fuzz)], [])
    finally:
        fuzz.close()
        other.close()
