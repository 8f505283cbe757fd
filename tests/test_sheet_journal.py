"""The open deal's journal beside a sheet (``.NAME.open``) and the access code of ``raspis serve``
(``.NAME.code``): owner-only, written in one step, never through a symbolic link, a journal
applied only to the file as it was when it was written."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from raspis_cli.notation import read_text
from raspis_cli.notation.writer import trump_text
from raspis_cli.rules import Rules
from raspis_cli.serve.access import AccessCodeError, code_path, sheet_code
from raspis_cli.sheet.blank import blank_game
from raspis_cli.sheet.editable import EditableSheet
from raspis_cli.sheet.journal import DealJournal, journal_path, write_private
from raspis_cli.sheet.sheetfile import SheetFile
from raspis_cli.text.i18n import speaking

PLAYERS3 = ["A", "B", "C"]
DEAL_1 = ["K♠", "0", "0", "0", "1", "0", "0"]
"""Deal 1 of a 3-player raspisnoy sheet (1 card, A deals): trump, bids B C A, taken B C A."""
DEAL_2 = ["A♠", "0", "0", "1", "1", "0", "1"]
"""Deal 2 (2 cards, B deals): trump, bids C A B, taken C A B."""


def _kept(path: Path) -> tuple[EditableSheet, DealJournal]:
    """The sheet of ``path`` (deal 1 written when it is new), kept through its
    locked file, its journal restored and attached as ``live`` and ``serve`` do."""
    if not path.exists():
        sheet = EditableSheet([blank_game(Rules.preset("raspisnoy"), PLAYERS3, "raspisnoy", {}, {})])
        for text in DEAL_1:
            assert sheet.answer(text).refused is None
        path.write_text(sheet.text(), encoding="utf-8")
    store = SheetFile(str(path)).lock()
    sheet = EditableSheet(read_text(store.read().decode("utf-8")).games, None, store)
    journal = DealJournal(store)
    return sheet, journal


def _attach(sheet: EditableSheet, journal: DealJournal) -> str | None:
    with speaking("en"):
        said = journal.restore(sheet)
        sheet.journal = journal
        return None if said is None else said.shown()


def _close(sheet: EditableSheet) -> None:
    assert isinstance(sheet.file, SheetFile)
    sheet.file.close()


def _type(sheet: EditableSheet, answers: list[str]) -> None:
    for text in answers:
        assert sheet.answer(text).refused is None, (sheet.step(), text)


def test_the_open_deals_answers_come_back_after_a_crash_and_the_file_is_untouched(tmp_path: Path) -> None:
    """The trump and two bids of deal 2 are kept beside the file (0600), not in
    it; a new session (a crash: no goodbye) reopens deal 2 at its third bid with
    them, says so, and the deal can be finished."""
    path = tmp_path / "g.rsp"
    sheet, journal = _kept(path)
    assert _attach(sheet, journal) is None  # no journal yet
    before = path.read_bytes()
    _type(sheet, DEAL_2[:3])
    assert path.read_bytes() == before, "the answers of an open deal are not written in the file"
    kept = Path(journal_path(os.path.realpath(path)))
    assert kept.name == ".g.rsp.open"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    record = json.loads(kept.read_text(encoding="utf-8"))
    assert record["deal"] == 2 and record["answers"] == [["trump", "A♠"], ["bid:C", "0"], ["bid:A", "0"]]
    _close(sheet)  # the lock goes with the process; the journal stays

    again, journal = _kept(path)
    assert _attach(again, journal) == "deal 2: trump, 2 bids restored"
    step = again.step()
    assert step is not None and step.key == "bid:B" and step.deal.number == 2
    assert again.open is not None and again.open.trail == ["trump", "bid:C", "bid:A"]
    assert trump_text(again.open.trump) == "A♠" and again.open.bids == {"C": 0, "A": 0}
    assert path.read_bytes() == before
    _type(again, DEAL_2[3:])
    assert not kept.exists(), "the journal goes when the deal is written"
    assert again.played() == 2
    _close(again)


def test_in_russian_the_restore_says_so_in_russian(tmp_path: Path) -> None:
    path = tmp_path / "g.rsp"
    sheet, journal = _kept(path)
    _attach(sheet, journal)
    _type(sheet, DEAL_2[:2])
    _close(sheet)
    again, journal = _kept(path)
    with speaking("ru"):
        said = journal.restore(again)
        assert said is not None and said.shown() == "раздача 2: восстановлено: козырь, 1 заказ"
    _close(again)


def test_a_journal_of_the_file_as_it_was_before_a_change_is_not_applied(tmp_path: Path) -> None:
    """The file changed after the journal was written (an editor, another copy):
    its digest differs, the journal is not applied, and the session says so."""
    path = tmp_path / "g.rsp"
    sheet, journal = _kept(path)
    _attach(sheet, journal)
    _type(sheet, DEAL_2[:3])
    _close(sheet)
    path.write_text(path.read_text(encoding="utf-8") + "; a note typed in an editor\n", encoding="utf-8")
    again, journal = _kept(path)
    said = _attach(again, journal)
    assert said is not None and "belong to" in said and "as it was before it changed" in said, said
    assert again.open is not None and again.open.empty
    step = again.step()
    assert step is not None and step.key == "trump" and step.deal.number == 2
    _close(again)


def test_the_journal_is_removed_when_the_answers_are_taken_back(tmp_path: Path) -> None:
    path = tmp_path / "g.rsp"
    sheet, journal = _kept(path)
    _attach(sheet, journal)
    _type(sheet, DEAL_2[:2])
    kept = Path(journal.path)
    assert kept.exists()
    assert sheet.undo().event == "undone"
    assert json.loads(kept.read_text(encoding="utf-8"))["answers"] == [["trump", "A♠"]]
    assert sheet.back().event == "back"
    assert not kept.exists()
    _close(sheet)


def test_an_edit_keeps_the_deal_it_puts_aside(tmp_path: Path) -> None:
    """``edit 1`` in the middle of deal 2: the journal still holds deal 2's
    answers (an edit itself is not journaled); they come back after a crash."""
    path = tmp_path / "g.rsp"
    sheet, journal = _kept(path)
    _attach(sheet, journal)
    _type(sheet, DEAL_2[:2])
    assert sheet.edit(1).event == "editing"
    assert sheet.answer("").refused is None  # the edit's trump kept
    record = json.loads(Path(journal.path).read_text(encoding="utf-8"))
    assert record["deal"] == 2 and record["answers"] == [["trump", "A♠"], ["bid:C", "0"]]
    _close(sheet)
    again, journal = _kept(path)
    assert _attach(again, journal) == "deal 2: trump, 1 bid restored"
    _close(again)


def test_a_journal_never_writes_a_deal(tmp_path: Path) -> None:
    """A journal holding every answer of the deal (made by hand): the last one
    is not answered from it, so nothing is written in the file by a restore."""
    path = tmp_path / "g.rsp"
    sheet, journal = _kept(path)
    _attach(sheet, journal)
    _type(sheet, DEAL_2[:1])
    record = json.loads(Path(journal.path).read_text(encoding="utf-8"))
    _close(sheet)
    keys = ["trump", "bid:C", "bid:A", "bid:B", "taken:C", "taken:A", "taken:B"]
    record["answers"] = [[k, v] for k, v in zip(keys, DEAL_2, strict=True)]
    Path(journal.path).write_text(json.dumps(record), encoding="utf-8")
    before = path.read_bytes()
    again, journal = _kept(path)
    said = _attach(again, journal)
    assert said == ("deal 2: trump, 3 bids, 2 counts of tricks taken restored; the answers after them are "
                    "asked again")
    step = again.step()
    assert step is not None and step.key == "taken:B"
    assert path.read_bytes() == before
    _close(again)


def test_a_symbolic_link_at_the_journals_name_is_never_followed(tmp_path: Path) -> None:
    """A link planted where the journal goes: reading it is refused (said so,
    nothing applied); the next answer replaces the link, its target untouched."""
    path = tmp_path / "g.rsp"
    sheet, journal = _kept(path)
    _attach(sheet, journal)
    _type(sheet, DEAL_2[:2])
    _close(sheet)
    decoy = tmp_path / "decoy.txt"
    decoy.write_bytes(Path(journal.path).read_bytes())
    os.unlink(journal.path)
    os.symlink(decoy, journal.path)
    again, journal = _kept(path)
    said = _attach(again, journal)
    assert said is not None and "is a symbolic link" in said and "not followed" in said, said
    assert again.open is not None and again.open.empty
    target = decoy.read_bytes()
    _type(again, DEAL_2[:1])
    assert not os.path.islink(journal.path) and decoy.read_bytes() == target
    assert stat.S_IMODE(os.stat(journal.path).st_mode) == 0o600
    _close(again)


def test_a_journal_is_written_in_one_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails before its rename (here: the flush to disk) leaves
    the journal as it was and no temporary file; one that succeeds leaves only
    the journal, owner-only even under a permissive umask."""
    target = tmp_path / ".g.rsp.open"
    old = os.umask(0)
    try:
        write_private(str(target), b"first\n")
    finally:
        os.umask(old)
    assert target.read_bytes() == b"first\n" and stat.S_IMODE(target.stat().st_mode) == 0o600

    def broken(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(OSError):
        write_private(str(target), b"second\n")
    monkeypatch.undo()
    assert target.read_bytes() == b"first\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".g.rsp.open"]


# -- the access code -----------------------------------------------------------------------------


def test_the_access_code_is_kept_owner_only_and_read_back(tmp_path: Path) -> None:
    sheet = str(tmp_path / "g.rsp")
    first = sheet_code(sheet)
    assert first.made and not first.renewed and len(first.code) >= 16
    kept = Path(code_path(sheet))
    assert kept.name == ".g.rsp.code" and stat.S_IMODE(kept.stat().st_mode) == 0o600
    again = sheet_code(sheet)
    assert again.code == first.code and not again.made
    renewed = sheet_code(sheet, new=True)
    assert renewed.renewed and renewed.code != first.code
    assert sheet_code(sheet).code == renewed.code
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    kept.unlink()  # deleting the file makes a new code too
    assert sheet_code(sheet).code not in (first.code, renewed.code)


@pytest.mark.parametrize("dangling", [False, True])
def test_a_symbolic_link_at_the_codes_name_is_refused(tmp_path: Path, dangling: bool) -> None:
    """Neither read through, nor written through, nor replaced by --new-code."""
    sheet = str(tmp_path / "g.rsp")
    decoy = tmp_path / "decoy"
    if not dangling:
        decoy.write_text("AAAAAAAAAAAAAAAAAAAA\n", encoding="utf-8")
        decoy.chmod(0o600)
    os.symlink(decoy, code_path(sheet))
    for new in (False, True):
        with speaking("en"), pytest.raises(AccessCodeError, match="is a symbolic link"):
            sheet_code(sheet, new=new)
    assert os.path.islink(code_path(sheet))
    assert decoy.exists() != dangling
    if not dangling:
        assert decoy.read_text(encoding="utf-8") == "AAAAAAAAAAAAAAAAAAAA\n"


def test_a_code_file_others_may_read_or_not_holding_a_code_is_refused(tmp_path: Path) -> None:
    sheet = str(tmp_path / "g.rsp")
    kept = Path(code_path(sheet))
    kept.write_text("AAAAAAAAAAAAAAAAAAAA\n", encoding="utf-8")
    kept.chmod(0o644)
    with speaking("en"), pytest.raises(AccessCodeError, match="may be read by others"):
        sheet_code(sheet)
    kept.chmod(0o600)
    assert sheet_code(sheet).code == "A" * 20
    kept.write_text("<script>\n", encoding="utf-8")
    with speaking("en"), pytest.raises(AccessCodeError, match="does not hold an access code"):
        sheet_code(sheet)
