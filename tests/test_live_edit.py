"""Correcting the sheet at the table through a real pseudo-terminal (pexpect), in English
and in Russian: `back` for a mistyped bid, `undo` in the middle of a deal, `edit 3` at
deal 10, a disputed sheet resumed (its written values kept), a kill during an edit."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from raspis_cli.model.record import GameRecord
from raspis_cli.notation import read_text
from raspis_cli.notation.writer import write_games
from tests.clikit import run_cli
from tests.livekit import PLAYERS, LiveDriver, TypedDeal, planned_game

ROOT = Path(__file__).resolve().parent.parent
LANGS = ["en", "ru"]
WORDS = {
    "en": {"back": "back", "undo": "undo", "edit": "edit", "sheet": "sheet", "schedule": "schedule",
           "quit": "quit", "keep": "", "rewrite": "rewrite"},
    "ru": {"back": "назад", "undo": "отмена", "edit": "исправить", "sheet": "расписка",
           "schedule": "расписание", "quit": "выход", "keep": "", "rewrite": "переписать"},
}
SAID = {
    "en": {"taken back": "taken back: ", "corrected": "deal 3 corrected", "kept": "kept as written",
           "changes": "the correction changes", "keep?": r"keep them as written or rewrite them",
           "differ": r"1 written value differs from the recount; it is kept as written",
           "overbid": r"bids \d+ of \d+ cards?: (overbid|underbid) by \d"},
    "ru": {"taken back": "отменено: ", "corrected": "раздача 3 исправлена", "kept": "оставлены как записаны",
           "changes": "исправление меняет", "keep?": r"оставить как записано или переписать",
           "differ": r"1 записанное значение расходится с пересчётом; оно оставлено как записано",
           "overbid": r"заказано \d+ при \d+ карт\w*: (перебор|недобор) \d"},
}


def _read_game(path: Path) -> GameRecord:
    result = read_text(path.read_text(encoding="utf-8"))
    assert not result.diagnostics
    assert len(result.games) == 1
    return result.games[0]


def _new(path: Path, lang: str, deals: list[TypedDeal], typed: int = 0) -> LiveDriver:
    """`live` on a new sheet, the first ``typed`` deals typed in."""
    live = LiveDriver(path, "--players", ", ".join(PLAYERS), "--dealer", deals[0].dealer, lang=lang)
    live.expect(live.words["deals"])
    for deal in deals[:typed]:
        live.type_deal(deal)
    return live


def _written_before(path: Path, lang: str, deals: list[TypedDeal], typed: int) -> LiveDriver:
    """`live` on a sheet whose first ``typed`` deals were written in an earlier session:
    to this one, every value in the file is the person's."""
    live = _new(path, lang, deals, typed)
    live.answer(live.trump(), WORDS[lang]["quit"])
    assert live.finish() == 0
    return LiveDriver(path, lang=lang)


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_a_mistyped_bid_is_fixed_with_back(tmp_path: Path, lang: str) -> None:
    _, deals = planned_game(seed=7)
    path = tmp_path / "g.rsp"
    live = _new(path, lang, deals)
    deal = deals[1]  # 2 cards
    live.type_deal(deals[0])
    live.expect(live.header(2))
    live.answer(live.trump(), str(deal.trump))
    (first, bid), (second, _bid) = deal.bids[0], deal.bids[1]
    wrong = 2 if bid != 2 else 1
    live.answer(live.bid(first), str(wrong))
    # at the next player's prompt: one question back, the mistyped bid offered
    live.answer(live.bid(second), WORDS[lang]["back"])
    live.answer(live.bid(first) + "|" + re.escape(f"[{wrong}]:"), str(bid))
    for name, value in deal.bids[1:]:
        live.answer(live.bid(name), str(value))
    assert sum(b for _, b in deal.bids) != 2
    live.expect(SAID[lang]["overbid"])  # the sum against the cards, after the last bid
    live.type_taken(deal)
    live.answer(live.trump(), WORDS[lang]["quit"])
    assert live.finish() == 0
    game = _read_game(path)
    assert game.deals[1].bids == dict(deal.bids)
    assert run_cli("validate", str(path)).returncode == 0


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_undo_in_the_middle_of_a_deal_leaves_the_previous_deal_intact(tmp_path: Path, lang: str) -> None:
    _, deals = planned_game(seed=7)
    path = tmp_path / "g.rsp"
    live = _new(path, lang, deals, typed=2)
    before = path.read_bytes()
    deal = deals[2]
    live.expect(live.header(3))
    live.answer(live.trump(), str(deal.trump))
    live.answer(live.bid(deal.bids[0][0]), str(deal.bids[0][1]))
    live.answer(live.bid(deal.bids[1][0]), str(deal.bids[1][1]))
    live.answer(live.bid(deal.bids[2][0]), WORDS[lang]["undo"])      # takes back the second bid
    live.expect(SAID[lang]["taken back"])
    live.answer(live.bid(deal.bids[1][0]), WORDS[lang]["undo"])      # and the first
    live.answer(live.bid(deal.bids[0][0]), WORDS[lang]["undo"])      # and the trump
    live.answer(live.trump(), WORDS[lang]["sheet"])                  # the sheet so far: deals 1 and 2
    seen = live.expect(r"└[^\n]*\n[\s\S]*?" + live.trump())
    assert path.read_bytes() == before  # deal 2 (and 1) as written
    assert re.search(r"│ 2 +│", seen) and not re.search(r"│ 3 +│", seen), seen
    live.child.sendline(str(deal.trump))
    for name, value in deal.bids:
        live.answer(live.bid(name), str(value))
    live.type_taken(deal)
    live.answer(live.trump(), WORDS[lang]["quit"])
    assert live.finish() == 0
    game = _read_game(path)
    assert [d.bids for d in game.deals[:3]] == [dict(d.bids) for d in deals[:3]]
    assert run_cli("validate", str(path)).returncode == 0


