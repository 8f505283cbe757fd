"""Issue 11, item 7: memory bounded by a game, not by the file. The figures
(peak RSS of validate and load on large files) come from bench/memory.py;
these tests check the mechanisms on small inputs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import raspis_cli.files.sources as sources
import raspis_cli.store.load as load_module
from raspis_cli.model.diagnostics import syntax_error
from raspis_cli.notation import write_games
from raspis_cli.rules import Rules
from raspis_cli.simulate.game import simulate_game
from raspis_cli.text.textsafe import EXCERPT_WIDTH
from tests.storekit import run


def test_a_diagnostic_keeps_an_excerpt_of_a_long_line() -> None:
    line = "x" * 30_000 + "BAD" + "y" * 30_000
    d = syntax_error("E303", "expected a card", 7, 30_001, line, "f.rsp")
    assert len(d.source) <= EXCERPT_WIDTH + 2 and d.column == 30_001
    shown, caret = d.render().splitlines()[1:]
    assert shown.startswith("    7 | …") and shown[caret.index("^")] == "B"


def test_validate_shows_an_excerpt_of_a_long_bad_line(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "long.rsp"
    path.write_text('[Players "A, B, C"]\n1. 1 A 9H | 0/0 | 1/1 | 0/0\n  trick A: 9♦ ' + "Q" * 60_000
                    + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1
    assert max(len(line) for line in out.splitlines()) < 500
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if "E303" in line)
    source, caret = lines[at + 1:at + 3]
    assert source.startswith("    3 | …") and len(caret) < 400


def test_load_keeps_no_window_of_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """load shows no source lines: after each game the stream forgets its
    lines (it kept up to 200,000 of them before), and it does not keep the
    syntax problems it has handed on."""
    games = [simulate_game(Rules.preset("raspisnoy"), 3, seed, detail="scores") for seed in range(12)]
    path = tmp_path / "many.rsp"
    path.write_text(write_games(games) + "1. what\n", encoding="utf-8")
    kept: list[int] = []

    class Watched(sources.GameStream):
        def forget_through(self, number: int) -> None:
            super().forget_through(number)
            kept.append(len(self._lines) + len(self.diagnostics))

    monkeypatch.setattr(load_module, "GameStream", Watched)
    code, _, err = run(capsys, "load", str(path), "--db", str(tmp_path / "m.duckdb"))
    assert code == 0, err
    assert len(kept) == 12 and max(kept) <= 2, kept


def test_a_json_document_over_the_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from raspis_cli.notation.jsoncodec import games_to_json_text

    games = [simulate_game(Rules.preset("raspisnoy"), 3, seed, detail="sheet") for seed in range(3)]
    path = tmp_path / "big.json"
    path.write_text(games_to_json_text(games), encoding="utf-8")
    assert run(capsys, "validate", str(path))[0] == 0
    monkeypatch.setattr(sources, "JSON_DOCUMENT_LIMIT", 2000)
    for argv in (["validate", str(path)], ["score", str(path)], ["load", str(path), "--db",
                                                                   str(tmp_path / "j.duckdb")]):
        code, out, err = run(capsys, *argv)
        assert code == 2, argv
        assert "a .json document is read whole" in out + err and ".jsonl" in out + err, argv


def test_load_lets_each_inserted_batch_go_and_bounds_duckdb(tmp_path: Path) -> None:
    """Issue 16: an inserted Arrow batch is not kept until the commit (DuckDB
    keeps a registered table alive for the whole transaction: Arrow memory
    grew by every batch, 625 MB for a 43 MB file), and DuckDB's own memory
    is limited while loading (restored after)."""
    import duckdb
    import pyarrow as pa

    from raspis_cli.store.load import DUCKDB_MEMORY_LIMIT, RecordSource, load_units

    games = [simulate_game(Rules.preset("raspisnoy"), 4, seed, detail="scores") for seed in range(16)]
    con = duckdb.connect(str(tmp_path / "b.duckdb"))
    before = current(con)
    live: list[int] = []
    limits: list[str] = []

    def on_flush(_: int) -> None:
        live.append(pa.total_allocated_bytes())
        limits.append(current(con))

    summary = load_units(con, [RecordSource("g", games)], flush_rows=1, batch_games=1,
                         on_flush=on_flush)
    assert summary.loaded == 16 and len(live) == 17
    # one batch in flight at most, not one more per flush
    assert max(live[-4:]) <= 2 * max(live[:4]), live
    con.execute(f"SET memory_limit = '{DUCKDB_MEMORY_LIMIT}'")
    assert set(limits) == {current(con)} != {before}, limits
    con.execute("RESET memory_limit")
    assert current(con) == before


def current(con: Any) -> str:
    """DuckDB's memory limit as it shows it."""
    return str(con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])


def test_the_readers_caches_keep_no_long_lines() -> None:
    """The reader's caches across files (the words known not to mix scripts,
    the deal lines' heads) keep only short entries: a hostile file of long
    distinct words or dealer names leaves a few megabytes at most behind, not
    a copy of itself."""
    from raspis_cli.notation import line_grammar, reader
    from raspis_cli.notation.reader import read_text

    lines = ['[Players "A, B, C"]']
    lines += [f"{i}. 1 A{i:04d}{'x' * 2000} | 0/0 | 1/1 | 0/0" for i in range(1, 40)]
    lines += [f"{i:04d}{'y' * 2000}" for i in range(40)]
    read_text("\n".join(lines) + "\n")
    assert max(map(len, reader._CLEAN_TOKENS), default=0) <= 100
    assert max(map(len, line_grammar._HEADS), default=0) <= 100


def test_the_remembered_deal_scores_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deal scores the replay remembers per rule set (kept across games
    and files) are bounded: a hostile sheet with ever new bids and counts
    does not keep one entry for each."""
    import raspis_cli.judge.reconcile as reconcile_module
    import raspis_cli.judge.replay as replay_module
    from raspis_cli.notation.reader import read_text

    monkeypatch.setattr(reconcile_module, "_SCORE_MEMO_MAX", 40)
    lines = ['[Rules "classic"]', '[Option "exact_bonus=7"]', '[Players "A, B, C"]']
    lines += [f"{i}. 1 A - | {i}/{i} | {i + 1}/0 | 0/{i + 2}" for i in range(1, 60)]
    game = read_text("\n".join(lines) + "\n").games[0]
    result = replay_module.replay_game(game, ordered_bids=True)
    assert result.problems  # (a hostile sheet: bids out of range, schedule, ...)
    memo = reconcile_module.score_memo(result.rules)
    assert 0 < len(memo) <= 40
