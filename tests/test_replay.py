"""The replay: records in, violations with places and recomputed sheets out."""

from __future__ import annotations

from raspis_cli.engine import JokerDecl
from raspis_cli.judge.replay import RulesChoice, replay_game
from raspis_cli.model.cards import Suit, parse_card
from raspis_cli.model.record import DealRecord, GameRecord, PenaltyRecord, PlayRecord, Pos

PLAYERS = ["Анна", "Boris", "Vera"]


def _trick(*plays: tuple[str, str] | tuple[str, str, JokerDecl], line: int = 1) -> list[PlayRecord]:
    out = []
    for column, play in enumerate(plays, start=1):
        decl = play[2] if len(play) == 3 else None
        out.append(PlayRecord(play[0], parse_card(play[1]), decl, Pos(line, column * 10)))
    return out


def _contract_example(**changes: object) -> DealRecord:
    """The deal of RECORD-JSON.md's example."""
    deal = DealRecord(
        number=1, kind="normal", dealer="Vera", cards=3, trump=parse_card("KC"),
        hands={"Анна": [parse_card(c) for c in ("AH", "9D", "6D")],
               "Boris": [parse_card(c) for c in ("7S", "10D", "QS")],
               "Vera": [parse_card(c) for c in ("6H", "8C", "JD")]},
        bids={"Анна": 1, "Boris": 0, "Vera": 1},
        tricks=[
            _trick(("Анна", "AH"), ("Boris", "7S", JokerDecl("discard", Suit.H)), ("Vera", "6H"), line=10),
            _trick(("Анна", "9D"), ("Boris", "10D"), ("Vera", "JD"), line=11),
            _trick(("Vera", "8C"), ("Анна", "6D"), ("Boris", "QS"), line=12),
        ],
        taken={"Анна": 1, "Boris": 0, "Vera": 2},
        scores={"Анна": 10, "Boris": 5, "Vera": 2},
        pos=Pos(5, 1),
    )
    for key, value in changes.items():
        setattr(deal, key, value)
    return deal


def _game(*deals: DealRecord, unfinished: bool = True, **options: object) -> GameRecord:
    return GameRecord(players=list(PLAYERS), deals=list(deals),
                      rules_options={"schedule": "free", **options}, unfinished=unfinished)


def test_the_contract_example_is_valid_and_scores_as_written() -> None:
    result = replay_game(_game(_contract_example()))
    assert result.problems == []
    assert result.totals == {"Анна": 10, "Boris": 5, "Vera": 2}
    assert result.winners == ["Анна"]
    assert result.deals[0].taken_source == "tricks"


def test_a_revoke_is_reported_at_the_card_with_deal_trick_and_player() -> None:
    # Vera holds J♦ yet plays 8♣ on the 9♦ lead
    deal = _contract_example(tricks=[
        _trick(("Анна", "AH"), ("Boris", "7S", JokerDecl("discard", Suit.H)), ("Vera", "6H"), line=10),
        _trick(("Анна", "9D"), ("Boris", "10D"), ("Vera", "8C"), line=11),
        _trick(("Vera", "JD"), ("Анна", "6D"), ("Boris", "QS"), line=12),
    ], taken=None, scores=None)
    result = replay_game(_game(deal))
    assert [(p.kind, p.deal, p.trick, p.player, p.pos) for p in result.problems] == [
        ("follow-suit", 1, 2, "Vera", Pos(11, 30)),
    ]
    # the revoke still takes the trick (trump ♣): Vera 2, Анна 1
    assert result.deals[0].taken == {"Анна": 1, "Boris": 0, "Vera": 2}


def test_written_values_that_differ_are_each_reported() -> None:
    deal = _contract_example(taken={"Анна": 1, "Boris": 1, "Vera": 2},
                             scores={"Анна": 10, "Boris": 5, "Vera": 20},
                             totals={"Анна": 10, "Boris": 5, "Vera": 3})
    result = replay_game(_game(deal))
    kinds = sorted((p.kind, p.player) for p in result.problems)
    assert kinds == [("score-mismatch", "Vera"), ("taken-mismatch", "Boris"), ("total-mismatch", "Vera")]


def test_taken_is_inferred_from_bids_and_scores_on_a_paper_sheet() -> None:
    sheet = DealRecord(number=1, kind="normal", dealer="Vera", cards=3,
                       bids={"Анна": 1, "Boris": 0, "Vera": 1}, scores={"Анна": 10, "Boris": 5, "Vera": 2})
    result = replay_game(_game(sheet))
    assert result.problems == []
    assert result.deals[0].taken == {"Анна": 1, "Boris": 0, "Vera": 2}
    assert result.deals[0].taken_source == "inferred"


def test_inferred_taken_must_add_up_to_the_cards() -> None:
    sheet = DealRecord(number=1, kind="normal", dealer="Vera", cards=3,
                       bids={"Анна": 1, "Boris": 0, "Vera": 1}, scores={"Анна": 10, "Boris": 5, "Vera": 10})
    result = replay_game(_game(sheet))
    assert [p.kind for p in result.problems] == ["taken-sum"]


