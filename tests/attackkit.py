"""Attack classes for the fuzz campaign (scripts/fuzz_campaign.py --attacks):
inputs an attacker, a careless user or an odd keyboard gives raspis, each
with its oracle.

- ``crafted-db``: a club database someone sends you, its catalogue changed
  (a macro named like a built-in raspis' SQL calls, a table macro named like
  a catalogue function, a view where raspis keeps a table, a view of a
  raspis name over a file, a stranger table, sequence, type or schema), run
  through a random command (load, export, stats, report --db, query with and
  without --write, a COPY into the spill folder). Oracle: the planted
  secret's text appears nowhere (stdout, stderr, any file written), no
  traceback, nothing written into DB.tmp.
- ``output-onto-input``: a record reached by another name (a symbolic link,
  a chain of them, a hard link, ``./``, ``..``, a folder given as the input)
  given as a command's output (report, convert, analyze --annotate,
  simulate, new), with and without --force. Oracle: the input is never
  changed; an existing file is replaced only with --force.
- ``prompt-input``: ``raspis live`` on a blank sheet answered with odd
  digits (superscripts, circled, full-width, Arabic-Indic), control
  characters, carriage returns, bidi controls, long comments, Cyrillic.
  Oracle: no traceback, and the sheet ``live`` wrote reads back without a
  syntax error.
- ``concurrent-live``: two ``raspis live`` sessions on one sheet. The first
  (a process of its own, answered through a pipe) has typed 0 to 2 deals;
  the second (in-process) opens the sheet by the same or another name (a
  link, ``./``, ``..``, ``//``, in Russian or English) while the first is
  at its prompt, after the first was killed (``kill -9``), or after it
  quit. Oracle: while the first runs, the second is refused (exit 2) with a
  message naming the first's process, and the sheet is unchanged; the first
  then saves its next deal; once the first is gone (quit or killed) the
  second keeps the sheet; every deal either saved is in the sheet, in
  order. A hard link is a name of its own (the lock is per name; the first
  save replaces the file, so the names part): the second may keep it, and
  then nothing either saved may be lost.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "classic.rsp"

PENDING: dict[str, str] = {}
"""Attack classes named but not run, and why."""


@dataclass
class Outcome:
    """What one attack did: its class, a short label, and a failure (None: held)."""

    kind: str
    label: str
    failure: str | None = None


def run_cli(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    """The app in-process: exit code, stdout, stderr (``stdin``: its text)."""
    from raspis_cli.cli.runner import run_app

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    try:
        if stdin is not None:
            sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8", "surrogateescape")),
                                         encoding="utf-8", errors="surrogateescape")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run_app(argv)
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def _broken(code: int, out: str, err: str) -> str | None:
    text = out + err
    if "Traceback" in text or "internal error" in text:
        line = next((x for x in text.splitlines() if "internal error" in x or "Error" in x), text[-300:])
        return "traceback: " + line[:300]
    if code not in (0, 1, 2, 130):
        return f"exit {code}: {text[-300:]}"
    return None


# --- crafted databases --------------------------------------------------------------------------

SHADOWED_SCALARS = ("max", "min", "count", "sum", "avg", "coalesce", "lower", "upper", "length",
                    "string_agg", "arg_max", "list_contains", "map_entries", "json_extract_string",
                    "round", "abs", "greatest", "least", "row_number", "first", "concat", "year")
SHADOWED_TABLES = ("duckdb_functions", "duckdb_tables", "duckdb_views", "duckdb_types", "duckdb_schemas",
                   "duckdb_sequences", "read_parquet", "range", "read_text", "read_csv")


@dataclass
class CraftedClub:
    """A real raspis database to craft copies of, and the secret beside it."""

    folder: Path
    base: bytes = b""
    secret: Path = field(default_factory=Path)
    text: str = ""

    @classmethod
    def make(cls, folder: Path) -> CraftedClub:
        from tests.storekit import hand_games, write_json

        folder.mkdir(parents=True, exist_ok=True)
        club = cls(folder)
        club.text = "SECRET-" + secrets.token_hex(12)
        club.secret = folder / "secret.txt"
        club.secret.write_text(club.text, encoding="utf-8")
        records = write_json(folder / "hand.json", hand_games())
        db = folder / "base.duckdb"
        code, _, err = run_cli(["load", str(records), "--db", str(db), "-q"])
        assert code == 0, err
        club.base = db.read_bytes()
        db.unlink()
        return club


def _craft_sql(rnd: random.Random, secret: str) -> tuple[str, list[str]]:
    from raspis_cli.store.schema import BASE_VIEWS, REPORTS, STORED_TABLES, TABLES

    read = f"(SELECT content FROM read_text('{secret}'))"
    kind = rnd.choice(("scalar", "table-macro", "table-as-view", "view", "stranger"))
    if kind == "scalar":
        name = rnd.choice(SHADOWED_SCALARS)
        args = ", ".join(f"a{i}" for i in range(rnd.randint(1, 3)))
        return f"macro {name}", [f"CREATE OR REPLACE MACRO {name}({args}) AS {read}"]
    if kind == "table-macro":
        name = rnd.choice(SHADOWED_TABLES)
        return f"table macro {name}", [
            f"CREATE OR REPLACE MACRO {name}() AS TABLE SELECT content AS function_name, true AS internal "
            f"FROM read_text('{secret}')"]
    if kind == "table-as-view":
        name = rnd.choice(["raspis_meta", *[t for t in TABLES if t != "plays"], *STORED_TABLES])
        return f"{name} a view", [f"CREATE TABLE kept_{name} AS SELECT * FROM {name}",
                                  f"DROP TABLE {name} CASCADE",
                                  f"CREATE VIEW {name} AS SELECT k.*, t.content AS secret "
                                  f"FROM kept_{name} k, read_text('{secret}') t"]
    if kind == "view":
        name = rnd.choice(["plays", *BASE_VIEWS, *REPORTS])
        return f"view {name} over a file", [
            f"CREATE OR REPLACE VIEW {name} AS SELECT content AS player, content AS card "
            f"FROM read_text('{secret}')"]
    what = rnd.choice(("table", "view", "sequence", "type", "schema"))
    name = "x_" + secrets.token_hex(3)
    sql = {"table": f"CREATE TABLE {name} (content VARCHAR DEFAULT 'x')",
           "view": f"CREATE VIEW {name} AS SELECT content FROM read_text('{secret}')",
           "sequence": f"CREATE SEQUENCE {name}",
           "type": f"CREATE TYPE {name} AS ENUM ('a', 'b')",
           "schema": f"CREATE SCHEMA {name}"}[what]
    return f"stranger {what}", [sql]


def crafted_db(rnd: random.Random, club: CraftedClub, work: Path) -> Outcome:
    """One crafted copy of the club database through one command."""
    import duckdb

    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    db = work / "club.duckdb"
    db.write_bytes(club.base)
    label, statements = _craft_sql(rnd, str(club.secret))
    con = duckdb.connect(str(db))
    try:
        for statement in statements:
            con.execute(statement)
    finally:
        con.close()
    spill = Path(str(db) + ".tmp")
    spill.mkdir()
    command = rnd.choice(("load", "export", "stats", "report", "query", "query --write", "copy"))
    argv = {
        "load": ["load", str(club.folder / "hand.json"), "--db", str(db), "--replace", "-q"],
        "export": ["export", "--parquet", str(work / "out"), "--db", str(db)],
        "stats": ["stats", "--db", str(db), "-f", "json"],
        "report": ["report", "--db", str(db), "-o", str(work / "club.html")],
        "query": ["query", f"SELECT * FROM {rnd.choice(('games', 'plays', 'leaderboard', 'seats'))}",
                  "--db", str(db), "-f", "json"],
        "query --write": ["query", "SELECT count(*) AS n FROM games", "--db", str(db), "--write"],
        "copy": ["query", f"COPY (SELECT 1) TO '{spill}/planted.csv'", "--db", str(db)],
    }[command]
    code, out, err = run_cli(argv)
    outcome = Outcome("crafted-db", f"{label} / {command}", _broken(code, out, err))
    if outcome.failure is None and club.text in out + err:
        outcome.failure = "the secret is in the output"
    if outcome.failure is None:
        for path in work.rglob("*"):
            if path.is_file() and club.text.encode() in path.read_bytes():
                outcome.failure = f"the secret is in {path.relative_to(work)}"
                break
    if outcome.failure is None and any(spill.iterdir()):
        outcome.failure = "a file was written into the spill folder"
    return outcome


# --- output onto input --------------------------------------------------------------------------


def _same_file(a: Path, b: Path) -> bool:
    """The oracle's own test (not the one raspis uses): device and inode."""
    try:
        sa, sb = os.stat(a), os.stat(b)
    except OSError:
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def output_onto_input(rnd: random.Random, work: Path, cli: bool) -> Outcome:
    """A record reached by another name given as an output. ``cli``: through
    the command; else through the shared check alone (fast)."""
    shutil.rmtree(work, ignore_errors=True)
    folder = work / "games"
    folder.mkdir(parents=True)
    record = folder / "game.rsp"
    shutil.copyfile(SAMPLE, record)
    other = work / "other.rsp"
    other.write_text("kept\n", encoding="utf-8")
    (work / "link.rsp").symlink_to(record)
    (work / "chain.rsp").symlink_to(work / "link.rsp")
    os.link(record, work / "hard.rsp")
    names = {
        "the file": str(record), "a link": str(work / "link.rsp"),
        "a chain of links": str(work / "chain.rsp"),
        "a hard link": str(work / "hard.rsp"), "dot": str(folder / "." / "game.rsp"),
        "dot-dot": str(folder / ".." / "games" / "game.rsp"), "double slash": str(folder) + "//game.rsp",
        "another file": str(other), "a new file": str(work / "new.rsp"),
    }
    output_name = rnd.choice(sorted(names))
    output = names[output_name]
    input_name = rnd.choice(["the file", "a link", "a hard link", "the folder"])
    source = str(folder) if input_name == "the folder" else names[input_name]
    force = rnd.random() < 0.5
    command = rnd.choice(("report", "convert", "analyze", "simulate", "new"))
    inputs = [] if command in ("simulate", "new") else [source]
    onto_input = bool(inputs) and (_same_file(Path(output), record))
    exists = Path(output).exists()
    before = record.read_bytes(), other.read_bytes()
    label = f"{command} {input_name} -o {output_name}{' --force' if force else ''}"
    if not cli:
        from raspis_cli.files.outputs import output_refusal

        refused = output_refusal(output, inputs, force) is not None
        expected = onto_input or (exists and not force)
        failure = None if refused == expected else f"refused={refused}, expected {expected}"
        return Outcome("output-onto-input", label + " (check)", failure)
    argv = {
        "report": ["report", source, "-o", output],
        "convert": ["convert", source, "--to", rnd.choice(("json", "jsonl", "notation")), "-o", output],
        "analyze": ["analyze", source, "--annotate", "-o", output, "--budget", "1"],
        "simulate": ["simulate", "-p", "3", "-o", output],
        "new": ["new", "-p", "A,B,C", "-o", output],
    }[command] + (["--force"] if force else [])
    code, out, err = run_cli(argv)
    failure = _broken(code, out, err)
    refused = onto_input or (exists and not force)
    if failure is None and refused:
        if code != 2:
            failure = f"not refused (exit {code})"
        elif (record.read_bytes(), other.read_bytes()) != before:
            failure = "refused, but a file was changed"
    return Outcome("output-onto-input", label, failure)