def _cells(text: str) -> list[list[str]]:
    """The cells of each deal line: number-kind-dealer-trump, then one per player."""
    return [[c.strip() for c in line.split("|")] for line in text.splitlines() if re.match(r"\d+\. ", line)]


def _edit_deal_3(live: LiveDriver, lang: str, deals: list[TypedDeal], choice: str) -> tuple[str, int]:
    """At deal 10's first question: edit 3, one count changed (the last one follows as the
    default); the values the person wrote that it changes: ``choice``, keep or rewrite."""
    changed, new = _type_edit_3(live, lang, deals)
    live.expect(SAID[lang]["changes"])
    live.answer(SAID[lang]["keep?"], choice)
    live.expect(SAID[lang]["corrected"])
    return changed, new


def _type_edit_3(live: LiveDriver, lang: str, deals: list[TypedDeal]) -> tuple[str, int]:
    """``edit 3`` typed at a deal's first question, every value kept but one count (the last
    one follows as the default): the player whose count changed, and the new count."""
    deal = deals[2]
    live.answer(live.trump(), f"{WORDS[lang]['edit']} 3")
    live.answer(live.trump() + "|" + re.escape(f"[{deal.trump}]:"), "")
    for name, value in deal.bids:
        live.answer(live.bid(name) + "|" + re.escape(f"[{value}]:"), "")
    changed, taken = deal.taken[0]
    new = taken + 1 if taken < 3 else taken - 1
    live.answer(live.taken(changed) + "|" + re.escape(f"[{taken}]:"), str(new))
    for name, value in deal.taken[1:-1]:
        live.answer(live.taken(name) + "|" + re.escape(f"[{value}]:"), "")
    live.answer(live.taken(deal.taken[-1][0]), "")
    return changed, new


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_edit_3_at_deal_10_changes_one_count_and_keeps_every_other_cell(tmp_path: Path, lang: str) -> None:
    _, deals = planned_game(seed=7)
    path = tmp_path / "g.rsp"
    live = _written_before(path, lang, deals, typed=9)
    live.expect(live.header(10))
    before = path.read_text(encoding="utf-8")
    changed, new = _edit_deal_3(live, lang, deals, WORDS[lang]["keep"])
    live.expect(SAID[lang]["kept"])
    after = path.read_text(encoding="utf-8")
    # deal 10 is asked again where it was; quit
    live.expect(live.header(10))
    live.answer(live.trump(), WORDS[lang]["quit"])
    assert live.finish() == 0
    old_cells, new_cells = _cells(before), _cells(after)
    differing = [(i, j) for i, (a, b) in enumerate(zip(old_cells, new_cells, strict=True))
                 for j, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    # deal 3's line: the changed player's count, and the last one that follows it
    assert {i for i, _j in differing} == {2}
    old_game, new_game = _read_game_text(before), _read_game(path)
    assert new_game.deals[2].taken is not None and new_game.deals[2].taken[changed] == new
    for a, b in zip(old_game.deals, new_game.deals, strict=True):
        assert (a.bids, a.scores, a.totals, a.trump) == (b.bids, b.scores, b.totals, b.trump)
    diff_takens = [n for n in PLAYERS if old_game.deals[2].taken[n] != new_game.deals[2].taken[n]]  # type: ignore[index]
    assert len(diff_takens) == 2 and changed in diff_takens
    # kept as written: the scores written for deal 3 now differ from the recount
    check = run_cli("validate", str(path))
    assert check.returncode == 1 and "score-mismatch: deal 3" in check.stdout


def _read_game_text(text: str) -> GameRecord:
    result = read_text(text)
    assert not result.diagnostics
    return result.games[0]


@pytest.mark.slow
def test_edit_with_rewrite_leaves_a_sheet_that_validates(tmp_path: Path) -> None:
    _, deals = planned_game(seed=7)
    path = tmp_path / "g.rsp"
    live = _written_before(path, "en", deals, typed=9)
    live.expect(live.header(10))
    _edit_deal_3(live, "en", deals, "rewrite")
    live.expect("written values rewritten")
    for deal in deals[9:11]:
        live.type_deal(deal)
    live.answer(live.trump(), "quit")
    assert live.finish() == 0
    check = run_cli("validate", str(path))
    assert check.returncode == 0, check.stdout


RECOMPUTED = {"en": r"(\d+) scores and totals raspis had computed itself are recomputed",
              "ru": r"очки и суммы, посчитанные самим raspis, пересчитаны: (\d+)"}


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_an_edit_in_the_same_session_recomputes_raspis_s_own_numbers_and_says_so(
        tmp_path: Path, lang: str) -> None:
    _, deals = planned_game(seed=7)
    path = tmp_path / "g.rsp"
    live = _new(path, lang, deals, typed=9)
    live.expect(live.header(10))
    _type_edit_3(live, lang, deals)
    live.expect(SAID[lang]["corrected"])  # no question: the numbers were raspis's own
    live.expect(RECOMPUTED[lang])
    assert int(live.child.match.group(1)) >= 2 * len(PLAYERS)  # deal 3's scores and totals at least
    live.type_deal(deals[9])  # deal 10's totals go on from the recount
    live.answer(live.trump(), WORDS[lang]["quit"])
    assert live.finish() == 0
    check = run_cli("validate", str(path))
    assert check.returncode == 0, check.stdout


def _disputed(path: Path) -> str:
    """The dispute sample stopped after deal 20: deal 17's score written 25 (recomputed 5)."""
    text = (ROOT / "samples" / "raspisnoy-sheet-dispute.rsp").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines()
             if not re.match(r"(2[1-8])\. |final", line)]
    sheet = write_games(read_text("\n".join(lines) + "\nunfinished\n").games)  # its canonical form
    path.write_text(sheet, encoding="utf-8")
    return sheet


