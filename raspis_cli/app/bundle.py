"""The phone app as static files: what ``raspis app build DIR`` writes.

Everything the app runs is put into ``DIR`` at build time; nothing is
fetched from elsewhere when it runs:

- ``pyodide/``: the Python runtime compiled to WebAssembly (the npm package
  ``pyodide``, :data:`PYODIDE_VERSION` exactly: its tarball checked against
  the registry's SHA-512 before a byte of it is used);
- ``raspis-app.zip``: raspis's pure layers (:data:`BROWSER_LAYERS`: no
  DuckDB, Arrow, numba, typer or web framework), the Russian catalogue
  compiled, the page's templates, and Jinja2 and MarkupSafe (pure Python),
  with their bytecode compiled ahead when Node.js is there to run the runtime;
- ``index.html``, ``app.js`` (the app's screens), ``table.js`` (the table's
  page script, the same file ``raspis serve`` sends), ``sw.js`` (the service
  worker that keeps every file for offline use), ``manifest.webmanifest``
  and the icons;
- ``NOTICE.txt``: what is vendored, with its licence.

The zip's files are written in a fixed order with a fixed date, so that its
sources are the same bytes for the same checkout (the bytecode compiled ahead
may differ in a few bytes from one build to the next, as CPython's marshal
output does).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import urllib.request
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from raspis_cli.files.atomic import write_atomic
from raspis_cli.text.messages import Message, msg

__all__ = ["BROWSER_LAYERS", "PYODIDE_VERSION", "BuildError", "BuiltApp", "build_app", "python_bundle"]

PYODIDE_VERSION = "0.27.7"
"""The one release of the runtime the app is built and tested with."""
PYODIDE_INTEGRITY = ("sha512-RUSVJlhQdfWfgO9hVHCiXoG+nVZQRS5D9FzgpLJ/VcgGBLSAKoPL8kTiOikx"
                     "bHQm1kRISeWUBdulEgO26qpSRA==")
"""The npm registry's integrity of that release's tarball (``npm view pyodide@0.27.7 dist.integrity``)."""
PYODIDE_TARBALL = f"https://registry.npmjs.org/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz"
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""The runtime's files the app needs (the package's type declarations, maps and console are left out)."""
BROWSER_LAYERS = ("text", "model", "rules", "engine", "notation", "files", "judge", "explain", "sheet",
                  "page")
"""raspis's layers the sheet needs in the browser, with :mod:`raspis_cli.app.phone`."""
LEFT_OUT = ("text/locale/ru/LC_MESSAGES/raspis.po", "text/locale/ru/LC_MESSAGES/raspis.mo")
"""Files of those layers the app does without (the catalogue goes compiled)."""
LIBRARIES = ("jinja2", "markupsafe")
"""The pure-Python libraries the page's templates need."""
ZIP_DATE = (2026, 1, 1, 0, 0, 0)
APP_FILES = ("app.js",)
MARKER = ".raspis-app"
"""The file that marks a folder as a build of the app (a rebuild replaces it)."""

_HERE = Path(__file__).resolve().parent
_PACKAGE = _HERE.parent


class BuildError(Exception):
    """The app cannot be built: why (a :class:`Message`)."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


@dataclass(frozen=True)
class BuiltApp:
    """What a build wrote: the folder, its files with their sizes, the runtime's source."""

    folder: Path
    files: dict[str, int]
    pyodide_from: str

    @property
    def total_bytes(self) -> int:
        """The bytes of every file a first visit downloads."""
        return sum(self.files.values())


# -- the runtime ------------------------------------------------------------------------------