# --- odd input at live's prompts ----------------------------------------------------------------

ODD_DIGITS = ("²", "³", "¹", "①", "②", "⑩", "３", "٣", "۴", "३", "০", "𝟐", "Ⅲ", "½", "⁰", "₂", "1e2", "-1",
              "+2", "0x1", "1_0", "٫", " 1 ", "1\u200b", "10000", "99999999999999999999")
CONTROLS = ("\x00", "\x07", "\x1b[2J", "\x1b]0;pwned\x07", "\r", "\t", "\x7f", "\x85", "\u2028", "\u202e",
            "\u2066", "\ufeff", "\udcff")
WORDS = ("normal", "пас", "п", "pass", "p", "undo", "отмена", "dark", "тёмная", "miser", "golden", "♠", "S",
         "H", "none", "без козыря", "replayed", "?", "help", "Анна", "Вера", "комментарий x")


def _odd(rnd: random.Random) -> str:
    pick = rnd.random()
    if pick < 0.35:
        return rnd.choice(ODD_DIGITS)
    if pick < 0.6:
        return rnd.choice(CONTROLS) + rnd.choice(("", "1", "0", "пас", "normal"))
    if pick < 0.75:
        pieces = ("x", "я", "\r", "\t", "\u202e", " ")
        return "; " + "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 40)))
    if pick < 0.8:
        return "; " + "x" * rnd.choice((70_000, 65_537, 200))
    return rnd.choice(WORDS)


