"""GameRecord: validation, places, JSON round trip."""

from __future__ import annotations

import json

import pytest

from arena.engine.outcome import OutcomeReason
from arena.play.faults import DETAIL_KEPT, LOG_TAIL_KEPT, FaultCode
from arena.tournament.errors import RecordError
from arena.tournament.records import Fault, GameRecord


def record(**changes) -> GameRecord:
    fields = dict(
        game_id=7, deal_id=1, table=("a", "b", "c", "d"), deal_seed=2**63 - 1,
        places=((1,), (0, 3), (2,)), winner=1, reason=OutcomeReason.EMPTIED, decisions=42, duration_s=0.25,
    )
    fields.update(changes)
    return GameRecord(**fields)


def test_seat_places_use_competition_ranking():
    rec = record()
    assert rec.seat_places() == (2, 1, 4, 2)
    assert rec.place_of(2) == 4
    assert rec.winner_bot == "b"


def test_json_round_trip_keeps_every_field():
    rec = record(
        faults=(Fault(2, "c", FaultCode.TIMEOUT, "no reply in 1.0 s", "tail\nlines"),),
        moves=("7H", "draw", "AS AH call S"),
        hands=({"hand": 1, "winner": 1}, {"hand": 2, "winner": None}),
    )
    text = rec.to_json()
    assert "\n" not in text
    back = GameRecord.from_json(text)
    assert back == rec
    assert back.faults[0].log_tail == "tail\nlines"
    assert json.loads(text)["places"] == [[1], [0, 3], [2]]


@pytest.mark.parametrize(
    "changes",
    [
        {"places": ((1,), (0, 3))},
        {"places": ((1,), (0, 3), (2, 2))},
        {"places": ((1,), (), (0, 2, 3))},
        {"places": ((1,), (0, 3), (4,))},
        {"winner": 0},
        {"places": ((0, 1), (2,), (3,)), "winner": 1},
        {"faults": (Fault(0, "b", FaultCode.CRASH, "exit 1"),)},
        {"faults": (Fault(9, "a", FaultCode.CRASH, "exit 1"),)},
    ],
)
def test_inconsistent_records_are_refused(changes):
    with pytest.raises(RecordError):
        record(**changes)


def test_a_fault_keeps_the_start_of_its_detail_and_the_end_of_the_bots_output():
    """A bot that faults in most games without being disqualified (the default rule counts three
    in a row) would otherwise store up to its 64 KiB log every time."""
    reply = "illegal action '" + "7H " * 20_000 + "'"
    log = "noise\n" * 10_000 + "Traceback (most recent call last):\nValueError: boom"
    fault = Fault(1, "b", FaultCode.INVALID, reply, log)
    assert len(fault.detail) == DETAIL_KEPT and fault.detail.startswith("illegal action '7H 7H")
    assert len(fault.log_tail) == LOG_TAIL_KEPT and fault.log_tail.endswith("ValueError: boom")
    stored = GameRecord.from_json(record(faults=(fault,)).to_json()).faults[0]
    assert stored == fault  # cut once: a stored fault reads back as it was written


def test_a_tied_first_place_without_winner_is_fine():
    rec = record(places=((0, 1), (2, 3)), winner=None, reason=OutcomeReason.BLOCKED)
    assert rec.seat_places() == (1, 1, 3, 3) and rec.winner_bot is None


@pytest.mark.parametrize("text", ["not json", "[1, 2]", '{"game_id": 1}'])
def test_malformed_json_is_a_record_error(text):
    with pytest.raises(RecordError):
        GameRecord.from_json(text)


def test_the_dict_carries_the_reason_text_and_the_fault_code_name():
    rec = record(faults=(Fault(2, "c", FaultCode.INIT_FAIL, "no ok in time"),))
    data = rec.to_dict()
    assert data["reason"] == "emptied" and type(data["reason"]) is str
    assert data["faults"][0]["code"] == "INIT_FAIL" and type(data["faults"][0]["code"]) is str
    back = GameRecord.from_dict(data)
    assert back.reason is OutcomeReason.EMPTIED and back.faults[0].code is FaultCode.INIT_FAIL


@pytest.mark.parametrize(
    ("key", "text", "named"),
    [
        ("reason", "fault", "unknown outcome reason 'fault'"),
        ("reason", "EMPTIED", "unknown outcome reason 'EMPTIED'"),  # the text, not the member name
        ("code", "timeout", "unknown fault code 'timeout'"),  # the name, not the message word
        ("code", "SLOW", "unknown fault code 'SLOW'"),
    ],
)
def test_an_unknown_reason_or_fault_code_in_json_is_named_in_one_line(key, text, named):
    data = record(faults=(Fault(2, "c", FaultCode.TIMEOUT, "slow"),)).to_dict()
    if key == "reason":
        data["reason"] = text
    else:
        data["faults"][0]["code"] = text
    with pytest.raises(RecordError) as err:
        GameRecord.from_json(json.dumps(data))
    message = str(err.value)
    assert message.startswith(f"game 7: {named}") and "\n" not in message


def test_a_bare_text_is_not_a_reason_or_a_code():
    with pytest.raises(RecordError, match="is not an OutcomeReason"):
        record(reason="emptied")
    with pytest.raises(RecordError, match="is not a FaultCode"):
        record(faults=(Fault(2, "c", "TIMEOUT", "slow"),))  # type: ignore[arg-type]