def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def cache_folder() -> Path:
    """Where a downloaded runtime is kept between builds (``$XDG_CACHE_HOME/raspis``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "raspis"


def _checked_tarball(data: bytes, where: str) -> bytes:
    if _integrity(data) != PYODIDE_INTEGRITY:
        raise BuildError(msg("{file} is not pyodide {version} as the npm registry publishes it (its SHA-512 "
                             "differs)").format(file=where, version=PYODIDE_VERSION))
    return data


def _download(say: Callable[[Message], None]) -> bytes:
    """The runtime's tarball from the npm registry (kept in :func:`cache_folder`)."""
    cached = cache_folder() / f"pyodide-{PYODIDE_VERSION}.tgz"
    if cached.is_file():
        data = cached.read_bytes()
        if _integrity(data) == PYODIDE_INTEGRITY:
            return data
    say(msg("downloading pyodide {version} (5.9 MB) from the npm registry, once").format(
        version=PYODIDE_VERSION))
    try:
        with urllib.request.urlopen(PYODIDE_TARBALL, timeout=60) as answer:
            data = bytes(answer.read())
    except OSError as e:
        raise BuildError(msg("cannot download {url}: {reason}; give a copy with --pyodide (the npm package's "
                             "tarball or folder)").format(url=PYODIDE_TARBALL, reason=str(e))) from e
    _checked_tarball(data, PYODIDE_TARBALL)
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(str(cached), data)
    except OSError:
        pass  # a build goes on without the cache
    return data


def pyodide_files(source: str | None, say: Callable[[Message], None]) -> tuple[dict[str, bytes], str]:
    """The runtime's files (:data:`PYODIDE_FILES`) and where they came from:
    ``source`` is the npm package's tarball (``npm pack pyodide@0.27.7``) or
    its folder (``node_modules/pyodide``); ``None``: downloaded once."""
    if source is not None and Path(source).is_dir():
        folder = Path(source)
        try:
            version = json.loads((folder / "package.json").read_text(encoding="utf-8")).get("version")
            files = {name: (folder / name).read_bytes() for name in PYODIDE_FILES}
        except (OSError, ValueError) as e:
            raise BuildError(msg("{file} is not the folder of the npm package pyodide: {reason}").format(
                file=source, reason=str(e))) from e
        if version != PYODIDE_VERSION:
            raise BuildError(msg("{file} holds pyodide {found}; the app is built with {version} "
                                 "exactly").format(file=source, found=str(version), version=PYODIDE_VERSION))
        return files, source
    if source is not None:
        try:
            data = Path(source).read_bytes()
        except OSError as e:
            raise BuildError(msg("{file}: cannot read: {reason}").format(file=source,
                                                                         reason=e.strerror or str(e))) from e
        data, where = _checked_tarball(data, source), source
    else:
        data, where = _download(say), PYODIDE_TARBALL
    found: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for name in PYODIDE_FILES:
            member = tar.extractfile("package/" + name)
            if member is None:
                raise BuildError(msg("{file} has no {name}").format(file=where, name=name))
            found[name] = member.read()
    return found, where


# -- raspis's layers --------------------------------------------------------------------------