def _violations(path: Path) -> list[str]:
    out = run_cli("validate", str(path)).stdout
    # each violation with its line and column, the file's name left out
    return [line.split(":", 1)[1] for line in out.splitlines() if re.match(r"\S+:\d+:\d+: ", line)]


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_a_disputed_sheet_resumed_keeps_its_disputed_cells(tmp_path: Path, lang: str) -> None:
    path = tmp_path / "dispute.rsp"
    sheet = _disputed(path)
    violations = _violations(path)
    assert violations and "deal 17, Boris" in violations[0]
    line17 = next(line for line in sheet.splitlines() if line.startswith("17. "))
    live = LiveDriver(path, lang=lang)
    said = live.expect(live.trump())
    assert re.search(SAID[lang]["differ"], said), said
    assert "17, Boris" in said and "25" in said and "+5" in said
    # deal 21, a miser: the trump and the counts only (Анна deals, Boris counts first);
    # its scores and totals are no wider than those before, so the lines keep their columns
    live.child.sendline("♦")
    for name, taken in (("Boris", "2"), ("Вера", "3"), ("Дмитрий", "4"), ("Анна", "")):
        live.answer(live.taken(name), taken)
    live.expect(live.done(21))
    live.answer(live.trump(), WORDS[lang]["quit"])
    assert live.finish() == 0
    text = path.read_text(encoding="utf-8")
    assert next(line for line in text.splitlines() if line.startswith("17. ")) == line17
    assert _cells(text)[:20] == _cells(sheet)[:20]
    assert _violations(path) == violations
    game = _read_game(path)
    assert game.deals[20].taken == {"Boris": 2, "Вера": 3, "Дмитрий": 4, "Анна": 0}


@pytest.mark.slow
def test_a_kill_during_an_edit_leaves_the_file_as_before_or_after(tmp_path: Path) -> None:
    _, deals = planned_game(seed=7)
    template = tmp_path / "template.rsp"
    live = _new(template, "en", deals, typed=9)
    live.answer(live.trump(), "quit")
    assert live.finish() == 0
    before = template.read_bytes()
    # the edit done to the end: what "after" is
    done = tmp_path / "done.rsp"
    done.write_bytes(before)
    live = LiveDriver(done)
    _edit_deal_3(live, "en", deals, "rewrite")
    live.answer(live.trump(), "quit")
    assert live.finish() == 0
    after = done.read_bytes()
    assert after != before
    deal = deals[2]
    answers = ["edit 3", "", *([""] * len(deal.bids))]
    taken = deal.taken[0][1]
    answers += [str(taken + 1 if taken < 3 else taken - 1), *([""] * (len(deal.taken) - 1)), "rewrite"]
    seen = []
    for k, delay in enumerate((None, 0.0, 0.02, 0.1)):
        path = tmp_path / f"k{k}.rsp"
        path.write_bytes(before)
        live = LiveDriver(path)
        live.expect(live.trump())
        if delay is None:  # in the middle of the edit's questions
            for text in answers[:5]:
                live.child.sendline(text)
            live.expect(live.bid(deal.bids[-1][0]))
        else:  # everything typed at once, killed while it is written
            for text in answers:
                live.child.sendline(text)
            time.sleep(delay)
        live.kill()
        got = path.read_bytes()
        assert got in (before, after)
        seen.append(got == after)
    assert not seen[0]
