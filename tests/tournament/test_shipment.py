"""What travels to a cluster worker: the bots' snapshot files, checked by their SHA-256 before
a game is played, the rules by their digest, and the arena code itself; a worker that received
anything else refuses the run with one line naming what."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from arena.digest import file_sha256
from arena.sandbox import BotSpec
from arena.sandbox.snapshot import snapshot
from arena.tournament import Limits
from arena.tournament.shipment import ShipmentError, code_identity, pack, unpack

HERE = Path(__file__).resolve().parent
FIRST_LEGAL = HERE / "bots" / "first_legal.py"
RULES = {"name": "switch", "seats": 4}


def shipped(tmp_path: Path, *specs: BotSpec):
    """The shipment of a run of ``specs``, snapshotted as the runner does."""
    taken = {spec.name: snapshot(spec, tmp_path / "bots")[0] for spec in specs}
    return pack(taken, RULES, tuple(taken), Limits(), trusted=False)


def test_a_worker_writes_every_file_as_it_was_snapshotted(tmp_path: Path) -> None:
    script = tmp_path / "cbot.py"
    script.write_text("print('hello')\n")
    script.chmod(0o755)
    shipment = shipped(tmp_path, BotSpec("first", FIRST_LEGAL),
                       BotSpec("cbot", command=("/usr/bin/python3", str(script), "--fast")))
    specs = unpack(shipment, tmp_path / "worker")
    assert specs["first"].path is not None
    assert specs["first"].path.read_bytes() == FIRST_LEGAL.read_bytes()
    assert specs["first"].path.parent.name == file_sha256(FIRST_LEGAL)
    program, copy, flag = specs["cbot"].command or ()
    assert (program, flag) == ("/usr/bin/python3", "--fast")  # a system program is not shipped
    assert Path(copy).read_bytes() == script.read_bytes() and Path(copy).stat().st_mode & 0o111
    assert str(tmp_path / "worker") in copy


def test_a_file_that_arrives_changed_is_refused_with_its_bot_and_hashes(tmp_path: Path) -> None:
    shipment = shipped(tmp_path, BotSpec("first", FIRST_LEGAL))
    [key] = shipment.files
    tampered = replace(shipment, files={key: shipment.files[key] + b"\n# changed\n"})
    with pytest.raises(ShipmentError, match=rf"bot 'first': its file first_legal.py arrived with "
                                            rf"SHA-256 [0-9a-f]{{12}}, not {key[:12]}: not played"):
        unpack(tampered, tmp_path / "worker")


def test_a_worker_with_other_arena_code_refuses_the_run(tmp_path: Path) -> None:
    shipment = replace(shipped(tmp_path, BotSpec("first", FIRST_LEGAL)), code="0" * 64)
    with pytest.raises(ShipmentError, match="runs other arena code or another Python .* the run's "
                                            "000000000000"):
        unpack(shipment, tmp_path / "worker")
    assert shipped(tmp_path, BotSpec("first", FIRST_LEGAL)).code == code_identity()


def test_changed_rules_are_refused(tmp_path: Path) -> None:
    shipment = shipped(tmp_path, BotSpec("first", FIRST_LEGAL))
    with pytest.raises(ShipmentError, match="the rule set arrived changed"):
        unpack(replace(shipment, rules_settings={**RULES, "seats": 2}), tmp_path / "worker")


def test_a_snapshot_changed_after_it_was_taken_is_not_shipped(tmp_path: Path) -> None:
    copy, _ = snapshot(BotSpec("first", FIRST_LEGAL), tmp_path / "bots")
    assert copy.path is not None
    copy.path.write_text("class Bot:\n    pass\n")
    with pytest.raises(ShipmentError, match="bot 'first': .* is not an unchanged snapshot"):
        pack({"first": copy}, RULES, ("first",), Limits(), trusted=False)


def test_every_run_ships_under_a_name_of_its_own(tmp_path: Path) -> None:
    assert shipped(tmp_path, BotSpec("first", FIRST_LEGAL)).run != shipped(
        tmp_path, BotSpec("first", FIRST_LEGAL)).run
