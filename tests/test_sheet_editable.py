"""The editable sheet behind `raspis live` and `raspis serve`, without a terminal: steps,
back, undo, edit with keep/rewrite, written values kept as evidence, the file's lock,
its change on disk, a link, the read-back."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from raspis_cli.judge.replay import replay_game
from raspis_cli.model.record import GameRecord
from raspis_cli.notation import read_text
from raspis_cli.notation.writer import write_games
from raspis_cli.rules import Rules
from raspis_cli.sheet.blank import SheetError, blank_game
from raspis_cli.sheet.editable import EditableSheet, Outcome, read_command, read_count
from raspis_cli.sheet.sheetfile import SheetBusyError, SheetChangedError, SheetFile
from raspis_cli.text.messages import Message
from tests.livekit import PLAYERS, TypedDeal, planned_game

ROOT = Path(__file__).resolve().parent.parent


def _sheet(seed: int = 7) -> tuple[EditableSheet, list[TypedDeal]]:
    _, deals = planned_game(seed)
    game = blank_game(Rules.preset("raspisnoy"), PLAYERS, "raspisnoy", {}, {}, deals[0].dealer)
    return EditableSheet([game]), deals


def _answers(deal: TypedDeal) -> list[str]:
    trump = [deal.trump] if deal.trump else []
    return trump + [str(b) for _, b in deal.bids] + [str(t) for _, t in deal.taken]


def _type(sheet: EditableSheet, answers: list[str]) -> Outcome:
    out = Outcome()
    for text in answers:
        out = sheet.answer(text)
        assert out.refused is None, (sheet.step(), text, out.refused)
    return out


def test_a_game_typed_step_by_step_is_what_the_engine_scores() -> None:
    sheet, deals = _sheet()
    simulated, _ = planned_game(7)
    for deal in deals:
        step = sheet.step()
        assert step is not None and step.deal.number == deal.number
        assert _type(sheet, _answers(deal)).event == "completed"
    assert sheet.step() is None and sheet.finished
    assert sheet.game.totals == replay_game(simulated).totals
    assert replay_game(sheet.game).valid
    assert sheet.disagreements() == []


def test_the_last_bid_tells_the_sum_against_the_cards() -> None:
    sheet, deals = _sheet()
    *first, last = _answers(deals[1])[:1 + len(deals[1].bids)]
    _type(sheet, _answers(deals[0]))
    _type(sheet, first)
    out = sheet.answer(last)
    assert out.bid_sum is not None and out.bid_sum.cards == 2
    assert out.bid_sum.bids == sum(b for _, b in deals[1].bids)
    assert re.fullmatch(r"bids \d of 2 cards: (overbid|underbid) by \d", out.bid_sum.text().english())


def test_back_offers_the_value_again_and_undo_drops_it() -> None:
    sheet, deals = _sheet()
    _type(sheet, _answers(deals[0]))
    answers = _answers(deals[1])
    _type(sheet, answers[:3])  # trump and two bids
    back = sheet.back()
    assert back.undone is not None and back.undone.startswith("bid:")
    step = sheet.step()
    assert step is not None and step.key == back.undone and step.default == answers[2]
    undone = sheet.undo()  # the first bid (the second is no longer answered)
    assert undone.event == "undone" and undone.undone == f"bid:{deals[1].bids[0][0]}"
    assert sheet.undo().undone == "trump"
    assert sheet.back().refused is not None  # the deal's first question
    before = sheet.text()
    # the open deal is empty: undo takes back deal 1, reopened at its last count
    out = sheet.undo()
    assert out.event == "taken-back" and out.number == 1 and sheet.played() == 0
    step = sheet.step()
    assert step is not None and step.key == f"taken:{deals[0].taken[-1][0]}"
    assert sheet.text() == before and sheet.kept_as_written() == [1]  # the file keeps it as written
    _type(sheet, [""])  # its default, the count that makes the sum
    assert sheet.text() == before and sheet.kept_as_written() == [] and sheet.played() == 1
    assert sheet.undo().event == "taken-back"
    _type(sheet, [""])
    # nothing from before this session is taken back by undo
    resumed = EditableSheet(read_text(sheet.text()).games)
    assert resumed.undo().refused is not None


def _reopened(sheet: EditableSheet) -> EditableSheet:
    """The sheet as the next session reads it: every value in the file is the person's."""
    return EditableSheet(read_text(sheet.text()).games)


