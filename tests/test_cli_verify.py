"""``zzv verify FILE``: the verdict and the deal card by card in words; exit 0 when the
record checks out, 1 when it was changed, 2 when there is nothing to check."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fair_kit import played_record
from game_kit import VARIANT_COMBOS

from app.cli import main
from engine.fairness import commit

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return played_record(3, VARIANT_COMBOS[4], 2024, salt="f00d", bots="normal")


def verify(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: object) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    status = main(["verify", str(path)])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_a_genuine_record_checks_out_and_shows_its_deal(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = verify(tmp_path, capsys, record)
    assert status == 0, out
    assert out.startswith("It checks out. ")
    assert f"all {len(record['actions'])} moves are legal" in out
    assert f"sha256 of 'zzv-deal-1:2024:f00d':\n  {commit(2024, 'f00d')}" in out
    rounds = [e for e in record["events"] if e["kind"] == "round_dealt"]
    assert out.count("\nRound ") == len(rounds)
    first = rounds[0]
    assert f"Round 1: {['Pink', 'Orange', 'Yellow'][first['lead']]} (seat {first['lead']})" in out
    # Each seat's hand, card by card (Larger Hands: 7 each, and the cards put aside).
    hand_lines = [line for line in out.splitlines() if line.startswith("  Pink (seat 0): ")]
    assert len(hand_lines) == len(rounds)
    assert all(len(line.split(": ", 1)[1].split(", ")) == 7 for line in hand_lines)
    assert out.count("Put aside unseen: ") == len(rounds)


def test_a_changed_record_exits_1_and_says_where(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = verify(tmp_path, capsys, {**record, "salt": "f00e"})
    assert status == 1
    assert out.startswith("It does not check out. The commitment published at the start, ")
    altered = copy.deepcopy(record)
    altered["events"][3]["gas"] = 9
    status, out = verify(tmp_path, capsys, altered)
    assert status == 1
    assert "Event 4 of the record is not what replaying the moves tells." in out
    assert '"gas": 9' in out.split("The record says: ", 1)[1].splitlines()[0]
    winner = (record["winner"] + 1) % 3
    status, out = verify(tmp_path, capsys, {**record, "winner": winner})
    assert status == 1 and "as the winner, but replaying the moves" in out


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ("{not json", "zzv verify: cannot read a record from "),
        ('"a string"', "Nothing to check. That is not a race's record."),
        ("[" * 100_000, "zzv verify: cannot read a record from "),
    ],
)
def test_unreadable_input_exits_2(
    data: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = verify(tmp_path, capsys, data)
    assert status == 2 and out.startswith(says), out


def test_a_record_that_reveals_nothing_exits_2(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = verify(tmp_path, capsys, {**record, "complete": False})
    assert status == 2 and "not finished yet, so there is nothing to check" in out
    status, out = verify(tmp_path, capsys, {**record, "deal_seed": None})
    assert status == 2 and "does not reveal its deal yet (no deal_seed)" in out
    missing = tmp_path / "absent.json"
    assert main(["verify", str(missing)]) == 2
    assert "cannot read a record from" in capsys.readouterr().err


def test_the_command_reads_stdin(record: dict[str, Any]) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for data, status in ((record, 0), ({**record, "deal_seed": 2025}, 1), ("nope", 2)):
        text = data if isinstance(data, str) else json.dumps(data)
        done = subprocess.run(
            [sys.executable, "-m", "app.cli", "verify", "-"],
            input=text,
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            check=False,
            timeout=60,
        )
        assert done.returncode == status, done.stdout + done.stderr
