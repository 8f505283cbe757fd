"""``raspis load``, ``stats``, ``query`` and ``export``: game histories in DuckDB."""

from __future__ import annotations

import contextlib
import datetime
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

from raspis_cli.cli.app import EXIT_ERROR, app
from raspis_cli.cli.console import fail, how_to_install, need_modules, say, stderr, stdout
from raspis_cli.cli.options import ShardOption, TableFormat, player_name, shard_option
from raspis_cli.cli.output import print_rows, write_json, write_jsonl
from raspis_cli.files.paths import expand_paths
from raspis_cli.model.deal_kinds import kind_label
from raspis_cli.rules import PRESETS
from raspis_cli.rules.bidding import dealer_restriction_label
from raspis_cli.rules.values import DEALER_RESTRICTIONS
from raspis_cli.store.errors import StoreError
from raspis_cli.store.location import default_db_path
from raspis_cli.store.schema import REPORT_NAMES, REPORT_TITLES
from raspis_cli.text.i18n import N_, _, ngettext
from raspis_cli.text.messages import quoted
from raspis_cli.text.textsafe import escape_text

if TYPE_CHECKING:
    import duckdb
    from rich.progress import Progress

    from raspis_cli.store.load import LoadSummary
    from raspis_cli.store.ratings import RatingStep

# DuckDB, rich's progress bar and the store's writing half are imported where
# they are used: ``load`` starts its worker processes (forked, with what is
# imported by then) before it opens the database, so the less it imports
# first, the sooner the workers read and the less each of them maps.

__all__ = ["export", "load", "open_existing", "query", "stats"]

DbOption = Annotated[
    str | None,
    typer.Option("--db", help=_("The database file (default: $RASPIS_DB, else raspis.duckdb here)."),
                 metavar=_("PATH")),
]
FormatOption = Annotated[
    TableFormat, typer.Option("--format", "-f", help=_("Output format."), case_sensitive=False,
                              metavar="table|json|jsonl|csv"),
]

_PROGRESS_AFTER = 0.5
"""Seconds a load runs before its progress bar appears."""


