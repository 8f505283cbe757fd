"""Running a check: a stream of games and a choice of rules in, per game the
replay and every problem out, syntax problems included.

Every command that judges records goes through here: ``validate``, ``score``,
``show`` and ``load``. What makes a game valid is therefore decided once: a
syntax problem on a line inside a game is one of that game's problems (kind
``syntax``), so a game whose only deal line could not be read is never
valid, whichever command looks at it; a syntax problem outside every game
belongs to the file. The CLI only parses options and renders what this
module returns (:func:`validate_file`, :func:`read_results`,
:func:`score_sheet`, :func:`deal_story`).

No output happens here; a file that cannot be read at all is a
:class:`CheckError` carrying its :class:`~raspis_cli.model.diagnostics.Diagnostic`.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from raspis_cli.files.pieces import Piece, shard_pieces, split_file
from raspis_cli.files.sources import GameStream, batch_gc
from raspis_cli.judge.replay import GameResult, RulesChoice, replay_game
from raspis_cli.model.diagnostics import Diagnostic, syntax_error
from raspis_cli.model.record import GameRecord
from raspis_cli.text.messages import msg, msg_n
from raspis_cli.text.textsafe import cut_line

__all__ = [
    "CheckError",
    "FileReport",
    "GameReport",
    "SyntaxSplitter",
    "check_game",
    "check_stream",
    "folder_without_records",
    "deal_story",
    "iter_results",
    "read_results",
    "score_sheet",
    "validate_file",
    "validate_files",
]

_LAST = 1 << 62  # past every line


def _place(d: Diagnostic) -> tuple[int, int]:
    return (d.pos.line, d.pos.column) if d.pos is not None else (_LAST, 0)


class CheckError(Exception):
    """A file that cannot be checked at all (unreadable, no game in it) or a
    game that is not there; ``diagnostic`` says why and where."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        self.diagnostic = diagnostic
        where = diagnostic.path
        if where and diagnostic.pos is not None:
            where += f":{diagnostic.pos}"
        super().__init__(f"{where}: {diagnostic.message}" if where else diagnostic.message)


