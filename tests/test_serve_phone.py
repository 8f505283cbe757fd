"""``raspis serve`` on a phone: the whole sheet at a glance, each value a tap away.

A 28-deal sheet (samples/raspisnoy-sheet-dispute.rsp, deals 1-27 written, the
28th open) is served as a person serves it, and read in headless Chromium at
390×844 with touch emulation (``tests.servekit.phone``) and on a desktop screen
(1280×900), in English and in Russian: the names and the totals stay on screen
to the bottom of the page, the leader is marked, the 28 deals fit one screen,
every button and link of the header is a finger wide, no kind is cut, a tap on a line opens its
scores, and a tap on the disputed cell shows what was written beside the
recount and why. The club's tables fit or sit in a box that scrolls, with a
cue. Screenshots go to ``tests/output/``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browserkit import need_browser
from tests.clikit import ROOT, run_cli
from tests.servekit import DESKTOP, PHONE, Served, desktop, phone, say

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

OUTPUT = Path(os.environ.get("RASPIS_TEST_OUTPUT") or ROOT / "tests" / "output")

WORDS: dict[str, dict[str, Any]] = {
    "en": {"dispute": "Boris: score written 25, recounted 5", "why": "0/0 → pass_made = +5",
           "kinds": ["no-trump", "dark", "miser", "golden"], "correct": "Correct deal 20",
           "comment": "спор: Борис записал себе лишние 20", "sheet": "Score sheet"},
    "ru": {"dispute": "Boris: очки: записано 25, пересчитано 5", "why": "0/0 → пас сыгран = +5",
           "kinds": ["бескозырка", "тёмная", "мизер", "золотая"], "correct": "Исправить раздачу 20",
           "comment": "спор: Борис записал себе лишние 20", "sheet": "Расписка"},
}
"""What the page says of the disputed sheet, in each language."""


def disputed_sheet(folder: Path) -> Path:
    """samples/raspisnoy-sheet-dispute.rsp with its last deal not yet played:
    28 deals, the 28th open, deal 17's score for Boris written 25 (recounted 5)."""
    lines = (ROOT / "samples" / "raspisnoy-sheet-dispute.rsp").read_text(encoding="utf-8").splitlines()
    cut = next(i for i, line in enumerate(lines) if line.startswith("28."))
    game = folder / "dispute.rsp"
    game.write_text("\n".join([*lines[:cut], "28. 9 golden   Дмитрий  |       |       |       |       |",
                               "unfinished", ""]), encoding="utf-8")
    return game


@pytest.fixture(params=[("en", "phone"), ("ru", "phone"), ("en", "desktop"), ("ru", "desktop")],
                ids=lambda p: "-".join(p))
def screen(request: pytest.FixtureRequest) -> Iterator[tuple[Any, str, str]]:
    """A browser (a phone or a desktop screen) in a language: (driver, lang, size)."""
    need_browser("raspis serve")
    lang, size = request.param
    driver = phone(lang) if size == "phone" else desktop(lang)
    try:
        yield driver, lang, size
    finally:
        driver.quit()


def _wait(driver: Any, condition: str, seconds: float = 20) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(
        lambda d: d.execute_script(f"return {condition};"))


def _rect(driver: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] = driver.execute_script(
        "var r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width,"
        " height: r.height, inner: window.innerHeight, innerWidth: window.innerWidth};", selector)
    return found


def _in_view(driver: Any, selector: str) -> None:
    r = _rect(driver, selector)
    assert r["height"] > 0 and r["top"] >= 0 and r["bottom"] <= r["inner"], (selector, r)
    assert r["left"] >= 0 and r["right"] <= r["innerWidth"], (selector, r)


def _small_targets(driver: Any) -> list[Any]:
    """The buttons and the header's links shown now that are less than 44 px in either dimension."""
    found: list[Any] = driver.execute_script(
        "return Array.from(document.querySelectorAll('button, header nav a')).filter(function (b) {"
        "  var r = b.getBoundingClientRect(); return r.width > 0 && r.height > 0; })"
        ".map(function (b) { var r = b.getBoundingClientRect();"
        "  return [b.textContent, Math.round(r.width), Math.round(r.height)]; })"
        ".filter(function (s) { return s[1] < 44 || s[2] < 44; });")
    return found


def _cut(driver: Any, selector: str) -> list[Any]:
    """The elements of ``selector`` whose text is wider than their box (cut or ellipsed)."""
    found: list[Any] = driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]))"
        ".filter(function (e) { return e.scrollWidth > e.clientWidth; })"
        ".map(function (e) { return [e.textContent, e.scrollWidth, e.clientWidth]; });", selector)
    return found


