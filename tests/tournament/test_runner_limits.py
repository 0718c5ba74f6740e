"""A tournament file's ``limits`` reach every bot's sandbox, the keys tournaments could not set
before (``disk_mb``, ``files``, ``hook_time``) included."""

from __future__ import annotations

import re
from pathlib import Path

from arena.play.faults import FaultCode
from arena.tournament.replay import open_results
from arena.tournament.runner import run_tournament

BOTS = Path(__file__).resolve().parent / "bots"


def test_disk_files_and_hook_limits_of_the_file_bind_the_bots(tmp_path: Path) -> None:
    path = tmp_path / "limits.yaml"
    path.write_text(
        "name: limits\nseats: 2\nrounds: 1\nseed: 5\n"
        "limits: {disk_mb: 2, files: 40, hook_time: 0.3, init_time: 10}\n"
        f"bots: [{BOTS / 'first_legal.py'}, {BOTS / 'fills_its_folder.py'}, {BOTS / 'slow_start.py'}]\n"
    )
    # Unchecked: the checks before the first game would refuse both bots; their games show
    # the limits (a bot disqualified for them has its last games played by its fallback).
    report = run_tournament(path, tmp_path, workers=1, check=False)
    assert report.complete
    with open_results(tmp_path, "limits") as store:
        faults = [f for game in store.games() for f in game.faults
                  if f.code is not FaultCode.DISQUALIFIED]
    held = [re.search(r"folder held (\d+) KiB and (\d+) files", f.detail + f.log_tail)
            for f in faults if f.bot == "fills_its_folder"]
    assert held and all(held)
    for match in held:  # the defaults (16 MiB, 512 files) would have let it write far more
        assert 1024 <= int(match[1]) <= 2048 and 20 <= int(match[2]) <= 40
    slow = [f for f in faults if f.bot == "slow_start"]
    assert slow and all("on_game_start" in f.detail and "0.3" in f.detail for f in slow), slow
