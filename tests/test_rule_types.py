"""A new value of an option cannot pass unhandled: the types name every place.

Each option's values are a closed type (``raspis_cli/rules/values.py``, the
joker's modes in ``raspis_cli/model/joker_modes.py``) and every decision over
them an exhaustive ``match`` ending in ``assert_never``. This test copies the
package, adds one synthetic value to every closed type at once, runs ``mypy
--strict`` on the copy and checks that it fails at exactly the decisions
listed in :data:`MUST_HANDLE` (each error names its type by the synthetic
value). A decision written as an ``if``/``else`` over a value would let the
new value through silently and be missing here; a new decision is a new line
of the table (CONTRIBUTING.md, "A new value of a rule option").
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

CLOSED_TYPES: dict[str, str] = {
    "DealKind": "raspis_cli/model/deal_kinds.py",
    "SpecialKind": "raspis_cli/model/deal_kinds.py",
    "BidView": "raspis_cli/model/deal_kinds.py",
    "TrickAim": "raspis_cli/model/deal_kinds.py",
    "JokerCard": "raspis_cli/rules/values.py",
    "ScheduleName": "raspis_cli/rules/values.py",
    "TrumpCard": "raspis_cli/rules/values.py",
    "FullDealTrump": "raspis_cli/rules/values.py",
    "DealerRestrictionName": "raspis_cli/rules/values.py",
    "ThirdPass": "raspis_cli/rules/values.py",
    "Void": "raspis_cli/rules/values.py",
    "FirstLeader": "raspis_cli/rules/values.py",
    "JokerHighWinner": "raspis_cli/rules/values.py",
    "JokerLowNobodyFollows": "raspis_cli/rules/values.py",
    "JokerTakeLead": "raspis_cli/rules/values.py",
    "TwoJokers": "raspis_cli/rules/values.py",
    "DiscardSuit": "raspis_cli/rules/values.py",
    "ScoreExtra": "raspis_cli/rules/values.py",
    "ZeroTotalRank": "raspis_cli/rules/values.py",
    "JokerModeName": "raspis_cli/model/joker_modes.py",
}
"""Every closed type of an option's values, and the module that defines it."""

MUST_HANDLE: dict[str, set[str]] = {
    "DealKind": {
        "raspis_cli.engine.scoring.score_terms",
        "raspis_cli.model.deal_kinds.bid_view",
        "raspis_cli.model.deal_kinds.has_bids",
        "raspis_cli.model.deal_kinds.has_trump",
        "raspis_cli.model.deal_kinds.kind_cards",
        "raspis_cli.model.deal_kinds.trick_aim",
        "raspis_cli.rules.Rules.kind_multiplier",
    },
    "SpecialKind": {
        "raspis_cli.rules.schedule.schedule_for",
    },
    "BidView": {
        "raspis_cli.bots.heuristic.HeuristicBot._heuristic_bid",
    },
    "TrickAim": {
        "raspis_cli.bots.heuristic.HeuristicBot._choose",
        "raspis_cli.simulate.simulator.Simulator.play_compact",
    },
    "JokerCard": set(),  # the joker is a card of the deck: model/cards.py's Deck takes it
    "ScheduleName": {
        "raspis_cli.rules.schedule.schedule_for",
        "raspis_cli.simulate.game.deal_plan",
    },
    "TrumpCard": {
        "raspis_cli.rules.trumps.trump_holder",
        "raspis_cli.simulate.simulator.Simulator._shuffle",
    },
    "FullDealTrump": {
        "raspis_cli.rules.trumps.full_deal_trump_holder",
        "raspis_cli.simulate.simulator.Simulator._shuffle",
    },
    "DealerRestrictionName": {
        "raspis_cli.rules.bidding.dealer_forbidden",
        "raspis_cli.rules.bidding.dealer_restriction_label",
        "raspis_cli.rules.bidding.dealer_restriction_message",
    },
    "ThirdPass": {
        "raspis_cli.rules.bidding.pass_limit",
        "raspis_cli.rules.bidding.pass_limit_message",
    },
    "Void": {
        "raspis_cli.engine.trick.must_trump",
        "raspis_cli.engine.trick.must_trump_highest",
        "raspis_cli.solver.search.kernel_refusal",
    },
    "FirstLeader": {
        "raspis_cli.rules.seats.first_leader",
    },
    "JokerHighWinner": {
        "raspis_cli.rules.jokers.high_joker_wins_trumped",
    },
    "JokerLowNobodyFollows": {
        "raspis_cli.rules.jokers.low_joker_wins_unfollowed",
    },
    "JokerTakeLead": {
        "raspis_cli.rules.jokers.take_lead_follows_freely",
        "raspis_cli.solver.search.kernel_refusal",
    },
    "TwoJokers": {
        "raspis_cli.rules.values.second_joker_is_opposite",
    },
    "DiscardSuit": {
        "raspis_cli.rules.jokers.discard_names_suit",
    },
    "ScoreExtra": {
        "raspis_cli.engine.scoring._sweeps",
        "raspis_cli.engine.scoring.score_factors",
    },
    "ZeroTotalRank": {
        "raspis_cli.rules.standings.final_places",
    },
    "JokerModeName": {
        "raspis_cli.bots.heuristic._joker_intent",
        "raspis_cli.model.joker_modes.wins_when_following",
        "raspis_cli.model.joker_modes.wins_when_led",
        "raspis_cli.solver.search.kernel_refusal",
    },
}
"""Each closed type -> the functions that decide over its values, which
``mypy --strict`` must name when a value is added to the type."""

