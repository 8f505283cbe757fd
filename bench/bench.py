"""Throughput of raspis on a fixed seeded corpus, against two floors.

    python bench/bench.py [--quick] [--games N] [--sheet-games M] [--jobs J]
                          [--cache DIR] [--rebuild] [--profile]

Builds (once, cached) two corpora with ``raspis simulate``: ``full``, N
four-player raspisnoy games with every card played, and ``sheet``, M
four-player sheet-only games (``--detail sheet``). Each is one notation file,
the same games cut into shards (for ``load -j``), and the loader's biggest
table of it (``plays`` / ``deal_results``) as Arrow IPC and as CSV.

Then measures, each in a fresh process so that its peak memory is its own:

- ``floor: read + split lines``: the file read, decoded and split into lines;
- ``floor: DuckDB read_csv``: the flat table's rows inserted from the CSV by
  DuckDB's own ``read_csv`` into a fresh database;
- ``parse``: every game read (streamed: :func:`raspis_cli.notation.iter_games`);
- ``parse + validate``: each game also replayed (:func:`raspis_cli.judge.replay.replay_game`);
- ``load -j 1``, ``load -j J``: ``raspis load SHARDS --db NEW -j ...``, end to end;
- ``DuckDB ingest``: the flat table's rows inserted from Arrow, as the loader
  inserts them, into a fresh database;
- ``reference: python-chess``: python-chess reading a PGN file of random legal
  games with as many moves as the full corpus has cards (every move parsed
  and played on a board), when python-chess is installed (the ``bench``
  extra); skipped with a message otherwise.

and prints one table: games/s, MB/s, peak RSS, the time as a multiple of the
line-split floor, and ingest against ``read_csv``. See ``bench/README.md``.
Uses only the Python standard library, DuckDB, pyarrow and raspis itself
(and python-chess for its reference row, when installed).
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import io
import itertools
import json
import os
import platform
import pstats
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SEED = 2024
FLAT_TABLE = {"full": "plays", "sheet": "deal_results"}
"""The table whose rows the read_csv floor and the ingest stage insert."""


# --- the corpus ---------------------------------------------------------------------


def _raspis(*args: str) -> list[str]:
    return [sys.executable, "-m", "raspis_cli", *args]


def _corpus_key(games: int, sheet_games: int, shards: int) -> str:
    """A cache key: the sizes, the seed and the simulator's source (a changed
    simulator makes another corpus)."""
    digest = hashlib.sha256()
    for name in ("raspis_cli/simulate/simulator.py", "raspis_cli/notation/writer.py"):
        digest.update((ROOT / name).read_bytes())
    return f"full{games}-sheet{sheet_games}-shards{shards}-seed{SEED}-{digest.hexdigest()[:10]}"


def _split_games(text: str) -> list[str]:
    """The games of a simulated notation file (each starts at its Event tag)."""
    starts = [0]
    at = text.find('\n[Event "', 1)
    while at >= 0:
        starts.append(at + 1)
        at = text.find('\n[Event "', at + 1)
    starts.append(len(text))
    return [text[a:b] for a, b in itertools.pairwise(starts)]


def _flat_table(shards: list[Path], table: str, arrow_path: Path, csv_path: Path) -> int:
    """The loader's rows of ``table`` for these files, written as Arrow IPC
    and as CSV (by DuckDB's COPY, so read_csv reads its own dialect)."""
    import duckdb
    import pyarrow as pa

    from raspis_cli.store.load import read_unit

    parts = []
    for shard in shards:
        rows = read_unit(str(shard))
        if rows.error is not None:
            raise SystemExit(f"bench: cannot read {shard}: {rows.error}")
        parts.append(rows.tables[table])
    flat = pa.concat_tables(parts)
    with pa.OSFile(str(arrow_path), "wb") as sink, pa.ipc.new_file(sink, flat.schema) as writer:
        writer.write_table(flat)
    con = duckdb.connect()
    con.register("flat", flat)
    con.execute(f"COPY flat TO '{csv_path}' (HEADER, DELIMITER ',')")
    con.close()
    return int(flat.num_rows)


def build_corpus(cache: Path, games: int, sheet_games: int, shards: int, jobs: int,
                 rebuild: bool) -> Path:
    """The corpus folder (built unless cached): ``full/`` and ``sheet/``, each
    with ``all.rsp``, ``shards/NN.rsp``, ``flat.arrow``, ``flat.csv`` and
    ``meta.json``."""
    folder = cache / _corpus_key(games, sheet_games, shards)
    if rebuild and folder.exists():
        shutil.rmtree(folder)
    if (folder / "done").exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    for name, count, detail in (("full", games, "full"), ("sheet", sheet_games, "sheet")):
        part = folder / name
        (part / "shards").mkdir(parents=True, exist_ok=True)
        whole = part / "all.rsp"
        print(f"bench: simulating {count} {detail} games into {whole}", file=sys.stderr)
        subprocess.run(_raspis("simulate", "--rules", "raspisnoy", "--players", "4",
                               "--games", str(count), "--seed", str(SEED), "--detail", detail,
                               "-j", str(jobs), "-o", str(whole)), check=True)
        texts = _split_games(whole.read_text(encoding="utf-8"))
        assert len(texts) == count, (len(texts), count)
        per = -(-count // shards)
        paths = []
        for i in range(0, count, per):
            path = part / "shards" / f"{i // per:02d}.rsp"
            # games in a file are separated by one blank line, as simulate writes them
            path.write_text("\n".join(t.rstrip("\n") + "\n" for t in texts[i:i + per]),
                            encoding="utf-8", newline="\n")
            paths.append(path)
        meta = {"games": count, "detail": detail, "bytes": whole.stat().st_size,
                "table": FLAT_TABLE[name]}
        (part / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
        # in another process: this one stays small, so that the processes it
        # starts do not inherit its peak memory (Linux keeps it across exec)
        made = run_stage("flat", part, jobs)
        meta.update(rows=made["rows"], csv_bytes=(part / "flat.csv").stat().st_size)
        (part / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    (folder / "done").write_text("", encoding="utf-8")
    return folder


# --- the stages (each run in its own process) ----------------------------------------


def chess_corpus(part: Path, plies: int) -> Path:
    """A PGN file (made once, kept beside the corpus) of seeded random legal
    chess games with at least ``plies`` moves in all: as many moves as the
    full corpus has cards, for the python-chess reference row."""
    import random

    import chess
    import chess.pgn

    path = part / f"chess-{plies}.pgn"
    if path.exists():
        return path
    rng = random.Random(SEED)
    texts: list[str] = []
    made = 0
    while made < plies:
        board = chess.Board()
        while not board.is_game_over() and made < plies:
            board.push(rng.choice(list(board.legal_moves)))
            made += 1
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = f"raspis bench {len(texts) + 1}"
        texts.append(str(game))
    partial = path.with_suffix(".part")
    partial.write_text("\n\n".join(texts) + "\n", encoding="utf-8")
    partial.replace(path)
    return path



def _lines(path: Path) -> Iterator[str]:
    """The lines of a file without their breaks, read as a stream."""
    with open(path, encoding="utf-8", newline="") as handle:
        for line in handle:
            yield line.rstrip("\r\n")


def _fresh_db(table: str) -> tuple[Any, Path]:
    """A new database file holding the empty ``table`` of the history schema."""
    import duckdb

    from raspis_cli.store.schema import table_ddl

    folder = Path(tempfile.mkdtemp(prefix="raspis-bench-"))
    path = folder / "bench.duckdb"
    con = duckdb.connect(str(path))
    con.execute(table_ddl(table))
    return con, folder


def stage(name: str, part: Path, jobs: int) -> dict[str, Any]:
    """Run one measurement; the seconds it took and what it went through."""
    meta = json.loads((part / "meta.json").read_text(encoding="utf-8"))
    whole = part / "all.rsp"
    out: dict[str, Any] = {"games": meta["games"], "bytes": meta["bytes"]}
    if name == "flat":
        shards = sorted((part / "shards").glob("*.rsp"))
        out["rows"] = _flat_table(shards, meta["table"], part / "flat.arrow", part / "flat.csv")
        out["seconds"] = 0.0
    elif name == "split":
        start = time.perf_counter()
        with open(whole, "rb") as handle:
            lines = handle.read().decode("utf-8").split("\n")
        out["seconds"] = time.perf_counter() - start
        out["lines"] = len(lines)
    elif name in ("parse", "validate", "validate-shard"):
        from raspis_cli.judge.replay import replay_game
        from raspis_cli.notation import iter_games

        path = whole if name != "validate-shard" else sorted((part / "shards").glob("*.rsp"))[0]
        check = name != "parse"
        count = problems = 0
        diagnostics: list[Any] = []
        start = time.perf_counter()
        for game in iter_games(_lines(path), str(path), diagnostics):
            count += 1
            if check:
                problems += len(replay_game(game).problems)
        out["seconds"] = time.perf_counter() - start
        if diagnostics or problems:
            raise SystemExit(f"bench: {name}: {len(diagnostics)} syntax errors, {problems} violations")
        out["games"] = count
        out["bytes"] = path.stat().st_size
    elif name == "chess":
        try:
            import chess.pgn
        except ImportError:
            out["skipped"] = ("python-chess is not installed (a bench-only extra: "
                              "pip install -e '.[bench]')")
            out["seconds"] = 0.0
        else:
            from raspis_cli.judge.replay import replay_game
            from raspis_cli.notation import iter_games

            pgn = chess_corpus(part, int(meta["rows"]))
            plies = count = 0
            start = time.perf_counter()
            cpu = time.process_time()
            with open(pgn, encoding="utf-8") as handle:
                while True:
                    read = chess.pgn.read_game(handle)  # every move parsed and played on a board
                    if read is None:
                        break
                    if read.errors:
                        raise SystemExit(f"bench: python-chess: {read.errors[0]}")
                    count += 1
                    plies += read.end().ply()
            out["seconds"] = time.perf_counter() - start
            out["cpu"] = time.process_time() - cpu
            # raspis's parse + validate of the same number of cards right after, in the same
            # process and in CPU time: the pair the note compares (wall-clock stages run
            # minutes apart on a busy machine do not compare)
            cpu = time.process_time()
            for game in iter_games(_lines(whole), str(whole)):
                replay_game(game)
            out["raspis_cpu"] = time.process_time() - cpu
            out["games"] = count
            out["plies"] = plies
            out["cards"] = meta["rows"]
            out["bytes"] = pgn.stat().st_size
    elif name in ("load1", "loadN", "load-whole"):
        if name == "load-whole":
            files = [str(whole)]
        else:
            files = [str(p) for p in sorted((part / "shards").glob("*.rsp"))]
        folder = Path(tempfile.mkdtemp(prefix="raspis-bench-"))
        try:
            n = str(jobs) if name == "loadN" else "1"
            start = time.perf_counter()
            subprocess.run(_raspis("load", *files, "--db", str(folder / "h.duckdb"), "-j", n, "-q"),
                           check=True)
            out["seconds"] = time.perf_counter() - start
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    elif name == "loadN-parent":
        # the load run in this process (its workers are its children): the CPU of the
        # parent (cutting, dedupe, inserting, players, ratings, commit) against the workers'
        from raspis_cli.cli.runner import run_app

        files = [str(p) for p in sorted((part / "shards").glob("*.rsp"))]
        folder = Path(tempfile.mkdtemp(prefix="raspis-bench-"))
        try:
            start = time.perf_counter()
            try:
                run_app(["load", *files, "--db", str(folder / "h.duckdb"), "-j", str(jobs), "-q"])
            except SystemExit as e:
                if e.code:
                    raise
            out["seconds"] = time.perf_counter() - start
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        parent_usage = resource.getrusage(resource.RUSAGE_SELF)
        workers_usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        out["parent_cpu"] = parent_usage.ru_utime + parent_usage.ru_stime
        out["workers_cpu"] = workers_usage.ru_utime + workers_usage.ru_stime
    elif name in ("read_csv", "ingest"):
        import pyarrow as pa

        from raspis_cli.store.schema import stored_columns, stored_name

        # the rows as load stores them (plays as the integers of plays_int)
        table = stored_name(meta["table"])
        columns = stored_columns(meta["table"])
        con, folder = _fresh_db(table)
        try:
            names = ", ".join(f'"{c.name}"' for c in columns)
            if name == "read_csv":
                types = ", ".join(f"'{c.name}': '{c.sql_type}'" for c in columns)
                sql = (f"INSERT INTO {table} ({names}) SELECT {names} FROM read_csv("
                       f"'{part / 'flat.csv'}', header = true, columns = {{{types}}})")
                start = time.perf_counter()
                con.execute("BEGIN TRANSACTION")
                con.execute(sql)
                con.execute("COMMIT")
                out["seconds"] = time.perf_counter() - start
                out["bytes"] = meta["csv_bytes"]
            else:
                with pa.memory_map(str(part / "flat.arrow")) as source:
                    flat = pa.ipc.open_file(source).read_all()
                start = time.perf_counter()
                con.execute("BEGIN TRANSACTION")
                con.register("_raspis_batch", flat)
                con.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM _raspis_batch")
                con.unregister("_raspis_batch")
                con.execute("COMMIT")
                out["seconds"] = time.perf_counter() - start
                out["bytes"] = flat.nbytes
            out["rows"] = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            con.close()
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    else:
        raise SystemExit(f"bench: unknown stage {name}")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out["rss_mb"] = max(own, children) / 1024  # Linux: kilobytes
    return out


def run_stage(name: str, part: Path, jobs: int) -> dict[str, Any]:
    """Run a stage in a fresh process; its measurement.

    The process that starts it must be small: Linux carries the peak RSS of
    the parent's memory over into the child's ``ru_maxrss`` when the child
    starts (fork/vfork then exec), so the corpus is built in a process of its
    own and this script's main process only starts processes."""
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--stage", name,
                           "--part", str(part), "--jobs", str(jobs)],
                          capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"bench: stage {name} on {part.name} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# --- the table ------------------------------------------------------------------------

STAGES = (
    ("split", "floor: read + split lines"),
    ("read_csv", "floor: DuckDB read_csv"),
    ("parse", "parse"),
    ("validate", "parse + validate"),
    ("load1", "load -j 1"),
    ("loadN", "load -j {jobs}"),
    ("ingest", "DuckDB ingest (Arrow)"),
)


def _row(label: str, corpus: str, m: dict[str, Any], floor: float, csv_rate: float | None) -> list[str]:
    seconds = m["seconds"]
    games_s = m["games"] / seconds
    mb_s = m["bytes"] / seconds / 1e6
    rows = m.get("rows")
    rows_s = f"{rows / seconds:,.0f}" if rows else ""
    vs_csv = f"{(rows / seconds) / csv_rate:.0%}" if rows and csv_rate else ""
    return [corpus, label, f"{seconds:.3f}", f"{games_s:,.0f}", f"{mb_s:.1f}", rows_s,
            f"{m['rss_mb']:.0f}", f"{seconds / floor:.1f}x", vs_csv]


def render(table: list[list[str]]) -> str:
    """A Markdown table (aligned, readable as text too)."""
    head = ["corpus", "stage", "seconds", "games/s", "MB/s", "rows/s", "peak RSS MB",
            "x line-split", "vs read_csv"]
    rows = [head, *table]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    right = {2, 3, 4, 5, 6, 7, 8}

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.rjust(w) if i in right else c.ljust(w)
                                 for i, (c, w) in enumerate(zip(cells, widths, strict=True))) + " |"

    rule = "|" + "|".join(("-" * (w + 1) + ":") if i in right else ("-" * (w + 2))
                          for i, w in enumerate(widths)) + "|"
    return "\n".join([line(head), rule, *(line(r) for r in table)])


def targets(measured: dict[str, dict[str, Any]], jobs: int) -> list[tuple[str, str, str, bool]]:
    """The targets, each as a ratio measured in this run: (what, figure,
    target, met)."""
    out: list[tuple[str, str, str, bool]] = []
    for corpus, limit in (("full", 12.0), ("sheet", 15.0)):
        r = measured[corpus]
        ratio = r["validate"]["seconds"] / r["split"]["seconds"]
        out.append((f"parse + validate, {corpus}, 1 process, / line-split floor", f"{ratio:.1f}x",
                    f"<= {limit:.0f}x", ratio <= limit))
    full = measured["full"]
    ratio = full["loadN"]["seconds"] / full["split"]["seconds"]
    out.append((f"load -j {jobs}, full, / line-split floor (1 process)", f"{ratio:.1f}x", "<= 10x",
                ratio <= 10.0))
    for corpus in ("full", "sheet"):
        r = measured[corpus]
        speedup = r["load1"]["seconds"] / r["loadN"]["seconds"]
        out.append((f"load -j {jobs} speed-up over -j 1, {corpus}", f"{speedup:.2f}x", ">= 1.8x",
                    speedup >= 1.8))
    peak = max(r[stage]["rss_mb"] for r in measured.values() for stage in ("load1", "loadN", "load-whole"))
    out.append(("peak memory of load (any stage, the whole file as one included)", f"{peak:.0f} MB",
                "<= 200 MB", peak <= 200))
    return out


def render_targets(rows: list[tuple[str, str, str, bool]]) -> str:
    """The targets as a Markdown table: what, figure, target, met or missed."""
    lines = ["| target | figure | goal | |", "|---|---:|---:|---|"]
    lines += [f"| {what} | {figure} | {goal} | {'met' if met else 'missed'} |"
              for what, figure, goal, met in rows]
    return "\n".join(lines)


def machine() -> str:
    """nproc, CPU model, Python version."""
    model = "unknown CPU"
    try:
        for text in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if text.startswith("model name"):
                model = text.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"nproc {os.cpu_count()}, {model}, Python {platform.python_version()}"


def profile(part: Path, limit: int = 12) -> str:
    """cProfile of parse and of validate on the first shard, top functions
    by cumulative time."""
    from raspis_cli.judge.replay import replay_game
    from raspis_cli.notation import iter_games

    shard = sorted((part / "shards").glob("*.rsp"))[0]
    out = io.StringIO()
    games = []
    prof = cProfile.Profile()
    prof.enable()
    for game in iter_games(_lines(shard), str(shard)):
        games.append(game)
    prof.disable()
    out.write(f"## parse ({shard}, {len(games)} games), top {limit} by cumulative time\n")
    pstats.Stats(prof, stream=out).strip_dirs().sort_stats("cumulative").print_stats(limit)
    prof = cProfile.Profile()
    prof.enable()
    for game in games:
        replay_game(game)
    prof.disable()
    out.write(f"## validate (replay_game on the same games), top {limit} by cumulative time\n")
    pstats.Stats(prof, stream=out).strip_dirs().sort_stats("cumulative").print_stats(limit)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true",
                        help="a small corpus (60 full, 300 sheet games): checks the script runs")
    parser.add_argument("--games", type=int, default=None, help="full-play games (default 2000)")
    parser.add_argument("--sheet-games", type=int, default=None,
                        help="sheet-only games (default 10x --games)")
    parser.add_argument("--jobs", type=int, default=2, help="processes of the parallel load (default 2)")
    parser.add_argument("--shards", type=int, default=8, help="files the corpus is cut into for load")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "raspis-bench",
                        help="where the corpus is kept between runs")
    parser.add_argument("--rebuild", action="store_true", help="make the corpus again")
    parser.add_argument("--profile", action="store_true",
                        help="also print cProfile's top functions of parse and validate")
    parser.add_argument("--build", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--stage", help=argparse.SUPPRESS)
    parser.add_argument("--part", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.stage:
        print(json.dumps(stage(args.stage, args.part, args.jobs)))
        return 0
    games = args.games if args.games is not None else (60 if args.quick else 2000)
    sheet_games = args.sheet_games if args.sheet_games is not None else 10 * games
    shards = min(args.shards, games) if not args.quick else 2
    if args.build:
        folder = build_corpus(args.cache, games, sheet_games, shards, args.jobs, args.rebuild)
        print(folder)
        return 0
    # built in another process: this one stays small (see run_stage)
    command = [sys.executable, str(Path(__file__).resolve()), "--build", "--games", str(games),
               "--sheet-games", str(sheet_games), "--jobs", str(args.jobs), "--cache", str(args.cache),
               *(["--quick"] if args.quick else []), *(["--rebuild"] if args.rebuild else []),
               "--shards", str(args.shards)]
    built = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=True, cwd=ROOT)
    folder = Path(built.stdout.strip().splitlines()[-1])
    table: list[list[str]] = []
    notes: list[str] = []
    measured: dict[str, dict[str, Any]] = {}
    for corpus in ("full", "sheet"):
        part = folder / corpus
        results = {name: run_stage(name, part, args.jobs) for name, _ in STAGES}
        measured[corpus] = results
        floor = results["split"]["seconds"]
        csv = results["read_csv"]
        csv_rate = csv["rows"] / csv["seconds"]
        for name, label in STAGES:
            table.append(_row(label.format(jobs=args.jobs), corpus, results[name], floor,
                              csv_rate if name == "ingest" else None))
        if corpus == "full":
            chess_row = run_stage("chess", part, args.jobs)
            if "skipped" in chess_row:
                notes.append(f"reference: python-chess skipped: {chess_row['skipped']}")
            else:
                table.append(_row("reference: python-chess parse + replay PGN", corpus, chess_row,
                                  floor, None))
                per_ply = chess_row["cpu"] / chess_row["plies"]
                per_card = chess_row["raspis_cpu"] / chess_row["cards"]
                notes.append(f"reference: python-chess reads and plays {chess_row['plies']:,} PGN moves "
                             f"({chess_row['games']} random games) in {per_ply * 1e6:.1f} us of CPU a "
                             f"move; raspis parses and validates {chess_row['cards']:,} cards in "
                             f"{per_card * 1e6:.1f} us a card (the same process, right after): "
                             f"{per_ply / per_card:.2f}x python-chess's speed per move")
        shard = run_stage("validate-shard", part, args.jobs)
        notes.append(f"{corpus}: parse + validate peak RSS {shard['rss_mb']:.0f} MB on one shard "
                     f"({shard['games']} games, {shard['bytes'] / 1e6:.1f} MB), "
                     f"{results['validate']['rss_mb']:.0f} MB on the whole file "
                     f"({results['validate']['games']} games, {results['validate']['bytes'] / 1e6:.1f} MB)")
        parent = run_stage("loadN-parent", part, args.jobs)
        share = parent["parent_cpu"] / (parent["parent_cpu"] + parent["workers_cpu"])
        notes.append(f"{corpus}: load -j {args.jobs}: the parent's CPU {parent['parent_cpu']:.2f} s "
                     f"(cutting, dedupe, inserting, players, ratings, commit), the workers' "
                     f"{parent['workers_cpu']:.2f} s: the parent's share {share:.0%}")
        whole = run_stage("load-whole", part, args.jobs)
        results["load-whole"] = whole
        notes.append(f"{corpus}: load -j 1 peak RSS {results['load1']['rss_mb']:.0f} MB on "
                     f"{shards} shards of {results['load1']['games'] // shards} games, "
                     f"{whole['rss_mb']:.0f} MB on the whole file as one ({whole['seconds']:.1f} s)")
    meta = {c: json.loads((folder / c / "meta.json").read_text(encoding="utf-8")) for c in ("full", "sheet")}
    print(f"corpus: full = {meta['full']['games']} four-player raspisnoy games, every card "
          f"({meta['full']['bytes'] / 1e6:.1f} MB); sheet = {meta['sheet']['games']} sheet-only games "
          f"({meta['sheet']['bytes'] / 1e6:.1f} MB); seed {SEED}; load reads {shards} shards")
    print(f"machine: {machine()}")
    print()
    print(render(table))
    print()
    for note in notes:
        print(note if note.startswith("reference:") or "parent's share" in note else f"memory: {note}")
    print()
    print(render_targets(targets(measured, args.jobs)))
    if args.profile:
        print()
        print(profile(folder / "full"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
