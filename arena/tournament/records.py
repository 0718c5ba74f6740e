"""The stored result of one game: raw records from which every table is derived.

A :class:`GameRecord` is what a worker hands back after playing one scheduled game and what
:class:`arena.tournament.store.Store` keeps. ``places`` follows RULINGS G7: a list of places, best
first, each a tuple of seats that share it, e.g. ``((1,), (0, 3), (2,))``. Place numbers derived
from it use competition ranking ("1224"): tied seats share the better place and the next place is
skipped, so a bot placed last is always place ``len(table)``.

A record holds typed values: its ``reason`` is an :class:`~arena.engine.outcome.OutcomeReason`
and each fault's ``code`` a :class:`~arena.play.faults.FaultCode`. :meth:`GameRecord.to_dict` and
:meth:`GameRecord.from_dict` are the one serialisation of a record, used by the worker pipe, the
store's columns and the exports: a reason as its text (``"emptied"``), a fault code as its name
(``"TIMEOUT"``); a text that names no reason or code is a :class:`RecordError` naming it.
``to_json``/``from_json`` are the same data as one line of JSON.

``think`` is each seat's thinking: ``(moves, seconds)``, the moves its bot was asked for and the
wall-clock seconds the referee waited for their replies (empty in a record from before it was
kept; a faulty seat's fallback moves are not asked, so not counted).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import Any

from arena.engine.outcome import OutcomeReason
from arena.play.faults import Fault, FaultCode
from arena.tournament.errors import RecordError

__all__ = ["Fault", "GameRecord"]


@dataclass(frozen=True)
class GameRecord:
    """The result of one finished game; see the module docstring for ``places``.

    ``winner`` is the winning seat or ``None`` (drawn or blocked game); ``reason`` says how the game
    ended; ``moves`` are the action texts in order, forced ones included; ``hands`` holds per-hand
    details for multi-hand matches (:meth:`arena.engine.match.HandRecord.to_json`); ``think``
    each seat's ``(moves asked, seconds waited)`` (see the module docstring).
    """

    game_id: int
    deal_id: int
    table: tuple[str, ...]
    deal_seed: int
    places: tuple[tuple[int, ...], ...]
    winner: int | None
    reason: OutcomeReason
    decisions: int
    duration_s: float
    faults: tuple[Fault, ...] = ()
    moves: tuple[str, ...] = ()
    hands: tuple[dict[str, Any], ...] = field(default=(), hash=False)
    think: tuple[tuple[int, float], ...] = ()

    def __post_init__(self) -> None:
        _check_types(self)
        _check_places(self)
        _check_winner(self)
        _check_faults(self)
        _check_think(self)

    @property
    def winner_bot(self) -> str | None:
        """The winning bot's name, or ``None`` when no seat won."""
        return None if self.winner is None else self.table[self.winner]

    def place_of(self, seat: int) -> int:
        """The 1-based place of ``seat`` in competition ranking (ties share the better place)."""
        return self.seat_places()[seat]

    def seat_places(self) -> tuple[int, ...]:
        """The 1-based place of every seat, in seat order (competition ranking)."""
        result = [0] * len(self.table)
        place = 1
        for group in self.places:
            for seat in group:
                result[seat] = place
            place += len(group)
        return tuple(result)

    def faulty_bots(self) -> frozenset[str]:
        """Names of the bots that faulted in this game."""
        return frozenset(fault.bot for fault in self.faults)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict holding every field (tuples become lists)."""
        return {
            "game_id": self.game_id,
            "deal_id": self.deal_id,
            "table": list(self.table),
            "deal_seed": self.deal_seed,
            "places": [list(group) for group in self.places],
            "winner": self.winner,
            "reason": self.reason.value,
            "decisions": self.decisions,
            "duration_s": self.duration_s,
            "faults": [_fault_to_dict(fault) for fault in self.faults],
            "moves": list(self.moves),
            "hands": [dict(hand) for hand in self.hands],
            "think": [[moves, seconds] for moves, seconds in self.think],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        """Rebuild a record from :meth:`to_dict` output; raises :class:`RecordError` if malformed
        (an unknown reason or fault code is named)."""
        try:
            game_id = int(data["game_id"])
            return cls(
                game_id=game_id,
                deal_id=int(data["deal_id"]),
                table=tuple(map(str, data["table"])),
                deal_seed=int(data["deal_seed"]),
                places=tuple(tuple(map(int, group)) for group in data["places"]),
                winner=None if data["winner"] is None else int(data["winner"]),
                reason=_reason(game_id, data["reason"]),
                decisions=int(data["decisions"]),
                duration_s=float(data["duration_s"]),
                faults=tuple(_fault_from_dict(game_id, f) for f in data.get("faults", ())),
                moves=tuple(map(str, data.get("moves", ()))),  # map: a game has many moves
                hands=tuple(dict(h) for h in data.get("hands") or ()),
                think=tuple((int(moves), float(seconds))
                            for moves, seconds in data.get("think") or ()),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"malformed game record: {exc!r}") from exc

    def to_json(self) -> str:
        """One line of JSON holding every field."""
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Parse :meth:`to_json` output; raises :class:`RecordError` if malformed."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"game record is not JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise RecordError("game record is not a JSON object")
        return cls.from_dict(data)


def _fault_to_dict(fault: Fault) -> dict[str, Any]:
    return {
        "seat": fault.seat,
        "bot": fault.bot,
        "code": fault.code.name,
        "detail": fault.detail,
        "log_tail": fault.log_tail,
    }


def _fault_from_dict(game_id: int, data: dict[str, Any]) -> Fault:
    return Fault(
        seat=int(data["seat"]),
        bot=str(data["bot"]),
        code=_code(game_id, data["code"]),
        detail=str(data["detail"]),
        log_tail=str(data.get("log_tail", "")),
    )


def _reason(game_id: int, text: Any) -> OutcomeReason:
    try:
        return OutcomeReason(text)
    except ValueError:
        known = ", ".join(r.value for r in OutcomeReason)
        raise RecordError(
            f"game {game_id}: unknown outcome reason {text!r} (expected one of {known})"
        ) from None


def _code(game_id: int, text: Any) -> FaultCode:
    member = FaultCode.__members__.get(text) if isinstance(text, str) else None
    if member is None:
        known = ", ".join(FaultCode.__members__)
        raise RecordError(f"game {game_id}: unknown fault code {text!r} (expected one of {known})")
    return member


def _check_types(record: GameRecord) -> None:
    """The reason and the fault codes are the engine's enums, never their bare texts."""
    if not isinstance(record.reason, OutcomeReason):
        raise RecordError(f"game {record.game_id}: reason {record.reason!r} is not an OutcomeReason")
    for fault in record.faults:
        if not isinstance(fault.code, FaultCode):
            raise RecordError(f"game {record.game_id}: fault code {fault.code!r} is not a FaultCode")


