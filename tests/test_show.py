"""``raspis show``: one deal trick by trick."""

from __future__ import annotations

import json

from tests.clikit import check_golden, run_cli


def test_a_full_deal_trick_by_trick() -> None:
    done = run_cli("show", "samples/raspisnoy-full-3p.rsp", "--deal", "9")
    assert done.returncode == 0, done.stderr
    check_golden("show-full-deal9.txt", done.stdout)


def test_an_illegal_play_is_marked() -> None:
    done = run_cli("show", "tests/data/revoke.rsp")
    check_golden("show-revoke.txt", done.stdout)
    story = json.loads(run_cli("show", "tests/data/revoke.rsp", "--format", "json").stdout)
    marked = [(t["number"], p["player"], [v["kind"] for v in p["violations"]])
              for t in story["tricks"] for p in t["plays"] if "violations" in p]
    assert marked == [(2, "Вера", ["follow-suit"])]
    assert [t["winner"] for t in story["tricks"]] == ["Анна", "Вера", "Вера"]


def test_a_deal_that_does_not_exist_is_an_error() -> None:
    done = run_cli("show", "samples/raspisnoy-full-3p.rsp", "--deal", "99")
    assert done.returncode == 2
    assert "no deal 99" in done.stderr
