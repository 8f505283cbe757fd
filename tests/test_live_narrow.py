"""The sheet of `raspis live` at an 80-column terminal, in English and Russian, for
3 to 6 players: a line per deal with the players as columns, every line within 80
cells (rich's cell width: a Cyrillic letter or ♠ is one), a game being played has
a leader and a finished one a winner, and the hints name the sheet's real path."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.cells import cell_len

from raspis_cli.cli.console import shell_command
from raspis_cli.cli.narrow_sheet import dealer_abbreviations, narrow_sheet
from raspis_cli.judge.replay import replay_game
from raspis_cli.rules import Rules
from raspis_cli.simulate.game import simulate_game
from raspis_cli.text.i18n import speaking
from tests.clikit import run_cli
from tests.livekit import LiveDriver, TypedDeal, planned_game

NAMES = ["Анна", "Борис", "Вера", "Дима", "Евгения", "Фёдор"]
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")
WORDS = {
    "en": {"sheet": "sheet", "quit": "quit", "title": "game 1 ·", "deal": "deal", "leader": "leading: ",
           "winner": "winner", "stopped": "go on with: ",
           "shared": "sharing the lead: ", "over": "the game is over: "},
    "ru": {"sheet": "расписка", "quit": "выход", "title": "партия 1 ·", "deal": "раздача",
           "leader": "впереди: ", "winner": "победител", "stopped": "продолжить: ",
           "shared": "делят первое место: ",
           "over": "партия окончена: побежда"},
}


def _preset(players: int) -> str:
    """raspisnoy takes 3 to 5 players; classic seats 6."""
    return "raspisnoy" if players <= 5 else "classic"


def _screen(text: str) -> list[str]:
    """The lines as the terminal shows them: escape codes and carriage returns dropped."""
    return ESCAPES.sub("", text).split("\n")


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_sheet_of_ten_deals_fits_80_columns(tmp_path: Path, lang: str, players: int) -> None:
    names = NAMES[:players]
    _game, deals = planned_game(7, names, _preset(players))
    path = tmp_path / "пятница вечер.rsp"  # a space: the hint must quote the path
    words = WORDS[lang]
    live = LiveDriver(path, "--players", ", ".join(names), "--rules", _preset(players), "--dealer",
                      deals[0].dealer, lang=lang, columns=80)
    for deal in deals[:10]:
        live.type_deal(deal)
    live.answer(live.trump(), words["sheet"])
    shown = _screen(live.expect("\n[^\n]*" + live.trump()))
    start = next(i for i, line in enumerate(shown) if line.startswith(words["title"]))
    sheet = [line for line in shown[start:-1] if line.strip()]
    assert all(cell_len(line) <= 80 for line in sheet), "\n".join(sheet)
    assert len(sheet) <= 16, "\n".join(sheet)
    # a column per player, full names in the header; a line per deal, numbered as on the sheet
    assert re.fullmatch(re.escape(words["deal"]) + r" +" + r" +".join(f"│ {n}" for n in names) + r" *",
                        sheet[1]), sheet[1]
    rows = [line for line in sheet if re.match(r" ?\d+\. ", line) and "│" in line]
    assert [int(line.split(".")[0]) for line in rows] == list(range(1, 11))
    for row, deal in zip(rows, deals, strict=False):
        assert row.count("│") == players
        cells = [c.split() for c in row.split("│")[1:]]
        assert [c[0] for c in cells] == [f"{deal_bid(deal, n)}/{taken(deal, n)}" for n in names]
    # a game being played: its leader, never a winner
    totals = {n: int(cells_of(rows[-1])[k][1].replace("−", "-")) for k, n in enumerate(names)}
    best = max(totals.values())
    leaders = [n for n in names if totals[n] == best]
    verdict = sheet[-1]
    assert verdict.startswith(words["leader"] if len(leaders) == 1 else words["shared"]), verdict
    assert all(n in verdict for n in leaders)
    assert words["winner"] not in "\n".join(sheet)
    # each deal's own table (after its last count) fits too
    typed = _screen("".join(live.transcript))
    assert all(cell_len(line) <= 80 for line in typed if "│" in line or "┃" in line)
    # quit: the hint to go on names this sheet, quoted for a shell
    live.child.sendline(words["quit"])
    live.expect(re.escape(words["stopped"]) + r"[^\n]*\n")
    stop = _screen(live.transcript[-1])[-2]
    assert stop.endswith(words["stopped"] + shell_command("raspis", "live", str(path)))
    assert f"raspis live '{path}'" in stop
    assert live.finish() == 0


def deal_bid(deal: TypedDeal, name: str) -> str:
    """The bid typed for ``name`` in a typed deal (``-`` in a deal without bids)."""
    bids = dict(deal.bids)
    return str(bids[name]) if name in bids else "-"


def taken(deal: TypedDeal, name: str) -> str:
    """The count typed for ``name`` in a typed deal."""
    return str(dict(deal.taken)[name])


def cells_of(row: str) -> list[list[str]]:
    """A deal's line: each player's cell in words (bid/taken, total)."""
    return [cell.split() for cell in row.split("│")[1:]]


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_end_of_a_game_names_its_winner(tmp_path: Path, lang: str) -> None:
    names = NAMES[:3]
    game, deals = planned_game(11, names)
    path = tmp_path / "g.rsp"
    live = LiveDriver(path, "--players", ", ".join(names), "--dealer", deals[0].dealer, lang=lang,
                      columns=80)
    for deal in deals:
        live.type_deal(deal)
    totals = replay_game(game).totals
    best = max(totals.values())
    winners = [n for n in names if totals[n] == best]
    over = _screen(live.expect(re.escape(WORDS[lang]["over"]) + r"[^\n]*\n"))[-2]
    assert live.finish() == 0
    assert all(n in over for n in winners), over
    # the finished sheet: a winner, at 80 columns the narrow sheet, every line within them
    done = run_cli("--lang", lang, "score", str(path), env_extra={"COLUMNS": "80"})
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert all(cell_len(line) <= 80 for line in lines)
    verdict = lines[-1]
    assert verdict.startswith("winner: " if lang == "en" else "победитель: "), verdict
    assert WORDS[lang]["leader"] not in done.stdout


@pytest.mark.slow
def test_a_sheet_stopped_short_of_its_schedule_has_a_leader(tmp_path: Path) -> None:
    """No ``unfinished`` mark, but 10 of 28 deals: a leader, not a winner."""
    _game, deals = planned_game(7)
    path = tmp_path / "short.rsp"
    answers = []
    for deal in deals[:10]:
        answers += [str(deal.trump), *(str(b) for _n, b in deal.bids), *(str(t) for _n, t in deal.taken)]
    assert run_cli("live", str(path), "--players", "Анна, Борис, Вера, Дима", "--dealer", deals[0].dealer,
                   stdin="\n".join([*answers, "quit"]) + "\n").returncode == 0
    text = path.read_text(encoding="utf-8")
    cut = "\n".join(line for line in text.splitlines()
                    if line != "unfinished" and not re.match(r"\d+\. .*\| +\| +\|", line)) + "\n"
    path.write_text(cut, encoding="utf-8")
    done = run_cli("score", str(path))
    assert done.returncode == 1  # the schedule is not complete: a violation
    assert "\nleading: " in done.stdout and "winner" not in done.stdout
    assert f"to correct it: raspis explain {path}" in done.stdout


def test_long_names_are_cut_in_the_header_and_said_once_in_full() -> None:
    names = ["Александра Петровна", "Александр Ильич", "Вероника", "Константин", "Светлана"]
    game = simulate_game(Rules.preset("raspisnoy"), 5, 3, names, "full")
    result = replay_game(game)
    with speaking("ru"):
        sheet = narrow_sheet(result, 80)
    assert sheet is not None
    lines = sheet.lines()
    assert all(cell_len(line) <= 80 for line in lines), "\n".join(lines)
    assert sheet.legend == ["игроки: " + ", ".join(names)]
    header = [cell.strip() for cell in sheet.table[0].split("│")[1:]]
    assert header == ["Александра П.", "Александр И.", "Вероника", "Константин", "Светлана"]
    assert len(sheet.table) == 2 + len(result.deals)
    with speaking("ru"):
        narrower = narrow_sheet(result, 68)
    assert narrower is not None and all(cell_len(line) <= 68 for line in narrower.lines())
    cut = [cell.strip() for cell in narrower.table[0].split("│")[1:]]
    assert len(set(cut)) == 5 and any(c.endswith("…") for c in cut), cut
    assert cut[0].endswith("… П.") and cut[1].endswith("… И."), cut
    assert " ".join(line.strip() for line in narrower.legend) == "игроки: " + ", ".join(names)
    assert narrow_sheet(result, 20) is None  # no room even for the shortest form


def test_dealers_are_shortened_to_the_letters_that_tell_them_apart() -> None:
    assert dealer_abbreviations(["Анна", "Андрей", "Борис", "Б"]) == {
        "Анна": "Анн", "Андрей": "Анд", "Борис": "Бо", "Б": "Б"}
    assert dealer_abbreviations(["Анна Петровна", "Анна Ильинична", "Анна"]) == {
        "Анна Петровна": "АП", "Анна Ильинична": "АИ", "Анна": "Анна"}


def test_a_command_in_a_hint_is_quoted_only_where_a_shell_needs_it() -> None:
    assert shell_command("raspis", "live", "пятница.rsp") == "raspis live пятница.rsp"
    assert shell_command("raspis", "live", "/tmp/a b.rsp") == "raspis live '/tmp/a b.rsp'"
    assert shell_command("raspis", "live", "it's.rsp") == "raspis live 'it'\"'\"'s.rsp'"
    assert shell_command("raspis", "live", "$HOME.rsp") == "raspis live '$HOME.rsp'"


def test_the_hints_of_a_disputed_sheet_name_its_path(tmp_path: Path) -> None:
    """Resumed with a written value that differs, `live` names `raspis validate PATH`
    at the start and its sheet names `raspis explain PATH` (not the word FILE)."""
    lines = Path("samples/raspisnoy-sheet-dispute.rsp").read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if not re.match(r"(2[1-8]\. |final)", line)] + ["unfinished"]
    path = tmp_path / "Вера и Boris.rsp"
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    for lang, words in (("en", ("sheet", "quit")), ("ru", ("расписка", "выход"))):
        done = run_cli("--lang", lang, "live", str(path), stdin="\n".join(words) + "\n",
                       env_extra={"COLUMNS": "80"})
        assert done.returncode == 0, done.stderr
        assert "FILE" not in done.stdout and "ФАЙЛ" not in done.stdout
        quoted = f"'{path}'"
        assert f"(raspis validate {quoted} " in done.stdout
        assert f"raspis explain {quoted}\n" in done.stdout
        assert f"raspis live {quoted}\n" in done.stdout
        assert all(cell_len(line) <= 80 for line in done.stdout.splitlines() if "│" in line)
        marked = next(line for line in done.stdout.splitlines() if line.startswith("17. "))
        assert "208*" in marked
        assert ("впереди: Boris" if lang == "ru" else "leading: Boris") in done.stdout
