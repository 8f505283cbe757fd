"""typer_fixes reaches into typer's internals: on the typer it is written for
every mend is in force, and pyproject bounds typer to that minor release, so
a typer that changed them fails here instead of silently losing a mend."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

from raspis_cli.cli import typer_fixes
from tests.clikit import run_cli

ROOT = Path(__file__).resolve().parent.parent


def test_every_mend_is_in_force_on_the_typer_installed() -> None:
    assert version("typer").rsplit(".", 1)[0] == typer_fixes.TYPER_TESTED, (
        f"typer {version('typer')} is not the {typer_fixes.TYPER_TESTED}.x typer_fixes is written for: "
        "read its internals again, then move TYPER_TESTED and pyproject's bound")
    mended = typer_fixes.install()
    assert set(mended) == set(typer_fixes.MENDS), f"typer's internals changed: only {mended} mended"


def test_pyproject_bounds_typer_to_the_release_tested() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    [typer] = [d for d in project["dependencies"] if re.match(r"typer\b", d)]
    major, minor = map(int, typer_fixes.TYPER_TESTED.split("."))
    assert typer.replace(" ", "") == f"typer>={major}.{minor},<{major}.{minor + 1}", typer


def test_the_mends_show_in_help_and_usage() -> None:
    """The metavar mend: ``FILE...`` in the usage line and the argument list."""
    done = run_cli("validate", "--help")
    assert done.returncode == 0, done.stderr
    assert "Usage: raspis validate [OPTIONS] FILE..." in done.stdout
    assert "{file" not in done.stdout.lower() and "<list[str]>" not in done.stdout


def test_typer_speaks_russian_without_a_patch_of_its_own() -> None:
    """click_words says typer's and click's words through typer's ``cls=`` and
    click's public classes: after a Russian usage error and a Russian help,
    nothing of typer or its click is replaced."""
    import subprocess
    import sys

    script = (
        "import contextlib, io, gettext, typer.core, typer.main\n"
        "from typer._click import core, exceptions, formatting\n"
        "watched = lambda: (exceptions.UsageError.show, exceptions.ClickException.show,\n"
        "    formatting.HelpFormatter.write_usage, core.Command.get_help_option,\n"
        "    core.Command.collect_usage_pieces, typer.core._, typer.main.get_install_completion_arguments)\n"
        "before = watched()\n"
        "from raspis_cli.cli.runner import run_app\n"
        "err, out = io.StringIO(), io.StringIO()\n"
        "with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):\n"
        "    codes = (run_app(['--lang', 'ru', 'score', '--nosuch']),\n"
        "             run_app(['--lang', 'ru', 'score', '--help']))\n"
        "assert codes == (2, 0), codes\n"
        "assert 'Ошибка: Нет такой опции: --nosuch' in err.getvalue(), err.getvalue()\n"
        "assert 'Вызов: raspis score [ОПЦИИ]' in out.getvalue(), out.getvalue()\n"
        "assert '[по умолчанию: table]' in out.getvalue(), out.getvalue()\n"
        "assert watched() == before, 'typer patched'\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          encoding="utf-8", timeout=120)
    assert done.returncode == 0, done.stderr
