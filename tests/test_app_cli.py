"""`raspis app build` and `raspis app serve` as a person meets them: a runtime that is not the
one published refused before a byte of it is used, a folder of other files left alone, a
build that holds everything the app needs (nothing fetched from elsewhere), and the folder
served on this machine with the types a browser needs."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tarfile
import urllib.error
import urllib.request
import zipfile
import zlib
from pathlib import Path

import pytest

from raspis_cli.app.bundle import MARKER, PYODIDE_FILES, PYODIDE_VERSION, build_app
from tests.clikit import default_sigint, run_cli
from tests.livekit import cli_env

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def site(app_site: tuple[Path, str]) -> Path:
    return app_site[0]


def _fake_tarball(path: Path, version: str) -> Path:
    """An npm-like tarball of pyodide that is not the one published."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in [("package.json", json.dumps({"version": version}).encode()),
                           *((n, b"not the runtime") for n in PYODIDE_FILES)]:
            info = tarfile.TarInfo("package/" + name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    path.write_bytes(out.getvalue())
    return path


def test_a_runtime_that_is_not_the_published_one_is_refused(tmp_path: Path) -> None:
    fake = _fake_tarball(tmp_path / "pyodide.tgz", PYODIDE_VERSION)
    done = run_cli("app", "build", str(tmp_path / "site"), "--pyodide", str(fake))
    assert done.returncode == 2
    assert done.stderr.strip() == (f"raspis: error: {fake} is not pyodide {PYODIDE_VERSION} as the npm "
                                   "registry publishes it (its SHA-512 differs)")
    assert not (tmp_path / "site").exists()
    folder = tmp_path / "node_modules" / "pyodide"
    folder.mkdir(parents=True)
    (folder / "package.json").write_text('{"version": "0.26.0"}')
    for name in PYODIDE_FILES:
        (folder / name).write_bytes(b"x")
    older = run_cli("--lang", "ru", "app", "build", str(tmp_path / "site"), "--pyodide", str(folder))
    assert older.returncode == 2
    said = f"в {folder} лежит pyodide 0.26.0; приложение собирается только с {PYODIDE_VERSION}"
    assert said in older.stderr


def test_a_folder_of_other_files_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("мои заметки")
    done = run_cli("app", "build", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.strip() == (f"raspis: error: {tmp_path} is not empty and holds no earlier build of "
                                   "the app: give a new folder")
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    length = struct.unpack(">I", data[33:37])[0]
    assert data[37:41] == b"IDAT"
    assert len(zlib.decompress(data[41:41 + length])) == height * (1 + 4 * width)
    return width, height


@pytest.mark.slow
def test_a_build_holds_everything_the_app_loads(site: Path) -> None:
    files = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    assert files == sorted([MARKER, "NOTICE.txt", "app.js", "icon-192.png", "icon-512.png", "icon.svg",
                            "index.html", "manifest.webmanifest", "raspis-app.zip", "sw.js", "table.js",
                            *(f"pyodide/{n}" for n in PYODIDE_FILES)])
    worker = (site / "sw.js").read_text(encoding="utf-8")
    kept = json.loads(re.search(r"var FILES = (\[.*?\]);", worker).group(1))  # type: ignore[union-attr]
    assert sorted(kept) == sorted(["./", *(f for f in files if f not in (MARKER, "sw.js"))])
    manifest = json.loads((site / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["start_url"] == "./" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert (site / icon["src"]).is_file()
        if icon["type"] == "image/png":
            assert _png_size((site / icon["src"]).read_bytes()) == tuple(map(int, icon["sizes"].split("x")))
    # nothing is fetched from elsewhere: every address the pages and scripts name is the app's own
    for name in ("index.html", "app.js", "table.js", "sw.js"):
        text = (site / name).read_text(encoding="utf-8")
        assert not re.findall(r"https?://(?!127\.0\.0\.1)[\w.-]+", text), name
    # with Node.js on the build machine, raspis's Python is compiled ahead for the runtime's CPython
    names = zipfile.ZipFile(site / "raspis-app.zip").namelist()
    compiled = [n for n in names if n.endswith(".cpython-312.pyc")]
    if shutil.which("node") is not None:
        assert "raspis_cli/sheet/__pycache__/editable.cpython-312.pyc" in compiled
        assert len(compiled) == len([n for n in names if n.endswith(".py")])
    served_page = ROOT / "raspis_cli" / "page" / "static" / "table.js"
    assert (site / "table.js").read_bytes() == served_page.read_bytes()


@pytest.mark.slow  # the first test of a run to ask for the build makes it (8 to 15 s)
def test_app_serve_serves_the_build_with_the_types_a_browser_needs(site: Path, tmp_path: Path) -> None:
    refused = run_cli("app", "serve", str(tmp_path))
    assert refused.returncode == 2 and "is not a folder written by raspis app build" in refused.stderr
    process = subprocess.Popen([sys.executable, "-m", "raspis_cli", "app", "serve", str(site), "--port", "0"],
                               cwd=ROOT, env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, encoding="utf-8", preexec_fn=default_sigint)
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        address = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert address is not None, line
        url = address.group(0)
        with urllib.request.urlopen(url) as page:
            assert page.headers["Content-Type"].startswith("text/html")
            assert page.headers["Cache-Control"] == "no-cache"
            assert b'<link rel="manifest" href="manifest.webmanifest">' in page.read()
        with urllib.request.urlopen(url + "pyodide/pyodide.asm.wasm") as runtime:
            assert runtime.headers["Content-Type"] == "application/wasm"
        with pytest.raises(urllib.error.HTTPError) as listing:
            urllib.request.urlopen(url + "pyodide/")
        assert listing.value.code == 404
    finally:
        process.send_signal(signal.SIGINT)
        _, rest = process.communicate(timeout=30)
    assert process.returncode == 0, rest
    assert "Traceback" not in rest


@pytest.mark.slow
def test_app_build_says_what_it_wrote_and_a_rebuild_replaces_the_build(
        app_site: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site, said = app_site
    assert re.search(rf"raspis: wrote {site}: 15 files, 1\d\.\d MB \(the first visit downloads them; then "
                     r"the app works offline\)", said), said
    assert f"try it here with: raspis app serve {site}" in said
    # a rebuild over an earlier build replaces it; with no Node.js the build says what that costs
    again = tmp_path / "again"
    shutil.copytree(site, again)
    (again / "stale.js").write_text("from an older build")
    monkeypatch.setattr(shutil, "which", lambda name: None)
    told: list[str] = []
    build_app(str(again), os.environ.get("RASPIS_PYODIDE"), lambda m: told.append(m.shown()))
    assert told[-1] == ("Node.js (node) is not on the PATH: the app's Python is not compiled ahead, and it "
                        "starts about a second slower")
    assert not (again / "stale.js").exists()
    rebuilt, first = (zipfile.ZipFile(folder / "raspis-app.zip") for folder in (again, site))
    sources = [n for n in first.namelist() if not n.endswith(".pyc")]
    assert sorted(rebuilt.namelist()) == sorted(sources)
    assert all(rebuilt.read(n) == first.read(n) for n in sources)
