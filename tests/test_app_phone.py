"""The phone app's model and bundle, without a browser: the games kept in a storage that
stands in for the browser's, the open deal restored after a reload, a full storage, an
import, and the zip of raspis's layers running on a bare Python with nothing else installed."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from raspis_cli.app.bundle import BROWSER_LAYERS, python_bundle
from raspis_cli.app.phone import GAMES_KEY, OPEN_KEY, SHEET_KEY, Phone
from raspis_cli.rules import Rules
from raspis_cli.sheet.blank import blank_game
from raspis_cli.sheet.editable import EditableSheet
from tests.livekit import planned_game

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = "Анна, Борис, Вера, Дима"


class Storage(dict[str, str]):
    """The browser's localStorage, as a dictionary (``full``: every write refused, as a full one does)."""

    full = False

    def getItem(self, key: str) -> str | None:  # noqa: N802
        return self.get(key)

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        if self.full:
            raise RuntimeError("QuotaExceededError: the quota has been exceeded")
        self[key] = value

    def removeItem(self, key: str) -> None:  # noqa: N802
        self.pop(key, None)


def _answer(text: str) -> dict[str, Any]:
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def _new(phone: Phone, lang: str = "en") -> str:
    made = _answer(phone.new_game(PLAYERS, "raspisnoy", "2026-12-07", lang))
    assert made["ok"], made
    return str(made["id"])


def _words(seed: int = 1) -> list[list[str]]:
    """Each deal's words as typed (trump, bids in order, counts in order)."""
    _, deals = planned_game(seed=seed)
    return [([d.trump] if d.trump is not None else []) + [str(b) for _, b in d.bids]
            + [str(t) for _, t in d.taken] for d in deals]


def test_a_game_entered_on_the_phone_is_the_file_the_sheet_model_writes() -> None:
    storage = Storage()
    phone = Phone(storage)
    game_id = _new(phone)
    opened = _answer(phone.open(game_id, "en"))
    version = opened["version"]
    # the same words through the sheet model that live and serve keep
    game = blank_game(Rules.preset("raspisnoy"), PLAYERS.split(", "), "raspisnoy", {}, {"Date": "2026-12-07"})
    direct = EditableSheet([game], None, None, "en")
    for deal in _words()[:6]:
        for word in deal:
            reply = _answer(phone.say(version, word, "en"))
            assert reply["ok"], (word, reply)
            version = reply["version"]
            assert direct.answer(word).refused is None
    assert storage[SHEET_KEY + game_id] == direct.text()
    listed = phone.games()[0]
    assert (listed.id, listed.written, listed.deals, listed.players) == (game_id, 6, 28, PLAYERS.split(", "))
    assert _answer(phone.export(game_id)) == {"ok": True, "name": "2026-12-07 Анна Борис Вера Дима.rsp",
                                              "text": direct.text()}


def test_a_reload_mid_deal_restores_every_answer_and_a_stale_one_is_not_applied() -> None:
    storage = Storage()
    phone = Phone(storage)
    game_id = _new(phone, "ru")
    version = _answer(phone.open(game_id, "ru"))["version"]
    first = _words()[0]
    for word in first[:3]:  # the trump and two bids
        version = _answer(phone.say(version, word, "ru"))["version"]
    kept = json.loads(storage[OPEN_KEY + game_id])
    assert kept["answers"][0] == ["trump", first[0]] and len(kept["answers"]) == 3
    # the page reloaded: a new model on the same storage
    again = _answer(Phone(storage).open(game_id, "ru"))
    assert again["message"] == "раздача 1: восстановлено: козырь, 2 заказа"
    assert f'data-say="{first[3]}"' in again["page"]  # the third bid is asked
    # the sheet changed under the kept answers (another copy imported over it): not applied
    storage[SHEET_KEY + game_id] += "\n"
    stale = _answer(Phone(storage).open(game_id, "en"))
    assert stale["message"] == ("the answers of deal 1 kept on this phone belong to the sheet as it was "
                                "before it changed: they are not applied")


def test_a_full_storage_keeps_the_sheet_as_it_was_and_says_so() -> None:
    storage = Storage()
    phone = Phone(storage)
    game_id = _new(phone)
    version = _answer(phone.open(game_id, "en"))["version"]
    deal = _words()[0]
    for word in deal[:-1]:
        version = _answer(phone.say(version, word, "en"))["version"]
    before = storage[SHEET_KEY + game_id]
    storage.full = True
    refused = _answer(phone.say(version, deal[-1], "en"))
    assert not refused["ok"]
    assert refused["message"].startswith("not saved: the phone's storage for this app is full or refused: "
                                         "QuotaExceededError")
    assert storage[SHEET_KEY + game_id] == before
    storage.full = False
    retried = _answer(phone.say(refused["version"], deal[-1], "en"))
    assert retried["ok"] and retried["message"] == "deal 1 written"
    assert storage[SHEET_KEY + game_id] != before


