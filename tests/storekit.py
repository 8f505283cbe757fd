"""Shared by the store tests: small games written by hand (their statistics
are worked out by hand in test_store_stats.py), files of them, and the CLI
run in-process."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from raspis_cli.cli.runner import run_app
from raspis_cli.model.cards import Card, Suit
from raspis_cli.model.joker import JokerDecl
from raspis_cli.model.record import DealRecord, GameRecord, PlayRecord
from raspis_cli.notation.jsoncodec import games_to_json_text

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"

A, B, V = "Анна", "Boris", "Vera"


def _sheet(number: int, kind: str, dealer: str, cards: int, bids: dict[str, int] | None,
           taken: dict[str, int], scores: dict[str, int]) -> DealRecord:
    return DealRecord(number, kind, dealer, cards, bids=bids, taken=taken, scores=scores)


def game_one() -> GameRecord:
    """2026-01-10, raspisnoy with a free schedule; Анна, Boris, Vera.

    1. normal, Vera deals 1 card, trump K♣; bids Анна 1, Boris 0, Vera 1;
       Анна leads the joker (7♠) "high ♥", Boris 6♥, Vera A♦: Анна takes it.
       Scores 10, 5, -10.
    2. normal, Анна deals 2; bids Boris 1, Vera 0, Анна 0; taken 2, 0, 0;
       scores Boris 2, Vera 5, Анна 5.
    3. miser, Boris deals 2; taken Анна 0, Boris 1, Vera 1: 100, -20, -20.
    4. dark, Vera deals 2; bids Анна 1, Boris 1, Vera 1; taken 1, 0, 1:
       10, -10, 10.
    Totals: Анна 125, Boris -23, Vera -15.
    """
    joker = JokerDecl("high", Suit.H)
    first = DealRecord(1, "normal", V, 1, trump=Card.parse("KC"), bids={A: 1, B: 0, V: 1},
                       tricks=[[PlayRecord(A, Card.parse("7S"), joker), PlayRecord(B, Card.parse("6H")),
                                PlayRecord(V, Card.parse("AD"))]],
                       scores={A: 10, B: 5, V: -10})
    return GameRecord(
        players=[A, B, V],
        tags={"Event": "Hand game 1", "Date": "2026-01-10"},
        rules_preset="raspisnoy", rules_options={"schedule": "free"},
        deals=[
            first,
            _sheet(2, "normal", A, 2, {B: 1, V: 0, A: 0}, {B: 2, V: 0, A: 0}, {B: 2, V: 5, A: 5}),
            _sheet(3, "miser", B, 2, None, {A: 0, B: 1, V: 1}, {A: 100, B: -20, V: -20}),
            _sheet(4, "dark", V, 2, {A: 1, B: 1, V: 1}, {A: 1, B: 0, V: 1}, {A: 10, B: -10, V: 10}),
        ],
        totals={A: 125, B: -23, V: -15},
    )


def game_two() -> GameRecord:
    """2026-02-14, raspisnoy, free schedule; seated Boris, Vera, Анна.

    1. normal, Анна deals 1; bids Boris 0, Vera 0, Анна 0; taken 0, 1, 0:
       5, 1, 5.
    2. golden, Boris deals 2; taken Boris 0, Vera 2, Анна 0: -100, 40, -100.
    3. normal, Vera deals 2; bids Анна 2, Boris 0, Vera 1; taken 1, 0, 1:
       -10, 5, 10.
    Totals: Boris -90, Vera 51, Анна -105.
    """
    return GameRecord(
        players=[B, V, A],
        tags={"Event": "Hand game 2", "Date": "2026-02-14"},
        rules_preset="raspisnoy", rules_options={"schedule": "free"},
        deals=[
            _sheet(1, "normal", A, 1, {B: 0, V: 0, A: 0}, {B: 0, V: 1, A: 0}, {B: 5, V: 1, A: 5}),
            _sheet(2, "golden", B, 2, None, {B: 0, V: 2, A: 0}, {B: -100, V: 40, A: -100}),
            _sheet(3, "normal", V, 2, {A: 2, B: 0, V: 1}, {A: 1, B: 0, V: 1}, {A: -10, B: 5, V: 10}),
        ],
        totals={B: -90, V: 51, A: -105},
    )


def game_three() -> GameRecord:
    """2025-12-31, classic, free schedule; Анна and Boris. One deal: Boris
    deals 1; bids Анна 1, Boris 1; taken 0, 1: -10, 10."""
    return GameRecord(
        players=[A, B],
        tags={"Event": "Hand game 3", "Date": "2025-12-31"},
        rules_preset="classic", rules_options={"schedule": "free"},
        deals=[_sheet(1, "normal", B, 1, {A: 1, B: 1}, {A: 0, B: 1}, {A: -10, B: 10})],
        totals={A: -10, B: 10},
    )


def game_four_invalid() -> GameRecord:
    """2026-03-01, raspisnoy, free schedule: Vera (dealer) bids so that the
    bids add up to the cards: a dealer-restriction violation. Totals 5, 5, 10."""
    return GameRecord(
        players=[A, B, V],
        tags={"Event": "Hand game 4", "Date": "2026-03-01"},
        rules_preset="raspisnoy", rules_options={"schedule": "free"},
        deals=[_sheet(1, "normal", V, 1, {A: 0, B: 0, V: 1}, {A: 0, B: 0, V: 1}, {A: 5, B: 5, V: 10})],
        totals={A: 5, B: 5, V: 10},
    )


def hand_games() -> list[GameRecord]:
    """The four games above: three valid, the last with a violation."""
    return [game_one(), game_two(), game_three(), game_four_invalid()]


def write_json(path: Path, games: list[GameRecord]) -> Path:
    """Games as a RECORD-JSON file."""
    path.write_text(games_to_json_text(games), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The app run in-process: exit code, stdout, stderr."""
    code = run_app(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    """A command printing JSON, run in-process; its parsed output (exit 0)."""
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, ""), err
    return json.loads(out)


def snapshot(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every raspis table, sorted: to compare a database before
    and after (``{}`` when the file does not exist)."""
    if not db.exists():
        return {}
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = [r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' "
            "ORDER BY table_name").fetchall()]
        return {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in tables}
    finally:
        con.close()
