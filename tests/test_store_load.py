"""``raspis load``: real DuckDB files; reloads, duplicates, violations,
rollback of a failed load, -j N, and the errors a user can meet."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from raspis_cli.notation.jsoncodec import games_to_jsonl_text
from raspis_cli.notation.writer import write_games
from raspis_cli.rules import Rules
from raspis_cli.simulate.run import simulate_games
from raspis_cli.store import RecordSource, canonical_game, game_id, load_units, open_db
from raspis_cli.store.load import LoadError, read_unit
from raspis_cli.store.schema import GAME_TABLES, STORED_TABLES, TABLES, stored_columns
from tests.storekit import SAMPLES, hand_games, run, snapshot, write_json


def _count(db: Path, sql: str) -> object:
    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute(sql).fetchone()
        assert row is not None
        return row[0]
    finally:
        con.close()


def _sim_files(folder: Path, files: int = 3, per_file: int = 2) -> list[Path]:
    folder.mkdir(exist_ok=True)
    paths = []
    for i in range(files):
        games = list(simulate_games(Rules.preset("raspisnoy"), 4, per_file, seed=5, start=i * per_file))
        path = folder / f"sim{i}.jsonl"
        path.write_text(games_to_jsonl_text(games), encoding="utf-8")
        paths.append(path)
    return paths


def test_load_hand_games_and_every_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "h.duckdb"
    records = write_json(tmp_path / "hand.json", hand_games())
    code, out, err = run(capsys, "load", str(records), "--db", str(db))
    assert (code, err) == (0, "")
    assert "loaded 4 games" in out and "1 of them with violations" in out
    assert _count(db, "SELECT count(*) FROM games") == 4
    assert _count(db, "SELECT count(*) FROM games WHERE NOT valid") == 1
    assert _count(db, "SELECT kind FROM violations") == "dealer-restriction"
    assert _count(db, "SELECT count(*) FROM deals") == 4 + 3 + 1 + 1
    assert _count(db, "SELECT count(*) FROM deal_results") == 3 * 4 + 3 * 3 + 2 + 3
    assert _count(db, "SELECT count(*) FROM plays") == 3
    assert _count(db, "SELECT joker_mode || ' ' || joker_suit || ' ' || won FROM plays WHERE is_joker") \
        == "high H true"
    assert _count(db, "SELECT winner FROM tricks") == "Анна"
    assert _count(db, "SELECT string_agg(player || '=' || total, ',' ORDER BY seat) FROM seats "
                  "JOIN games USING (game_id) WHERE event = 'Hand game 1'") == "Анна=125,Boris=-23,Vera=-15"
    assert _count(db, "SELECT place FROM seats JOIN games USING (game_id) "
                  "WHERE event = 'Hand game 1' AND player = 'Vera'") == 2
    assert _count(db, "SELECT count(*) FROM players") == 3
    assert _count(db, "SELECT rules_options['schedule'] FROM games WHERE event = 'Hand game 3'") == '"free"'
    assert _count(db, "SELECT year FROM games WHERE event = 'Hand game 3'") == 2025
    # bid_position: 1 = left of the dealer; the dealer bids last
    assert _count(db, "SELECT bid_position FROM deal_results r JOIN games g USING (game_id) "
                  "WHERE g.event = 'Hand game 1' AND r.number = 1 AND player = 'Vera'") == 3
    assert _count(db, "SELECT source_file FROM games LIMIT 1") == str(records)


def test_reload_stores_each_game_once_and_replace_reloads(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "r.duckdb"
    records = write_json(tmp_path / "hand.json", hand_games())
    assert run(capsys, "load", str(records), "--db", str(db))[0] == 0
    before = snapshot(db)
    code, out, _ = run(capsys, "load", str(records), "--db", str(db))
    assert code == 0 and "loaded 0 games" in out and "4 already stored" in out
    assert snapshot(db) == before
    code, out, _ = run(capsys, "load", str(records), "--db", str(db), "--replace")
    assert code == 0 and "4 replaced" in out
    assert snapshot(db) == before


def test_same_game_in_notation_and_json_has_one_id(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    games = list(simulate_games(Rules.preset("classic"), 3, 2, seed=11))
    (tmp_path / "g.rsp").write_text(write_games(games), encoding="utf-8")
    write_json(tmp_path / "g.json", games)
    db = tmp_path / "n.duckdb"
    code, out, _ = run(capsys, "load", str(tmp_path / "g.rsp"), str(tmp_path / "g.json"), "--db", str(db))
    assert code == 0 and "loaded 2 games" in out and "2 duplicates" in out
    assert _count(db, "SELECT count(*) FROM games") == 2
    # positions and comments are not content
    game = games[0]
    game.comments.append("; reformatted")
    game.span = (10, 99)
    assert game_id(game) == game_id(games[0])
    assert canonical_game(game)["players"] == game.players


def test_valid_only_skips_and_says_how_many(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "v.duckdb"
    records = write_json(tmp_path / "hand.json", hand_games())
    code, out, _ = run(capsys, "load", str(records), "--db", str(db), "--valid-only")
    assert code == 0 and "loaded 3 games" in out and "1 game with violations skipped" in out
    assert _count(db, "SELECT bool_and(valid) FROM games") is True
    assert _count(db, "SELECT count(*) FROM violations") == 0


def test_a_load_that_fails_halfway_leaves_the_database_unchanged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "f.duckdb"
    files = _sim_files(tmp_path / "sim")
    assert run(capsys, "load", str(files[0]), "--db", str(db))[0] == 0
    before = snapshot(db)
    # an unreadable file after two good ones: everything rolled back, exit 2
    code, _, err = run(capsys, "load", str(files[1]), str(files[2]), str(tmp_path / "missing.rsp"),
                       "--db", str(db))
    assert code == 2 and "missing.rsp: no such file" in err and "unchanged" in err
    assert snapshot(db) == before
    # an exception after rows were already inserted in the transaction
    con = open_db(str(db))

    def boom(flushes: int) -> None:
        assert con.execute("SELECT count(*) FROM games").fetchone() != (2,)  # rows are in
        raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError):
        load_units(con, [str(files[1]), str(files[2])], flush_rows=1, on_flush=boom)
    con.close()
    assert snapshot(db) == before


def test_a_failed_first_load_leaves_no_database_file(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "new.duckdb"
    code, _, _ = run(capsys, "load", str(tmp_path / "nothing.json"), "--db", str(db))
    assert code == 2
    assert not db.exists()


@pytest.mark.slow
def test_jobs_give_the_same_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = _sim_files(tmp_path / "sim", files=3, per_file=1)
    one, two = tmp_path / "one.duckdb", tmp_path / "two.duckdb"
    assert run(capsys, "load", str(tmp_path / "sim"), "--db", str(one), "-q")[0] == 0
    code, out, err = run(capsys, "load", *map(str, files), "--db", str(two), "-j", "2", "-q")
    assert (code, out, err) == (0, "", "")
    assert snapshot(one) == snapshot(two)
    assert _count(two, "SELECT count(*) FROM games") == 3


def test_read_unit_and_record_sources(tmp_path: Path) -> None:
    games = hand_games()
    rows = read_unit(RecordSource("memory", games + games[:1]))
    assert rows.games == 5 and rows.duplicates == 1 and rows.invalid == 1
    assert [t for t in rows.tables] == list(GAME_TABLES)
    for name, table in rows.tables.items():  # as stored: plays as plays_int
        assert table.column_names == [c.name for c in stored_columns(name)]
    con = duckdb.connect(str(tmp_path / "m.duckdb"))
    summary = load_units(con, [RecordSource("a", games), RecordSource("b", games)])
    assert (summary.loaded, summary.duplicates, summary.invalid_loaded) == (4, 4, 1)
    with pytest.raises(LoadError):
        load_units(con, [str(tmp_path / "absent.jsonl")])
    con.close()


@pytest.mark.slow
def test_samples_load_and_reload(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not any(SAMPLES.glob("*.rsp")):
        pytest.skip("no samples yet")
    db = tmp_path / "s.duckdb"
    code, out, _ = run(capsys, "load", str(SAMPLES), "--db", str(db))
    assert code == 0, out
    games = _count(db, "SELECT count(*) FROM games")
    assert isinstance(games, int) and games >= 1
    before = snapshot(db)
    code, out, _ = run(capsys, "load", str(SAMPLES), "--db", str(db))
    assert code == 0 and "loaded 0 games" in out
    assert snapshot(db) == before
    # the dispute sheet has a wrongly written score: stored, flagged
    assert _count(db, "SELECT count(*) FROM games WHERE NOT valid") == _count(
        db, "SELECT count(DISTINCT game_id) FROM violations")


def test_database_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = write_json(tmp_path / "hand.json", hand_games())
    junk = tmp_path / "junk.duckdb"
    junk.write_text("not a database\n" * 100)
    code, _, err = run(capsys, "load", str(records), "--db", str(junk))
    assert code == 2 and "not a DuckDB database" in err and "Traceback" not in err
    code, _, err = run(capsys, "load", str(records), "--db", str(tmp_path / "no" / "such" / "x.duckdb"))
    assert code == 2 and "does not exist" in err
    db = tmp_path / "locked.duckdb"
    assert run(capsys, "load", str(records), "--db", str(db), "-q")[0] == 0
    # another process holds the database open for writing
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); "
         "print('ready', flush=True); time.sleep(30)", str(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        code, _, err = run(capsys, "load", str(records), "--db", str(db), "--wait", "0")
        assert code == 2 and "is locked" in err and "Traceback" not in err
        code, _, err = run(capsys, "query", "SELECT 1", "--db", str(db))
        assert code == 2 and "is locked" in err
    finally:
        holder.kill()
        holder.wait()


def test_raspis_db_environment_variable(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    records = write_json(tmp_path / "hand.json", hand_games())
    monkeypatch.setenv("RASPIS_DB", str(tmp_path / "env.duckdb"))
    assert run(capsys, "load", str(records), "-q")[0] == 0
    assert (tmp_path / "env.duckdb").exists()
    monkeypatch.delenv("RASPIS_DB")
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "load", str(records), "-q")[0] == 0
    assert os.path.exists(tmp_path / "raspis.duckdb")


def test_schema_md_documents_every_column() -> None:
    text = (SAMPLES.parent / "docs" / "SCHEMA.md").read_text(encoding="utf-8")
    sections = text.split("\n### ")
    for table, columns in {**TABLES, **STORED_TABLES}.items():
        section = next((s for s in sections if s.startswith(f"`{table}`")), None)
        assert section is not None, table
        for column in columns:
            assert f"| `{column.name}` | {column.sql_type} |" in section, (table, column.name)


def _pieces_corpus(folder: Path) -> list[Path]:
    """Files that workers cut into pieces: twelve games with comments between
    them, a game given twice, a game with a syntax error, a game without
    tags at the start; and the same games as .jsonl."""
    folder.mkdir(exist_ok=True)
    games = list(simulate_games(Rules.preset("raspisnoy"), 3, 12, seed=9, detail="scores"))
    text = write_games(games[:6])
    text += "\n; a comment that belongs to the next game\n{ and one in braces }\n\n"
    text += write_games([games[6], games[6], *games[7:]])
    lines = text.split("\n")
    bad = next(i for i, line in enumerate(lines) if line.startswith("3. ") and i > len(lines) // 2)
    lines[bad] = lines[bad].replace("|", "| x/y", 1)  # a syntax error inside a later game
    notation = folder / "club.rsp"
    notation.write_text("1. 1 A - | 0/0 | 0/1 | 1/0\n\n" + "\n".join(lines), encoding="utf-8")
    jsonl = folder / "club.jsonl"
    jsonl.write_text(games_to_jsonl_text(games + games[:2]), encoding="utf-8")
    return [notation, jsonl]


@pytest.mark.slow
def test_workers_reading_pieces_give_the_database_of_one_process(tmp_path: Path) -> None:
    """With -j 2 each worker reads and replays only its pieces of a file (cut
    at game boundaries): the database is the same as one process's, game
    numbers, lines, syntax problems and duplicates included."""
    from raspis_cli.files.pieces import split_file

    files = _pieces_corpus(tmp_path / "c")
    assert len(split_file(str(files[0]), 4)) >= 3 and len(split_file(str(files[1]), 4)) == 4
    summaries = []
    for jobs in (1, 2):
        con = duckdb.connect(str(tmp_path / f"j{jobs}.duckdb"))
        summaries.append(load_units(con, [str(f) for f in files], jobs=jobs, batch_games=2).to_json())
        con.close()
    assert summaries[0] == summaries[1]
    one, two = snapshot(tmp_path / "j1.duckdb"), snapshot(tmp_path / "j2.duckdb")
    assert one == two
    con = duckdb.connect(str(tmp_path / "j2.duckdb"), read_only=True)
    numbers = [r[0] for r in con.execute("SELECT game_index FROM games ORDER BY 1").fetchall()]
    con.close()
    # the games of later pieces are numbered from the start of the file, not of their piece
    assert numbers == sorted(set(numbers)) and numbers[-1] >= 12


def test_a_file_is_cut_only_where_a_game_surely_starts(tmp_path: Path) -> None:
    from raspis_cli.files.pieces import split_file

    game = '[Event "E"]\n[Players "A, B"]\n1. 1 A - | 0/0 | 1/1\n'
    path = tmp_path / "f.rsp"
    path.write_text(game + "\n; about the next game\n" + game + "\n" + game, encoding="utf-8")
    pieces = split_file(str(path), 1)
    assert [(p.first, p.last, p.final) for p in pieces] == [(1, 3, False), (4, 8, False), (9, None, True)]
    # a worker reads its piece from the piece's first byte ...
    data = path.read_bytes()
    starts = [sum(len(line) + 1 for line in data.split(b"\n")[:p.first - 1]) for p in pieces]
    assert [p.offset for p in pieces] == [None, *starts[1:]] and starts[1:] == [50, 123]
    # ... unless a line may end otherwise than in a plain \n: then it reads the lines before as blank
    path.write_bytes(data.replace(b"\n", b"\r\n"))
    assert [(p.first, p.offset) for p in split_file(str(path), 1)] == [(1, None), (4, None), (9, None)]
    # a { } comment over several lines: no cut after it (a [ line inside it is no tag)
    path.write_text(game + "{ a long\n" + game + "}\n" + game, encoding="utf-8")
    assert len(split_file(str(path), 1)) == 1


def test_validate_in_pieces_gives_the_report_of_one_process(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """validate -j: the files cut into pieces, each checked by a worker, the
    reports put back together: the same as one process's, game numbers,
    syntax problems and the source lines they point at included."""
    import raspis_cli.judge.check as check

    monkeypatch.setattr(check, "PIECE_GAMES", 4)
    paths = [str(p) for p in _pieces_corpus(tmp_path / "c")]
    for as_json in (False, True):
        one = list(check.validate_files(paths, as_json=as_json, jobs=1))
        two = list(check.validate_files(paths, as_json=as_json, jobs=2))
        assert [r.to_json() for r in one] == [r.to_json() for r in two]
        assert [r.problems() for r in one] == [r.problems() for r in two]
        assert [r.lines for r in one] == [r.lines for r in two]
        assert one[0].problem_count > 0 and len(one[0].results) == 14