def test_import_keeps_a_file_as_it_is_and_refuses_a_broken_one_saying_where() -> None:
    phone = Phone(Storage())
    sample = (ROOT / "samples" / "raspisnoy-sheet-dispute.rsp").read_bytes()
    made = _answer(phone.import_sheet("raspisnoy-sheet-dispute.rsp", sample, "en"))
    assert made["ok"]
    assert _answer(phone.export(made["id"]))["text"].encode("utf-8") == sample
    opened = _answer(phone.open(made["id"], "en"))
    assert opened["ok"] and "disputed" in opened["page"]
    broken = _answer(phone.import_sheet("x.rsp", b'[Players "A, B, C"]\n\n1 3 A ?? \n', "ru"))
    assert not broken["ok"] and broken["message"].startswith("в x.rsp синтаксические ошибки")
    assert "строка 3" in broken["message"]
    latin1 = _answer(phone.import_sheet("y.rsp", "Ñ".encode("latin-1"), "en"))
    assert latin1 == {"ok": False, "message": "y.rsp is not UTF-8 text: save it as UTF-8 and open it again"}


def test_delete_forgets_the_game_and_its_open_deal() -> None:
    storage = Storage()
    phone = Phone(storage)
    game_id = _new(phone)
    version = _answer(phone.open(game_id, "en"))["version"]
    phone.say(version, _words()[0][0], "en")
    assert OPEN_KEY + game_id in storage
    assert _answer(phone.delete(game_id)) == {"ok": True}
    assert set(storage) == {GAMES_KEY} and phone.games() == []
    assert not _answer(phone.open(game_id, "en"))["ok"]


def test_the_new_game_form_refuses_what_raspis_new_refuses() -> None:
    phone = Phone(Storage())
    one = _answer(phone.new_game("Анна", "raspisnoy", "2026-12-07", "en"))
    assert not one["ok"] and "player" in one["message"]
    unknown = _answer(phone.new_game(PLAYERS, "poker", "", "en"))
    assert not unknown["ok"] and "poker" in unknown["message"]


def test_the_bundle_is_the_same_bytes_twice_and_carries_only_the_pure_layers() -> None:
    first = python_bundle()
    assert python_bundle() == first
    names = zipfile.ZipFile(io.BytesIO(first)).namelist()
    layers = {n.split("/")[1] for n in names if n.startswith("raspis_cli/") and n.count("/") > 1}
    assert layers == {*BROWSER_LAYERS, "app"}
    assert {n for n in names if n.startswith("raspis_cli/app/") and n.endswith(".py")} == {
        "raspis_cli/app/__init__.py", "raspis_cli/app/phone.py"}
    assert "raspis_cli/text/locale/ru/LC_MESSAGES/raspis.mo" in names
    assert not [n for n in names if n.endswith(".po") or "__pycache__" in n or n.endswith((".so", ".pyd"))]
    assert {n.split("/")[0] for n in names} == {"raspis_cli", "jinja2", "markupsafe"}


@pytest.mark.slow
def test_the_bundle_runs_a_game_on_a_bare_python_with_nothing_installed(tmp_path: Path) -> None:
    # what the browser does: unpack, put it first on the path; here with no site-packages at all,
    # so that an import of anything the bundle does not carry (Babel, numba, typer) fails
    zipfile.ZipFile(io.BytesIO(python_bundle())).extractall(tmp_path)
    script = f"""
import json, sys
sys.path.insert(0, {str(tmp_path)!r})
from raspis_cli.app.phone import Phone
class S(dict):
    def getItem(self, k): return self.get(k)
    def setItem(self, k, v): self[k] = v
    def removeItem(self, k): self.pop(k, None)
p = Phone(S(), lambda: "2026-12-07")
g = json.loads(p.new_game("Анна, Борис, Вера", "raspisnoy", "2026-12-07", "ru"))["id"]
o = json.loads(p.open(g, "ru"))
r = json.loads(p.say(o["version"], "9♥", "ru"))
print(r["ok"], "Партии на этом телефоне" in p.games_html("ru"))
print(sorted({{m.split(".")[0] for m in sys.modules}} - set(sys.stdlib_module_names) - {{"__main__"}}))
"""
    done = subprocess.run([sys.executable, "-I", "-S", "-c", script], capture_output=True, text=True,
                          encoding="utf-8", timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["True True", "['jinja2', 'markupsafe', 'raspis_cli']"]
