"""Faults in ``load``, ``stats``, ``query`` and ``export``: real SIGKILLs
during loads, two loads into one database at once, database files that are
missing, unwritable, empty, foreign or damaged, and text that looks
dangerous. Every failure is one line naming the file, exit 2, no traceback;
every value comes back exactly as it went in."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import duckdb
import pytest

from raspis_cli.cli import store_cmd
from raspis_cli.notation.jsoncodec import games_to_jsonl_text
from raspis_cli.rules import Rules
from raspis_cli.simulate.run import simulate_games
from raspis_cli.store import open_db
from raspis_cli.store.load import TRACE_ENV
from tests.storekit import ROOT, hand_games, run, snapshot, write_json

pytestmark = pytest.mark.slow  # loads killed at random moments, databases reopened


def _campaign_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("kill_campaign", ROOT / "scripts" / "kill_campaign.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["kill_campaign"] = module
    spec.loader.exec_module(module)
    return module


def _raspis(*argv: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "raspis_cli", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})})


def _scalar(db: Path, sql: str) -> object:
    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute(sql).fetchone()
        assert row is not None
        return row[0]
    finally:
        con.close()


def _sim_file(path: Path, games: int, start: int) -> Path:
    batch = list(simulate_games(Rules.preset("raspisnoy"), 4, games, seed=3, start=start))
    path.write_text(games_to_jsonl_text(batch), encoding="utf-8")
    return path


# --- SIGKILL at random moments ------------------------------------------------


def test_sigkill_at_random_moments_leaves_the_database_before_or_after(tmp_path: Path) -> None:
    """14 real SIGKILLs, half at uniform moments of the whole load (process
    start to exit), half aimed at a phase (open, schema, parse, insert,
    players, commit, close). Killed before COMMIT: exactly as before; after
    COMMIT returned: exactly as after a complete load; the database opens
    (a WAL left by the kill is replayed) and a load run again to the end
    gives the complete database. scripts/kill_campaign.py runs longer."""
    kc = _campaign_module()
    setup = kc.prepare(tmp_path, games=12, files=3, base_games=4, seed=2)
    outcomes = kc.campaign(setup, runs=14, seed=11, rerun=4)
    failures = [f"{o.kill} {o.phase}: {o.state}" for o in outcomes if not o.ok]
    assert not failures, "\n".join(failures)
    phases = {o.phase for o in outcomes}
    assert len(phases) >= 5, kc.summarize(outcomes)
    assert phases & kc.BEFORE_COMMIT and phases & (kc.AFTER_COMMIT - {"completed"}), kc.summarize(outcomes)
    assert {o.state for o in outcomes} == {"before", "after"}


def test_first_open_after_a_kill_replays_the_log(tmp_path: Path) -> None:
    """Killed right after COMMIT, during the checkpoint that follows it (the
    phase ``committed``): the commit is in FILE.wal only. A read-only open sees it; the next writer folds it
    into the file."""
    kc = _campaign_module()
    setup = kc.prepare(tmp_path, games=4, files=1, base_games=2, seed=4)
    for _ in range(5):
        outcome = kc.run_one(setup, kc.Kill(0.0, "committed"), rerun=False)
        assert outcome.ok, outcome
        if outcome.wal_left:
            break
    else:
        pytest.skip("the kill never came before the checkpoint after the commit")
    assert kc.checksum(setup.db) == setup.after  # read-only: replayed in memory
    assert Path(str(setup.db) + ".wal").exists()
    done = _raspis("query", "SELECT count(*) AS n FROM games", "--db", str(setup.db), "-f", "json")
    out, err = done.communicate(timeout=60)
    assert done.returncode == 0, err
    assert json.loads(out) == [{"n": 6}]
    con = duckdb.connect(str(setup.db))  # a writer checkpoints and removes the log
    con.close()
    assert not Path(str(setup.db) + ".wal").exists()
    assert kc.checksum(setup.db) == setup.after


# --- two loads at once --------------------------------------------------------


def _holder(db: Path) -> subprocess.Popen[str]:
    """A process that holds the database open for writing until told to stop."""
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys; c = duckdb.connect(sys.argv[1]); "
         "print('ready', flush=True); sys.stdin.readline(); c.close()", str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
    return holder


def _release(holder: subprocess.Popen[str]) -> None:
    assert holder.stdin is not None
    holder.stdin.write("go\n")
    holder.stdin.flush()
    holder.wait(timeout=30)


def test_a_second_load_waits_for_the_first_and_stores_nothing_twice(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.duckdb"
    first = _sim_file(tmp_path / "first.jsonl", 4, 0)
    both = _sim_file(tmp_path / "both.jsonl", 6, 2)  # games 2..7: two of them in first too
    assert run(capsys, "load", str(first), "--db", str(db), "-q")[0] == 0
    holder = _holder(db)
    try:
        second = _raspis("load", str(both), "--db", str(db), "--wait", "60")
        assert second.stderr is not None
        line = second.stderr.readline()
        assert f"raspis: {db} is in use by another process (PID {holder.pid}); waiting up to 60 s" in line
        assert second.poll() is None  # still waiting
    finally:
        _release(holder)
    out, err = second.communicate(timeout=60)
    assert second.returncode == 0, err
    assert "loaded 4 games" in out and "2 already stored" in out
    assert _scalar(db, "SELECT count(*) FROM games") == 8
    assert _scalar(db, "SELECT count(DISTINCT game_id) FROM games") == 8


def test_a_load_that_waits_too_long_fails_and_a_rerun_completes(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.duckdb"
    records = write_json(tmp_path / "hand.json", hand_games())
    holder = _holder(db)
    try:
        code, out, err = run(capsys, "load", str(records), "--db", str(db), "--wait", "0.6")
        assert code == 2 and out == ""
        lines = err.strip().splitlines()
        assert lines[0] == (f"raspis: {db} is in use by another process (PID {holder.pid}); "
                            "waiting up to 0.6 s for it to finish")
        assert lines[1].startswith(f"raspis: error: {db} is locked: another process (PID {holder.pid}) "
                                   "has it open after waiting 0.6 s")
        assert len(lines) == 2
        code, _, err = run(capsys, "load", str(records), "--db", str(db), "--wait", "0")
        assert code == 2 and "waiting" not in err and "is locked" in err
        for argv in (["stats"], ["query", "SELECT 1"], ["export", "--parquet", str(tmp_path / "pq")]):
            code, _, err = run(capsys, *argv, "--db", str(db))
            assert code == 2 and f"{db} is locked" in err and len(err.splitlines()) == 1
    finally:
        _release(holder)
    assert not (tmp_path / "pq").exists()
    # the holder made an empty database: the failed loads left it as it was
    assert snapshot(db) == {}
    assert run(capsys, "load", str(records), "--db", str(db), "-q")[0] == 0
    assert _scalar(db, "SELECT count(*) FROM games") == 4


@pytest.mark.parametrize("fresh", [False, True], ids=["existing", "new"])
def test_two_real_loads_at_once_store_each_game_once(tmp_path: Path, fresh: bool,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Two ``raspis load`` processes started together on overlapping files:
    whichever gets the database first loads, the other waits, then skips
    what the first stored. The result equals one load of everything."""
    db, reference = tmp_path / "club.duckdb", tmp_path / "reference.duckdb"
    a = _sim_file(tmp_path / "a.jsonl", 10, 0)
    b = _sim_file(tmp_path / "b.jsonl", 10, 5)  # games 5..14: five shared
    if not fresh:
        base = _sim_file(tmp_path / "base.jsonl", 3, 100)
        for target in (db, reference):
            assert run(capsys, "load", str(base), "--db", str(target), "-q")[0] == 0
    assert run(capsys, "load", str(a), str(b), "--db", str(reference), "-q")[0] == 0
    loads = [_raspis("load", str(a), "--db", str(db)), _raspis("load", str(b), "--db", str(db))]
    results = [p.communicate(timeout=120) for p in loads]
    assert [p.returncode for p in loads] == [0, 0], results
    loaded = sum(int(out.split()[1]) for out, _ in results)
    assert loaded == 15
    assert sum("waiting up to 60 s" in err for _, err in results) <= 1
    expected = 15 + (0 if fresh else 3)
    assert _scalar(db, "SELECT count(*) FROM games") == expected
    assert _scalar(db, "SELECT count(DISTINCT game_id) FROM games") == expected
    mine, theirs = snapshot(db), snapshot(reference)
    assert mine.keys() == theirs.keys()
    for table in mine:
        if table != "games":  # games differ only in source_file and game_index
            assert mine[table] == theirs[table], table
    assert len(mine["games"]) == len(theirs["games"])


