"""A club database someone sends you: its own macros and views never run
raspis' SQL against your files, and no command reads or writes a file it
was not asked to.

Each test builds the crafted database itself, from a real one, with a
planted secret file whose text must appear nowhere: not on stdout or
stderr, not in the database, not in an exported Parquet file or a page."""

from __future__ import annotations

import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from tests.clikit import default_sigint
from tests.storekit import hand_games, run, write_json

Craft = Callable[[duckdb.DuckDBPyConnection, str], None]


def _macros(con: duckdb.DuckDBPyConnection, secret: str) -> None:
    # load's players query calls min() and max(): the file's own would read the secret
    for name in ("max", "min"):
        con.execute(f"CREATE OR REPLACE MACRO {name}(x) AS "
                    f"(SELECT content FROM read_text('{secret}'))")


def _meta_view(con: duckdb.DuckDBPyConnection, secret: str) -> None:
    con.execute("DROP TABLE raspis_meta")
    con.execute("CREATE VIEW raspis_meta AS SELECT 'schema_version' AS key, content AS value "
                f"FROM read_text('{secret}')")


def _games_view(con: duckdb.DuckDBPyConnection, secret: str) -> None:
    con.execute("CREATE TABLE kept AS SELECT * FROM games")
    con.execute("DROP TABLE games CASCADE")
    con.execute(f"CREATE VIEW games AS SELECT k.* REPLACE (t.content AS event) FROM kept k, "
                f"read_text('{secret}') t")


def _plays_view(con: duckdb.DuckDBPyConnection, secret: str) -> None:
    con.execute("CREATE OR REPLACE VIEW plays AS SELECT p.* REPLACE (t.content AS card) "
                f"FROM plays_int p, read_text('{secret}') t")


def _report_view(con: duckdb.DuckDBPyConnection, secret: str) -> None:
    con.execute(f"CREATE OR REPLACE VIEW leaderboard AS SELECT content AS player FROM read_text('{secret}')")


def _catalogue_macro(con: duckdb.DuckDBPyConnection, secret: str) -> None:
    # a table macro named like the catalogue function raspis checks with
    con.execute(f"CREATE MACRO duckdb_functions() AS TABLE SELECT content AS function_name, "
                f"true AS internal FROM read_text('{secret}')")


def _extra_table(con: duckdb.DuckDBPyConnection, secret: str) -> None:
    con.execute("CREATE TABLE notes (text VARCHAR)")


CRAFTS: dict[str, Craft] = {
    "macros max and min": _macros,
    "raspis_meta a view": _meta_view,
    "games a view": _games_view,
    "plays another view": _plays_view,
    "a report view over a file": _report_view,
    "a catalogue function shadowed": _catalogue_macro,
    "a table raspis did not create": _extra_table,
}

REFUSED = "raspis did not create"


@pytest.fixture
def club(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path, str]:
    """A real raspis database, a secret file beside it, and the secret's text."""
    text = "SECRET-" + secrets.token_hex(12)
    secret = tmp_path / "secret.txt"
    secret.write_text(text, encoding="utf-8")
    db = tmp_path / "club.duckdb"
    records = write_json(tmp_path / "hand.json", hand_games())
    assert run(capsys, "load", str(records), "--db", str(db), "-q")[0] == 0
    return db, secret, text


def _craft(db: Path, secret: Path, craft: Craft) -> None:
    con = duckdb.connect(str(db))
    try:
        craft(con, str(secret))
    finally:
        con.close()


def _nowhere(text: str, root: Path, *outputs: str) -> None:
    for output in outputs:
        assert text not in output, output
    for path in root.rglob("*"):
        if path.is_file() and path.name != "secret.txt":
            assert text.encode() not in path.read_bytes(), path


