"""The byte-level scan that cuts a record file for load's workers and for
shards (``pieces._ByteScan``) must cut exactly where the line-by-line scan
(``sources._Scan``, which decodes every line) cuts: the same line numbers,
game counts, byte offsets and doubt. Checked on every record file of the
repository and on generated files full of what could tell the two apart:
tag lines that are not sure, ``[`` inside lines, spaces beyond ASCII before
a tag, comments over several lines, CR line ends, bad bytes, a BOM, CP1251,
and chunk boundaries anywhere."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raspis_cli.files import pieces as sources
from raspis_cli.text.decoding import CHUNK_BYTES

ROOT = Path(__file__).resolve().parent.parent
RECORD_FILES = sorted(str(p) for folder in ("samples", "tests") for p in (ROOT / folder).rglob("*.rsp"))


def _both(path: str, games: int) -> tuple[object, object]:
    return sources._scan_file(path, games, fast=True), sources._scan_file(path, games, fast=False)


@pytest.mark.parametrize("path", RECORD_FILES, ids=lambda p: os.path.relpath(p, ROOT))
def test_the_byte_scan_cuts_the_record_files_as_the_line_scan(path: str) -> None:
    for games in (1, 2, 3):
        fast, slow = _both(path, games)
        assert fast == slow, games


def test_the_byte_scan_takes_a_plain_file_and_finds_its_offsets(tmp_path: Path) -> None:
    """The byte scan is the one used (a scan that always gave up would pass
    the comparisons), and its offsets are where the cut lines start."""
    game = '[Event "E"]\n[Players "А, B"]\n1. 1 А - | 0/0 | 1/1\n'
    path = tmp_path / "f.rsp"
    path.write_text(game + "\n; о следующей\n" + game + "\n" + game, encoding="utf-8")
    scan = sources._ByteScan(1, "utf-8")
    with open(path, "rb") as stream:
        assert scan.run(stream, stream.read(CHUNK_BYTES), 0)
    data = path.read_bytes()
    assert scan.cuts == [4, 9] and scan.counts == [1, 2] and not scan.doubtful
    assert [data[at:].split(b"\n", 1)[0] for at in scan.offsets] == [b"", b""]
    assert data[scan.offsets[0] - 1:scan.offsets[0]] == b"\n"
    path.write_bytes(data.replace(b"\n", b"\r\n"))
    with open(path, "rb") as stream:
        assert not sources._ByteScan(1, "utf-8").run(stream, stream.read(CHUNK_BYTES), 0)


_TAGS = ['[Event "Клуб"]', '[Players "Анна, Boris, Вера"]', '  [Site "x"]', '\t[Date "2026-01-01"]']
_ODD_TAGS = ['[Round 3]', '[Event "a{b"]', '\u00a0[Event "nbsp"]', '\u2003[Event "em"]', '\x0c[Event "ff"]',
             '[Event "x"] trailing']
_BODY = ['1.  1          Анна   9♠  | 0/0    5   5 | 0/1    1    1', '  hand Анна: 10♥',
         '  trick Boris: Q♠ 9♣ 10♠ 10♥']
_ODD_BODY = ['Олег starts a body line', 'x [not a tag', '\u00a0body after a no-break space',
             '{ balanced } body']
_GAPS = ['', '   ', '; a comment', '{ a comment }']
_ODD_GAPS = ['\x0b', '\u3000', '\u00a0', '{ opens', 'closes }']


def _some(draw: st.DrawFn, plain: list[str], odd: list[str], most: int) -> list[str]:
    """Up to ``most`` lines, one in ten an odd one."""
    return [draw(st.sampled_from(odd if draw(st.integers(0, 9)) == 0 else plain))
            for _line in range(draw(st.integers(0, most)))]


@st.composite
def _files(draw: st.DrawFn) -> tuple[bytes, int, int]:
    """Games (tags, body, then blank and comment lines), an odd line now and
    then, in UTF-8 or CP1251, now and then a flaw; games per piece; chunk size."""
    lines: list[str] = []
    for _game in range(draw(st.integers(0, 8))):
        lines += _some(draw, _TAGS, _ODD_TAGS, 3) + _some(draw, _BODY, _ODD_BODY, 3)
        lines += _some(draw, _GAPS, _ODD_GAPS, 3)
    text = "\n".join(lines) + draw(st.sampled_from(["", "\n"]))
    codec = draw(st.sampled_from(["utf-8", "cp1251"]))
    try:
        data = text.encode(codec)
    except UnicodeEncodeError:
        codec, data = "utf-8", text.encode("utf-8")
    if codec == "utf-8" and draw(st.integers(0, 4)) == 0:
        data = b"\xef\xbb\xbf" + data
    flaw = draw(st.sampled_from([None] * 7 + [b"\r\n", b"\r", b"\xff"]))
    if flaw is not None and data:
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + flaw + data[at:]
    return data, draw(st.integers(1, 3)), draw(st.sampled_from([5, 16, 40, 100, CHUNK_BYTES]))


@pytest.mark.slow
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=_files())
def test_the_byte_scan_cuts_generated_files_as_the_line_scan(case: tuple[bytes, int, int],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    data, games, chunk = case
    monkeypatch.setattr(sources, "CHUNK_BYTES", chunk)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "g.rsp")
        Path(path).write_bytes(data)
        fast, slow = _both(path, games)
    assert fast == slow
