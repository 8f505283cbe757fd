"""The Rules value: options by name, presets as RULES.md §8 gives them."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pytest

from raspis_cli.judge.results import RulesChoice, resolve_rules
from raspis_cli.model.cards import parse_card
from raspis_cli.notation import read_text
from raspis_cli.rules import OPTIONS, PRESETS, Rules, RulesError, parse_assignment
from raspis_cli.rules.options import OptionValue

NOT_OPTIONS = {"preset_name", "deck_cards"}

# one good value per option (text, as --set gives it) and what it reads as
GOOD_VALUES: dict[str, tuple[object, OptionValue]] = {
    "deck": ("54", 54),
    "joker": ("6s", "6S"),
    "players": ("2-6", (2, 6)),
    "schedule": ("free", "free"),
    "ladder": ("false", False),
    "ladder_down": ("true", True),
    "specials": ("miser,golden", ("miser", "golden")),
    "control_deals": ("true", True),
    "trump_card": ("dealer-last", "dealer-last"),
    "full_deal_trump": ("none", "none"),
    "circular_trumps": ("yes", True),
    "dealer_restriction": ("off", "off"),
    "third_pass": ("on", True),
    "score_extras": ("percent-4", ("percent-4",)),
    "void": ("must-trump", "must-trump"),
    "first_leader": ("dealer", "dealer"),
    "joker_lead_modes": ("as take high", ("high", "take", "as")),
    "joker_follow_modes": (["as", "take"], ("take", "as")),
    "joker_demand_first_trick_only": (True, True),
    "joker_high_winner": ("highest-trump", "highest-trump"),
    "joker_take_beaten_by_trump": ("1", True),
    "joker_low_nobody_follows": ("joker-wins", "joker-wins"),
    "joker_take_lead": ("follow-freely", "follow-freely"),
    "two_jokers": ("opposite", "opposite"),
    "discard_suit": ("optional", "optional"),
    "revoke_penalty": ("-50", -50),
    "revoke_replay": ("true", True),
    "joker_lead_penalty": (-10, -10),
    "exact_per_trick": ("50", 50),
    "exact_bonus": (50, 50),
    "pass_made": ("50", 50),
    "under_per_missing": ("0", 0),
    "under_per_taken": ("10", 10),
    "over_per_taken": ("10", 10),
    "miser_zero": ("0", 0),
    "miser_per_trick": ("-10", -10),
    "golden_zero": ("0", 0),
    "golden_per_trick": ("10", 10),
    "forehead_per_trick": ("40", 40),
    "forehead_per_missing": ("-40", -40),
    "special_multiplier": ("3", 3),
    "percent_multiplier": ("2", 2),
    "zero_total_rank": ("second", "second"),
}

BAD_VALUES: dict[str, object] = {
    "deck": "52",
    "joker": "8S",
    "players": "5-3",
    "schedule": "ladder",
    "ladder": "up",
    "ladder_down": "maybe",
    "specials": "normal",
    "control_deals": "twice",
    "trump_card": "first-card",
    "full_deal_trump": "first-card",
    "circular_trumps": "2",
    "dealer_restriction": "none",
    "third_pass": "sometimes",
    "score_extras": "percent-5",
    "void": "must-follow",
    "first_leader": "right-of-dealer",
    "joker_lead_modes": "discard",
    "joker_follow_modes": "high",
    "joker_demand_first_trick_only": "x",
    "joker_high_winner": "trump",
    "joker_take_beaten_by_trump": "nah",
    "joker_low_nobody_follows": "nobody",
    "joker_take_lead": "follow",
    "two_jokers": "both",
    "discard_suit": "never",
    "revoke_penalty": "fifty",
    "revoke_replay": "again",
    "joker_lead_penalty": True,
    "exact_per_trick": "10.5",
    "exact_bonus": "x",
    "pass_made": "",
    "under_per_missing": "-",
    "under_per_taken": "1e3",
    "over_per_taken": "one",
    "miser_zero": "zero",
    "miser_per_trick": "--20",
    "golden_zero": "z",
    "golden_per_trick": "+-",
    "forehead_per_trick": "a",
    "forehead_per_missing": "b",
    "special_multiplier": "double",
    "percent_multiplier": "triple",
    "zero_total_rank": "first",
}


def test_dataclass_fields_and_options_are_the_same_names_in_order() -> None:
    fields = [f.name for f in dataclasses.fields(Rules) if f.name not in NOT_OPTIONS]
    assert fields == list(OPTIONS)


def test_value_tables_cover_every_option() -> None:
    assert set(GOOD_VALUES) == set(OPTIONS)
    assert set(BAD_VALUES) == set(OPTIONS)


@pytest.mark.parametrize("name", list(OPTIONS))
def test_with_options_sets_each_option_by_name(name: str) -> None:
    raw, expected = GOOD_VALUES[name]
    base = Rules()
    rules = base.with_options({name: raw})
    assert rules.value(name) == expected
    assert getattr(rules, name) == expected
    assert rules.changed_from(base) == {name: expected}
    assert base.value(name) != expected  # the table picks a value that changes something


@pytest.mark.parametrize("name", list(OPTIONS))
def test_with_options_rejects_bad_values(name: str) -> None:
    with pytest.raises(RulesError, match=name):
        Rules().with_options({name: BAD_VALUES[name]})


@pytest.mark.parametrize(("options", "words"), [
    ({"joker_demand_first_trick_only": True, "joker_lead_modes": ["high", "lowest"]},
     "needs a lead mode other than the demands"),
    ({"joker_demand_first_trick_only": True, "joker_lead_modes": ["lowest"]},
     "needs a lead mode other than the demands"),
    ({"joker_lead_modes": []}, "'joker_lead_modes' allows no declaration"),
    ({"joker_follow_modes": ""}, "'joker_follow_modes' allows no declaration"),
    ({"deck": 54, "two_jokers": "opposite", "joker_follow_modes": "take"}, "needs 'take' and 'discard'"),
    ({"deck": 54, "two_jokers": "opposite", "joker_follow_modes": "as"}, "needs 'take' and 'discard'"),
])
def test_rules_that_leave_a_lone_joker_unplayable_are_refused(options: Mapping[str, object],
                                                               words: str) -> None:
    # each of these played to a dead end: a player whose only card was the joker had no legal play
    with pytest.raises(RulesError, match=words):
        Rules.preset("classic").with_options(options)


def test_a_record_whose_options_leave_a_lone_joker_unplayable_gets_a_rules_problem_at_the_option() -> None:
    text = ('[Rules "classic"]\n[Option "joker_lead_modes=high,lowest"]\n'
            '[Option "joker_demand_first_trick_only=true"]\n[Players "A, B"]\n\n'
            '1. 1 A 8♦ | 0/0 5 | 0/0 5\n')
    game = read_text(text, "t.rsp").games[0]
    rules, problems = resolve_rules(game)
    assert [(p.kind, p.pos.line if p.pos else None) for p in problems] == [("rules", 3)]
    assert "needs a lead mode other than the demands" in problems[0].message.render("en")
    assert rules.joker_lead_modes == ("high", "lowest") and not rules.joker_demand_first_trick_only


def test_a_deck_without_a_joker_is_not_asked_how_to_play_one() -> None:
    rules = Rules.preset("classic").with_options(
        {"joker": "none", "joker_lead_modes": "", "joker_follow_modes": ""})
    assert rules.joker_lead_modes == () and not rules.deck_cards.jokers
    later = Rules.preset("joker54").with_options({"two_jokers": "later-wins", "joker_follow_modes": "take"})
    assert later.joker_follow_modes == ("take",)  # a later take beats an earlier one: no opposite to declare


def test_options_given_for_every_game_that_clash_with_a_records_are_each_left_out_and_said() -> None:
    text = ('[Rules "classic"]\n[Option "joker_demand_first_trick_only=true"]\n[Players "A, B"]\n\n'
            '1. 1 A 8♦ | 0/0 5 | 0/0 5\n')
    game = read_text(text, "t.rsp").games[0]
    choice = RulesChoice(options={"joker_lead_modes": "lowest", "void": "free"})
    rules, problems = resolve_rules(game, choice)
    assert rules.void == "free" and rules.joker_lead_modes != ("lowest",)  # the one that clashes left out
    assert [(p.kind, p.pos.line if p.pos else None) for p in problems] == [("rules", 1)]
    said = problems[0].message.render("en")
    assert said.startswith("--set 'joker_lead_modes' is not applied to this game: ") and "demands" in said
    together = RulesChoice(options={"joker_lead_modes": "lowest", "joker_demand_first_trick_only": "false"})
    rules, problems = resolve_rules(game, together)  # refused one by one, together they go
    assert problems == [] and rules.joker_lead_modes == ("lowest",)


def test_the_reader_keeps_a_records_other_options_when_two_of_them_clash() -> None:
    text = ('[Rules "joker54"]\n[Option "deck=36"]\n[Option "joker=7S"]\n'
            '[Option "joker_lead_modes=high,lowest"]\n[Option "joker_demand_first_trick_only=true"]\n'
            '[Players "A, B, C"]\n\n1. 1 A 8♦ | 0/0 5 | 0/0 5 | 0/1 1\n'
            '  hand A: joker\n  hand B: 9♦\n  hand C: 10♦\n')
    read = read_text(text, "t.rsp")
    assert [d.code for d in read.diagnostics if d.code.startswith("E")] == []  # not read as 54 cards (E310)
    rules, problems = resolve_rules(read.games[0])
    assert rules.deck == 36 and [(p.kind, p.pos.line if p.pos else None) for p in problems] == [("rules", 5)]


def test_unknown_option_raises_with_suggestion() -> None:
    with pytest.raises(RulesError, match=r"unknown option 'viod'.*did you mean 'void'"):
        Rules().with_options({"viod": "free"})
    with pytest.raises(RulesError, match=r"unknown option 'zzz'$"):
        Rules().with_options({"zzz": 1})
    with pytest.raises(RulesError, match="unknown option"):
        Rules().value("preset_name")


def test_unknown_preset_raises() -> None:
    with pytest.raises(RulesError, match="unknown preset 'poker'"):
        Rules.preset("poker")


def test_with_no_options_is_the_same_value() -> None:
    rules = Rules.preset("classic")
    assert rules.with_options({}) is rules


def test_with_options_keeps_the_preset_name_and_is_frozen() -> None:
    rules = Rules.preset("georgian").with_options({"void": "free"})
    assert rules.preset_name == "georgian"
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.void = "must-trump"  # type: ignore[misc]


def test_from_record() -> None:
    assert Rules.from_record(None) == Rules.preset("raspisnoy")
    rules = Rules.from_record("classic", {"void": "free", "schedule": "free"})
    assert (rules.preset_name, rules.void, rules.schedule) == ("classic", "free", "free")
    assert rules.joker_lead_modes == ("high", "low", "as")


def test_default_rules_are_the_raspisnoy_preset() -> None:
    assert Rules() == Rules.preset("raspisnoy")
    assert Rules.preset("raspisnoy").changed_from(Rules()) == {}


def test_presets_as_rules_md_section_8() -> None:
    table = {
        "raspisnoy": dict(deck=36, joker="7S", players=(3, 5), schedule="raspisnoy", void="free",
                          first_leader="left-of-dealer", joker_lead_modes=("high", "low"),
                          joker_follow_modes=("take", "discard"), discard_suit="required",
                          revoke_penalty=0, revoke_replay=False, joker_lead_penalty=0,
                          special_multiplier=1, miser_zero=100, golden_zero=-100),
        "classic": dict(deck=36, joker="7S", players=(2, 10), schedule="classic",
                        void="must-trump", first_leader="left-of-dealer",
                        joker_lead_modes=("high", "low", "as"),
                        joker_follow_modes=("take", "discard", "as"), discard_suit="optional",
                        exact_per_trick=10, pass_made=5, under_per_missing=-10, over_per_taken=1,
                        miser_zero=0, miser_per_trick=-10, golden_zero=0, golden_per_trick=10,
                        special_multiplier=2, revoke_penalty=0, revoke_replay=False,
                        specials=("no-trump", "dark", "miser", "golden", "forehead")),
        "georgian": dict(deck=36, joker="7S", players=(4, 4), schedule="georgian",
                         void="must-trump", joker_lead_modes=("high", "low", "as"),
                         joker_follow_modes=("take", "discard", "as"), discard_suit="optional",
                         exact_per_trick=50, exact_bonus=50, pass_made=50, under_per_missing=0,
                         under_per_taken=10, over_per_taken=10, revoke_penalty=-50,
                         revoke_replay=False),
        "joker54": dict(deck=54, players=(2, 6), schedule="joker54", void="free",
                        first_leader="dealer", joker_lead_modes=("low", "take"),
                        joker_follow_modes=("take", "discard"), discard_suit="optional",
                        two_jokers="opposite", revoke_penalty=-50, revoke_replay=True,
                        joker_lead_penalty=-10),
        "online36": dict(deck=36, joker="7S", players=(3, 6), schedule="blocks", ladder=True,
                         specials=("dark", "percent", "no-trump", "golden", "miser"), control_deals=True,
                         trump_card="dealer-last", full_deal_trump="last-card", third_pass="players",
                         void="must-trump-high", joker_lead_modes=("high", "low", "take"),
                         joker_follow_modes=("take", "discard"), joker_low_nobody_follows="joker-wins",
                         joker_take_lead="follow-freely", discard_suit="optional", under_per_missing=-10,
                         under_per_taken=-10, miser_zero=50, miser_per_trick=-10, golden_zero=0,
                         golden_per_trick=10, percent_multiplier=3,
                         score_extras=("full-bid-double", "miser-sweep"), zero_total_rank="second"),
    }
    assert set(table) == set(PRESETS)
    for name, expected in table.items():
        rules = Rules.preset(name)
        assert rules.preset_name == name
        for option, value in expected.items():
            assert rules.value(option) == value, (name, option)


def test_deck_of_the_rules() -> None:
    assert Rules().deck_cards.jokers == (parse_card("7S"),)
    assert Rules().with_options({"joker": "none"}).deck_cards.jokers == ()
    fifty_four = Rules.preset("joker54").deck_cards
    assert fifty_four.size == 54 and len(fifty_four.jokers) == 2
    # a 54-card deck ignores the 36-card joker option
    assert Rules().with_options({"deck": 54}).deck_cards.jokers == fifty_four.jokers


def test_max_cards_and_kind_multiplier() -> None:
    rules = Rules()
    assert [rules.max_cards(n) for n in (3, 4, 5)] == [12, 9, 7]
    assert Rules.preset("joker54").max_cards(6) == 9
    classic = Rules.preset("classic")
    assert [classic.kind_multiplier(k)[1] for k in ("normal", "no-trump", "dark", "miser", "golden",
                                                      "forehead")] == [1, 2, 2, 2, 2, 1]
    assert classic.kind_multiplier("percent") == ("percent_multiplier", 3)


def test_to_json_round_trips_through_with_options() -> None:
    for name in PRESETS:
        rules = Rules.preset(name)
        data = rules.to_json()
        assert list(data) == list(OPTIONS)
        assert Rules().with_options(data).options() == rules.options()


def test_show_values() -> None:
    rules = Rules.preset("classic")
    assert OPTIONS["players"].show(rules.players) == "2-10"
    assert OPTIONS["void"].show(rules.void) == "must-trump"
    assert OPTIONS["ladder_down"].show(rules.ladder_down) == "false"
    assert OPTIONS["joker_lead_modes"].show(rules.joker_lead_modes) == "high,low,as"


def test_parse_assignment() -> None:
    assert parse_assignment(" void = free ") == ("void", "free")
    assert parse_assignment("specials=miser,golden") == ("specials", "miser,golden")
    for bad in ("void", "=free", ""):
        with pytest.raises(RulesError, match="OPTION=VALUE"):
            parse_assignment(bad)


def test_every_preset_file_states_every_option() -> None:
    """A preset is its whole rule set, every option written in its file: a
    new option's default cannot apply to a preset whose rule differs
    unnoticed (CONTRIBUTING.md, "A new option")."""
    import json

    from raspis_cli.rules import PRESET_FOLDER

    for name in PRESETS:
        data = json.loads((PRESET_FOLDER / f"{name}.json").read_text(encoding="utf-8"))
        assert list(data["options"]) == list(OPTIONS), name
        assert Rules.preset(name).to_json() == data["options"], name
