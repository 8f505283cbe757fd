"""Test-wide settings.

Hypothesis's default ``deadline`` (200 ms an example) is a wall-clock
assertion: on a busy machine it fails tests that are correct. No test here
asserts elapsed time; speed is measured by the scripts in ``bench/``.
"""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests import solverkit
from tests.solverkit import CompiledSolver

# The solver's kernel runs as plain Python in the tests (and in the CLI they
# start): the source the tests check is the source that runs. The compiled
# kernel is compared with it by tests/test_solver_jit.py.
os.environ.setdefault("RASPIS_NO_JIT", "1")

# The width of output is part of what the tests check: a table that does not
# fit COLUMNS is folded by rich. pytest-xdist's workers (and some terminals)
# export COLUMNS=80; the tests expect the width of a file or a pipe unless
# they set COLUMNS themselves.
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)


def pytest_configure(config: pytest.Config) -> None:
    """Before pytest-xdist starts its workers: the package's bytecode, once;
    and in every process of the run, pytest's own compiled test modules kept
    (its assertion rewriting costs each worker some 13 s of CPU, then nothing
    while a test module is unchanged): what is written goes to ``__pycache__``."""
    import sys

    if not hasattr(config, "workerinput"):
        _compile_the_package()
    sys.dont_write_bytecode = False


def _compile_the_package() -> None:
    """``raspis_cli`` and the test helpers compiled into their ``__pycache__``
    folders (ignored by git), as pip compiles what it installs. The suite starts
    ``raspis`` in a fresh process hundreds of times (485 in the quick subset); where
    ``PYTHONDONTWRITEBYTECODE`` is set (this project's machines set it) and the checkout
    is fresh, each start compiled every module it imports again: 0.6 s of CPU a
    start instead of 0.3 s. Only stale or missing files are written."""
    import compileall

    root = Path(__file__).resolve().parent.parent
    for folder in ("raspis_cli", "tests"):
        compileall.compile_dir(root / folder, quiet=1)


settings.register_profile("raspis", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("raspis")


@pytest.fixture(autouse=True)
def _english_in_process() -> None:
    """Each test starts with the process speaking English, whatever the test
    before it in the same worker did: the CLI run in-process (``run_app``)
    takes ``--lang ru`` or a Russian ``LANG`` for the rest of the process, as a
    command does, and a test that says something in Russian on purpose sets it
    itself. (Three loaded runs of the suite failed three tests of
    ``test_rules.py`` that way: their messages came out in Russian.)"""
    from raspis_cli.text.i18n import set_language

    set_language("en")


@pytest.fixture(scope="session")
def app_site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> tuple[Path, str]:
    """The phone app built once for the whole run, as a person builds it (``raspis app build``),
    and what the command said (every pytest-xdist worker shares it); a loud skip when it cannot
    be built here (tests/appkit.py)."""
    from tests.appkit import build_with_cli

    base = tmp_path_factory.getbasetemp()
    return build_with_cli(base if worker_id == "master" else base.parent)


@pytest.fixture(scope="session")
def compiled_solver(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> CompiledSolver:
    """numba's cache of the compiled kernel, made once for the whole run
    (every pytest-xdist worker shares it: ``tests/solverkit.py``)."""
    base = tmp_path_factory.getbasetemp()
    return solverkit.compiled_solver(base if worker_id == "master" else base.parent)
