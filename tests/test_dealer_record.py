"""``stats --report dealer_record``: under every value of
``dealer_restriction``, ``restricted`` counts the deals docs/SCHEMA.md says
it counts, worked out here from the records themselves; a database made
before ``deals.dealer_restricted`` existed answers ``null`` until its games
are loaded again; a replayed deal counts in no report of deals
(docs/SCHEMA.md, "Report views")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import pytest

from raspis_cli.model.record import GameRecord
from raspis_cli.rules import Rules
from raspis_cli.rules.options import OPTIONS
from raspis_cli.simulate.run import simulate_games
from raspis_cli.store import RecordSource, load_units, report_rows
from raspis_cli.store.schema import SCHEMA_VERSION
from tests.storekit import run, run_json, write_json

CHOICES = OPTIONS["dealer_restriction"].choices

RESTRICTED: dict[str, Callable[[int, int], bool] | None] = {
    # docs/SCHEMA.md: a deal counts when a bid the dealer may not make (docs/RULES.md §5) is one
    # of 0 … cards, given the cards and the sum of the other players' bids
    "sum": lambda cards, others: 0 <= cards - others <= cards,  # the bid that makes the sum
    "no-full-bid": lambda cards, others: True,  # all the cards: always a bid that can be made
    "off": None,  # nothing is forbidden: the report has no rows
}
"""What each value of ``dealer_restriction`` restricts, as the docs say it."""

V2_DB = Path(__file__).resolve().parent / "data" / "v2_db" / "main-773601a"


def _expected(games: list[GameRecord], restriction: str) -> dict[tuple[str, str], tuple[int, int]]:
    """Per dealer: the bids ``dealer_record`` counts (the dealer's bid and
    taken known, the deal not replayed) and how many of them the docs call
    restricted, from the records alone."""
    restricts = RESTRICTED[restriction]
    if restricts is None:
        return {}
    bids: Counter[str] = Counter()
    restricted: Counter[str] = Counter()
    for game in games:
        for deal in game.deals:
            if deal.replayed or not deal.bids or deal.dealer not in deal.bids:
                continue
            if deal.taken is None or deal.taken.get(deal.dealer) is None:
                continue
            others = sum(bid for name, bid in deal.bids.items() if name != deal.dealer)
            bids[deal.dealer] += 1
            restricted[deal.dealer] += restricts(deal.cards, others)
    return {(player, restriction): (count, restricted[player]) for player, count in bids.items()}


def _dealer_record(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str], tuple[int, Any]]:
    return {(r["player"], r["dealer_restriction"]): (r["bids"], r["restricted"])
            for r in report_rows(con, "dealer_record")}


def test_the_test_knows_every_value_of_the_option() -> None:
    assert set(RESTRICTED) == set(CHOICES)


@pytest.mark.parametrize("restriction", CHOICES)
def test_restricted_counts_what_the_rule_restricts(restriction: str, tmp_path: Path) -> None:
    rules = Rules.preset("raspisnoy").with_options({"dealer_restriction": restriction})
    games = list(simulate_games(rules, 4, 6, seed=1, detail="sheet"))
    # the games hold deals whose other bids add up to more than the cards, where `sum`
    # restricts the dealer in nothing and `no-full-bid` still does
    assert sum(1 for game in games for deal in game.deals
               if deal.bids and sum(b for n, b in deal.bids.items() if n != deal.dealer) > deal.cards) >= 5
    expected = _expected(games, restriction)
    con = duckdb.connect(str(tmp_path / "club.duckdb"))
    try:
        load_units(con, [RecordSource("simulated", games)])
        assert _dealer_record(con) == expected
        flags = Counter(row[0] for row in con.execute(
            "SELECT dealer_restricted FROM deals WHERE bid_sum IS NOT NULL").fetchall())
    finally:
        con.close()
    if restriction == "off":
        assert expected == {} and flags == Counter({False: flags[False]}) and flags[False] > 0
    else:
        assert len(expected) == 4
        assert None not in flags
    if restriction == "no-full-bid":  # every dealer's bid is restricted
        assert all(count == restricted for count, restricted in expected.values())


def _report_json(capsys: pytest.CaptureFixture[str], db: Path) -> list[dict[str, Any]]:
    rows = run_json(capsys, "stats", "--db", str(db), "--report", "dealer_record", "-f", "json")
    assert isinstance(rows, list)
    return rows


def test_a_version_2_database_answers_null_and_a_load_adds_the_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a database of version 2 (an export of one): the reports answer, `restricted` not known
    old = tmp_path / "v2.duckdb"
    con = duckdb.connect(str(old))
    try:
        con.execute(f"IMPORT DATABASE '{V2_DB}'")
    finally:
        con.close()
    before = _report_json(capsys, old)
    assert len(before) > 5 and {row["restricted"] for row in before} == {None}
    # a load of other games makes it version 4: theirs are worked out, the stored ones stay unknown
    rules = Rules.preset("raspisnoy").with_options({"dealer_restriction": "no-full-bid"})
    games = list(simulate_games(rules, 3, 2, seed=4, names=["Mira", "Oskar", "Pavel"], detail="sheet"))
    code, _, err = run(capsys, "load", str(write_json(tmp_path / "new.json", games)), "--db", str(old), "-q")
    assert (code, err) == (0, "")
    new = ("Mira", "Oskar", "Pavel")
    after = {(row["player"], row["dealer_restriction"]): (row["bids"], row["restricted"])
             for row in _report_json(capsys, old)}
    assert {key: value for key, value in after.items() if key[0] in new} == _expected(games, "no-full-bid")
    assert {key[0]: restricted for key, (_, restricted) in after.items() if key[0] not in new} == {
        row["player"]: None for row in before}
    con = duckdb.connect(str(old), read_only=True)
    try:
        version = "SELECT value FROM raspis_meta WHERE key = 'schema_version'"
        assert con.execute(version).fetchall() == [(str(SCHEMA_VERSION),)]
        known = con.execute("SELECT count(*) FROM deals WHERE dealer_restricted IS NOT NULL").fetchall()
        assert known == [(sum(1 for game in games for deal in game.deals if deal.bids),)]
    finally:
        con.close()


def test_a_version_3_database_under_no_full_bid_gets_the_rules_figure_on_replace(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = Rules.preset("raspisnoy").with_options({"dealer_restriction": "no-full-bid"})
    games = list(simulate_games(rules, 4, 6, seed=1, detail="sheet"))
    db = tmp_path / "club.duckdb"
    con = duckdb.connect(str(db))
    try:
        load_units(con, [RecordSource("simulated", games)])
        want = _dealer_record(con)
        # the file as a raspis of schema version 3 left it: no dealer_restricted
        con.execute("ALTER TABLE deals DROP COLUMN dealer_restricted")
        con.execute("UPDATE raspis_meta SET value = '3' WHERE key = 'schema_version'")
    finally:
        con.close()
    assert {row["restricted"] for row in _report_json(capsys, db)} == {None}
    con = duckdb.connect(str(db))
    try:
        load_units(con, [RecordSource("simulated", games[:2])], replace=True)
        # two games worked out, four not: not known yet
        assert {restricted for _, restricted in _dealer_record(con).values()} == {None}
        load_units(con, [RecordSource("simulated", games)], replace=True)
        assert _dealer_record(con) == want == _expected(games, "no-full-bid")
    finally:
        con.close()


REPLAYED = """[Rules "joker54"]
[Option "schedule=free"]
[Players "Анна, Boris, Вера"]