class SyntaxSplitter:
    """A stream's syntax problems handed to the game whose lines hold them,
    as the games come (the list grows as the file is read); the rest, outside
    every game, are :attr:`stray`."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics
        self.consumed = 0
        self.pending: list[Diagnostic] = []
        self.stray: list[Diagnostic] = []

    def _take(self) -> None:
        new = self.diagnostics[self.consumed:]
        # taken ones are not kept twice (the stream's list would grow with the file)
        del self.diagnostics[:]
        self.consumed = 0
        for d in new:
            (self.stray if d.line is None else self.pending).append(d)

    def of_game(self, game: GameRecord) -> list[Diagnostic]:
        """The syntax problems on the lines of ``game`` (read since the games
        before it, in file order)."""
        self._take()
        if not self.pending or game.span is None:
            return []
        first, last = game.span
        inside: list[Diagnostic] = []
        keep: list[Diagnostic] = []
        for d in self.pending:
            line = d.line if d.line is not None else _LAST
            if first <= line <= last:
                inside.append(d)
            elif line < first:
                self.stray.append(d)
            else:
                keep.append(d)
        self.pending = keep
        return inside

    def finish(self) -> list[Diagnostic]:
        """The problems belonging to no game (call once the stream is read)."""
        self._take()
        self.stray += self.pending
        self.pending = []
        self.stray.sort(key=_place)
        return self.stray


def check_game(game: GameRecord, index: int, choice: RulesChoice | None, ordered_bids: bool,
               syntax: Iterable[Diagnostic] = ()) -> GameResult:
    """Replay one game under ``choice``; its ``syntax`` problems (those on
    its lines) join the replay's, all in source order, so a game with one is
    never valid. A gap in the deal numbers across such a line is put down to
    it, not reported again."""
    errors: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    for d in syntax:
        (warnings if d.is_warning else errors).append(d)
    result = replay_game(game, index, choice, ordered_bids,
                         [d.line for d in errors if d.line is not None])
    if errors:
        result.problems.extend(errors)
        result.problems.sort(key=_place)
    result.warnings = warnings
    return result


def check_stream(stream: GameStream, choice: RulesChoice | None = None) -> Iterator[GameResult]:
    """Every game of ``stream`` checked, one at a time as it is read; the
    syntax problems outside every game are left in the stream's
    ``diagnostics`` (see :class:`SyntaxSplitter` for the split)."""
    splitter = SyntaxSplitter(stream.diagnostics)
    for index, game in enumerate(stream):
        yield check_game(game, index, choice, stream.ordered_bids, splitter.of_game(game))


# -- validate -------------------------------------------------------------------


@dataclass(slots=True)
class GameReport:
    """What the report keeps of one checked game (not the game itself)."""

    index: int
    deals: int
    problems: list[Diagnostic]
    json: dict[str, object] | None = None
    warnings: list[Diagnostic] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        """True when the check found nothing wrong."""
        return not self.problems


@dataclass(slots=True)
class FileReport:
    """One file validated: per game what the report needs, syntax problems
    outside every game, or why the file could not be read; and the source
    lines problems point at."""

    path: str
    results: list[GameReport] = field(default_factory=list)
    syntax: list[Diagnostic] = field(default_factory=list)
    error: Diagnostic | None = None
    lines: dict[int, str] = field(default_factory=dict)
    shifts: dict[int, int] = field(default_factory=dict)
    """Lines kept as an excerpt (textsafe.cut_line): what to subtract from a column."""

    def source_line(self, line: int | None) -> str | None:
        """The text of a source line a problem points at (an excerpt of a long one)."""
        return None if line is None else self.lines.get(line)

    def keep_line(self, number: int, text: str, column: int) -> None:
        """Keep (an excerpt around ``column`` of) a line a problem points at."""
        if number not in self.lines:
            self.lines[number], shift = cut_line(text, column)
            if shift:
                self.shifts[number] = shift

    def keep_source(self, d: Diagnostic) -> None:
        """Keep the source line a reading problem carries (already an excerpt)."""
        if d.line is not None and d.source and d.line not in self.lines:
            self.lines[d.line] = d.source
            if d.shift:
                self.shifts[d.line] = d.shift

    @property
    def problem_count(self) -> int:
        """Violations of every kind, syntax included (warnings are not violations)."""
        return sum(not p.is_warning for p in self.syntax) + sum(len(r.problems) for r in self.results)

    @property
    def warning_count(self) -> int:
        """Warnings: lines read one way of two, a date that cannot be read."""
        return sum(p.is_warning for p in self.syntax) + sum(len(r.warnings) for r in self.results)

    def problems(self) -> list[Diagnostic]:
        """Every problem and warning of the file, in source order."""
        out = list(self.syntax)
        for result in self.results:
            out.extend(result.problems)
            out.extend(result.warnings)
        out.sort(key=_place)
        return out

    def kinds(self) -> Counter[str]:
        """Violations counted by kind."""
        counts: Counter[str] = Counter(p.kind for p in self.syntax if not p.is_warning)
        for result in self.results:
            counts.update(p.kind for p in result.problems)
        return counts

    def to_json(self) -> dict[str, object]:
        """The file object of ``validate --format json``."""
        out: dict[str, object] = {"path": self.path}
        if self.error is not None:
            out["error"] = _error_json(self.error)
        if self.syntax:
            out["syntax"] = [p.to_json() for p in self.syntax]
        out["games"] = [r.json for r in self.results]
        return out


def _error_json(error: Diagnostic) -> dict[str, object]:
    out: dict[str, object] = {"message": error.message.english(), "code": error.code}
    if error.line is not None:
        out["line"] = error.line
    if error.column is not None:
        out["column"] = error.column
    out["data"] = error.message_data()
    return out


def validate_file(path: str, choice: RulesChoice | None = None, encoding: str | None = None,
                  as_json: bool = False, piece: Piece | None = None) -> FileReport:
    """Read and check one file (``-`` is standard input) game by game: each
    game is replayed as soon as it is read and only what the report needs is
    kept (its problems and the lines they point at; with ``as_json`` its
    report object), so memory is bounded by the largest game. With
    ``piece``, only that piece of the file (its games numbered from the
    piece's start)."""
    stream = GameStream(path, encoding=encoding, piece=piece)
    report = FileReport(path)
    splitter = SyntaxSplitter(stream.diagnostics)
    for index, game in enumerate(stream):
        result = check_game(game, index, choice, stream.ordered_bids, splitter.of_game(game))
        report.results.append(GameReport(index, len(game.deals), result.problems,
                                         result.to_json() if as_json else None, result.warnings))
        if not as_json:
            for problem in [*result.problems, *result.warnings]:
                text = stream.line(problem.line)
                if problem.line is not None and problem.column is not None and text is not None:
                    report.keep_line(problem.line, text, problem.column)
        if game.span is not None:
            stream.forget_through(game.span[1])
        del game, result
    report.error = stream.error
    for d in splitter.finish():
        report.keep_source(d)
        if d is not report.error:
            report.syntax.append(d)
    for kept in report.results:
        for d in [*kept.problems, *kept.warnings]:
            report.keep_source(d)
    return report


PIECE_GAMES = 100
"""Games in a piece of a file checked by a worker process (``validate -j``)."""


def validate_files(paths: Sequence[str], choice: RulesChoice | None = None,
                   encoding: str | None = None, as_json: bool = False,
                   jobs: int = 1, shard: tuple[int, int] | None = None) -> Iterator[FileReport]:
    """:func:`validate_file` of each path, in order. With ``jobs`` > 1 the
    files are cut into pieces of whole games
    (:func:`~raspis_cli.files.pieces.split_file`) checked by that many worker
    processes, and each file's pieces are put back together: the same
    reports as one process gives. With ``shard`` ``(i, n)`` (0-based) only
    the pieces shard ``i`` of ``n`` reads
    (:func:`~raspis_cli.files.pieces.shard_pieces`; raises
    :class:`~raspis_cli.files.pieces.ShardError` for standard input), one report
    per file with a piece in it, its games numbered from the file's start."""
    batch_gc()
    if jobs <= 1 and shard is None:
        for path in paths:
            yield validate_file(path, choice, encoding, as_json)
        return
    tasks: list[tuple[str, Piece | None]] = []
    if shard is not None:
        tasks += shard_pieces(paths, *shard, encoding=encoding)
    else:
        for path in paths:
            pieces = split_file(path, PIECE_GAMES, encoding)
            tasks += [(path, piece) for piece in pieces] if len(pieces) > 1 else [(path, None)]
    arguments = [(path, piece, choice, encoding, as_json) for path, piece in tasks]
    with contextlib.ExitStack() as stack:
        if jobs <= 1:
            reports: Iterable[FileReport] = map(_validate_piece, arguments)
        else:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            # spawn: the same start in every process, whatever the platform
            context = multiprocessing.get_context("spawn")
            pool = stack.enter_context(ProcessPoolExecutor(jobs, mp_context=context))
            reports = pool.map(_validate_piece, arguments)
        whole: FileReport | None = None
        for number, ((path, piece), report) in enumerate(zip(tasks, reports, strict=True)):
            # games numbered from the file's start: a shard's piece knows the games before it,
            # the pieces of -j follow each other
            if piece is not None and piece.games_before is not None:
                _shift(report, piece.games_before)
            elif whole is not None:
                _shift(report, len(whole.results))
            if whole is None:
                whole = report
            else:
                _join(whole, report)
            following = tasks[number + 1] if number + 1 < len(tasks) else None
            if (piece is None or piece.final or following is None or following[0] != path
                    or following[1] is None or following[1].number <= piece.number):
                yield whole
                whole = None


def _validate_piece(task: tuple[str, Piece | None, RulesChoice | None, str | None, bool]) -> FileReport:
    path, piece, choice, encoding, as_json = task
    batch_gc()
    return validate_file(path, choice, encoding, as_json, piece)


def _shift(report: FileReport, offset: int) -> None:
    """Number the games of a piece's report from ``offset`` on."""
    for result in report.results:
        result.index += offset
        if result.json is not None:
            result.json["index"] = result.index


def _join(whole: FileReport, part: FileReport) -> None:
    """Add the report of the next piece of a file (its games numbered:
    :func:`_shift`) to the report so far."""
    whole.results.extend(part.results)
    whole.syntax.extend(part.syntax)
    for number, text in part.lines.items():
        whole.lines.setdefault(number, text)
    for number, shift in part.shifts.items():
        whole.shifts.setdefault(number, shift)
    if whole.error is None:
        whole.error = part.error


def folder_without_records(path: str) -> FileReport:
    """The report of a folder given on the command line with no record file below it."""
    return FileReport(path, error=syntax_error("E001", msg("a folder without record files (.rsp, .json, "
                                                         ".jsonl)")))


# -- score and show ---------------------------------------------------------------


def read_results(path: str, choice: RulesChoice | None = None, encoding: str | None = None,
                 game: int | None = None, compare: RulesChoice | None = None,
                 stray: list[Diagnostic] | None = None, piece: Piece | None = None,
                 ) -> list[tuple[GameResult, GameResult | None]]:
    """Every game of a file checked (or only game number ``game``, 1-based),
    each with its check under ``compare`` too when given; the syntax
    problems outside every game are appended to ``stray`` when it is given.
    Raises :class:`CheckError` when the file cannot be read or has no such
    game. Holds every game's result, so the collector is tuned as for
    a batch (:func:`~raspis_cli.files.sources.batch_gc`). With ``piece``, only
    that piece of the file (its games numbered from the piece's start), as a
    worker of ``-j`` reads it."""
    batch_gc()
    return list(iter_results(path, choice, encoding, game, compare, stray, piece))


def iter_results(path: str, choice: RulesChoice | None = None, encoding: str | None = None,
                 game: int | None = None, compare: RulesChoice | None = None,
                 stray: list[Diagnostic] | None = None, piece: Piece | None = None,
                 ) -> Iterator[tuple[GameResult, GameResult | None]]:
    """:func:`read_results` one game at a time (a caller that keeps only
    what it makes of each holds one game's result, not the file's); the
    :class:`CheckError` of a file that cannot be read comes at the end."""
    stream = GameStream(path, encoding=encoding, window=None, piece=piece)
    splitter = SyntaxSplitter(stream.diagnostics)
    out = 0
    count = 0
    for index, record in enumerate(stream):
        count += 1
        syntax = splitter.of_game(record)
        if game is not None and index != game - 1:
            continue
        first = check_game(record, index, choice, stream.ordered_bids, syntax)
        second = (check_game(record, index, compare, stream.ordered_bids, syntax)
                  if compare is not None else None)
        out += 1
        yield first, second
    if stream.error is not None:
        raise CheckError(stream.error)
    if stray is not None:
        stray.extend(splitter.finish())
    if game is not None and not out:
        message = msg_n("{file} has {n} game; there is no game {game}",
                           "{file} has {n} games; there is no game {game}", count)
        raise CheckError(syntax_error("E001", message.format(file=stream.display, n=count, game=game)))


def score_sheet(result: GameResult, other: GameResult | None = None) -> dict[str, object]:
    """The sheet as JSON: per deal and player bid, taken, score, total and the
    written values; with ``other``, the what-if scores and the difference."""
    players = list(result.totals)
    deals = []
    compare_deals = other.deals if other is not None else []
    for position, deal in enumerate(result.deals):
        entry: dict[str, object] = {
            "number": deal.number, "kind": deal.kind, "cards": deal.cards,
            "dealer": deal.dealer, "trump": deal.trump or None,
        }
        if deal.replayed:
            entry["replayed"] = True
        cells: dict[str, dict[str, object]] = {}
        alt = compare_deals[position] if position < len(compare_deals) else None
        for name in players:
            cell: dict[str, object] = {
                "bid": deal.bids.get(name), "taken": deal.taken.get(name),
                "score": deal.scores.get(name), "total": deal.totals.get(name),
            }
            if deal.penalties.get(name):
                cell["penalty"] = deal.penalties[name]
            for key, written in (("written_taken", deal.written_taken),
                                 ("written_score", deal.written_scores),
                                 ("written_total", deal.written_totals)):
                if written is not None and name in written:
                    cell[key] = written[name]
            if alt is not None:
                alt_total = alt.totals.get(name, 0)
                cell["compare_score"] = alt.scores.get(name)
                cell["compare_total"] = alt_total
                cell["difference"] = alt_total - deal.totals.get(name, 0)
            cells[name] = cell
        entry["players"] = cells
        deals.append(entry)
    out: dict[str, object] = {
        "game": result.index + 1,
        "tags": dict(result.record.tags),
        "rules": result.rules.record_json(),
        "players": players,
        "deals": deals,
        "totals": dict(result.totals),
        "winners": result.winners,
        "valid": result.valid,
    }
    if other is not None:
        out["compare"] = {
            "rules": other.rules.preset_name,
            "options": {k: v for k, v in other.rules.changed_from(result.rules).items()},
            "totals": dict(other.totals),
            "winners": other.winners,
            "difference": {n: other.totals.get(n, 0) - result.totals.get(n, 0) for n in players},
        }
    return out


def deal_story(result: GameResult, position: int) -> dict[str, object]:
    """One deal as data: hands, trump, bids, tricks with winners, problems."""
    record = result.record.deals[position]
    deal_result = next((d for d in result.deals if d.position == position), None)
    engine = deal_result.deal if deal_result is not None else None
    history = engine.history if engine is not None else []
    problems = [p for p in result.problems if p.deal == record.number]
    tricks = []
    running: dict[str, int] = dict.fromkeys(result.record.players, 0)
    for number, trick in enumerate(record.tricks or [], start=1):
        done = history[number - 1] if number - 1 < len(history) else None
        winner = result.record.players[done.winner] if done is not None else None
        if winner is not None:
            running[winner] = running.get(winner, 0) + 1
        plays = []
        for play in trick:
            marks = [p for p in problems if p.trick == number and p.player == play.player]
            entry: dict[str, object] = {"player": play.player, "card": play.card.code}
            if play.joker is not None:
                entry["joker"] = play.joker.to_json()
                entry["declared"] = str(play.joker)
            if marks:
                entry["violations"] = [p.to_json() for p in marks]
            plays.append(entry)
        tricks.append({"number": number, "leader": trick[0].player if trick else None,
                       "plays": plays, "winner": winner, "taken": dict(running)})
    return {
        "game": result.index + 1,
        "number": record.number, "kind": record.kind, "cards": record.cards,
        "dealer": record.dealer,
        "trump": deal_result.trump if deal_result is not None else None,
        "hands": {n: [c.code for c in cs] for n, cs in (record.hands or {}).items()},
        "bids": dict(record.bids or {}),
        "tricks": tricks,
        "taken": deal_result.taken if deal_result is not None else None,
        "scores": deal_result.scores if deal_result is not None else None,
        "violations": [p.to_json() for p in problems],
    }