def prompt_input(rnd: random.Random, blank: bytes, work: Path) -> Outcome:
    """``live`` on a blank sheet with a stream of plausible and odd answers."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    sheet = work / "sheet.rsp"
    sheet.write_bytes(blank)
    answers = []
    odd = []
    for _ in range(rnd.randint(3, 30)):
        if rnd.random() < 0.4:
            text = _odd(rnd)
            odd.append(text[:12])
        else:
            text = rnd.choice(("0", "1", "2", "normal", "пас", "S", "H", "1", "0"))
        answers.append(text)
    answers.append("quit")
    stdin = "\n".join(answers) + "\n"
    code, out, err = run_cli(["live", str(sheet)], stdin=stdin)
    label = "live with " + ", ".join(repr(o) for o in odd[:4])
    failure = _broken(code, out, err)
    if failure is None:
        vcode, vout, verr = run_cli(["validate", str(sheet), "-f", "json"])
        syntax = [v["message"] for f in (json.loads(vout)["files"] if vout else [])
                  for g in f.get("games", []) for v in g.get("violations", []) if v.get("kind") == "syntax"]
        if vcode == 2 or syntax:
            failure = "the sheet live wrote does not read back: " + (syntax[0] if syntax else verr)[:200]
    return Outcome("prompt-input", label, failure)


# --- two live sessions on one sheet -------------------------------------------------------------

FIRST_TRUMP, SECOND_TRUMP = "9♥", "8♠"
"""The trump each session names in every deal it types: whose deal a saved line is."""


def _deal(number: int, trump: str) -> list[str]:
    """The answers of deal ``number`` (that many cards) on the blank sheet for
    three: the trump, three bids of 0, the first asked takes every trick."""
    return [trump, "0", "0", "0", str(number), "0", ""]


def _trumps(path: Path) -> list[str]:
    """The trumps of the deals saved in a sheet, in order (its bids filled)."""
    from raspis_cli.notation import read_text

    games = read_text(path.read_text(encoding="utf-8")).games
    return [str(d.trump) for g in games for d in g.deals if d.bids]


def _wait(until: Callable[[], bool], first: subprocess.Popen[bytes], seconds: float = 90.0) -> str | None:
    """Wait for ``until``; a failure if the first session ends or time runs out."""
    deadline = time.monotonic() + seconds
    while not until():
        if first.poll() is not None:
            return f"the first session ended (exit {first.returncode}) before it was at its prompt"
        if time.monotonic() > deadline:
            return "the first session did not get there in time"
        time.sleep(0.02)
    return None


def _locked_by(lock: Path, pid: int) -> bool:
    try:
        return bool(json.loads(lock.read_text(encoding="utf-8")).get("pid") == pid)
    except (OSError, ValueError, AttributeError):
        return False


def concurrent_live(rnd: random.Random, blank: bytes, work: Path) -> Outcome:
    """Two ``live`` sessions on one sheet (see the module's docstring)."""
    from raspis_cli.sheet.sheetfile import lock_path

    shutil.rmtree(work, ignore_errors=True)
    folder = work / "club"
    folder.mkdir(parents=True)
    sheet = folder / "sheet.rsp"
    sheet.write_bytes(blank)
    (work / "link.rsp").symlink_to(sheet)
    os.link(sheet, work / "hard.rsp")
    names = {"the same name": str(sheet), "a link": str(work / "link.rsp"),
             "dot": str(folder / "." / "sheet.rsp"), "dot-dot": str(folder / ".." / "club" / "sheet.rsp"),
             "double slash": str(folder) + "//sheet.rsp", "a hard link": str(work / "hard.rsp")}
    name = rnd.choice(sorted(names))
    when = rnd.choice(("while it runs", "while it runs", "after kill -9", "after it quit"))
    typed = rnd.randint(0, 2)
    lang = rnd.choice(([], ["--lang", "ru"], ["--lang", "en"]))
    label = f"second by {name} {when}, first typed {typed}{' ' + lang[1] if lang else ''}"
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "LANGUAGE", "LC_ALL",
                                                            "LC_MESSAGES", "LANG")}
    env.update(NO_COLOR="1", PYTHONIOENCODING="utf-8", PYTHONPATH=str(ROOT))
    with open(work / "first.out", "wb") as out:
        first = subprocess.Popen([sys.executable, "-m", "raspis_cli", "live", str(sheet)], cwd=ROOT, env=env,
                                 stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT)
    assert first.stdin is not None
    try:
        return _two_sessions(first, sheet, Path(names[name]), Path(lock_path(str(sheet))), name, when, typed,
                             lang, label)
    finally:
        if first.poll() is None:
            first.kill()
        first.wait()
        first.stdin.close()