def _check_places(record: GameRecord) -> None:
    seats = [seat for group in record.places for seat in group]
    if sorted(seats) != list(range(len(record.table))) or any(not g for g in record.places):
        raise RecordError(
            f"game {record.game_id}: places {record.places!r} must hold every seat of "
            f"the {len(record.table)}-seat table exactly once, in non-empty groups"
        )


def _check_winner(record: GameRecord) -> None:
    if record.winner is not None and record.places[0] != (record.winner,):
        raise RecordError(
            f"game {record.game_id}: winner seat {record.winner} must be alone in first place, "
            f"got places {record.places!r}"
        )


def _check_faults(record: GameRecord) -> None:
    for fault in record.faults:
        if not 0 <= fault.seat < len(record.table) or record.table[fault.seat] != fault.bot:
            raise RecordError(
                f"game {record.game_id}: fault names seat {fault.seat} bot {fault.bot!r}, "
                f"which does not match the table {record.table!r}"
            )


def _check_think(record: GameRecord) -> None:
    if not record.think:
        return
    if len(record.think) != len(record.table) or any(
            moves < 0 or not seconds >= 0.0 for moves, seconds in record.think):
        raise RecordError(
            f"game {record.game_id}: think {record.think!r} must give every seat of the "
            f"{len(record.table)}-seat table a (moves, seconds) pair, neither negative"
        )


def places_text(names: Sequence[str], places: Sequence[Sequence[int]]) -> str:
    """Bots best first: ``>`` between places, ``=`` inside a shared place (``b > a = d > c``)."""
    return " > ".join(" = ".join(names[s] for s in group) for group in places)