SYNTHETIC = "synthetic-{name}"


def _add_synthetic_values(package: Path) -> None:
    """Add ``synthetic-NAME`` as the first value of every closed type."""
    for name, module in CLOSED_TYPES.items():
        path = package.parent / module
        text = path.read_text(encoding="utf-8")
        found = re.search(rf"^{name} = (?:bool \| )?Literal\[", text, re.MULTILINE)
        assert found, f"{name} is not a Literal in {module}"
        text = text[:found.end()] + f'"{SYNTHETIC.format(name=name)}", ' + text[found.end():]
        path.write_text(text, encoding="utf-8")


def _function_at(path: Path, line: int, module: str) -> str:
    """The dotted name of the innermost function or class around ``line``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    best: list[str] = []

    def visit(node: ast.AST, trail: list[str]) -> None:
        nonlocal best
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                end = child.end_lineno or child.lineno
                if child.lineno <= line <= end:
                    here = [*trail, child.name]
                    if len(here) > len(best):
                        best = here
                    visit(child, here)

    visit(tree, [])
    return ".".join([module, *best])


@pytest.fixture(scope="module")
def mypy_on_new_values(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, str]]:
    """mypy's errors on a copy of the package with a synthetic value in every
    closed type: (the type, the function) for each."""
    base = tmp_path_factory.mktemp("new-values")
    package = base / "raspis_cli"
    shutil.copytree(ROOT / "raspis_cli", package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", base / "pyproject.toml")
    _add_synthetic_values(package)
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(base / ".mypy_cache"),
                           "raspis_cli"], cwd=base, capture_output=True, text=True, check=False)
    out: list[tuple[str, str]] = []
    for line in done.stdout.splitlines():
        error = re.match(r"(raspis_cli/\S+\.py):(\d+): error: (.*)", line)
        if error is None:
            continue
        path, number, message = error.groups()
        # the first value named is the cause ("List item … has incompatible type
        # Literal['synthetic-SpecialKind', …]; expected Literal['synthetic-DealKind', …]")
        names = re.findall(SYNTHETIC.format(name=r"(\w+)"), message)[:1]
        module = path[:-3].replace("/", ".").removesuffix(".__init__")
        where = _function_at(base / path, int(number), module)
        for name in names or ["(no synthetic value named)"]:
            out.append((name, f"{where}  [{message}]" if not names else where))
    assert done.returncode != 0 or not out, done.stdout + done.stderr
    return out


@pytest.mark.slow
def test_mypy_names_every_decision_over_a_new_value(mypy_on_new_values: list[tuple[str, str]]) -> None:
    found: dict[str, set[str]] = {name: set() for name in CLOSED_TYPES}
    unexplained = []
    for name, where in mypy_on_new_values:
        if name in found:
            found[name].add(where)
        else:
            unexplained.append(where)
    assert not unexplained, "errors that name no closed type:\n" + "\n".join(unexplained)
    assert found == MUST_HANDLE


def test_every_closed_type_is_the_values_of_its_option() -> None:
    """The option table's choices are the closed types' values, so the type
    is the one list of an option's values."""
    from raspis_cli.rules import OPTIONS
    from raspis_cli.rules.values import (
        DealerRestrictionName,
        DiscardSuit,
        FirstLeader,
        FullDealTrump,
        JokerHighWinner,
        JokerLowNobodyFollows,
        JokerTakeLead,
        ScheduleName,
        ScoreExtra,
        TrumpCard,
        TwoJokers,
        Void,
        ZeroTotalRank,
        values_of,
    )

    for option, closed in [("schedule", ScheduleName), ("trump_card", TrumpCard),
                           ("full_deal_trump", FullDealTrump), ("dealer_restriction", DealerRestrictionName),
                           ("void", Void), ("first_leader", FirstLeader),
                           ("joker_high_winner", JokerHighWinner),
                           ("joker_low_nobody_follows", JokerLowNobodyFollows),
                           ("joker_take_lead", JokerTakeLead), ("two_jokers", TwoJokers),
                           ("discard_suit", DiscardSuit), ("score_extras", ScoreExtra),
                           ("zero_total_rank", ZeroTotalRank)]:
        assert OPTIONS[option].choices == values_of(closed), option


def test_every_value_of_a_switch_has_its_meaning() -> None:
    """``rules show`` says what the value in force means, from the option
    table: a value without its meaning cannot be added."""
    from raspis_cli.rules import OPTIONS

    for name, spec in OPTIONS.items():
        if spec.type_name == "choice" and name not in ("deck", "joker"):
            assert tuple(spec.value_meanings) == spec.choices, name
            assert all(spec.value_meanings.values()), name