COMMANDS: dict[str, list[str]] = {
    "load": ["load", "{hand}", "--db", "{db}", "--replace"],
    "export": ["export", "--parquet", "{dir}/out", "--db", "{db}"],
    "stats": ["stats", "--db", "{db}", "-f", "json"],
    "report": ["report", "--db", "{db}", "-o", "{dir}/club.html"],
    "query": ["query", "SELECT * FROM leaderboard", "--db", "{db}", "-f", "json"],
    "query --write": ["query", "SELECT count(*) FROM games", "--db", "{db}", "--write"],
}


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("crafted", sorted(CRAFTS))
def test_a_crafted_database_leaks_nothing(club: tuple[Path, Path, str], crafted: str, command: str,
                                          tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, secret, text = club
    _craft(db, secret, CRAFTS[crafted])
    argv = [a.format(db=db, dir=tmp_path, hand=tmp_path / "hand.json") for a in COMMANDS[command]]
    code, out, err = run(capsys, *argv)
    _nowhere(text, tmp_path, out, err)
    assert "Traceback" not in err and "internal error" not in err, err
    if crafted == "plays another view" and command == "load":
        assert code == 0, err  # load replaces the view before it reads it (the test below)
        return
    if crafted == "a report view over a file":
        # the view is raspis' name, and raspis' own SQL never reads it; the user's
        # query of it is refused the file (without --write) or reads it (with)
        if command == "query":
            assert code == 2 and "--write" in err, err
        return
    assert code == 2 and REFUSED in err and err.count("\n") == 1, err


@pytest.mark.slow
def test_load_refreshes_a_stale_view_and_reads_no_file(club: tuple[Path, Path, str], tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """load replaces raspis' views (of its names) before it reads them: a
    plays view over a file is rewritten, not read."""
    db, secret, text = club
    _craft(db, secret, _plays_view)
    code, out, err = run(capsys, "load", str(tmp_path / "hand.json"), "--db", str(db), "--replace", "-q")
    assert code == 0, err
    _nowhere(text, tmp_path, out, err)
    code, out, err = run(capsys, "stats", "--db", str(db), "--report", "joker_outcomes", "-f", "json")
    assert code == 0 and '"played_as"' in out, err


def test_query_without_write_writes_not_even_into_the_spill_folder(
        club: tuple[Path, Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    """DuckDB lets a connection without external access write into its spill
    folder (DB.tmp): a read-only query has none."""
    db, _, _ = club
    spill = Path(str(db) + ".tmp")
    spill.mkdir()
    code, _, err = run(capsys, "query", f"COPY (SELECT 1 AS x) TO '{spill}/planted.csv'", "--db", str(db))
    assert code == 2 and "--write" in err, err
    assert list(spill.iterdir()) == []


def test_export_writes_only_its_folder(club: tuple[Path, Path, str], tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """export's connection may write its Parquet folder and nothing else."""
    from raspis_cli.store.db import open_db

    db, secret, _ = club
    out = tmp_path / "out"
    con = open_db(str(db), read_only=True, folders=(str(out),))
    try:
        with pytest.raises(duckdb.PermissionException):
            con.execute(f"SELECT * FROM read_text('{secret}')")
        with pytest.raises(duckdb.PermissionException):
            con.execute(f"COPY (SELECT 1) TO '{tmp_path}/elsewhere.csv'")
        with pytest.raises(duckdb.Error):
            con.execute("SET enable_external_access = true")
        out.mkdir()
        con.execute(f"COPY (SELECT 1) TO '{out}/inside.csv'")
        (out / "link.txt").symlink_to(secret)  # a link inside leads nowhere outside
        with pytest.raises(duckdb.PermissionException):
            con.execute(f"SELECT * FROM read_text('{out}/link.txt')")
    finally:
        con.close()


@pytest.mark.slow
def test_export_overwrite_never_follows_a_link(club: tuple[Path, Path, str], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    db, _, _ = club
    out = tmp_path / "out"
    assert run(capsys, "export", "--parquet", str(out), "--db", str(db), "-q")[0] == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine", encoding="utf-8")
    import shutil

    shutil.rmtree(out / "seats")
    (out / "seats").symlink_to(elsewhere)
    code, _, err = run(capsys, "export", "--parquet", str(out), "--db", str(db), "--overwrite")
    assert code == 2 and "seats" in err and "link" in err and "Traceback" not in err, err
    assert (elsewhere / "keep.txt").read_text(encoding="utf-8") == "mine"
    assert (out / "seats").is_symlink() and (out / "games").is_dir()


LONG_SQL = "SELECT count(*) FROM range(100000000000) t(a), range(10) u(b) WHERE a * b % 7 = 3"


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_ctrl_c_interrupts_a_running_query(club: tuple[Path, Path, str]) -> None:
    """Ctrl-C at a terminal stops a statement DuckDB would run for hours
    (Python's own handler waits for DuckDB to return)."""
    import pexpect

    db, _, _ = club
    child = pexpect.spawn(sys.executable, ["-m", "raspis_cli", "query", LONG_SQL, "--db", str(db)],
                          encoding="utf-8", timeout=60, preexec_fn=default_sigint)
    try:
        time.sleep(2)  # well inside the statement (its start is not observable from outside) ...
        # ... unless a loaded machine is still starting it (at load 14, over 30 s): Ctrl-C again
        # until it stops, for as long as a hung command is given; the statement would run for hours
        given_up = time.monotonic() + 120  # a statement still running after that does not stop
        while time.monotonic() < given_up:
            child.sendintr()
            if child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=3) == 0:
                break
    finally:
        child.close(force=True)
    assert child.exitstatus == 130, child.before


@pytest.mark.parametrize(("where", "raised"), [
    # Ctrl-C while the command's modules load (a busy machine starts slowly)
    ("raspis_cli.cli.registry.register_commands", "KeyboardInterrupt()"),
    # DuckDB's client saw the signal itself while the database opened, outside interruptible()
    ("raspis_cli.cli.store_cmd.open_existing", "RuntimeError('Query interrupted')"),
])
def test_ctrl_c_at_any_moment_exits_130_without_a_traceback(where: str, raised: str) -> None:
    import os
    import subprocess

    module, name = where.rsplit(".", 1)
    child = (f"import importlib, sys\nmodule = importlib.import_module({module!r})\n"
             f"def interrupted(*args, **kwargs):\n    raise {raised}\n"
             f"setattr(module, {name!r}, interrupted)\n"
             "sys.argv = ['raspis', 'query', 'SELECT 1', '--db', 'none.duckdb']\n"
             "from raspis_cli.cli import main\nmain()\n")
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", child], cwd=root, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(root), "NO_COLOR": "1"}, timeout=120)
    assert (done.returncode, done.stderr) == (130, "raspis: interrupted\n")
