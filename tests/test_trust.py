"""Issue 11: game identity without collisions (item 2), lossless conversion
(item 3) and bounded numbers (item 6). The attack inputs are small fixtures
in tests/data/hostile/; the property tests draw games from the simulator and
from fuzzkit's semantic mutations with the JSON / notation differential as
the oracle."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raspis_cli.files.sources import load_source
from raspis_cli.model.record import NUMBER_RANGES, GameRecord
from raspis_cli.notation import NotationWriteError, read_text, write_games
from raspis_cli.notation.jsoncodec import games_to_json_text, read_json_text
from raspis_cli.rules import Rules
from raspis_cli.simulate.game import simulate_game
from raspis_cli.store.rows import canonical_game, game_id
from tests.fuzzkit import check_differential, semantic_mutation, semantic_seeds, verdict
from tests.storekit import run, run_json

HOSTILE = Path(__file__).resolve().parent / "data" / "hostile"


def validate_json(capsys: pytest.CaptureFixture[str], path: str) -> dict[str, list[dict[str, object]]]:
    """``validate -f json`` of a file, parsed (exit 0 or 1)."""
    code, out, err = run(capsys, "validate", "-f", "json", path)
    assert code in (0, 1), err
    report: dict[str, list[dict[str, object]]] = json.loads(out)
    return report


def games_of(name: str) -> list[GameRecord]:
    source = load_source(str(HOSTILE / name))
    assert source.error is None
    return source.games


# --- item 2: game_id ------------------------------------------------------------------------------


def test_separators_in_names_do_not_make_two_games_one(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """X\\x1fAH\\x1eY playing K♥ used to hash like X playing A♥ then Y playing K♥."""
    one, two = games_of("separator-names.json")
    assert game_id(one) != game_id(two)
    db = tmp_path / "sep.duckdb"
    code, out, err = run(capsys, "load", str(HOSTILE / "separator-names.json"), "--db", str(db))
    assert code == 0, err
    assert "loaded 2 games" in out and "already stored" not in out
    assert run_json(capsys, "query", "SELECT count(*) AS n FROM games", "--db", str(db),
                    "-f", "json") == [{"n": 2}]


def test_bid_order_is_part_of_the_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_of_order, in_order = games_of("bid-order.rsp")
    assert game_id(out_of_order) != game_id(in_order)
    db = tmp_path / "bids.duckdb"
    code, out, err = run(capsys, "load", str(HOSTILE / "bid-order.rsp"), "--db", str(db))
    assert code == 0 and "loaded 2 games" in out, (out, err)


def test_empty_tricks_in_json_and_its_notation_are_one_game(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    (game,) = games_of("zero-card-empty-tricks.json")
    (converted,) = read_text(write_games([game])).games
    assert game_id(game) == game_id(converted)
    notation = tmp_path / "z.rsp"
    notation.write_text(write_games([game]), encoding="utf-8")
    db = tmp_path / "z.duckdb"
    code, out, err = run(capsys, "load", str(HOSTILE / "zero-card-empty-tricks.json"), str(notation),
                         "--db", str(db))
    assert code == 0 and "loaded 1 game" in out and "duplicate" in out, (out, err)


def test_the_id_is_a_hash_of_canonical_json() -> None:
    (game,) = games_of("zero-card-empty-tricks.json")
    text = json.dumps(canonical_game(game), sort_keys=True, ensure_ascii=False)
    assert "\x1f" not in text and json.loads(text)["players"] == ["Анна", "Boris", "Вера"]


SIMULATED = st.tuples(st.sampled_from(["raspisnoy", "joker54", "georgian", "classic"]),
                      st.integers(3, 5), st.integers(0, 10**6),
                      st.sampled_from(["sheet", "scores", "full"]))


@settings(max_examples=15)
@given(SIMULATED)
def test_simulated_games_keep_their_id_and_verdict_in_every_form(case: tuple[str, int, int, str]) -> None:
    preset, players, seed, detail = case
    rules = Rules.preset(preset)
    players = min(max(players, rules.players[0]), rules.players[1])
    game = simulate_game(rules, players, seed, detail=detail)
    assert check_differential(games_to_json_text([game])) == "same"


@settings(max_examples=60, derandomize=True)
@given(st.randoms(use_true_random=False))
def test_mutated_games_keep_their_id_and_verdict_in_every_form(rnd: random.Random) -> None:
    """fuzzkit.check_differential: the JSON form and the notation form have
    the same id, violations and totals; notation -> JSON -> notation is
    byte-equal; fmt is idempotent on convert's output (or the conversion is
    refused with a message)."""
    check_differential(semantic_mutation(rnd))


@settings(max_examples=40, derandomize=True)
@given(st.randoms(use_true_random=False))
def test_records_that_differ_have_different_ids(rnd: random.Random) -> None:
    first = read_json_text(rnd.choice(semantic_seeds()))
    second = read_json_text(semantic_mutation(rnd))
    if not (first.ok and second.ok):
        return
    a, b = first.games[0], second.games[0]
    if canonical_game(a) != canonical_game(b):
        assert game_id(a) != game_id(b)
    else:
        assert game_id(a) == game_id(b)


def test_each_single_fact_changes_the_id() -> None:
    (base,) = read_text((HOSTILE / "bid-order.rsp").read_text(encoding="utf-8").split("\n\n[Event")[0]
                        + "\n").games
    seen = {game_id(base)}
    for change in ("bids Анна 1, Boris 0, Вера 1", "bids Анна 0, Boris 0, Вера 0",
                   "bids Boris 0, Анна 1, Вера 0"):
        text = write_games([base]).replace("bids Анна 1, Boris 0, Вера 0", change)
        (other,) = read_text(text).games
        assert game_id(other) not in seen, change
        seen.add(game_id(other))


# --- item 3: lossless conversion -----------------------------------------------------------------


def test_a_joker_declaration_the_notation_cannot_hold_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "convert", "--to", "notation", str(HOSTILE / "joker-suit-and-card.json"))
    assert code == 2 and out == ""
    assert "a joker declared 'discard' names a suit, not a card" in err


def test_an_option_name_with_a_space_is_not_written_as_another_option(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "convert", "--to", "notation", str(HOSTILE / "option-name-with-space.json"))
    assert code == 2 and out == "" and "'deck '" in err and "read back as another option" in err


@pytest.mark.parametrize("value", [1, 1.5, True, None, [1, 2], {"a": 1}, "1", "free text"])
@pytest.mark.parametrize("name", ["house_rule", "exact_bonus"])
def test_an_option_value_keeps_its_type_through_the_notation_or_is_refused(name: str, value: object) -> None:
    """JSON -> notation -> JSON: an option whose value the notation would
    turn into text (an unknown option's 1 read back as "1") is refused."""
    (game,) = read_text((HOSTILE / "bid-order.rsp").read_text(encoding="utf-8").split("\n\n[Event")[0]).games
    game.rules_options = {name: value}
    try:
        text = write_games([game])
    except NotationWriteError as e:
        assert "keep this record in JSON" in str(e)
        assert not isinstance(value, str)
        return
    (back,) = read_text(text).games
    before = json.loads(games_to_json_text([game]))
    after = json.loads(games_to_json_text([back]))
    assert after["rules"] == before["rules"], (before["rules"], after["rules"])


def test_duplicate_players_are_a_violation_and_never_written(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(HOSTILE / "duplicate-players.json")
    report = validate_json(capsys, path)
    kinds = [v["kind"] for v in report["files"][0]["games"][0]["violations"]]  # type: ignore[index]
    assert kinds[0] == "players"
    code, out, err = run(capsys, "convert", "--to", "notation", path)
    assert code == 2 and out == "" and "'B' is listed twice" in err


def test_bids_out_of_order_get_one_verdict_in_json_and_notation(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    # a JSON map says nothing about order (RECORD-JSON.md): valid, and so is its conversion
    path = HOSTILE / "bidorder.json"
    (game,) = games_of("bidorder.json")
    assert list(game.deals[0].bids or {}) == ["Вера", "Анна", "Boris"]  # the bidding order
    converted = tmp_path / "bidorder.rsp"
    assert run(capsys, "convert", "--to", "notation", str(path), "-o", str(converted))[0] == 0
    for target in (path, converted):
        report = validate_json(capsys, str(target))
        kinds = [v["kind"] for v in report["files"][0]["games"][0]["violations"]]  # type: ignore[index]
        assert "bid-order" not in kinds, target
    # the notation's out-of-order bids: JSON keeps the order in "bid_order", both get bid-order
    text = (HOSTILE / "bid-order.rsp").read_text(encoding="utf-8")
    (first, _) = read_text(text).games
    data = json.loads(games_to_json_text([first]))
    assert data["deals"][0]["bid_order"] == ["Анна", "Boris", "Вера"]
    (back,) = read_json_text(json.dumps(data)).games
    assert [k for k, *_ in verdict(back)[0]] == [k for k, *_ in verdict(first)[0]]
    assert "bid-order" in [k for k, *_ in verdict(back)[0]]


def test_a_zero_card_deal_with_empty_tricks_has_no_trick_count_violation(
        capsys: pytest.CaptureFixture[str]) -> None:
    report = validate_json(capsys, str(HOSTILE / "zero-card-empty-tricks.json"))
    kinds = [v["kind"] for v in report["files"][0]["games"][0]["violations"]]  # type: ignore[index]
    assert "trick-count" not in kinds


# --- item 6: numbers ------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [["validate"], ["validate", "-f", "json"], ["score"], ["show"],
                                  ["score", "-f", "json"], ["fmt"], ["convert", "--to", "json"]])
def test_huge_numbers_are_violations_in_every_command(argv: list[str],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *argv, str(HOSTILE / "huge-numbers.rsp"))
    assert "internal error" not in err and "Traceback" not in err
    if argv[0] == "validate":
        assert code == 1
        assert "E215" in out and "out of range" in out and "from -999 to 999" in out
        assert "the bid (a number of about 2201 digits) is out of range" in out
        assert "under_per_missing: expected a whole number from -99,999 to 99,999" in out
        if "json" in argv:
            violations = json.loads(out)["files"][0]["games"][0]["violations"]
            e215 = next(v for v in violations if "E215" in v["message"])
            assert (e215["line"], e215["column"]) == (8, 8)
    elif argv[0] in ("fmt", "convert"):
        assert code == 2 and "E215" in err  # a syntax problem: nothing is rewritten
    elif argv[0] == "score":
        assert code == 1  # the sheet has violations, as validate says
    else:
        assert code == 0


def test_out_of_range_speaks_russian() -> None:
    """E215's words follow the interface language, quoted number and range included."""
    from tests.clikit import run_cli

    done = run_cli("validate", str(HOSTILE / "huge-numbers.rsp"), env_extra={"LANG": "ru_RU.UTF-8"})
    line = next(x for x in done.stdout.splitlines() if "E215" in x)
    assert "раздача 1: заказ (число примерно из 2201 цифр) вне допустимого диапазона" in line, line
    assert "от −999 до 999" in line and "out of range" not in line  # the minus sign of Russian text


def test_huge_numbers_load_as_violations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "h.duckdb"
    code, out, err = run(capsys, "load", str(HOSTILE / "huge-numbers.rsp"), "--db", str(db))
    assert code == 0 and "1 of them with violations" in out, (out, err)
    rows = run_json(capsys, "query", "SELECT kind FROM violations ORDER BY kind", "--db", str(db),
                    "-f", "json")
    assert rows == [{"kind": "bid-order"}, {"kind": "rules"}, {"kind": "syntax"}]


@pytest.mark.parametrize("what", sorted(NUMBER_RANGES))
def test_every_number_has_a_range_and_json_refuses_beyond_it(what: str) -> None:
    low, high = NUMBER_RANGES[what]
    game = simulate_game(Rules.preset("raspisnoy"), 3, 5, detail="scores")
    data = json.loads(games_to_json_text([game]))
    deal = data["deals"][0]
    if what in ("number", "cards"):
        deal[what] = high + 1
    elif what == "penalty":
        deal["penalties"] = [{"player": data["players"][0], "points": low - 1, "reason": "x"}]
    else:
        section = {"bid": "bids", "taken": "taken", "score": "scores", "total": "totals"}[what]
        deal[section][data["players"][0]] = high + 1
    read = read_json_text(json.dumps(data))
    assert not read.ok and "out of range" in read.diagnostics[0].message.english()
    deal_ok = json.loads(games_to_json_text([game]))
    assert read_json_text(json.dumps(deal_ok)).ok


def test_the_notation_writer_never_writes_what_does_not_read_back() -> None:
    (game,) = games_of("joker-suit-and-card.json")
    with pytest.raises(NotationWriteError):
        write_games([game])