class _LoadProgress:
    """A rich progress bar on stderr that appears only once a load has taken
    more than a moment, and never when stderr is not a terminal or with -q."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and stderr.is_terminal
        self.started = time.monotonic()
        self.bar: Progress | None = None
        self.task: object = None

    def __call__(self, done: int, total: int, games: int) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            if time.monotonic() - self.started < _PROGRESS_AFTER or done >= total:
                return
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self.bar = Progress(TextColumn(_("loading")), BarColumn(), MofNCompleteColumn(),
                                TextColumn(_("files, {games} "
                                             "games").replace("{games}", "{task.fields[games]}")),
                                TimeElapsedColumn(),
                                console=stderr, transient=True)
            self.bar.start()
            self.task = self.bar.add_task("load", total=total, games=0)
        self.bar.update(self.task, completed=done, games=games)  # type: ignore[arg-type]

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _summary_text(summary: LoadSummary, db: str) -> str:
    parts = [ngettext("loaded {n} game into {db}", "loaded {n} games into {db}", summary.loaded).format(
        n=summary.loaded, db=db)]
    if summary.invalid_loaded:
        parts.append(_("{n} of them with violations (flagged valid = "
                       "false)").format(n=summary.invalid_loaded))
    if summary.replaced:
        parts.append(_("{n} replaced").format(n=summary.replaced))
    if summary.already_stored:
        parts.append(_("{n} already stored, skipped (--replace reloads "
                       "them)").format(n=summary.already_stored))
    if summary.duplicates:
        parts.append(ngettext("{n} duplicate in the input, stored once",
                              "{n} duplicates in the input, stored once",
                              summary.duplicates).format(n=summary.duplicates))
    if summary.skipped_invalid:
        parts.append(ngettext("{n} game with violations skipped (--valid-only)",
                              "{n} games with violations skipped (--valid-only)",
                              summary.skipped_invalid).format(n=summary.skipped_invalid))
    if summary.stray_syntax:
        parts.append(ngettext("{n} syntax problem outside any game (see raspis validate)",
                              "{n} syntax problems outside any game (see raspis validate)",
                              summary.stray_syntax).format(n=summary.stray_syntax))
    return "; ".join(parts)


def _is_empty(con: duckdb.DuckDBPyConnection) -> bool:
    """No table or view at all: a database file this load has just created
    (or one a killed first load left behind)."""
    try:
        row = con.execute("SELECT count(*) FROM information_schema.tables").fetchone()
    except duckdb.Error:
        return False
    return row is not None and row[0] == 0


def _remove_new_db(path: str) -> None:
    """Remove a database file this load created, while the caller still holds
    it open: a process waiting for the file then creates its own instead of
    writing into the one removed."""
    for name in (path, path + ".wal"):
        with contextlib.suppress(OSError):
            Path(name).unlink(missing_ok=True)


def open_db(path: str, **options: Any) -> duckdb.DuckDBPyConnection:
    """:func:`raspis_cli.store.db.open_db` (DuckDB imported when it is first called)."""
    from raspis_cli.store.db import open_db as open_store

    return open_store(path, **options)


WAIT_DEFAULT = 60.0
"""Seconds ``load`` waits for a database another process holds."""


@app.command("load")
def load(
    files: Annotated[list[str], typer.Argument(
        help=_("Record files or folders: notation (.rsp), .json, .jsonl; - for stdin."), metavar=_("FILE"))],
    db: DbOption = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, metavar="N",
                                      help=_("Read and replay in N processes (one writer)."))] = 1,
    valid_only: Annotated[bool, typer.Option(
        "--valid-only", help=_("Skip games with violations (and say how many)."))] = False,
    replace: Annotated[bool, typer.Option("--replace", help=_("Reload games already stored."))] = False,
    wait: Annotated[float, typer.Option(
        "--wait", min=0, metavar=_("SECONDS"),
        help=_("When another process has the database open, wait up to SECONDS for it (0: fail at once)."))]
    = WAIT_DEFAULT,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=_("No progress bar, no summary."))] = False,
    shard: ShardOption = None,
    parquet: Annotated[str | None, typer.Option(
        "--parquet", metavar=_("DIR"),
        help=_("Then write the database's tables as Parquet under DIR, as `export` does (with --shard "
             "and no --db, through a temporary database)."))] = None,
) -> None:
    """Load game records into a DuckDB database, in one transaction.

    A game already stored (same content, whatever the file) is skipped;
    games with violations are stored and flagged. A file that cannot be
    read, an error, Ctrl-C or a killed process leave the database exactly
    as it was (exit 2). A second load into a database another load is
    writing waits for it (--wait), then skips the games it stored.
    """
    need_modules(("pyarrow",), _("raspis load needs Arrow (pyarrow), the club extra: {install}").format(
        install=how_to_install("club")))
    paths = expand_paths(files)
    if not paths:
        fail(_("no record files (.rsp, .json, .jsonl) found in {files}").format(files=", ".join(files)))
    part = shard_option(shard, paths)
    if "-" in paths:
        jobs = 1  # standard input belongs to this process
    if parquet is not None and db is None and part is not None:
        import tempfile

        with tempfile.TemporaryDirectory(prefix="raspis-shard-") as folder:
            _load(paths, str(Path(folder) / "shard.duckdb"), jobs, valid_only, replace, wait, quiet, part,
                  parquet, temporary=True)
        return
    _load(paths, db or default_db_path(), jobs, valid_only, replace, wait, quiet, part, parquet)


def _load(paths: list[str], path: str, jobs: int, valid_only: bool, replace: bool, wait: float,
          quiet: bool, part: tuple[int, int] | None, parquet: str | None, temporary: bool = False) -> None:
    """``load`` into the database file ``path`` (then ``export`` to ``parquet``)."""
    from raspis_cli.store.load import start_load_workers, trace

    existed = Path(path).exists()
    trace("open")

    def waiting(message: str) -> None:
        say(f"raspis: {message}")

    # the workers first, while no DuckDB connection is open (they are forked),
    # given their pieces at once: they read while the database opens
    workers = start_load_workers(jobs, valid_only) if jobs > 1 else None
    if workers is not None and part is None:
        workers.give(paths)
    import duckdb

    from raspis_cli.store.db import describe_error, interruptible
    from raspis_cli.store.load import load_units

    try:
        con = open_db(path, create=True, wait=wait, on_wait=waiting, refresh_views=True)
    except StoreError as e:
        if workers is not None:
            workers.close()
        fail(str(e))
    except BaseException:
        if workers is not None:
            workers.close()
        raise
    new = not existed and _is_empty(con)
    progress = _LoadProgress(not quiet)
    failure: str | None = None
    summary: LoadSummary | None = None
    try:
        with interruptible(con):
            summary = load_units(con, paths, jobs=jobs, valid_only=valid_only, replace=replace,
                                 progress=progress, db_name=path, shard=part, workers=workers)
    except StoreError as e:
        failure = str(e)
    except (KeyboardInterrupt, BrokenProcessPool, duckdb.InterruptException):
        failure = _("interrupted")
    except duckdb.Error as e:
        failure = _("the database refused the load: {reason}").format(reason=describe_error(path, e))
    except Exception:
        say("raspis: " + _("nothing was loaded, {path} is unchanged").format(path=path))
        raise  # an internal error: run_app reports it
    finally:
        if workers is not None:
            workers.close()  # load_units stops them; not reached if it was not
        progress.stop()
        if summary is None and new:
            _remove_new_db(path)
        trace("close")
        with contextlib.suppress(duckdb.Error):
            con.close()
        trace("closed")
    if failure is not None or summary is None:
        fail(f"{failure}; " + _("nothing was loaded, {path} is unchanged").format(path=path), EXIT_ERROR)
    label = (_("a temporary database (shard {i}/{n})").format(i=part[0] + 1, n=part[1])
             if part is not None and temporary else None)
    if not quiet:
        stdout.print(escape_text(_summary_text(summary, label or path)), markup=False, highlight=False)
    if parquet is not None:
        shard = _("shard {i}/{n}").format(i=part[0] + 1, n=part[1]) if label is not None and part else None
        _export(path, parquet, overwrite=False, quiet=quiet, label=shard)


def _date(value: str | None, option: str) -> datetime.date | None:
    if value is None:
        return None
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise typer.BadParameter(_("expected a date like 2026-11-20, got {got}").format(got=quoted(value)),
                                 param_hint=option) from None


def open_existing(db: str | None, read_only: bool = True, sandboxed: bool = True,
                   folders: tuple[str, ...] = (),
                   external: bool = False) -> tuple[duckdb.DuckDBPyConnection, str]:
    """An existing raspis database, sandboxed (no files, no network, no
    settings) unless the caller writes into ``folders`` itself, or
    ``external`` (``query --write``) allows the user's SQL everything."""
    from raspis_cli.store.db import check_schema

    path = db or default_db_path()
    try:
        con = open_db(path, read_only=read_only, sandboxed=sandboxed, folders=folders, external=external)
        check_schema(con, path)
    except StoreError as e:
        fail(str(e))
    return con, path