def _shot(driver: Any, name: str) -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    path = OUTPUT / name
    driver.save_screenshot(str(path))
    return path


def _errors(driver: Any) -> list[Any]:
    return [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]


@pytest.mark.slow
def test_the_whole_sheet_at_a_glance(screen: tuple[Any, str, str], tmp_path: Path) -> None:
    """28 deals: the sheet fits one screen of a phone; scrolled to the bottom of the page,
    the names and the totals are still on screen, the leader (Boris, by the
    recount) starred; no kind cut; every button (and the header's links) at least 44×44 px; nothing
    scrolls sideways. The deal's seats show every name whole (Дмитрий in a phone's quarter); the
    status line said after a comment stays on screen above the pinned names."""
    driver, lang, size = screen
    words = WORDS[lang]
    with Served(str(disputed_sheet(tmp_path)), "--lan") as served:
        driver.get(served.url)
        assert driver.find_element("css selector", "h2").text == words["sheet"]
        assert _cut(driver, ".seat .who") == []
        field = driver.find_element("css selector", "form[data-form=comment] input")
        field.send_keys("table 2")
        field.submit()
        _wait(driver, "document.getElementById('msg').textContent.length > 0")
        height = driver.execute_script("return document.documentElement.scrollHeight")
        sheet = _rect(driver, "table.sheet")
        assert len(driver.find_elements("css selector", ".sheet tr.deal-row")) == 28
        if size == "phone":  # the sheet's 28 deals, its names and totals, on one screen of the phone
            assert sheet["height"] <= sheet["inner"], (sheet, height)
        driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
        _wait(driver, "window.scrollY > 0")
        _in_view(driver, ".sheet thead tr.names")
        _in_view(driver, ".sheet thead tr.totals")
        _in_view(driver, "#msg")
        status, pinned = _rect(driver, "#msg"), _rect(driver, ".sheet thead")
        assert status["bottom"] <= pinned["top"] + 0.5, (status, pinned)
        names = driver.find_element("css selector", ".sheet thead tr.names").text.split()
        assert names == ["#", "Анна", "Boris", "Вера", "Дмитрий"], names
        totals = [t.text for t in driver.find_elements("css selector", ".sheet thead tr.totals th")]
        minus = "-" if lang == "en" else "−"  # U+2212 in Russian
        assert totals == ["Σ", f"{minus}72", "★383", "210", "75"], totals
        leader = driver.find_elements("css selector", ".sheet thead th.lead")
        assert [t.text for t in leader] == ["★383"]
        kinds = [k.text for k in driver.find_elements("css selector", ".sheet .kind-label")]
        assert kinds == words["kinds"], kinds
        assert _cut(driver, ".sheet .kind-label, .sheet td.n, .sheet thead th") == []
        assert _small_targets(driver) == []
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= (PHONE if size == "phone" else DESKTOP)[0]
        assert _errors(driver) == []
        _shot(driver, f"serve-phone-bottom-{lang}-{size}.png")


@pytest.mark.slow
def test_a_tap_on_the_disputed_cell_shows_what_was_written_and_why(screen: tuple[Any, str, str],
                                                                   tmp_path: Path) -> None:
    """Deal 17, Boris: the cell itself shows the written 25 beside the recounted
    5; a tap opens the deal's line: each player's bid/taken, score and total,
    the written value and the recount in words, the formula of the recount,
    the deal's comment and the button that corrects it (a finger wide). The
    line stays open when another phone's entry redraws the sheet; a second
    tap closes it."""
    driver, lang, size = screen
    words = WORDS[lang]
    with Served(str(disputed_sheet(tmp_path)), "--lan") as served:
        driver.get(served.url)
        cell = driver.find_element("css selector", ".sheet td.disputed")
        assert cell.text.split("\n") == ["0/0 208", "✎25 ≠ 5"], cell.text
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", cell)
        cell.click()
        line = driver.find_element("css selector", ".sheet tr.more:not([hidden])")
        shown = line.text
        assert words["dispute"] in shown, shown
        assert words["why"] in shown, shown
        assert words["comment"] in shown, shown
        assert line.find_element("css selector", ".scores tr.picked th").text == "Boris"
        rows = [r.text for r in line.find_elements("css selector", ".scores tbody tr")]
        assert rows[1] == "Boris 0/0 5 208", rows  # the recounted score; the written one beside it above
        _in_view(driver, ".sheet tr.more:not([hidden]) .dispute")
        assert _small_targets(driver) == []
        correct = line.find_element("css selector", "button.edit")
        assert correct.text == words["correct"].replace("20", "17")
        if size == "phone":
            _shot(driver, f"serve-phone-dispute-{lang}.png")
        # another phone enters the trump of deal 28: the sheet is drawn again, the line stays open
        version = int(driver.execute_script("return document.getElementById('table').dataset.version"))
        assert say(served, "♠")["ok"]
        _wait(driver, f"document.getElementById('table').dataset.version != '{version}'")
        assert words["dispute"] in driver.find_element("css selector", ".sheet tr.more:not([hidden])").text
        driver.find_element("css selector", ".sheet td.disputed").click()
        assert driver.find_elements("css selector", ".sheet tr.more:not([hidden])") == []
        assert _errors(driver) == []


