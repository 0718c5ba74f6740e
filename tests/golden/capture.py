"""Capture what the referee says and stores for seeded random games: the golden transcript.

For every preset and a few table sizes this plays seeded games between scripted in-process bots
through the real referee, and writes down, in order, every message a bot receives (start, each
observation, end), the stored record of the game (``GameRecord.to_json``) and the final
position's replay JSON (``Game.to_json``). Some games have a seat that answers garbage, so the
fault path is captured too. The digest of each transcript is kept in ``digests.json``; a change
in any byte of any message shows up as a changed digest, and the first game of each case is kept
in full (``first_games.json``) so a failure can show what differs.

Regenerate (only when a change of the protocol or replay format is intended)::

    python tests/golden/capture.py
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from arena.play.referee import Referee
from arena.engine.rules import load_rules, preset_names
from arena.tournament.records import GameRecord
from arena.tournament.worker import to_record
from arena.tournament.schedule import ScheduledGame

HERE = Path(__file__).parent
GAMES = 200  # per preset, spread over the table sizes below
SEATS = (2, 3, 4)


class ScriptedBot:
    """Picks among the legal texts (mostly a play) with its own seeded generator; can misbehave once."""

    def __init__(self, transcript: list[Any], seat: int, seed: int, garbage_at: int | None) -> None:
        self.transcript, self.seat = transcript, seat
        self.rng = random.Random(seed)
        self.garbage_at = garbage_at
        self.asked = 0

    def start_game(self, info: dict) -> None:
        self.transcript.append(["start", self.seat, info])

    def act(self, message: dict) -> str:
        self.transcript.append(["act", self.seat, message])
        self.asked += 1
        if self.asked == self.garbage_at:
            return "not a card"
        legal = message["obs"]["legal"]
        plays = [text for text in legal if not text.startswith("draw")]
        # mostly play when a play is legal: random drawing by choice makes endless games
        return self.rng.choice(plays if plays and self.rng.random() < 0.9 else legal)

    def end_game(self, result: dict) -> None:
        self.transcript.append(["end", self.seat, result])

    def close_game(self) -> None:
        self.transcript.append(["close", self.seat])

    def log_tail(self, lines: int = 20) -> str:
        return f"log of seat {self.seat}"


def play_case(preset: str, seats: int, games: range) -> list[list[Any]]:
    """One transcript per game of ``preset`` at ``seats`` seats."""
    rules = load_rules(preset)
    referee = Referee(rules)
    out = []
    for number in games:
        transcript: list[Any] = []
        garbage = 3 if number % 10 == 7 else None
        bots = [ScriptedBot(transcript, s, number * 31 + s, garbage if s == 1 else None) for s in range(seats)]
        result = referee.play(bots, deal_seed=1000 + number)
        game = ScheduledGame(game_id=number, deal_id=number, table=tuple(f"bot{s}" for s in range(seats)),
                             deal_seed=1000 + number, seating=0)
        record = to_record(game, result)
        stored = json.loads(record.to_json())
        stored.pop("duration_s")  # wall time: not a function of the game
        # the seats' thinking is wall time too; its count of moves asked is each bot's own
        assert [moves for moves, _ in stored.pop("think")] == [bot.asked for bot in bots]
        transcript.append(["record", stored])
        assert GameRecord.from_json(record.to_json()) == record
        assert result.game is not None
        transcript.append(["replay", result.game.to_json()])
        out.append(transcript)
    return out


def cases() -> list[tuple[str, int]]:
    """Every (preset, seats) pair that the preset allows among SEATS."""
    found = []
    for preset in preset_names():
        rules = load_rules(preset)
        for seats in SEATS:
            if rules.seats_min <= seats <= rules.seats_max:
                found.append((preset, seats))
    return found


def digest(transcripts: list[list[Any]]) -> str:
    """The sha256 of the transcripts as canonical JSON."""
    text = json.dumps(transcripts, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def capture() -> tuple[dict[str, str], dict[str, Any]]:
    """Digests of every case, and the first game of every case in full."""
    digests, firsts = {}, {}
    all_cases = cases()
    per_case = {preset: [s for p, s in all_cases if p == preset] for preset, _ in all_cases}
    for preset, seats in all_cases:
        sizes = per_case[preset]
        share = GAMES // len(sizes)
        transcripts = play_case(preset, seats, range(share))
        digests[f"{preset}/{seats}"] = digest(transcripts)
        firsts[f"{preset}/{seats}"] = transcripts[0]
    return digests, firsts


def main() -> int:
    digests, firsts = capture()
    (HERE / "digests.json").write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    (HERE / "first_games.json").write_text(json.dumps(firsts, sort_keys=True) + "\n")
    print(f"wrote {len(digests)} digests", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