def test_a_score_no_trick_count_can_give_is_a_score_mismatch() -> None:
    sheet = DealRecord(number=1, kind="normal", dealer="Vera", cards=3,
                       bids={"Анна": 1, "Boris": 0, "Vera": 1}, scores={"Анна": 7, "Boris": 5, "Vera": 2})
    result = replay_game(_game(sheet))
    assert [(p.kind, p.player) for p in result.problems] == [("score-mismatch", "Анна")]


def test_the_dealer_must_move_one_seat_clockwise() -> None:
    first = DealRecord(number=1, kind="normal", dealer="Анна", cards=1,
                       bids={"Boris": 0, "Vera": 0, "Анна": 0}, taken={"Анна": 1, "Boris": 0, "Vera": 0})
    second = DealRecord(number=2, kind="normal", dealer="Vera", cards=2, pos=Pos(9, 1),
                        positions={"dealer": Pos(9, 5)})
    result = replay_game(_game(first, second))
    assert [(p.kind, p.deal, p.pos) for p in result.problems] == [("dealer-order", 2, Pos(9, 5))]


def test_bids_written_out_of_order_in_text() -> None:
    deal = DealRecord(number=1, kind="normal", dealer="Vera", cards=3,
                      bids={"Boris": 0, "Анна": 1, "Vera": 1})
    ordered = replay_game(_game(deal), ordered_bids=True)
    assert [(p.kind, p.player) for p in ordered.problems] == [("bid-order", "Boris")]
    # JSON objects carry no order: the same bids are fine there
    assert replay_game(_game(deal), ordered_bids=False).problems == []


def test_unknown_preset_and_option_are_rules_problems_and_the_rest_still_applies() -> None:
    game = GameRecord(players=list(PLAYERS), deals=[_contract_example()], rules_preset="poker",
                      rules_options={"schedule": "free", "voids": "free", "void": "sometimes"},
                      unfinished=True)
    result = replay_game(game)
    assert [p.kind for p in result.problems] == ["rules", "rules", "rules"]
    assert result.rules.schedule == "free"


def test_unknown_player_is_a_players_problem() -> None:
    deal = DealRecord(number=1, kind="normal", dealer="Gleb", cards=3)
    result = replay_game(_game(deal))
    assert [(p.kind, p.player) for p in result.problems] == [("players", "Gleb")]


def test_command_line_rules_replace_the_records() -> None:
    sheet = DealRecord(number=1, kind="normal", dealer="Vera", cards=3,
                       bids={"Анна": 1, "Boris": 0, "Vera": 1}, taken={"Анна": 1, "Boris": 0, "Vera": 2})
    choice = RulesChoice(options={"exact_per_trick": 50, "exact_bonus": 50})
    georgian = replay_game(_game(sheet), choice=choice)
    assert georgian.totals == {"Анна": 100, "Boris": 5, "Vera": 2}


def test_missing_deals_of_a_finished_game_break_the_schedule() -> None:
    game = GameRecord(players=list(PLAYERS), deals=[DealRecord(1, "normal", "Vera", 1)])
    result = replay_game(game)
    assert [p.kind for p in result.problems] == ["schedule"]


def test_a_prescribed_penalty_is_applied_and_a_written_one_checked() -> None:
    # Vera revokes; with revoke_penalty -50 the recomputed score includes it
    tricks = [
        _trick(("Анна", "AH"), ("Boris", "7S", JokerDecl("discard", Suit.H)), ("Vera", "6H")),
        _trick(("Анна", "9D"), ("Boris", "10D"), ("Vera", "8C")),
        _trick(("Vera", "JD"), ("Анна", "6D"), ("Boris", "QS")),
    ]
    deal = _contract_example(tricks=tricks, taken=None, scores=None,
                             penalties=[PenaltyRecord("Vera", -10, "revoke", Pos(20, 1))])
    result = replay_game(_game(deal, revoke_penalty=-50))
    kinds = [(p.kind, p.player, p.pos) for p in result.problems]
    assert ("penalty", "Vera", Pos(20, 1)) in kinds
    assert result.deals[0].scores["Vera"] == 2 - 50


def test_final_totals_carrying_a_reported_difference_are_not_reported_again() -> None:
    # Boris's total is 10 too high after deal 1; the final totals carry it on
    game = _game(_contract_example(totals={"Анна": 10, "Boris": 15, "Vera": 2}))
    game.totals = {"Анна": 10, "Boris": 15, "Vera": 2}
    assert [(p.kind, p.deal, p.player) for p in replay_game(game).problems] == [
        ("total-mismatch", 1, "Boris")]
    # a final total that differs by another amount is reported on its own
    game.totals = {"Анна": 10, "Boris": 16, "Vera": 3}
    assert [(p.kind, p.deal, p.player) for p in replay_game(game).problems] == [
        ("total-mismatch", 1, "Boris"), ("total-mismatch", None, "Boris"),
        ("total-mismatch", None, "Vera")]