def _tags(values: list[str] | None) -> tuple[tuple[str, str], ...]:
    pairs = []
    for value in values or []:
        key, eq, text = value.partition("=")
        if not eq or not key:
            raise typer.BadParameter(_("expected KEY=VALUE (e.g. Site=Клуб), got {got}").format(
                got=quoted(value)),
                                     param_hint="--tag")
        pairs.append((key, text))
    return tuple(pairs)


REPORT_NAMES_HELP = ", ".join(REPORT_NAMES)

OVERVIEW: Final = ("ratings", "leaderboard")
"""What ``stats`` shows without ``--report``: who plays best, by the two fair figures."""


@app.command("stats")
def stats(
    db: DbOption = None,
    player: Annotated[str | None, typer.Option("--player", "-p", help=_("Only this player's rows."),
                                               metavar=_("NAME"))] = None,
    rules: Annotated[str | None, typer.Option("--rules", "-r", metavar=_("PRESET"),
                                              help=_("Only games under a preset: {presets}.").format(
                                                  presets=", ".join(PRESETS)))]
    = None,
    since: Annotated[str | None, typer.Option("--since", metavar=_("DATE"),
                                              help=_("Only games on or after DATE (YYYY-MM-DD)."))] = None,
    until: Annotated[str | None, typer.Option("--until", metavar=_("DATE"),
                                              help=_("Only games on or before DATE."))] = None,
    players_count: Annotated[int | None, typer.Option(
        "--players-count", min=2, metavar="N", help=_("Only games of N players."))] = None,
    event: Annotated[str | None, typer.Option("--event", metavar=_("TEXT"),
                                              help=_("Only games whose Event tag is TEXT."))] = None,
    tag: Annotated[list[str] | None, typer.Option(
        "--tag", metavar=_("KEY=VALUE"), help=_("Only games with this tag (repeatable: all must hold)."))]
    = None,
    report: Annotated[list[str] | None, typer.Option(
        "--report", metavar=_("NAME"),
        help=_("Only these reports: {names}.").format(names=REPORT_NAMES_HELP))] = None,
    valid_only: Annotated[bool, typer.Option("--valid-only", help=_("Only games without violations."))]
    = False,
    pool: Annotated[str, typer.Option(
        "--pool", metavar="rules|all",
        help=_("ratings: one rating per rules family (rules, the default) or all games together (all)."))]
    = "rules",
    chart: Annotated[bool, typer.Option(
        "--chart", help=_("ratings: draw the ratings over time in the terminal (nothing when piped)."))]
    = False,
    fmt: FormatOption = TableFormat.table,
) -> None:
    """Ratings, leaderboard, bid accuracy, passes, the dealer's record, deal
    kinds, joker outcomes and head to head; each SQL report is also a view
    in the database, the ratings are the tables ratings and rating_history.

    Without --report a table shows the overview (the ratings, then the
    leaderboard) and names the other reports; JSON and JSONL give them all.
    Every filter narrows every report. Ratings are computed over the games
    the filters select, from the first up to --until; --since starts the
    period whose games and rating change are shown."""
    overview = not report and fmt == TableFormat.table
    names = list(report) if report else list(OVERVIEW if overview else REPORT_NAMES)
    unknown = [n for n in names if n not in REPORT_NAMES]
    if unknown:
        raise typer.BadParameter(_("unknown report {name}; the reports are {names}").format(
            name=quoted(unknown[0]), names=REPORT_NAMES_HELP),
                                 param_hint="--report")
    if rules is not None and rules not in PRESETS:
        raise typer.BadParameter(_("unknown preset {name}; the presets are {presets}").format(
            name=quoted(rules), presets=", ".join(PRESETS)),
                                 param_hint="--rules")
    from raspis_cli.store.db import interruptible, name_damage
    from raspis_cli.store.ratings import POOLS
    from raspis_cli.store.stats import Scope, ratings_rows, report_rows

    if pool not in POOLS:
        raise typer.BadParameter(_("expected one of {choices}, got {got}").format(
            choices=", ".join(POOLS), got=quoted(pool)), param_hint="--pool")
    if fmt == TableFormat.csv and len(names) != 1:
        fail(_("--format csv prints one report: add --report NAME (one of {names})").format(
            names=REPORT_NAMES_HELP))
    since_date, until_date, tags = _date(since, "--since"), _date(until, "--until"), _tags(tag)
    con, path = open_existing(db)
    history: list[RatingStep] = []
    results: dict[str, list[dict[str, Any]]] = {}
    try:
        with interruptible(con):
            if player is not None:
                player = _check_player(con, player, path)
            scope = Scope(player, rules, since_date, until_date, valid_only, players_count, event, tags)
            for name in names:
                if name == "ratings":
                    results[name], history = ratings_rows(con, scope, pool)
                else:
                    results[name] = report_rows(con, name, scope)
    except StoreError as e:
        fail(name_damage(path, str(e)))
    finally:
        con.close()
    if fmt == TableFormat.json:
        write_json(results[names[0]] if len(names) == 1 else results)
        return
    if fmt == TableFormat.jsonl:  # one row a line; with several reports, each row says which
        write_jsonl([row if len(names) == 1 else {"report": name, **row}
                     for name in names for row in results[name]])
        return
    for name in names:
        rows = results[name]
        title = _(REPORT_TITLES[name])
        if fmt == TableFormat.table and not rows:
            stdout.print(_("{title}: no rows").format(title=title), markup=False)
            continue
        if fmt == TableFormat.table:  # values in words, as `rules schedule` has; JSON/CSV keep them
            rows = [_in_words(row) for row in rows]
        print_rows(rows, fmt.value, title=title if fmt == TableFormat.table else None, round_numbers=True)
    if overview:
        stdout.print(_("More reports: raspis stats --report NAME, with NAME one of {names}").format(
            names=", ".join(n for n in REPORT_NAMES if n not in OVERVIEW)), markup=False)
    if chart and "ratings" in results:
        from raspis_cli.cli.charts import ratings_chart

        ratings_chart(history, scope.player)


