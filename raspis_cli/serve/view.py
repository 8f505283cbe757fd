"""What a phone shows of the table: the open deal, its question, the running sheet.

:func:`table_view` turns the model's state into the plain data the template
``table.html.j2`` lays out, in the language in force
(:func:`raspis_cli.i18n.speaking` sets it per request). Every decision comes
from the model (whose turn, which bids are refused, which counts can be
taken); nothing here checks a rule. Pure: no I/O.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from raspis_cli.serve.turns import Question, Turns
from raspis_cli.sheet.blank import is_played
from raspis_cli.text.i18n import _, kind_label, ngettext

__all__ = ["page_words", "table_view"]


def page_words(lang: str) -> dict[str, str]:
    """The fixed words of the page, translated (``lang``: the language in force)."""
    return {
        "sheet": _("Score sheet"), "dealer": _("dealer"), "back": _("Back"), "undo": _("Undo"),
        "replayed": _("Redeal"), "comment": _("Comment"), "send": _("Enter"),
        "card_turned": _("or the card turned up (9♥, 9h, Тп)"), "standings": _("Standings"),
        "settlement": _("Settlement"), "club": _("Club"),
        "connection_lost": _("connection lost: trying again…"),
        "other_label": "English" if lang == "ru" else "Русский", "other_lang": "en" if lang == "ru" else "ru",
    }


def _prompt(question: Question, dealer: str) -> str:
    if question.step == "kind":
        return _("The kind of this deal")
    if question.step == "cards":
        return _("Cards each")
    if question.step == "trump":
        return _("Trump")
    if question.step == "revoker":
        return _("Who revoked")
    if question.step == "bid":
        player = question.player or ""
        return (_("{player} bids (dealer)") if player == dealer else _("{player} bids")).format(player=player)
    if question.step == "taken":
        return _("Tricks taken by {player}").format(player=question.player or "")
    return ""


def _buttons(question: Question) -> list[dict[str, Any]]:
    labels = {"-": _("nobody") if question.step == "revoker" else _("no trump")}
    if question.step == "kind":
        return [{"word": k, "label": kind_label(k), "refused": False} for k in question.choices]
    return [{"word": c, "label": labels.get(c, c), "refused": c in question.refused}
            for c in question.choices]


def _cell(deal: Any, name: str) -> dict[str, Any]:
    bid, taken = deal.bids.get(name), deal.taken.get(name)
    written = deal.written_scores or {}
    score = deal.scores.get(name)
    return {"head": ("-" if bid is None else str(bid)) + "/" + ("?" if taken is None else str(taken))
            if bid is not None or taken is not None else "",
            "score": score, "total": deal.totals.get(name),
            "made": bid is not None and bid == taken,
            "disputed": name in written and written[name] != score}


def table_view(turns: Turns, lang: str, stake: Decimal | None = None) -> dict[str, Any]:
    """Everything ``table.html.j2`` shows, in the language in force."""
    sheet = turns.sheet
    players = sheet.players
    result = sheet.result
    entry = turns.entry
    question = turns.question()
    total_deals = sheet.total_deals()
    view: dict[str, Any] = {"players": players, "over": entry is None, "words": page_words(lang)}
    rows = []
    records = sheet.game.deals
    for deal in result.deals:
        played = 0 <= deal.position < len(records) and is_played(records[deal.position])
        rows.append({"number": deal.number, "cards": deal.cards, "replayed": deal.replayed,
                     "kind": "" if deal.kind == "normal" else kind_label(deal.kind),
                     "trump": deal.trump if deal.trump not in ("", "none") else "", "played": played,
                     "open": entry is not None and deal.position == entry.deal.index,
                     "dealer": deal.dealer,
                     "cells": [_cell(deal, n) if played else None for n in players]})
    view["rows"] = rows
    ranked = sorted(players, key=lambda n: -result.totals.get(n, 0))
    view["standings"] = [{"player": n, "total": result.totals.get(n, 0), "winner": n in result.winners}
                         for n in ranked]
    view["totals"] = [result.totals.get(n, 0) for n in players]
    if entry is not None:
        nd = entry.deal
        order = turns.order()
        title = (_("deal {number} of {total}").format(number=nd.number, total=total_deals) if total_deals
                 else _("deal {number}").format(number=nd.number))
        facts = [ngettext("{n} card", "{n} cards", nd.cards).format(n=nd.cards)] if nd.cards else []
        if nd.kind != "normal":
            facts.append(kind_label(nd.kind))
        facts.append(_("dealer {player}").format(player=nd.dealer))
        if entry.trump is not None:
            facts.append(_("trump {trump}").format(trump=str(entry.trump) if str(entry.trump) != "none"
                                                   else _("no trump")))
        view["deal"] = {"title": title, "facts": facts, "comments": list(entry.comments),
                        "order": [{"player": n, "dealer": n == nd.dealer, "bid": entry.bids.get(n),
                                   "taken": entry.taken.get(n),
                                   "turn": n == question.player} for n in order],
                        "has_bids": entry.has_bids,
                        "bid_sum": _bid_sum(sum(entry.bids.values()), nd.cards)
                        if entry.has_bids and len(entry.bids) == len(order) else None}
        view["question"] = {"step": question.step, "prompt": _prompt(question, nd.dealer),
                            "buttons": _buttons(question), "player": question.player}
    else:
        view["deal"] = None
        view["question"] = None
        if stake is not None:
            from raspis_cli.explain.settle import settle

            view["payments"] = [{"payer": a, "payee": b, "amount": f"{amount}"}
                                for a, b, amount in settle(result.totals, stake)]
    return view


def _bid_sum(total: int, cards: int) -> str:
    if total > cards:
        return ngettext("bids {sum} of {cards} card: overbid by {n}",
                        "bids {sum} of {cards} cards: overbid by {n}", cards).format(
            sum=total, cards=cards, n=total - cards)
    if total < cards:
        return ngettext("bids {sum} of {cards} card: underbid by {n}",
                        "bids {sum} of {cards} cards: underbid by {n}", cards).format(
            sum=total, cards=cards, n=cards - total)
    return ngettext("bids {sum} of {cards} card", "bids {sum} of {cards} cards", cards).format(
        sum=total, cards=cards)
