"""What a phone shows of the table: the open deal, its question, the running sheet.

:func:`table_view` turns the editable sheet's state into the plain data the
template ``table_body.html.j2`` lays out, in the language in force
(:func:`raspis_cli.text.i18n.speaking` sets it per request). Every decision
comes from the sheet (what is asked, whose turn, which bids it forbids,
which counts it refuses, the sum against the cards, the written values that
differ); nothing here checks a rule. Pure: no I/O.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from raspis_cli.explain.reasons import cell_formula
from raspis_cli.explain.settle import settle
from raspis_cli.judge.results import DealResult, GameResult, trump_label
from raspis_cli.model.cards import Card, card_text, card_words
from raspis_cli.model.deal_kinds import kind_label
from raspis_cli.model.record import NO_TRUMP
from raspis_cli.notation.tokens import read_trump_token
from raspis_cli.page.table import CANCEL
from raspis_cli.sheet.blank import is_played
from raspis_cli.sheet.editable import KEEP_WORDS, REWRITE_WORDS, BidSum, Cell, EditableSheet, Step
from raspis_cli.text.i18n import N_, _, ngettext, number

__all__ = ["page_words", "table_view"]

SUITS = ("♠", "♣", "♦", "♥")
WRITTEN = {"taken": N_("taken"), "score": N_("score"), "total": N_("total"), "final": N_("final total")}
"""The written values a cell of the sheet holds, as a person reads them."""
NO_TRUMP_WORD = "-"


def page_words(lang: str) -> dict[str, str]:
    """The fixed words of the page, translated (``lang``: the language in force)."""
    return {
        "sheet": _("Score sheet"), "dealer": _("dealer"), "back": _("Back"), "undo": _("Undo"),
        "replayed": _("Redeal"), "comment": _("Comment"), "send": _("Enter"), "cancel": _("Cancel"),
        "card_turned": _("or the card turned up (9♥, 9h, Тп)"), "standings": _("Standings"),
        "settlement": _("Settlement"), "club": _("Club"),
        "edit_hint": _("Tap a deal's line to see its scores and to correct it."),
        "bid_taken": _("bid/taken"), "score": _("score"), "total": _("total"),
        "lead": _("in the lead"),
        "connection_lost": _("connection lost: trying again…"),
        "offline": _("offline: the server does not answer; trying again…"),
        "not_sent": _("not sent: the server does not answer; enter it again when it is back"),
        "online": _("connected again: the sheet is as it is now"),
        "code_changed": _("the server was started with a new access code: scan its new QR code or open "
                          "its new link"),
        "other_label": "English" if lang == "ru" else "Русский", "other_lang": "en" if lang == "ru" else "ru",
    }


def _prompt(step: Step) -> str:
    player = step.player or ""
    prompts = {
        "kind": _("The kind of this deal"),
        "cards": _("Cards each"),
        "trump": _("Trump"),
        "revoker": _("Who revoked"),
        "rewrite": _("This correction changes values written on the sheet: keep them as written, or "
                     "rewrite them?"),
        "bid": (_("{player} bids (dealer)") if step.dealer else _("{player} bids")).format(player=player),
        "taken": _("Tricks taken by {player}").format(player=player),
    }
    return prompts.get(step.what, "")


def _keys(sheet: EditableSheet, step: Step) -> list[dict[str, Any]]:
    """The keys of the question: the word each sends, its label, whether the
    sheet refuses it now, whether it is the value offered (an edit's)."""
    refused: set[str] = set()
    what = step.what
    if what == "kind":
        keys = [(k, kind_label(k)) for k in step.choices]
    elif what == "cards":
        keys = [(str(n), str(n)) for n in range(1, sheet.rules.deck // len(sheet.players) + 1)]
    elif what == "trump":
        keys = [(s, s) for s in SUITS] + [(NO_TRUMP_WORD, _("no trump"))]
        if isinstance(read_trump_token(step.default), Card):
            keys.insert(0, (step.default, trump_label(step.default)))  # an edit's card turned up: its own key
    elif what == "revoker":
        keys = [("-", _("nobody"))] + [(n, n) for n in sheet.players]
    elif what == "rewrite":
        keys = [(KEEP_WORDS[0], _("Keep as written")), (REWRITE_WORDS[0], _("Rewrite"))]
    else:
        keys = [(str(n), str(n)) for n in range(step.deal.cards + 1)]
        if what == "bid":
            refused = {str(b) for b in step.forbidden}
        elif sheet.open is not None and step.player is not None:
            refused = {word for word, _label in keys
                       if sheet.taken_problem(sheet.open, step.player, int(word)) is not None}
    return [{"word": word, "label": label, "refused": word in refused, "offered": word == step.default,
             "wide": word == NO_TRUMP_WORD and what == "trump"} for word, label in keys]


def _cell(result: GameResult, deal: DealResult, name: str,
          disputed: dict[tuple[int, str], list[Cell]]) -> dict[str, Any]:
    """One player's cell of a written deal: bid/taken, score, running total,
    the written values that differ from the recount (each written value shown
    beside its recount), and the formula the recount comes from."""
    bid, taken = deal.bids.get(name), deal.taken.get(name)
    cells = disputed.get((deal.position, name), [])
    return {"head": ("-" if bid is None else str(bid)) + "/" + ("?" if taken is None else str(taken))
            if bid is not None or taken is not None else "",
            "player": name, "score": _number(deal.scores.get(name)),
            "total": _number(deal.totals.get(name)), "made": bid is not None and bid == taken,
            "disputed": bool(cells),
            "title": _disputes_text(cells),
            "disputes": [{"written": number(c.written),
                          "recomputed": "?" if c.recomputed is None else number(c.recomputed),
                          "text": _disputes_text([c])} for c in cells],
            "formula": cell_formula(result, deal, name).text}


def _disputes_text(cells: list[Cell]) -> str:
    """The written values of a cell that differ from the recount, in words."""
    return "; ".join(_("{what} written {written}, recounted {recomputed}").format(
        what=_(WRITTEN.get(c.what, c.what)), written=number(c.written),
        recomputed="?" if c.recomputed is None else number(c.recomputed)) for c in cells)


def _number(value: int | None) -> str | None:
    """A value of the sheet as the page shows it (``−10`` in Russian), or None."""
    return None if value is None else number(value)


def _deal_facts(deal: DealResult, trump: str) -> list[str]:
    """A written deal as its line says it: cards, kind, trump, dealer."""
    facts = [ngettext("{n} card", "{n} cards", deal.cards).format(n=deal.cards)] if deal.cards else []
    if deal.kind != "normal":
        facts.append(kind_label(deal.kind))
    if trump:
        facts.append(_("trump {trump}").format(trump=trump))
    facts.append(_("dealer {player}").format(player=deal.dealer))
    if deal.replayed:
        facts.append(_("replayed"))
    return facts


def _trump(trump: object) -> str:
    """The trump of the deal asked, in the language in force (``К♠``, ``без козыря``)."""
    if trump is None:
        return ""
    if trump is NO_TRUMP:
        return _("no trump")
    return card_text(trump) if isinstance(trump, Card) else str(trump)


def table_view(sheet: EditableSheet, lang: str, stake: Decimal | None = None) -> dict[str, Any]:
    """Everything ``table_body.html.j2`` shows, in the language in force."""
    players = sheet.players
    result = sheet.result
    step = sheet.step()
    o = sheet.open
    disputed: dict[tuple[int, str], list[Cell]] = {}
    disputed_cells = sheet.disagreements()
    for cell in disputed_cells:
        disputed.setdefault((cell.position, cell.player), []).append(cell)
    records = sheet.game.deals
    editing = o is not None and o.editing
    rows = []
    kind_before: str | None = None
    for deal in result.deals:
        played = 0 <= deal.position < len(records) and is_played(records[deal.position])
        trump = card_words(deal.trump, lang) if deal.trump not in ("", "none") else ""
        heading = deal.kind != kind_before and (deal.kind != "normal" or kind_before is not None)
        kind_before = deal.kind
        comments = ([c.lstrip(";").strip() for c in records[deal.position].comments]
                    if 0 <= deal.position < len(records) else [])
        rows.append({"number": deal.number, "cards": deal.cards, "replayed": deal.replayed,
                     "kind": "" if deal.kind == "normal" else kind_label(deal.kind),
                     "kind_heading": kind_label(deal.kind) if heading else "",
                     "trump": trump,
                     "played": played,
                     "open": o is not None and deal.position == o.deal.index, "dealer": deal.dealer,
                     "editable": played and not deal.replayed and not editing,
                     "title": _("deal {number}").format(number=deal.number),
                     "facts": _deal_facts(deal, trump), "comments": comments,
                     "correct": _("Correct deal {number}").format(number=deal.number),
                     "disputed": any((deal.position, n) in disputed for n in players),
                     "cells": [_cell(result, deal, n, disputed) if played else None for n in players]})
    standings = sheet.standings()
    places = {name: place for place, name, _total in standings}
    someone_ahead = len({place for place, _name, _total in standings}) > 1
    finals = {c.player: c for c in disputed_cells if c.position == -1}
    view: dict[str, Any] = {
        "players": players, "rows": rows, "words": page_words(lang),
        "totals": [{"total": number(result.totals.get(n, 0)), "lead": someone_ahead and places.get(n) == 1,
                    "disputed": n in finals,
                    "written": number(finals[n].written) if n in finals else None,
                    "title": _disputes_text([finals[n]]) if n in finals else ""} for n in players],
        "standings": [{"place": place, "player": name, "total": number(total), "winner": place == 1}
                      for place, name, total in standings],
        "deal": None, "question": None, "payments": [],
    }
    if o is None or step is None:
        if stake is not None:
            view["payments"] = [{"payer": a, "payee": b, "amount": f"{amount}"}
                                for a, b, amount in settle(result.totals, stake)]
        return view
    asked = step.deal
    order = sheet.bidding_order(asked)
    total = sheet.total_deals()
    title = (_("deal {number} of {total}").format(number=asked.number, total=total) if total
             else _("deal {number}").format(number=asked.number))
    facts = [ngettext("{n} card", "{n} cards", asked.cards).format(n=asked.cards)] if asked.cards else []
    if asked.kind != "normal":
        facts.append(kind_label(asked.kind))
    facts.append(_("dealer {player}").format(player=asked.dealer))
    if o.trump is not None:
        facts.append(_("trump {trump}").format(trump=_trump(o.trump)))
    bids, taken = o.bids, o.taken
    view["deal"] = {
        "title": title, "facts": facts, "comments": list(o.comments), "editing": o.editing,
        "first": o.empty, "has_bids": o.has_bids,
        "order": [{"player": n, "dealer": n == asked.dealer, "bid": bids.get(n), "taken": taken.get(n),
                   "turn": n == step.player} for n in order],
        "bid_sum": BidSum(sum(bids.values()), asked.cards).text()
        if o.has_bids and len(bids) == len(players) else None,
        "changes": [_("deal {number}, {player}: {what} written {written}, recounted {recomputed}").format(
            number=c.number if c.number is not None else "Σ", player=c.player,
            what=_(WRITTEN.get(c.what, c.what)), written=c.written, recomputed=c.recomputed)
            for c in step.changes],
    }
    view["question"] = {"step": step.what, "prompt": _prompt(step), "buttons": _keys(sheet, step),
                        "player": step.player, "cancel": CANCEL}
    return view
