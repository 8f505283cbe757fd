"""Nothing typed is ever lost: a comment typed for the open deal (or during an edit) is a value,
saved at once and kept through an edit finished or cancelled, undo, quitting in the middle of
an edit, and a crash — in the model (every front end), in `raspis live` (English and Russian)
and on the shared table of `raspis serve`."""

from __future__ import annotations

from pathlib import Path

import pytest

from raspis_cli.model.record import GameRecord
from raspis_cli.notation import read_text
from raspis_cli.page.table import CANCEL, Table
from raspis_cli.rules import Rules
from raspis_cli.sheet.blank import blank_game
from raspis_cli.sheet.editable import EditableSheet
from raspis_cli.sheet.sheetfile import SheetFile
from tests.clikit import run_cli

PLAYERS3 = ["A", "B", "C"]
DEAL_1 = ["K♠", "0", "0", "0", "1", "0", "0"]
"""Deal 1 of a 3-player raspisnoy sheet (1 card, A deals): trump, bids B C A, taken B C A."""
DEAL_2 = ["A♠", "0", "0", "1", "1", "0", "1"]
"""Deal 2 (2 cards, B deals): trump, bids C A B, taken C A B."""
EDIT_ANSWERS = 7
"""The questions of an edit of deal 1: the trump, three bids, three counts."""


def _one_deal_played(lines: bool = True) -> GameRecord:
    """A 3-player sheet with deal 1 played; ``lines=False``: no blank line after it."""
    sheet = EditableSheet([blank_game(Rules.preset("raspisnoy"), PLAYERS3, "raspisnoy", {}, {})])
    for text in DEAL_1:
        assert sheet.answer(text).refused is None
    game = sheet.game
    if not lines:
        game.deals = game.deals[:1]
    return game


def _open(path: Path, lines: bool = True) -> EditableSheet:
    """The sheet of ``path`` (written first with deal 1 played), kept through its file."""
    if not path.exists():
        path.write_text(EditableSheet([_one_deal_played(lines)]).text(), encoding="utf-8")
    store = SheetFile(str(path)).lock()
    return EditableSheet(read_text(store.read().decode("utf-8")).games, None, store)


def _reread(path: Path) -> GameRecord:
    games = read_text(path.read_text(encoding="utf-8")).games
    assert len(games) == 1
    return games[0]


def _close(sheet: EditableSheet) -> None:
    store = sheet.file
    assert isinstance(store, SheetFile)
    store.close()


def _line_of(path: Path, number: int) -> str:
    return next(line for line in path.read_text(encoding="utf-8").splitlines()
                if line.startswith(f"{number}."))


def _keep_through_edit(sheet: EditableSheet) -> None:
    """``edit 1`` and Enter at every question: deal 1 as written."""
    assert sheet.edit(1).event == "editing"
    for _ in range(EDIT_ANSWERS):
        assert sheet.answer("").refused is None
    assert sheet.open is not None and not sheet.open.editing


def test_a_comment_is_saved_as_it_is_typed_so_a_crash_keeps_it(tmp_path: Path) -> None:
    path = tmp_path / "b.rsp"
    sheet = _open(path)
    out = sheet.comment("; note")
    assert out.refused is None and out.saved
    # no keep_comments, no quit: the file (what a kill -9 leaves) holds it on deal 2's line
    assert _line_of(path, 2).endswith("; note")
    assert _reread(path).deals[1].comments == ["; note"]
    _close(sheet)


def test_the_open_deals_comment_survives_an_edit_finished(tmp_path: Path) -> None:
    path = tmp_path / "b.rsp"
    sheet = _open(path)
    sheet.comment("; note")
    _keep_through_edit(sheet)
    assert sheet.open is not None and sheet.open.comments == ["; note"]
    assert _reread(path).deals[1].comments == ["; note"]
    for text in DEAL_2:
        assert sheet.answer(text).refused is None
    assert "A♠" in _line_of(path, 2) and _line_of(path, 2).endswith("; note")
    game = _reread(path)
    assert game.deals[1].comments == ["; note"] and game.deals[1].taken is not None
    assert game.deals[0].comments == [] and game.comments == []
    _close(sheet)