def test_a_failed_first_load_does_not_remove_a_database_another_load_filled(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The failing load saw no file when it started; while it waited for the
    lock another load created and filled the database. The failing load
    (an unreadable file) must leave that database, not remove it as its own."""
    db = tmp_path / "new.duckdb"
    good = _sim_file(tmp_path / "good.jsonl", 2, 0)
    real_open = open_db

    def open_after_another_load(path: str, **options: Any) -> duckdb.DuckDBPyConnection:
        other = _raspis("load", str(good), "--db", path, "-q")
        assert other.communicate(timeout=60) == ("", "") and other.returncode == 0
        return real_open(path, **options)

    monkeypatch.setattr(store_cmd, "open_db", open_after_another_load)
    code, _, err = run(capsys, "load", str(tmp_path / "missing.rsp"), "--db", str(db))
    assert code == 2 and "missing.rsp: no such file" in err
    assert db.exists() and _scalar(db, "SELECT count(*) FROM games") == 2
    # and a failed first load into a database nobody else touched leaves no file
    monkeypatch.setattr(store_cmd, "open_db", real_open)
    other = tmp_path / "other.duckdb"
    code, _, err = run(capsys, "load", str(good), str(tmp_path / "missing.rsp"), "--db", str(other))
    assert code == 2 and not other.exists()


# --- database files that cannot be used ---------------------------------------


def _damaged_copy(source: Path, target: Path, start: float) -> None:
    data = bytearray(source.read_bytes())
    rng = random.Random(5)
    for i in range(int(len(data) * start), len(data), 4099):
        data[i] ^= 0xFF
    data[-1] ^= rng.randrange(1, 256)
    target.write_bytes(bytes(data))


def _make_case(case: str, tmp_path: Path, good_db: Path) -> tuple[Path, str]:
    """A --db path for the case and the words the message must hold."""
    if case == "missing folder":
        return tmp_path / "no" / "such" / "x.duckdb", "does not exist"
    if case == "path under a file":
        (tmp_path / "plain.txt").write_text("x")
        return tmp_path / "plain.txt" / "x.duckdb", "is a file, not a folder"
    if case == "a folder":
        (tmp_path / "dir.duckdb").mkdir()
        return tmp_path / "dir.duckdb", "is a folder"
    if case == "empty file":
        (tmp_path / "empty.duckdb").write_bytes(b"")
        return tmp_path / "empty.duckdb", "is an empty file"
    if case == "random bytes":
        (tmp_path / "random.duckdb").write_bytes(random.Random(1).randbytes(200_000))
        return tmp_path / "random.duckdb", "is not a DuckDB database"
    if case == "text file":
        (tmp_path / "notes.duckdb").write_text("[Event \"x\"]\n" * 500)
        return tmp_path / "notes.duckdb", "is not a DuckDB database"
    if case == "sqlite file":
        con = sqlite3.connect(tmp_path / "club.sqlite")
        con.execute("CREATE TABLE games (game_id TEXT)")
        con.commit()
        con.close()
        return tmp_path / "club.sqlite", "is an SQLite database"
    if case == "truncated":
        (tmp_path / "cut.duckdb").write_bytes(good_db.read_bytes()[:6000])
        return tmp_path / "cut.duckdb", "is damaged"
    if case == "damaged header":
        _damaged_copy(good_db, tmp_path / "bad.duckdb", 0.0)
        return tmp_path / "bad.duckdb", "is damaged"
    if case == "damaged data":
        _damaged_copy(good_db, tmp_path / "deep.duckdb", 0.5)
        return tmp_path / "deep.duckdb", "is damaged"
    if case == "read-only folder":
        folder = tmp_path / "ro"
        folder.mkdir()
        (folder / "x.duckdb").write_bytes(good_db.read_bytes())
        folder.chmod(0o555)
        return folder / "x.duckdb", "is read-only"
    raise AssertionError(case)


CASES = ["missing folder", "path under a file", "a folder", "empty file", "random bytes", "text file",
         "sqlite file", "truncated", "damaged header", "damaged data", "read-only folder"]
COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "load": lambda tmp: ["load", str(tmp / "hand.json")],
    "stats": lambda tmp: ["stats", "--format", "json"],  # every report (a table shows the overview only)
    "query": lambda tmp: ["query", "SELECT count(*), sum(rank), max(player) FROM plays"],
    "export": lambda tmp: ["export", "--parquet", str(tmp / "parquet")],
}


@pytest.fixture(scope="module")
def good_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("good")
    db = folder / "good.duckdb"
    games = list(simulate_games(Rules.preset("raspisnoy"), 4, 12, seed=8))
    records = folder / "g.jsonl"
    records.write_text(games_to_jsonl_text(games), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "raspis_cli", "load", str(records), "--db", str(db), "-q"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return db


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("case", CASES)
def test_unusable_database_files_are_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], good_db: Path, case: str, command: str) -> None:
    if case == "read-only folder" and os.geteuid() == 0:
        pytest.skip("running as root: permission bits do not stop root "
                    "('path under a file' covers a folder that cannot be written)")
    if case == "read-only folder" and command != "load":
        pytest.skip("reading needs no write access to the folder")
    write_json(tmp_path / "hand.json", hand_games())
    db, words = _make_case(case, tmp_path, good_db)
    before = db.read_bytes() if db.is_file() else None
    existed = db.exists()
    try:
        code, out, err = run(capsys, *COMMANDS[command](tmp_path), "--db", str(db))
    finally:
        if case == "read-only folder":
            db.parent.chmod(0o755)
    if case == "damaged data" and command == "load" and code == 0:
        # load reads only the game ids and seats of what is stored: damage
        # elsewhere goes unnoticed (no full scan per load), and stays where
        # it was; the commands that read it say so
        code, out, err = run(capsys, *COMMANDS["query"](tmp_path), "--db", str(db))
        assert code == 2 and err.startswith(f"raspis: error: {db} is damaged: "), err
        return
    assert code == 2, (out, err)
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("raspis: error: ") and str(db) in lines[0], err
    if command == "load" or case in ("empty file", "random bytes", "text file", "sqlite file",
                                     "truncated", "damaged header", "damaged data", "a folder",
                                     "path under a file", "missing folder"):
        expected = words
        if command != "load" and case == "missing folder":
            expected = "no database at"
        assert expected in lines[0], err
    assert "Traceback" not in err and "internal error" not in err
    assert out == ""
    # nothing was changed, nothing was created
    assert db.exists() == existed
    if before is not None:
        assert db.read_bytes() == before
    assert not Path(str(db) + ".wal").exists()
    assert not (tmp_path / "parquet").exists()
    assert not (tmp_path / "no").exists()


# --- text that looks dangerous -------------------------------------------------

LONG = "Ж" * 9_000 + "x" * 1_000
NOTATION_SAFE = [
    "O'Brien", 'say "hi"', "back\\slash\\", "\\", "tab\there", "'); DROP TABLE games; --",
    "Robert'); DELETE FROM seats WHERE ('1'='1", LONG, "bell\x07", "esc\x1b[31mred", "\u202eRTL",
    "🂡 joker", "[/]", "[bold]b[/bold]", "%s %d {0}", "$player", "semi; colon", "#hash",
]
"""Names and tag values the notation writes and reads back (no line breaks,
no NUL, no outer spaces or commas in names)."""
JSON_ONLY = ["nul\x00byte", "line\nbreak", "cr\rret", " spaced ", "comma, inside", "\x00", "\x7f\x01\x1f"]
"""Values only JSON records carry (the notation refuses them with a message)."""


def _two_player_game(a: str, b: str, tags: dict[str, str]) -> dict[str, Any]:
    return {"format": "raspis/1", "tags": tags,
            "rules": {"preset": "classic", "options": {"schedule": "free"}},
            "players": [a, b],
            "deals": [{"number": 1, "kind": "normal", "dealer": b, "cards": 1, "bids": {a: 1, b: 1},
                       "taken": {a: 0, b: 1}, "scores": {a: -10, b: 10}}],
            "totals": {a: -10, b: 10}}


def _dangerous_games(values: list[str], tag_keys: bool) -> list[dict[str, Any]]:
    games = []
    for i, value in enumerate(values):
        other = values[(i + 1) % len(values)]
        tags = {"Event": value, "Site": other, "Date": f"2026-01-{i % 28 + 1:02d}"}
        if tag_keys:
            tags[value[:50] or "empty"] = other
        games.append(_two_player_game(value, other, tags))
    return games


def _query_json(capsys: pytest.CaptureFixture[str], db: Path, sql: str) -> list[dict[str, Any]]:
    code, out, err = run(capsys, "query", sql, "--db", str(db), "-f", "json")
    assert (code, err) == (0, ""), err
    data = json.loads(out)
    assert isinstance(data, list)
    return data


def _check_stored(capsys: pytest.CaptureFixture[str], db: Path, games: list[dict[str, Any]]) -> None:
    rows = _query_json(capsys, db, "SELECT game_id, tags, event, site, "
                       "list(player ORDER BY seat) AS players FROM games JOIN seats USING (game_id) "
                       "GROUP BY ALL")
    stored = sorted(json.dumps([r["players"], r["tags"], r["event"], r["site"]]) for r in rows)
    wanted = sorted(json.dumps([g["players"], g["tags"], g["tags"]["Event"], g["tags"]["Site"]])
                    for g in games)
    assert stored == wanted
    # the database is unharmed: every table there, the counts right
    tables = _query_json(capsys, db, "SELECT table_name FROM information_schema.tables ORDER BY ALL")
    assert {"games", "seats", "deals", "deal_results", "plays", "tricks", "violations", "players",
            "raspis_meta"} <= {t["table_name"] for t in tables}
    counts = _query_json(capsys, db, "SELECT (SELECT count(*) FROM games) AS g, "
                         "(SELECT count(*) FROM seats) AS s, (SELECT count(*) FROM players) AS p")
    names = {p for g in games for p in g["players"]}
    assert counts == [{"g": len(games), "s": 2 * len(games), "p": len(names)}]


def test_dangerous_text_through_json_load_and_query(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    games = _dangerous_games(NOTATION_SAFE + JSON_ONLY, tag_keys=True)
    records = tmp_path / "danger.json"
    records.write_text(json.dumps(games, ensure_ascii=False), encoding="utf-8")
    db = tmp_path / "d.duckdb"
    code, out, err = run(capsys, "load", str(records), "--db", str(db))
    assert (code, err) == (0, "") and f"loaded {len(games)} games" in out, (out, err)
    _check_stored(capsys, db, games)
    # a parameter, not SQL text: the fragment finds its own row and nothing else
    for name in (NOTATION_SAFE[5], NOTATION_SAFE[6], LONG, "nul\x00byte"):
        report = run(capsys, "stats", "--db", str(db), "--player", name, "--report", "leaderboard",
                     "-f", "json")
        assert report[0] == 0 and report[2] == ""
        assert [r["player"] for r in json.loads(report[1])] == [name]
    # every output format prints them without harm: tables escape control characters
    for fmt in ("table", "csv", "json"):
        code, out, err = run(capsys, "stats", "--db", str(db), "--report", "leaderboard", "-f", fmt)
        assert code == 0 and err == ""
    code, out, _ = run(capsys, "query", "SELECT player FROM players ORDER BY player", "--db", str(db))
    assert code == 0 and "\x1b" not in out and "\x00" not in out and "\x07" not in out
    assert "esc\\x1b[31mred" in out and "[/]" in out and "tab\\there" in out
    code, out, _ = run(capsys, "query", "SELECT player FROM players WHERE player = 'line' || chr(10) || "
                       "'break'", "--db", str(db), "-f", "csv")
    assert code == 0 and out == 'player\n"line\nbreak"\n'
    # the same games loaded again are the same games
    code, out, _ = run(capsys, "load", str(records), "--db", str(db))
    assert code == 0 and f"{len(games)} already stored" in out
    # Parquet keeps them too
    assert run(capsys, "export", "--parquet", str(tmp_path / "pq"), "--db", str(db), "-q")[0] == 0
    con = duckdb.connect()
    exported = {r[0] for r in con.execute(
        f"SELECT player FROM read_parquet('{tmp_path / 'pq' / 'seats'}/*/*.parquet')").fetchall()}
    con.close()
    assert exported == {p for g in games for p in g["players"]}


def test_dangerous_text_through_notation_convert_fmt_and_load(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    games = _dangerous_games(NOTATION_SAFE, tag_keys=False)
    records = tmp_path / "danger.json"
    records.write_text(json.dumps(games, ensure_ascii=False), encoding="utf-8")
    notation = tmp_path / "danger.rsp"
    code, _, err = run(capsys, "convert", str(records), "--to", "notation", "-o", str(notation))
    assert code == 0, err
    code, out, err = run(capsys, "fmt", str(notation))
    assert code == 0 and out == notation.read_text(encoding="utf-8"), err
    code, out, err = run(capsys, "convert", str(notation), "--to", "json")
    assert code == 0, err
    back = json.loads(out)
    back = back if isinstance(back, list) else [back]
    assert [(g["players"], g["tags"]) for g in back] == [(g["players"], g["tags"]) for g in games]
    db = tmp_path / "n.duckdb"
    code, out, err = run(capsys, "load", str(notation), str(records), "--db", str(db))
    assert code == 0 and f"loaded {len(games)} games" in out and f"{len(games)} duplicates" in out, out
    _check_stored(capsys, db, games)


def test_dangerous_sql_in_query_harms_nothing_without_write(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "q.duckdb"
    records = write_json(tmp_path / "h.json", hand_games())
    assert run(capsys, "load", str(records), "--db", str(db), "-q")[0] == 0
    before = snapshot(db)
    for sql in ("DROP TABLE games", "SELECT 1; DROP TABLE games", "DELETE FROM seats",
                "UPDATE games SET event = 'x'", "CREATE TABLE x (a INT)"):
        code, out, err = run(capsys, "query", sql, "--db", str(db))
        assert code == 2 and "read-only" in err and "Traceback" not in err, (sql, err)
    for sql in ("", "   ", ";", "/* nothing */"):
        code, _, err = run(capsys, "query", sql, "--db", str(db))
        assert (code, err.strip()) == (2, "raspis: error: no SQL statement to run"), (sql, err)
    code, out, _ = run(capsys, "query", "SELECT 1/0 AS a, -1/0 AS b, 'nan'::DOUBLE AS c", "--db", str(db),
                       "-f", "json")
    assert code == 0 and json.loads(out) == [{"a": "Infinity", "b": "-Infinity", "c": "NaN"}]
    assert snapshot(db) == before


def test_load_trace_names_the_phases(tmp_path: Path) -> None:
    db, trace = tmp_path / "t.duckdb", tmp_path / "trace"
    records = write_json(tmp_path / "h.json", hand_games())
    done = subprocess.run([sys.executable, "-m", "raspis_cli", "load", str(records), "--db", str(db), "-q"],
                          env={**os.environ, TRACE_ENV: str(trace)}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    phases = [line.split()[0] for line in trace.read_text().splitlines()]
    assert phases[:3] == ["open", "schema", "parse"]
    assert phases[-6:] == ["players", "ratings", "commit", "committed", "close", "closed"]
    assert "insert" in phases and "parsed" in phases


@pytest.mark.parametrize(("field", "value", "column"), [
    ("bid", 10**30, "seats.total"), ("total", 2**70, "seats.written_total"),
    ("number", 2**40, "deals.number"), ("cards", 2**40, "deals.cards"),
])
def test_numbers_too_large_for_the_database_name_the_file_and_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: int, column: str) -> None:
    """Every number a record holds has a range (record.NUMBER_RANGES, issue
    11): the JSON reader refuses such a game with a J002 naming it, so load
    stores the other games and counts the problem, as validate reports it;
    nothing reaches the database's 32-bit columns out of range."""
    good = _two_player_game("A", "B", {"Event": "ok", "Date": "2026-01-01"})
    bad = _two_player_game("A", "B", {"Event": "big", "Date": "2026-01-02"})
    deal = bad["deals"][0]
    if field == "bid":
        deal["bids"]["A"] = value
    elif field == "total":
        bad["totals"]["A"] = value
    else:
        deal[field] = value
    records = tmp_path / "big.jsonl"
    records.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(records))
    assert code == 1 and f"{records}:2:1: J002" in out and "is out of range" in out
    db = tmp_path / "b.duckdb"
    for jobs in ("1", "2"):
        code, out, err = run(capsys, "load", str(records), "--db", str(db), "-j", jobs)
        assert code == 0, err
        assert "1 syntax problem outside any game" in out, out
    assert _scalar(db, "SELECT count(*) FROM games") == 1
    assert column  # the column the database would have refused (the load's own guard stays)