def test_edit_offers_the_values_keeps_written_ones_by_default_and_rechecks() -> None:
    sheet, deals = _sheet()
    for deal in deals[:9]:
        _type(sheet, _answers(deal))
    sheet = _reopened(sheet)
    _type(sheet, _answers(deals[9])[:2])  # deal 10 begun: put aside during the edit
    before = sheet.game
    assert sheet.edit(3).event == "editing"
    deal = deals[2]
    step = sheet.step()
    assert step is not None and step.editing and step.key == "trump" and step.default == deal.trump
    _type(sheet, [""] * (1 + len(deal.bids)))
    first, taken = deal.taken[0]
    new = taken + 1 if taken < 3 else taken - 1
    _type(sheet, [str(new)] + [""] * (len(deal.taken) - 2))
    last = sheet.step()
    assert last is not None and last.default == str(taken + deal.taken[-1][1] - new)
    asks = sheet.answer("")
    assert asks.event == "asks"
    step = sheet.step()
    assert step is not None and step.what == "rewrite" and step.default == "keep"
    assert {(c.number, c.what) for c in step.changes} >= {(3, "score"), (3, "total"), (9, "total")}
    out = sheet.answer("")
    assert out.event == "edited" and out.kept == list(step.changes) and not out.rewritten
    after = sheet.game
    for a, b in zip(before.deals, after.deals, strict=True):
        assert (a.bids, a.scores, a.totals) == (b.bids, b.scores, b.totals)
    assert after.deals[2].taken is not None and after.deals[2].taken[first] == new
    assert {c.number for c in sheet.disagreements()} >= {3}
    # deal 10 comes back where it was
    step = sheet.step()
    assert step is not None and step.deal.number == 10 and len(sheet.open.trail) == 2  # type: ignore[union-attr]


def _edit_deal_3(sheet: EditableSheet, deal: TypedDeal, *, back: bool = False) -> Outcome:
    """Deal 3 corrected: its first count one off (``back``: as it was typed first), the
    last one following."""
    sheet.edit(3)
    _type(sheet, [""] * (1 + len(deal.bids)))
    taken = deal.taken[0][1]
    first = taken if back else taken + 1 if taken < 3 else taken - 1
    _type(sheet, [str(first)] + [""] * (len(deal.taken) - 2))
    return sheet.answer("")


def test_an_edit_recomputes_the_scores_and_totals_raspis_wrote_itself_and_says_so() -> None:
    sheet, deals = _sheet()
    for deal in deals[:9]:
        _type(sheet, _answers(deal))
    own = sheet.own_values()
    assert (2, "Анна", "score") in own and (8, "Анна", "total") in own
    out = _edit_deal_3(sheet, deals[2])
    assert out.event == "edited" and not out.kept and not out.rewritten  # nothing asked
    assert {(c.number, c.what) for c in out.recomputed} >= {(3, "score"), (3, "total"), (9, "total")}
    assert all(c.own for c in out.recomputed)
    assert replay_game(sheet.game).valid and sheet.disagreements() == []
    # deal 10's total starts from the recount, as every total before it does
    out = _type(sheet, _answers(deals[9]))
    assert out.event == "completed" and replay_game(sheet.game).valid


def test_values_rewritten_at_the_persons_word_are_raspis_s_own_from_then_on() -> None:
    sheet, deals = _sheet()
    for deal in deals[:9]:
        _type(sheet, _answers(deal))
    sheet = _reopened(sheet)
    assert sheet.own_values() == set()
    assert _edit_deal_3(sheet, deals[2]).event == "asks"
    assert sheet.answer("rewrite").rewritten
    out = _edit_deal_3(sheet, deals[2], back=True)  # corrected again: what raspis rewrote is its own
    assert out.event == "edited" and out.recomputed and not out.kept


def test_edit_with_rewrite_and_a_later_deal_that_no_longer_stands() -> None:
    sheet, deals = _sheet()
    for deal in deals[:9]:
        _type(sheet, _answers(deal))
    sheet = _reopened(sheet)
    sheet.edit(3)
    deal = deals[2]
    _type(sheet, [""] * (1 + len(deal.bids)))
    taken = deal.taken[0][1]
    _type(sheet, [str(taken + 1 if taken < 3 else taken - 1)] + [""] * (len(deal.taken) - 2))
    sheet.answer("")
    out = sheet.answer("rewrite")
    assert out.event == "edited" and out.rewritten and not out.kept
    assert replay_game(sheet.game).valid and sheet.disagreements() == []


def _disputed() -> GameRecord:
    text = (ROOT / "samples" / "raspisnoy-sheet-dispute.rsp").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not re.match(r"(2[1-8])\. |final", line)]
    return read_text("\n".join(lines) + "\nunfinished\n").games[0]