@pytest.mark.parametrize("leave", ["cancel", "undo"])
def test_the_open_deals_comment_survives_an_edit_cancelled(tmp_path: Path, leave: str) -> None:
    path = tmp_path / "b.rsp"
    sheet = _open(path)
    sheet.comment("; note")
    assert sheet.edit(1).event == "editing"
    if leave == "undo":
        assert sheet.answer("").refused is None  # the trump; undo takes it back, then leaves
        assert sheet.undo().event == "undone"
    assert (sheet.cancel() if leave == "cancel" else sheet.undo()).event == "cancelled"
    assert sheet.open is not None and sheet.open.comments == ["; note"]
    assert sheet.keep_comments() is False  # nothing was waiting: it was saved as typed
    assert _line_of(path, 2).endswith("; note")
    assert _reread(path).deals[1].comments == ["; note"]
    _close(sheet)


def test_a_comment_typed_during_an_edit_is_kept_when_quitting_in_its_middle(tmp_path: Path) -> None:
    path = tmp_path / "b.rsp"
    sheet = _open(path)
    sheet.comment("; note")
    assert sheet.edit(1).event == "editing"
    assert sheet.answer("K♥").refused is None  # a changed trump, not finished
    assert sheet.comment("; the trump was K♥?").saved
    sheet.keep_comments()  # what live does on quit
    _close(sheet)
    line = _line_of(path, 1)
    assert "K♠" in line and "K♥ |" not in line  # the deal as written: the edit is not finished
    assert line.endswith("; the trump was K♥?")
    game = _reread(path)
    assert game.deals[0].comments == ["; the trump was K♥?"] and str(game.deals[0].trump) == "K♠"
    assert game.deals[1].comments == ["; note"]
    # going on: both comments come back, deal 1 as written
    again = _open(path)
    assert again.open is not None and again.open.deal.number == 2 and again.open.comments == ["; note"]
    _close(again)


def test_a_comment_typed_during_an_edit_is_kept_through_its_end_and_its_cancel(tmp_path: Path) -> None:
    path = tmp_path / "b.rsp"
    sheet = _open(path)
    assert sheet.edit(1).event == "editing"
    sheet.comment("; first")
    for _ in range(EDIT_ANSWERS):
        assert sheet.answer("").refused is None
    assert sheet.edit(1).event == "editing"
    assert sheet.open is not None and sheet.open.comments == ["; first"]
    sheet.comment("; second")
    # both at the end of the line: one comment when the file is read, and so in the sheet already
    assert sheet.open.comments == ["; first ; second"]
    assert sheet.cancel().event == "cancelled"
    assert _line_of(path, 1).endswith("; first ; second")
    assert _reread(path).deals[0].comments == ["; first ; second"]
    _close(sheet)


def test_a_comment_typed_at_the_rewrite_step_is_written_with_the_edit(tmp_path: Path) -> None:
    path = tmp_path / "b.rsp"
    sheet = _open(path)
    assert sheet.edit(1).event == "editing"
    for text in ["", "", "", "", "0", "1"]:  # B took 0, C took 1: the written scores would change
        assert sheet.answer(text).refused is None
    assert sheet.answer("").event == "asks"
    sheet.comment("; C took it")
    assert sheet.answer("").event == "edited"
    game = _reread(path)
    assert game.deals[0].comments == ["; C took it"] and game.deals[0].taken == {"A": 0, "B": 0, "C": 1}
    _close(sheet)


def test_the_open_deals_comment_survives_undo_of_the_deal_before(tmp_path: Path) -> None:
    path = tmp_path / "b.rsp"
    sheet = _open(path)
    for text in DEAL_2:
        assert sheet.answer(text).refused is None
    sheet.comment("; deal 3 note")
    assert sheet.undo().event == "taken-back"  # deal 2 reopened at its last answer
    assert _reread(path).deals[2].comments == ["; deal 3 note"]
    assert sheet.answer("").event == "completed"
    assert sheet.open is not None and sheet.open.deal.number == 3
    assert sheet.open.comments == ["; deal 3 note"]
    _close(sheet)