def test_paths_with_quotes_work_and_backslashes_are_refused_plainly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """DuckDB takes a backslash in a path for a folder separator, even on
    POSIX: such a --db or export folder is refused in one line; quotes are
    ordinary characters."""
    records = write_json(tmp_path / "h.json", hand_games())
    folder = tmp_path / "it's \"quoted\""
    folder.mkdir()
    db = folder / "o'db.duckdb"
    assert run(capsys, "load", str(records), "--db", str(db), "-q")[0] == 0
    assert run(capsys, "export", "--parquet", str(folder / "p'q"), "--db", str(db), "-q")[0] == 0
    assert (folder / "p'q" / "games").is_dir()
    if os.sep != "/":
        return
    odd = tmp_path / "back\\slash"
    odd.mkdir()
    for argv in (["load", str(records)], ["stats"], ["query", "SELECT 1"]):
        code, _, err = run(capsys, *argv, "--db", str(odd / "x.duckdb"))
        assert code == 2 and err.startswith(f"raspis: error: {odd / 'x.duckdb'}: DuckDB cannot use a path "
                                            "with a backslash"), err
    code, _, err = run(capsys, "export", "--parquet", str(odd / "out"), "--db", str(db))
    assert code == 2 and "backslash" in err and len(err.splitlines()) == 1
    assert list(odd.iterdir()) == []
