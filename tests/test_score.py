"""``raspis score``: the sheet recomputed, in every format, and what-if."""

from __future__ import annotations

import csv
import io
import json

import pytest

from tests.clikit import check_golden, run_cli

DISPUTE = "samples/raspisnoy-sheet-dispute.rsp"


@pytest.mark.parametrize("fmt", ["table", "json", "csv", "markdown"])
def test_the_disputed_sheet_in_every_format(fmt: str) -> None:
    done = run_cli("score", DISPUTE, "--format", fmt)
    assert done.returncode == 1, done.stderr  # the sheet differs from the recount: 1, as validate
    check_golden(f"score-dispute.{fmt}.txt", done.stdout)


def test_a_written_score_that_differs_is_shown_beside_the_recomputed_one() -> None:
    sheet = json.loads(run_cli("score", DISPUTE, "--format", "json").stdout)[0]
    deal = sheet["deals"][16]
    assert deal["number"] == 17
    assert deal["players"]["Boris"]["score"] == 5
    assert deal["players"]["Boris"]["written_score"] == 25
    assert sheet["winners"] == ["Boris"]
    table = run_cli("score", DISPUTE).stdout
    assert "+5 (written +25)" in table


def test_what_if_gives_the_difference_deal_by_deal() -> None:
    done = run_cli("score", DISPUTE, "--compare-set", "over_per_taken=0", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert len(rows) == 28 * 4
    # deal 2: Вера bid 0 and took 1, worth 1 under raspisnoy, 0 in the what-if
    row = next(r for r in rows if r["deal"] == "2" and r["player"] == "Вера")
    assert (row["score"], row["compare_score"], row["difference"]) == ("1", "0", "-1")
    check_golden("score-dispute-compare.table.txt",
                 run_cli("score", DISPUTE, "--compare-set", "over_per_taken=0").stdout)


def test_ties_are_shared_and_a_missing_game_is_an_error() -> None:
    bad = run_cli("score", DISPUTE, "--game", "3")
    assert bad.returncode == 2
    assert "no game 3" in bad.stderr