@pytest.mark.slow
def test_correcting_a_deal_from_its_line(tmp_path: Path) -> None:
    """A tap on deal 20's line, then on its Correct button: the deal is
    reopened at the top of the page, its values offered; Cancel leaves it."""
    need_browser("raspis serve")
    driver = phone("en")
    try:
        with Served(str(disputed_sheet(tmp_path)), "--lan") as served:
            driver.get(served.url)
            row = driver.find_elements("css selector", ".sheet tr.deal-row")[19]
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
            row.find_elements("css selector", "td")[0].click()
            button = driver.find_element("css selector", '.sheet button[data-say="edit 20"]')
            assert button.text == WORDS["en"]["correct"]
            button.click()
            _wait(driver, "document.querySelector('.deal.editing') !== null")
            assert driver.find_element("id", "msg").text.startswith("deal 20 reopened")
            assert driver.execute_script("return window.scrollY") == 0
            driver.find_element("css selector", '#keys button.offered[data-say="♣"]')
            driver.find_element("css selector", '#table button[data-say="cancel"]').click()
            _wait(driver, "document.querySelector('.deal.editing') === null")
            assert driver.find_element("id", "msg").text.startswith("the correction of deal 20 is dropped")
            assert _errors(driver) == []
    finally:
        driver.quit()


CLUB_TABLES = (
    "return Array.from(document.querySelectorAll('table')).map(function (t) {"
    "  var r = t.getBoundingClientRect(), box = t.parentElement, s = getComputedStyle(box);"
    "  var scrolls = s.overflowX === 'auto' || s.overflowX === 'scroll';"
    "  var b = box.getBoundingClientRect();"
    "  return {table: t.className, fits: r.right <= window.innerWidth + 0.5 && r.left >= -0.5,"
    "          scrolls: scrolls, box: b.right <= window.innerWidth + 0.5,"
    "          overflows: box.scrollWidth > box.clientWidth,"
    "          cue: s.backgroundImage.indexOf('gradient') >= 0}; });"
)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_club_tables_fit_or_scroll_in_a_box_with_a_cue(lang: str, tmp_path: Path) -> None:
    """serve --db on a phone and on a desktop screen: each table of the club
    page, the games' list and a game's sheet fits the screen or sits in a box
    of the screen's width that scrolls sideways, shaded at the edge that hides
    more; at least one club table does scroll on the phone (the check can fail)."""
    need_browser("raspis serve")
    db = tmp_path / "club.duckdb"
    assert run_cli("load", str(ROOT / "samples"), "--db", str(db), "-q").returncode == 0
    for size in ("phone", "desktop"):
        driver = phone(lang) if size == "phone" else desktop(lang)
        try:
            with Served(str(tmp_path / "g.rsp"), "--players", "Анна, Борис, Вера", "--db", str(db)) as served:
                scrolled = 0
                for path in ("club", "club/games", "game"):
                    if path == "game":
                        driver.get(served.base + "club/games")
                        driver.find_elements("css selector", "table.games a")[0].click()
                        _wait(driver, "document.querySelector('table.sheet') !== null")
                    else:
                        driver.get(served.base + path)
                    tables = driver.execute_script(CLUB_TABLES)
                    assert tables, path
                    for t in tables:
                        assert t["fits"] or (t["scrolls"] and t["box"]), (path, size, t)
                        if t["scrolls"] and t["overflows"]:
                            assert t["cue"], (path, size, t)
                            scrolled += 1
                    width = driver.execute_script("return document.documentElement.scrollWidth")
                    assert width <= (PHONE if size == "phone" else DESKTOP)[0], (path, size, width)
                    assert _errors(driver) == []
                if size == "phone":
                    assert scrolled >= 1
                    driver.get(served.base + "club")
                    _shot(driver, f"serve-phone-club-{lang}.png")
        finally:
            driver.quit()