PLAYED_AS: Final[dict[str, str]] = {"lead": N_("lead"), "follow": N_("follow")}
"""``joker_outcomes``' ``played_as`` values as a table shows them."""

RESTRICTIONS: Final[dict[str, str]] = {value: label for value in DEALER_RESTRICTIONS
                                        if (label := dealer_restriction_label(value))}
"""``dealer_restriction`` values (the option's table, docs/RULES.md) as a table shows them."""


def _in_words(row: dict[str, Any]) -> dict[str, Any]:
    """A report row as a table shows it: a deal kind, a joker mode (the club page's
    words, report/strings.py), how the joker was played and the dealer's
    restriction in the interface language; other values as they are."""
    from raspis_cli.model.joker import JOKER_WORDS

    shown = dict(row)
    if isinstance(row.get("kind"), str):
        shown["kind"] = kind_label(row["kind"])
    if isinstance(row.get("joker_mode"), str) and row["joker_mode"] in JOKER_WORDS:
        shown["joker_mode"] = _(JOKER_WORDS[row["joker_mode"]])
    if isinstance(row.get("played_as"), str) and row["played_as"] in PLAYED_AS:
        shown["played_as"] = _(PLAYED_AS[row["played_as"]])
    if isinstance(row.get("dealer_restriction"), str) and row["dealer_restriction"] in RESTRICTIONS:
        shown["dealer_restriction"] = _(RESTRICTIONS[row["dealer_restriction"]])
    return shown