def _two_sessions(first: subprocess.Popen[bytes], sheet: Path, second: Path, lock: Path, name: str, when: str,
                  typed: int, lang: list[str], label: str) -> Outcome:
    assert first.stdin is not None

    def send(answers: list[str]) -> None:
        assert first.stdin is not None
        first.stdin.write(("\n".join(answers) + "\n").encode("utf-8"))
        first.stdin.flush()

    def outcome(failure: str | None) -> Outcome:
        return Outcome("concurrent-live", label, failure)

    failure = _wait(lambda: _locked_by(lock, first.pid), first)
    if failure:
        return outcome(failure)
    for number in range(1, typed + 1):
        send(_deal(number, FIRST_TRUMP))
        failure = _wait(lambda n=number: len(_trumps(sheet)) == n, first)  # type: ignore[misc]
        if failure:
            return outcome(failure + f" (deal {number} not saved)")
    expected = [FIRST_TRUMP] * typed
    if when == "after kill -9":
        first.send_signal(signal.SIGKILL)
        first.wait()
    elif when == "after it quit":
        send(["quit"])
        if first.wait(timeout=90) != 0:
            return outcome(f"the first session's quit exited {first.returncode}")
    before = sheet.read_bytes()
    code, out, err, prior = _second_session(second, lang)
    failure = _broken(code, out, err)
    if failure:
        return outcome(failure)
    hard = name == "a hard link"
    if when == "while it runs":
        if code == 2:
            if str(first.pid) not in err:
                return outcome(f"refused without naming the first session's process {first.pid}: "
                               f"{err[-200:]}")
            if sheet.read_bytes() != before:
                return outcome("refused, but the sheet was changed")
        elif not (hard and code == 0):
            return outcome(f"a second session ran beside the first (exit {code}): {(out + err)[-200:]}")
        elif _trumps(second) != [*prior, SECOND_TRUMP]:  # a name of its own: the second kept it
            return outcome(f"the hard link holds the deals {_trumps(second)}, "
                           f"expected {[*prior, SECOND_TRUMP]}")
        send([*_deal(typed + 1, FIRST_TRUMP), "quit"])
        if first.wait(timeout=90) != 0:
            return outcome(f"the first session, going on, exited {first.returncode}")
        expected.append(FIRST_TRUMP)
        if _trumps(sheet) != expected:
            return outcome(f"the sheet holds the deals {_trumps(sheet)}, expected {expected}")
        if code == 0:
            return outcome(None)
        code, out, err, prior = _second_session(second, lang)  # the first is gone: the sheet is free
        failure = _broken(code, out, err)
        if failure:
            return outcome(failure)
    if code != 0:
        return outcome(f"the second session, alone, exited {code}: {(out + err)[-200:]}")
    if not hard and prior != expected:
        return outcome(f"the second session found the deals {prior}, expected {expected}")
    if _trumps(second) != [*prior, SECOND_TRUMP]:
        return outcome(f"the sheet holds the deals {_trumps(second)}, expected {[*prior, SECOND_TRUMP]}")
    return outcome(None)