def test_a_disputed_sheet_lists_its_cells_and_keeps_them() -> None:
    sheet = EditableSheet([_disputed()])
    cells = [c for c in sheet.disagreements() if not c.carried]
    assert [(c.number, c.player, c.what, c.written, c.recomputed) for c in cells] == [
        (17, "Boris", "score", 25, 5)]
    line17 = next(line for line in sheet.text().splitlines() if line.startswith("17. "))
    # deal 21, a miser: the trump and the counts (Анна deals: Boris counts first), no wider than before
    out = _type(sheet, ["♦", "2", "3", "4", ""])
    assert out.event == "completed"
    assert next(line for line in sheet.text().splitlines() if line.startswith("17. ")) == line17
    kinds = [(p.kind, p.deal, p.player) for p in replay_game(sheet.game).problems]
    assert kinds == [("score-mismatch", 17, "Boris")]


def test_an_edit_never_rewrites_a_value_that_disagreed_before() -> None:
    sheet = EditableSheet([_disputed()])
    sheet.edit(16)
    _type(sheet, [""] * 8)
    step = sheet.step()
    assert step is None or step.what != "rewrite"  # nothing changed: written straight back
    sheet.edit(15)
    step = sheet.step()
    assert step is not None
    # deal 15, no trump: the four bids kept, Дмитрий's 0 made 1, Вера's 1 follows as 0
    _type(sheet, [""] * 4)
    taken = sheet.step()
    assert taken is not None and (taken.player, taken.default) == ("Дмитрий", "0")
    _type(sheet, ["1", "", ""])
    last = sheet.step()
    assert last is not None and (last.player, last.default) == ("Вера", "0")
    sheet.answer("")
    step = sheet.step()
    assert step is not None and step.what == "rewrite"
    assert all(not (c.number == 17 and c.what == "score") for c in step.changes)
    sheet.answer("rewrite")
    assert sheet.game.deals[16].scores["Boris"] == 25  # type: ignore[index]


def _arithmetic(game: GameRecord, name: str) -> list[int]:
    """Each written total minus the written total before it and the written score: the
    person's own arithmetic, deal by deal (0 where it adds up)."""
    out, last = [], 0
    for deal in game.deals:
        if deal.totals is None or deal.scores is None:
            continue
        out.append(deal.totals[name] - last - deal.scores[name])
        last = deal.totals[name]
    return out


def test_rewriting_under_a_dispute_keeps_the_dispute_and_the_written_arithmetic() -> None:
    sheet = EditableSheet([_disputed()])
    kinds = [(p.kind, p.deal, p.player) for p in replay_game(sheet.game).problems]
    arithmetic = {name: _arithmetic(sheet.game, name) for name in sheet.players}
    sheet.edit(5)  # deal 5: Boris 5/5 made 5/4, Вера's 1/0 follows as 1/1
    _type(sheet, [""] * 5 + ["4", "1", "", ""])
    step = sheet.step()
    assert step is not None and step.what == "rewrite"
    totals = {(c.number, c.what): (c.written, c.recomputed) for c in step.changes if c.player == "Boris"}
    assert totals[(5, "score")] == (50, -10) and totals[(17, "total")] == (208, 148)
    assert (17, "score") not in totals  # the disputed score is the person's evidence
    sheet.answer("rewrite")
    assert [(p.kind, p.deal, p.player) for p in replay_game(sheet.game).problems] == kinds
    assert {name: _arithmetic(sheet.game, name) for name in sheet.players} == arithmetic
    assert sheet.game.deals[16].scores["Boris"] == 25  # type: ignore[index]


@pytest.mark.parametrize(("text", "got"), [
    ("3", 3), ("пас", 0), ("P", 0), (" 12 ", 12), ("x", None), ("1234", None), ("-1", None),
    ("²", "'²' is not written with the digits 0-9"), ("①", "'①' is not written with the digits 0-9"),
    ("３", "'３' is not written with the digits 0-9"),
])
def test_read_count(text: str, got: int | str | None) -> None:
    read = read_count(text)
    assert (read.english() if isinstance(read, Message) else read) == got


@pytest.mark.parametrize(("text", "got"), [
    ("назад", ("back", "")), ("UNDO", ("undo", "")), ("исправить 3", ("edit", "3")),
    ("edit", ("edit", "")), ("; опоздал", ("comment", "; опоздал")),
    ("комментарий опоздал", ("comment", "; опоздал")), ("расписка", ("sheet", "")),
    ("расписание", ("schedule", "")), ("back 2", None), ("9♥", None), ("", None),
])
def test_read_command(text: str, got: tuple[str, str] | None) -> None:
    assert read_command(text) == got


def test_a_dealer_who_is_not_a_player_is_refused_with_the_line() -> None:
    game = blank_game(Rules.preset("raspisnoy"), PLAYERS, "raspisnoy", {}, {})
    text = write_games([game]).replace("2.  2          Борис", "2.  2          Петя ")
    read = read_text(text)
    with pytest.raises(SheetError, match=r"line \d+: the dealer of deal 2, 'Петя', is not one of the "):
        EditableSheet(read.games)