def test_a_deal_with_no_line_keeps_its_comment_as_the_games(tmp_path: Path) -> None:
    """A sheet that ends at its last played deal: deal 2 has no line to hold a
    comment until it is written; the file keeps it as the game's meanwhile
    (after ``unfinished``), through an edit and its cancel; then on deal 2's line."""
    path = tmp_path / "b.rsp"
    sheet = _open(path, lines=False)
    assert len(sheet.game.deals) == 1
    sheet.comment("; note")
    assert _reread(path).comments == ["; note"]
    assert path.read_text(encoding="utf-8").rstrip().endswith("unfinished\n; note")
    assert sheet.edit(1).event == "editing"
    assert sheet.cancel().event == "cancelled"
    _keep_through_edit(sheet)
    assert _reread(path).comments == ["; note"]
    assert sheet.open is not None and sheet.open.comments == ["; note"]
    for text in DEAL_2:
        assert sheet.answer(text).refused is None
    game = _reread(path)
    assert game.comments == [] and game.deals[1].comments == ["; note"]
    _close(sheet)


def test_a_phone_keeps_the_comment_through_an_edit_and_its_cancel(tmp_path: Path) -> None:
    path = tmp_path / "b.rsp"
    table = Table(_open(path))
    for text in ["; note", "edit 1", CANCEL, "edit 1", *[""] * EDIT_ANSWERS]:
        assert table.answer(table.version, text).ok, text
    assert _reread(path).deals[1].comments == ["; note"]
    open_deal = table.sheet.open
    assert open_deal is not None and open_deal.comments == ["; note"]
    _close(table.sheet)


# -- raspis live, typed on its standard input --------------------------------------------------

WORDS = {
    "en": {"note": "; note", "edit": "edit 1", "undo": "undo", "quit": "quit"},
    "ru": {"note": "; заметка", "edit": "исправить 1", "undo": "отмена", "quit": "выход"},
}


def _live(path: Path, lang: str, lines: list[str]) -> str:
    done = run_cli("--lang", lang, "live", str(path), stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_live_keeps_a_comment_through_an_edit_finished(tmp_path: Path, lang: str) -> None:
    """The issue's repro: `; note`, `edit 1`, Enter at every question (and one
    more, at deal 2's trump, which asks again), deal 2 typed, quit."""
    path = tmp_path / "b.rsp"
    path.write_text(EditableSheet([_one_deal_played()], lang=lang).text(), encoding="utf-8")
    w = WORDS[lang]
    _live(path, lang, [w["note"], w["edit"], *[""] * (EDIT_ANSWERS + 1), "As", "0", "0", "1", "1", "0", "",
                       w["quit"]])
    game = _reread(path)
    assert game.deals[1].comments == [w["note"]] and game.deals[1].taken == {"A": 0, "B": 1, "C": 1}
    assert _line_of(path, 2).endswith(w["note"])


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_live_keeps_a_comment_through_an_edit_undone(tmp_path: Path, lang: str) -> None:
    path = tmp_path / "b.rsp"
    path.write_text(EditableSheet([_one_deal_played()], lang=lang).text(), encoding="utf-8")
    w = WORDS[lang]
    _live(path, lang, [w["note"], w["edit"], w["undo"], w["quit"]])
    assert _reread(path).deals[1].comments == [w["note"]]
    assert _line_of(path, 2).endswith(w["note"])


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_live_keeps_comments_when_quitting_in_the_middle_of_an_edit(tmp_path: Path, lang: str) -> None:
    path = tmp_path / "b.rsp"
    path.write_text(EditableSheet([_one_deal_played()], lang=lang).text(), encoding="utf-8")
    w = WORDS[lang]
    _live(path, lang, [w["note"], w["edit"], "", w["note"] + " 2", w["quit"]])
    game = _reread(path)
    assert game.deals[0].comments == [w["note"] + " 2"] and game.deals[1].comments == [w["note"]]
    assert str(game.deals[0].trump) == "K♠"
    # and at the end of input (Ctrl-D) in the middle of an edit too
    _live(path, lang, [w["edit"], "", "; " + w["quit"]])
    assert _line_of(path, 1).endswith(w["note"] + " 2 ; " + w["quit"])
    assert _reread(path).deals[0].comments == [w["note"] + " 2 ; " + w["quit"]]