def _layer_files() -> Iterator[tuple[str, bytes]]:
    """(name in the zip, bytes) of the layers the browser runs, sorted."""
    chosen: list[Path] = [_PACKAGE / "__init__.py", _HERE / "__init__.py", _HERE / "phone.py"]
    chosen += sorted((_HERE / "templates").glob("*.j2"))
    for layer in BROWSER_LAYERS:
        for path in sorted((_PACKAGE / layer).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                chosen.append(path)
    for path in sorted(chosen):
        name = "raspis_cli/" + path.relative_to(_PACKAGE).as_posix()
        if name.removeprefix("raspis_cli/") not in LEFT_OUT:
            yield name, path.read_bytes()
    from raspis_cli.text.catalogue import catalogue_path, compiled, read_catalogue

    po = catalogue_path("ru")
    yield ("raspis_cli/" + po.with_suffix(".mo").relative_to(_PACKAGE).as_posix(),
           compiled(read_catalogue(po.read_text(encoding="utf-8"))))


def _library_files() -> Iterator[tuple[str, bytes]]:
    """(name in the zip, bytes) of Jinja2 and MarkupSafe: their Python files and licences."""
    import importlib.metadata
    import importlib.util

    for name in LIBRARIES:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise BuildError(msg("{name} is not installed; it is a dependency of raspis").format(name=name))
        folder = Path(spec.origin).parent
        for path in sorted(folder.rglob("*.py")):
            yield f"{name}/{path.relative_to(folder).as_posix()}", path.read_bytes()
        dist = importlib.metadata.distribution(name)
        for file in dist.files or ():
            if file.name.upper().startswith(("LICENSE", "LICENCE")):
                yield f"{name}/{file.name}", Path(str(dist.locate_file(file))).read_bytes()


def _zipped(entries: Iterable[tuple[str, bytes]]) -> bytes:
    """A zip of (name, bytes) in the order given, each with the same date and mode (the same
    bytes for the same entries)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, data in entries:
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    return out.getvalue()


def _unzipped(data: bytes) -> list[tuple[str, bytes]]:
    """The (name, bytes) of a zip, by name."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return [(name, archive.read(name)) for name in sorted(archive.namelist())]


def python_bundle() -> bytes:
    """The zip the app unpacks into its Python path (the same bytes for the same sources)."""
    return _zipped([*_layer_files(), *_library_files()])


def with_bytecode(bundle: bytes, runtime: dict[str, bytes], say: Callable[[Message], None]) -> bytes:
    """The bundle with its Python compiled ahead (``__pycache__/*.cpython-312.pyc``,
    unchecked-hash) by the runtime itself, run by Node.js when the build machine
    has it: a phone then imports bytecode instead of compiling the source at every
    start (about a second sooner, bench/app_start.py). Without Node.js, or when it
    fails, the bundle as it is (the app works the same, a little slower to start)."""
    node = shutil.which("node")
    if node is None:
        say(msg("Node.js (node) is not on the PATH: the app's Python is not compiled ahead, and it starts "
                "about a second slower"))
        return bundle
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        (where / "pyodide").mkdir()
        for name, data in runtime.items():
            (where / "pyodide" / name).write_bytes(data)
        (where / "raspis-app.zip").write_bytes(bundle)
        try:
            done = subprocess.run([node, str(_HERE / "static" / "compile.js"), folder], capture_output=True,
                                  text=True, timeout=300)
            compiled = (where / "bytecode.zip").read_bytes() if done.returncode == 0 else None
        except (OSError, subprocess.SubprocessError):
            compiled = None
        if compiled is None:
            say(msg("the app's Python could not be compiled ahead with Node.js: it starts about a second "
                    "slower"))
            return bundle
    return _zipped([*_unzipped(bundle), *_unzipped(compiled)])


# -- the app ----------------------------------------------------------------------------------

def _manifest() -> bytes:
    manifest = {
        "name": "raspis: the score sheet", "short_name": "raspis",
        "description": "Raspisnoy poker score sheet, checked by raspis's own rules, offline.",
        "start_url": "./", "scope": "./", "display": "standalone", "orientation": "portrait",
        "background_color": "#ffffff", "theme_color": "#1f4e79",
        "icons": [{"src": "icon-192.png", "sizes": "192x192", "type": "image/png"},
                  {"src": "icon-512.png", "sizes": "512x512", "type": "image/png"},
                  {"src": "icon.svg", "sizes": "any", "type": "image/svg+xml"}],
    }
    return (json.dumps(manifest, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def _service_worker(files: dict[str, bytes]) -> bytes:
    """The service worker: every file kept at install, served from the cache
    first (the app works with no network), the caches of older builds removed."""
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    names = ["./", *sorted(files)]
    template = (_HERE / "static" / "sw.js").read_text(encoding="utf-8")
    return (template.replace('"@CACHE@"', json.dumps("raspis-app-" + digest.hexdigest()[:16]))
            .replace('"@FILES@"', json.dumps(names))).encode("utf-8")


def _boot(lang_words: dict[str, dict[str, str]]) -> dict[str, object]:
    return {"bundle": "raspis-app.zip", "pyodide": PYODIDE_VERSION, "words": lang_words}


def _shell_words() -> dict[str, dict[str, str]]:
    """The words the app says before Python runs (loading, a failed start), in both languages."""
    from raspis_cli.text.i18n import _, speaking

    words: dict[str, dict[str, str]] = {}
    for lang in ("en", "ru"):
        with speaking(lang):
            words[lang] = {
                "loading": _("Loading raspis…"),
                "failed": _("raspis did not start on this browser:"),
                "not_sent": _("not entered: raspis met an error; the sheet is as it was"),
                "share_failed": _("the file was not shared:"),
            }
    return words


def _notice() -> bytes:
    return (f"raspis phone app\n\n"
            f"pyodide/ is Pyodide {PYODIDE_VERSION} (the npm package pyodide), Mozilla Public License 2.0,\n"
            f"https://github.com/pyodide/pyodide; it carries CPython (PSF License).\n"
            f"raspis-app.zip holds raspis's own Python and, with their licence files, Jinja2 and\n"
            f"MarkupSafe (BSD-3-Clause, https://palletsprojects.com).\n").encode()


def app_files(pyodide: dict[str, bytes], say: Callable[[Message], None] = lambda _message: None
              ) -> dict[str, bytes]:
    """Every file of the app, by its path in the folder (the service worker's list included)."""
    from raspis_cli.app.icons import icon_png, icon_svg
    from raspis_cli.page.render import page_script, render_page
    from raspis_cli.text.i18n import speaking

    files: dict[str, bytes] = {f"pyodide/{name}": data for name, data in pyodide.items()}
    files["raspis-app.zip"] = with_bytecode(python_bundle(), pyodide, say)
    files["table.js"] = page_script()
    for name in APP_FILES:
        files[name] = (_HERE / "static" / name).read_bytes()
    files["manifest.webmanifest"] = _manifest()
    files["icon.svg"] = icon_svg().encode("utf-8")
    files["icon-192.png"] = icon_png(192)
    files["icon-512.png"] = icon_png(512)
    with speaking("en"):
        files["index.html"] = render_page("index.html.j2", "en", more_templates=_HERE / "templates",
                                          boot=_boot(_shell_words())).encode("utf-8")
    files["NOTICE.txt"] = _notice()
    files["sw.js"] = _service_worker(files)
    return files


def _check_folder(folder: Path) -> None:
    """The folder may be written: absent, empty, or an earlier build of the app."""
    if not folder.exists():
        return
    if not folder.is_dir():
        raise BuildError(msg("{file} exists and is not a folder").format(file=str(folder)))
    if any(folder.iterdir()) and not (folder / MARKER).is_file():
        raise BuildError(msg("{file} is not empty and holds no earlier build of the app: give a new "
                             "folder").format(file=str(folder)))


def build_app(folder: str, pyodide_source: str | None = None,
              say: Callable[[Message], None] = lambda _message: None) -> BuiltApp:
    """Write the app into ``folder`` (see the module's docstring); raises :class:`BuildError`."""
    target = Path(folder)
    _check_folder(target)
    runtime, where = pyodide_files(pyodide_source, say)
    files = app_files(runtime, say)
    staging = target.with_name(target.name + ".building")
    try:
        shutil.rmtree(staging, ignore_errors=True)
        for name, data in files.items():
            path = staging / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        (staging / MARKER).write_text(f"raspis app, pyodide {PYODIDE_VERSION}\n", encoding="utf-8")
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    except OSError as e:
        shutil.rmtree(staging, ignore_errors=True)
        raise BuildError(msg("{file}: cannot write: {reason}").format(file=str(target),
                                                                      reason=e.strerror or str(e))) from e
    return BuiltApp(target, {name: len(data) for name, data in files.items()}, where)