1. 2 Анна ♠ | 1/1 | 0/0 | 0/1
  replayed

1. 3 Анна ♠ | 1 | 1 | 0
  hand Анна: A♣ K♥ 7♦
  hand Boris: RJ 9♥ 4♦
  hand Вера: 10♥ 5♣ 3♦
  trick Анна: A♣ RJ(take ♣) 5♣
  trick Boris: 4♦ 10♥ 7♦
  replayed

1. 3 Анна ♠ | 0/1 | 1/1 | 1/1
"""
"""Deal 1 abandoned twice: first written as a sheet line with bids and
taken, then played until Вера's revoke (−50 under joker54), Boris's joker
having taken the first trick; the third time it is played out."""


def test_a_replayed_deal_counts_in_no_report_of_deals(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "replayed.rsp"
    record.write_text(REPLAYED, encoding="utf-8")
    db = tmp_path / "replayed.duckdb"
    code, _, err = run(capsys, "load", str(record), "--db", str(db), "-q")
    assert (code, err) == (0, "")
    con = duckdb.connect(str(db), read_only=True)
    try:
        # its bids and what was taken are kept; it has no outcome (it scores no bid)
        rows = con.execute("SELECT deal_index, player, bid, taken, outcome FROM deal_results "
                           "WHERE deal_index = 0 ORDER BY player").fetchall()
        assert rows == [(0, "Boris", 0, 0, None), (0, "Анна", 1, 1, None), (0, "Вера", 0, 1, None)]
        assert con.execute("SELECT count(*) FROM deal_results WHERE outcome IS NOT NULL").fetchall() == [(3,)]
        # the joker's trick was played, in a deal that does not count
        assert con.execute("SELECT count(*) FROM plays WHERE is_joker AND won").fetchall() == [(1,)]
        assert report_rows(con, "joker_outcomes") == []
        accuracy = {r["player"]: r["bids"] for r in report_rows(con, "bid_accuracy")}
        assert accuracy == {"Анна": 1, "Boris": 1, "Вера": 1}
        assert [r["player_deals"] for r in report_rows(con, "deal_kinds")] == [3]
        assert {r["player"]: r["bids"] for r in report_rows(con, "dealer_record")} == {"Анна": 1}
        assert {r["player"]: r["passes"] for r in report_rows(con, "pass_success")} == {"Анна": 1}
        # the revoke's penalty is in the final total, not in the per-deal figures
        leaders = {r["player"]: r for r in report_rows(con, "leaderboard")}
        assert (leaders["Вера"]["deals"], leaders["Вера"]["mean_total"]) == (1, 10 - 50)
        assert leaders["Вера"]["mean_per_deal"] == 10
    finally:
        con.close()