def _second_session(second: Path, lang: list[str]) -> tuple[int, str, str, list[str]]:
    """The second ``live`` (in-process), typing the next deal of the sheet it
    finds: exit code, stdout, stderr, and the deals it found."""
    prior = _trumps(second)
    stdin = "\n".join([*_deal(len(prior) + 1, SECOND_TRUMP), "quit"]) + "\n"
    code, out, err = run_cli(["live", str(second), *lang], stdin=stdin)
    return code, out, err, prior


def blank_sheet(folder: Path) -> bytes:
    """A blank raspisnoy sheet for three, as ``raspis new`` writes it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "blank.rsp"
    code, _, err = run_cli(["new", "-p", "Анна,Boris,Вера", "-o", str(path), "--force", "--date", ""])
    assert code == 0, err
    return path.read_bytes()


Attack = Callable[[random.Random], Outcome]


def attacks(folder: Path) -> dict[str, Attack]:
    """Every attack class that runs, ready to be called with a random source."""
    club = CraftedClub.make(folder / "club")
    blank = blank_sheet(folder / "blank")
    counter = {"n": 0}

    def onto_input(rnd: random.Random) -> Outcome:
        counter["n"] += 1
        return output_onto_input(rnd, folder / "onto", cli=counter["n"] % 8 == 0)

    return {
        "concurrent-live": lambda rnd: concurrent_live(rnd, blank, folder / "two"),
        "crafted-db": lambda rnd: crafted_db(rnd, club, folder / "crafted"),
        "output-onto-input": onto_input,
        "prompt-input": lambda rnd: prompt_input(rnd, blank, folder / "live"),
    }