def test_the_views_written_values_beside_the_recount() -> None:
    """The view of a finished sheet whose deal 20 total and final total for
    Анна were written 10 too high: the cell and the totals row carry the written
    value and the recount, the leader is the recount's, each kind heads its
    deals once; the page shows ``✎written ≠ recount`` in the cell and the
    written final total beside the recounted one."""
    from raspis_cli.notation import read_text
    from raspis_cli.page.render import render_page
    from raspis_cli.page.view import table_view
    from raspis_cli.sheet.editable import EditableSheet
    from raspis_cli.text.i18n import speaking

    text = (ROOT / "samples" / "raspisnoy-sheet-dispute.rsp").read_text(encoding="utf-8")
    text = text.replace("| 4/5    5 128 |", "| 4/5    5 138 |")
    text = re.sub(r"^(final\s+\|\s+)-12", r"\1 -2", text, flags=re.M)
    sheet = EditableSheet(read_text(text).games)
    for lang, kinds, words in (
            ("en", ["no-trump", "dark", "miser", "golden"], "total written 138, recounted 128"),
            ("ru", ["бескозырка", "тёмная", "мизер", "золотая"], "сумма: записано 138, пересчитано 128")):
        with speaking(lang):
            view = table_view(sheet, lang)
            html = render_page("table_body.html.j2", lang, v=view)
        rows = view["rows"]
        assert [(r["number"], r["kind_heading"]) for r in rows if r["kind_heading"]] == list(
            zip((13, 17, 21, 25), kinds, strict=True))
        anna = rows[19]["cells"][0]
        disputes = [(d["written"], d["recomputed"], d["text"]) for d in anna["disputes"]]
        assert disputes == [("138", "128", words)], disputes
        assert anna["total"] == "128"
        minus = "-" if lang == "en" else "−"
        assert [(t["total"], t["written"], t["lead"]) for t in view["totals"]] == [
            (f"{minus}12", f"{minus}2", False), ("423", None, True), ("250", None, False),
            ("115", None, False)]
        assert "✎138 ≠ 128" in html and f"✎{minus}2</span>" in html and html.count('class="crown"') == 1


@pytest.mark.parametrize(("written", "lang", "first_key", "offered"), [
    ("K♣", "en", ("K♣", "K♣"), "K♣"), ("K♣", "ru", ("K♣", "К♣"), "K♣"),
    ("♦", "ru", ("♠", "♠"), "♦"), ("-", "en", ("♠", "♠"), "-")])
def test_an_edit_offers_the_written_trump_as_a_key(written: str, lang: str, first_key: tuple[str, str],
                                                    offered: str) -> None:
    """Deal 1 reopened: the trump written on the sheet is the key offered. A card turned up
    (K♣) gets a key of its own before the suits, labelled as the reader's notation writes it
    (a Russian К) and sending the card, so a tap keeps the card written; a suit or no trump
    is one of the usual keys."""
    from raspis_cli.notation import read_text
    from raspis_cli.notation.tokens import read_trump_token
    from raspis_cli.page.render import render_page
    from raspis_cli.page.view import table_view
    from raspis_cli.sheet.editable import EditableSheet
    from raspis_cli.text.i18n import speaking

    text = f'[Players "Анна, Борис, Вера"]\n\n1. 1 Анна {written} | 0/1 1 1 | 0/0 5 5 | 0/0 5 5\n'
    sheet = EditableSheet(read_text(text).games)
    assert not sheet.edit(1).refused
    with speaking(lang):
        view = table_view(sheet, lang)
        html = render_page("table_body.html.j2", lang, v=view)
    keys = view["question"]["buttons"]
    assert view["question"]["step"] == "trump"
    assert (keys[0]["word"], keys[0]["label"]) == first_key
    assert [k["word"] for k in keys if k["offered"]] == [offered]
    assert re.search(f'data-say="{re.escape(offered)}" class="[^"]*offered', html)
    if written == "K♣":  # a tap on the card's key keeps the card turned up, not only its suit
        assert not sheet.answer(keys[0]["word"]).refused
        assert sheet.open is not None and sheet.open.trump == read_trump_token("K♣")
