"""Every word the HTML reports show, marked for the gettext catalogue.

The words are English msgids (translated by :mod:`raspis_cli.i18n`, like every
other shown string: the Russian is in ``raspis.po``). A report is written in
the interface language: ``--lang`` when given, else the
``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG`` environment.
"""

from __future__ import annotations

from typing import Final

from raspis_cli.model.diagnostics import begins_with_name, kind_title
from raspis_cli.model.joker import JOKER_WORDS
from raspis_cli.text.i18n import N_, _

__all__ = ["LANGS", "STRINGS", "joker_words", "problem_row", "report_strings"]

LANGS: Final = ("en", "ru")

STRINGS: Final[dict[str, str]] = {
    "game_report": N_("Game report"),
    "club_report": N_("Club report"),
    "generated": N_("Made by raspis"),
    "game": N_("Game"),
    "rules": N_("Rules"),
    "players": N_("Players"),
    "sheet": N_("Score sheet (расписка)"),
    "sheet_note": N_("Each cell: bid/taken, deal score, running total. A value written on the sheet "
                     "that differs from the recomputed one is highlighted, the written value beside "
                     "it."),
    "deal": N_("Deal"),
    "kind": N_("Kind"),
    "cards": N_("Cards"),
    "dealer": N_("Dealer"),
    "trump": N_("Trump"),
    "no_trump": N_("no trump"),
    "written": N_("written"),
    "penalty": N_("penalty"),
    "totals": N_("Final totals"),
    "total": N_("Total"),
    "winner": N_("Winner"),
    "winners": N_("Winners"),
    "leader": N_("Leading"),
    "leaders": N_("Sharing the lead"),
    "violations": N_("Violations"),
    "comments": N_("Comments"),
    "game_comment": N_("Game"),
    "no_violations": N_("No violations: every written value agrees with the replay."),
    "running_totals": N_("Running totals"),
    "replay": N_("Trick-by-trick replay"),
    "replay_note": N_("Buttons or the arrow keys ← → step card by card."),
    "replay_left_out": N_("The trick-by-trick replay of this game is left out: a page holds at most "
                           "{mb} MB of replays. A report of a file with fewer games shows it."),
    "prev": N_("← Back"),
    "next": N_("Forward →"),
    "start": N_("Start"),
    "end": N_("End"),
    "trick": N_("Trick"),
    "of": N_("of"),
    "card": N_("card"),
    "bid": N_("bid"),
    "bids": N_("Bids"),
    "taken": N_("Taken"),
    "wins_trick": N_("wins the trick"),
    "leads": N_("leads"),
    "analysis": N_("Double-dummy analysis"),
    "analysis_note": N_("With every hand seen (raspis analyze): what each player could force from the "
                        "first card, the card that lost a bid and the card that handed one to somebody "
                        "(marked ✗ in the replay). Accuracy = share of a player's decisions that kept the"
                        " best outcome still available."),
    "an_summary": N_("Analysis per player"),
    "an_makeable": N_("Makeable"),
    "an_made": N_("Made"),
    "an_decisions": N_("Decisions"),
    "an_mistakes": N_("Mistakes"),
    "an_handed_col": N_("Handed"),
    "an_regret": N_("Bid regret"),
    "an_accuracy": N_("Accuracy"),
    "ratings": N_("Ratings"),
    "ratings_note": N_("openskill Plackett–Luce from each game's final places, per rules family, in date"
                       " order. Rating = mean, ± = uncertainty, ordinal = rating − 3 × uncertainty (the "
                       "table is sorted by it)."),
    "rating": N_("Rating"),
    "uncertainty": "±",
    "ordinal": N_("Ordinal"),
    "games": N_("Games"),
    "change": N_("Change"),
    "ratings_over_time": N_("Ratings over time (rating after each game in the pool)"),
    "leaderboards": N_("Leaderboards by rules and table size"),
    "leaderboards_note": N_("Like with like: each table compares players over games of one rules preset and "
                            "one table size. Relative = points per deal above the mean of everyone at the "
                            "same tables."),
    "wins": N_("Wins"),
    "win_rate": N_("Win rate"),
    "mean_total": N_("Mean total"),
    "per_deal": N_("Per deal"),
    "relative": N_("Relative"),
    "bid_accuracy": N_("Bid accuracy by cards dealt and by seat"),
    "bid_accuracy_note": N_("Share of bids made exactly. Seat 1 bids first (left of the dealer); the last "
                            "seat is the dealer."),
    "seat": N_("Seat"),
    "head_to_head": N_("Head to head"),
    "head_to_head_note": N_("Row player ahead–behind the column player in games together (final totals)."),
    "dramatic": N_("The most dramatic games"),
    "dramatic_note": N_("Biggest swing in the closing special deals: how far the points moved between "
                        "players after the last normal deal."),
    "date": N_("Date"),
    "event": N_("Event"),
    "swing": N_("Swing"),
    "leader_before": N_("Leading before the specials"),
    "no_games": N_("No games."),
    "pool": N_("Pool"),
    "player": N_("Player"),
    "live_sheet": N_("The table"),
    "games_list": N_("Every game"),
}
"""Every word of the reports by the key the templates use (``s.deal``)."""

_SUIT_WORDS: Final = (N_("spades"), N_("clubs"), N_("diamonds"), N_("hearts"))


def report_strings() -> dict[str, str]:
    """:data:`STRINGS` in the language in force."""
    return {key: _(msgid) for key, msgid in STRINGS.items()}


def joker_words(mode: str, suit: int | None, card: str | None) -> str:
    """A joker declaration as words: ``high ♥ (hearts)``, ``по старшим ♥ (черви)``."""
    words = _(JOKER_WORDS[mode]) if mode in JOKER_WORDS else mode
    if card is not None:
        return f"{words} {card}"
    if suit is not None:
        symbol = "♠♣♦♥"[suit]
        return f"{words} {symbol} ({_(_SUIT_WORDS[suit])})"
    return words


def problem_row(kind: str, message: str, deal: int | None, trick: int | None,
                player: str | None) -> dict[str, object]:
    """One problem as a page lists it: its kind in the language in force (a
    Russian title, ``расписание``), the message shown, and where; the player is
    left out when the message begins with the name (never said twice)."""
    title = kind_title(kind)
    if player and begins_with_name(message, player):
        player = None
    return {"kind": title, "message": message, "deal": deal, "trick": trick, "player": player}