def test_ahead_lists_the_deals_to_play_with_their_dealers() -> None:
    sheet, deals = _sheet()
    _type(sheet, _answers(deals[0]))
    ahead = sheet.ahead()
    assert [d.number for d in ahead] == list(range(2, 29))
    assert ahead[0].dealer == deals[1].dealer and ahead[-1].kind == "golden"


@pytest.mark.parametrize("comment", ["; a\rb", "; a\nb", "; a\x00b", "; a\u2028b", "; " + "я" * 33_000])
def test_a_comment_that_would_not_read_back_is_refused(comment: str) -> None:
    sheet, _ = _sheet()
    out = sheet.comment(comment)
    assert out.refused is not None
    assert sheet.open is not None and sheet.open.comments == []
    assert sheet.comment("; обычный").event == "comment"


def test_the_lock_names_the_keeper_and_is_given_back(tmp_path: Path) -> None:
    path = tmp_path / "g.rsp"
    path.write_text("x", encoding="utf-8")
    first = SheetFile(str(path), "raspis serve").lock()
    with pytest.raises(SheetBusyError, match=rf"raspis serve, process {os.getpid()} on "):
        SheetFile(str(path)).lock()
    first.close()
    with SheetFile(str(path)).lock():
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.rsp"]


def test_a_save_refuses_a_change_on_disk_and_writes_through_a_link(tmp_path: Path) -> None:
    sheet, _ = _sheet()
    real = tmp_path / "real.rsp"
    real.write_text(sheet.text(), encoding="utf-8")
    link = tmp_path / "link.rsp"
    link.symlink_to(real)
    store = SheetFile(str(link)).lock()
    store.read()
    text = sheet.text().replace("[Rules", "; a comment\n[Rules")
    store.save(text)
    assert link.is_symlink() and real.read_text(encoding="utf-8") == text
    real.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(SheetChangedError):
        store.save(text)
    assert real.read_text(encoding="utf-8") == text + "\n"
    store.close()


def test_a_save_refuses_text_that_would_not_read_back(tmp_path: Path) -> None:
    path = tmp_path / "g.rsp"
    store = SheetFile(str(path))
    with pytest.raises(SheetError, match="would not read back"):
        store.save('[Players "A, B"]\n1. 1 A | x\n')
    assert not path.exists()


class _Saved:
    """A stand-in for the sheet's file: the last text saved."""

    def __init__(self) -> None:
        self.text = ""

    def save(self, text: str) -> None:
        self.text = text


def _played_in(text: str) -> list[int]:
    return [d.number for d in read_text(text).games[-1].deals
            if d.bids is not None or d.taken is not None]


def _four_deals_saved() -> tuple[EditableSheet, _Saved]:
    sheet, deals = _sheet()
    saved = _Saved()
    sheet.file = saved
    for deal in deals[:4]:
        _type(sheet, _answers(deal))
    return sheet, saved


def test_an_edit_while_a_deal_is_taken_back_keeps_that_deal_in_the_file() -> None:
    """Deal 4 taken back (undo), then deal 2 corrected and saved: the file
    still holds deal 4 as written, and the sheet names deal 4 (not 2) as kept."""
    sheet, saved = _four_deals_saved()
    written = saved.text
    assert sheet.undo().event == "taken-back" and saved.text == written
    assert sheet.edit(2).event == "editing"
    assert sheet.kept_as_written() == [4]
    while (step := sheet.step()) is not None and step.editing:
        assert sheet.answer("").refused is None  # every value as written
    assert _played_in(saved.text) == [1, 2, 3, 4] and saved.text == written
    assert sheet.kept_as_written() == [4] and sheet.saved_played() == 4 and sheet.played() == 3


def test_a_second_undo_keeps_both_deals_taken_back_until_they_are_entered_again() -> None:
    """back to deal 4's first question, undo again: deal 3 is reopened, and the
    file keeps 3 and 4 as written; a comment (saved as it is typed) goes onto deal 3 as
    written; taking back every answer of deal 3 lets both go."""
    sheet, saved = _four_deals_saved()
    sheet.undo()
    while sheet.open is not None and sheet.open.trail:
        sheet.back()
    assert sheet.undo().number == 3
    assert sheet.kept_as_written() == [3, 4] and sheet.saved_played() == 4
    assert sheet.comment("спорная").saved and not sheet.keep_comments()  # saved as it is typed
    game = read_text(saved.text).games[-1]
    assert _played_in(saved.text) == [1, 2, 3, 4] and game.deals[2].comments == ["; спорная"]
    while sheet.open is not None and sheet.open.trail:
        sheet.undo()
    assert sheet.kept_as_written() == [] and _played_in(saved.text) == [1, 2]