def _check_player(con: Any, player: str, path: str) -> str:
    """The player ``--player`` names in the database (:func:`player_name`: any
    case, Cyrillic or Latin letters), or a usage error with the closest names."""
    from raspis_cli.store import known_players

    return player_name(player, known_players(con), "--player",
                       _("no player {name} in {db}").format(name=quoted(player), db=path))


@app.command("query")
def query(
    sql: Annotated[str, typer.Argument(help=_("Any SQL DuckDB understands; - reads it from standard input."),
                                       metavar="SQL")],
    db: DbOption = None,
    fmt: FormatOption = TableFormat.table,
    write: Annotated[bool, typer.Option(
        "--write", help=_("Allow statements that change the database, files or settings."))]
    = False,
) -> None:
    """Run SQL on the database (read-only unless --write) and print the rows.

    Without --write only the database's tables can be read: no statement
    may change them, touch a file (COPY, EXPORT, ATTACH, read_csv) or the
    network (INSTALL, LOAD), or change a setting. --write allows all of it.
    JSON is a list of objects, one per row, keyed by column name.
    """
    if sql == "-":
        sql = sys.stdin.read()
    from raspis_cli.store.db import interruptible, name_damage
    from raspis_cli.store.query import run_query

    con, path = open_existing(db, read_only=not write, sandboxed=not write, external=write)
    try:
        with interruptible(con):
            rows = run_query(con, sql)
    except StoreError as e:
        fail(name_damage(path, str(e)))
    finally:
        con.close()
    print_rows(rows, fmt.value, labels=False)  # the columns as the SQL named them


@app.command("export")
def export(
    parquet: Annotated[str, typer.Option("--parquet", metavar=_("DIR"),
                                         help=_("Write every table as Parquet under DIR."))],
    db: DbOption = None,
    overwrite: Annotated[bool, typer.Option("--overwrite",
                                            help=_("Replace table folders already in DIR."))] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=_("No summary."))] = False,
) -> None:
    """Export every table as Parquet, partitioned by the year of the game date
    (DIR/TABLE/year=YYYY/...), readable by DuckDB, Spark and Trino as is."""
    _export(db, parquet, overwrite, quiet)


def _export(db: str | None, parquet: str, overwrite: bool, quiet: bool, label: str | None = None) -> None:
    """``export`` of the database ``db`` (named ``label`` in the summary line)."""
    from raspis_cli.store.db import interruptible, name_damage
    from raspis_cli.store.export import export_parquet

    con, path = open_existing(db, sandboxed=False, folders=(parquet,))  # the one folder it writes
    try:
        with interruptible(con):
            counts = export_parquet(con, parquet, overwrite)
    except StoreError as e:
        fail(name_damage(path, str(e)))
    finally:
        con.close()
    if not quiet:
        detail = ", ".join(f"{name} {n}" for name, n in counts.items())
        stdout.print(escape_text(_("exported {db} to {folder}: {tables}").format(
            db=label or path, folder=parquet, tables=detail)), markup=False, highlight=False)
