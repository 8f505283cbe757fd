"""scripts/slow_tests.py: which tests a run's timings call slow, and the marker put on them."""

from __future__ import annotations

from pathlib import Path

from scripts.slow_tests import main, mark, marked_slow, timings, to_mark

MODULE = '''"""A module of tests."""

from __future__ import annotations

from tests.clikit import run_cli


def test_quick() -> None:
    assert run_cli


@other.decorator
@other.parametrize("n", [1, 2,
                         3])
def test_family(n: int) -> None:
    assert n


def test_long() -> None:
    assert True
'''

REPORT = '''<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest">
<testcase classname="tests.test_x" name="test_quick" time="0.2"/>
<testcase classname="tests.test_x" name="test_family[1]" time="0.9"/>
<testcase classname="tests.test_x" name="test_family[2]" time="0.9"/>
<testcase classname="tests.test_x" name="test_family[3]" time="0.9"/>
<testcase classname="tests.test_x" name="test_long" time="3.0"/>
</testsuite></testsuites>
'''


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "tests").mkdir()
    module = tmp_path / "tests" / "test_x.py"
    module.write_text(MODULE, encoding="utf-8")
    report = tmp_path / "quick.xml"
    report.write_text(REPORT, encoding="utf-8")
    return module, report


def test_a_long_case_or_a_costly_family_is_slow_and_a_quick_test_is_not(tmp_path: Path) -> None:
    module, report = _tree(tmp_path)
    found = timings(report, tmp_path)
    assert [(t.name, t.cases, round(t.total, 1)) for t in found] == [
        ("test_long", 1, 3.0), ("test_family", 3, 2.7), ("test_quick", 1, 0.2)]
    assert {t.name for t in to_mark(found, case=1.5, total=2.5)} == {"test_long", "test_family"}
    assert {t.name for t in to_mark(found, case=1.5, total=6)} == {"test_long"}
    assert all(t.path == module for t in found)


def test_the_marker_goes_above_the_decorators_once_and_pytest_is_imported(tmp_path: Path) -> None:
    module, report = _tree(tmp_path)
    mark(module, {"test_family", "test_long"})
    text = module.read_text(encoding="utf-8")
    assert "from __future__ import annotations\n\nimport pytest\n\nfrom tests.clikit import run_cli" in text
    assert "\n\n@pytest.mark.slow\n@other.decorator\n@other.parametrize" in text
    assert "\n\n@pytest.mark.slow\ndef test_long()" in text
    assert "@pytest.mark.slow\ndef test_quick" not in text
    compile(text, str(module), "exec")
    assert marked_slow(module) == {"test_family", "test_long"}
    assert to_mark(timings(report, tmp_path), case=1.5, total=2.5) == []  # marked: nothing left


def test_the_script_fails_while_a_slow_test_is_unmarked(tmp_path: Path) -> None:
    _module, report = _tree(tmp_path)
    assert main([str(report), "--case", "9", "--total", "9"]) == 0
    assert main([str(report), "--case", "2"]) == 1


def test_a_module_of_the_standard_library_alone_gets_pytest_after_its_future_import(tmp_path: Path) -> None:
    module = tmp_path / "test_y.py"
    module.write_text('"""Doc\nstring."""\n\nfrom __future__ import annotations\n\nimport json\n\n\n'
                      'def test_a() -> None:\n    assert json\n', encoding="utf-8")
    mark(module, {"test_a"})
    text = module.read_text(encoding="utf-8")
    compile(text, str(module), "exec")  # __future__ still first: no SyntaxError
    assert text.startswith('"""Doc\nstring."""\n\nfrom __future__ import annotations\n\nimport pytest\n')
    assert marked_slow(module) == {"test_a"}
