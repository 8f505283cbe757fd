"""The game report: what the template shows of one file of games.

Per game: the расписка (every cell, written values that differ from the
replay's, penalties), the final totals, the violations, the running-totals
chart (SVG) and, for deals with full play, the data of the trick-by-trick
replay viewer (hands, trump, bids, each trick card by card with the joker
declarations in words and the winner). With an analysis (``report
--analyze``): per deal what each player could force and the marks of the
cards that lost or handed a bid, shown on the replay, and a table per player.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

from raspis_cli.analyze.words import (
    advice_words,
    forced_words,
    mistake_words,
    model_words,
    number_words,
    skipped_words,
)
from raspis_cli.judge.replay import DealResult, GameResult
from raspis_cli.judge.results import trump_label
from raspis_cli.model.cards import Card, Deck, card_text
from raspis_cli.model.deal_kinds import kind_label
from raspis_cli.report.strings import joker_words, problem_row, report_strings
from raspis_cli.report.svg import line_charts
from raspis_cli.text.i18n import _, ngettext
from raspis_cli.text.textsafe import isolated_text

if TYPE_CHECKING:
    from raspis_cli.analyze.post_mortem import DealAnalysis, GameAnalysis, PlayerDeal

__all__ = ["REPLAY_BUDGET", "game_context"]

REPLAY_BUDGET: Final = 8_000_000
"""Characters of replay data (as the page holds it, JSON) one page carries at
most: a game whose replay would pass it is shown without one (its sheet,
totals, violations and chart are all there), so that a file of hundreds of
games makes a page a browser opens (a 5 MB file made a 44 MB page), and
the report's memory stays bounded."""

_RED = frozenset((2, 3))


def _card(card: Card, deck: Deck, lang: str) -> dict[str, Any]:
    """A card as the viewer shows it: text, colour, and whether it is the joker."""
    joker = deck.is_joker(card)
    suit = deck.suit_of(card)
    text = card_text(card)
    if joker:
        text = f"{text} ★" if text not in ("RJ", "BJ") else "★"
    return {"t": text, "r": bool(suit in _RED if suit is not None else card.code == "RJ"), "j": joker,
            "c": card.code}


def _sort_key(card: Card, deck: Deck) -> tuple[int, int]:
    suit = deck.suit_of(card)
    return (9 if suit is None or deck.is_joker(card) else suit, -card.rank)


def _cell(deal: DealResult, name: str) -> dict[str, Any]:
    """One cell of the sheet: bid/taken, score, total, penalty, and the written
    values that differ from the recomputed ones."""
    bid = deal.bids.get(name)
    taken = deal.taken.get(name)
    score = deal.scores.get(name)
    total = deal.totals.get(name)
    diffs: dict[str, int] = {}
    for key, written, value in (("taken", deal.written_taken, taken), ("score", deal.written_scores, score),
                                ("total", deal.written_totals, total)):
        if written is not None and name in written and written[name] != value:
            diffs[key] = written[name]
    head = None
    if bid is not None or taken is not None:
        head = ("-" if bid is None else str(bid)) + "/" + ("?" if taken is None else str(taken))
    return {"head": head, "score": score, "total": total, "penalty": deal.penalties.get(name, 0),
            "diffs": diffs, "made": bid is not None and taken is not None and bid == taken}


def _player_words(p: PlayerDeal, lang: str) -> str:
    """A player's line of the deal's analysis: bid, taken, what could be
    forced, and the best bid with its regret when there is advice."""
    text = forced_words(p, lang)
    advice = advice_words(p, lang, brief=True)
    return text if advice is None else f"{text} · {advice}"


def _analysis_view(analysis: DealAnalysis, lang: str) -> dict[str, Any]:
    """What the viewer shows of one deal's analysis: a line per player, and
    the marks (trick, player, words) it puts on the cards that lost or handed a bid."""
    if analysis.skipped is not None:
        return {"skipped": skipped_words(analysis.skipped, lang), "players": [], "marks": []}
    return {
        "players": [{"p": p.player, "text": _player_words(p, lang), "ok": p.makeable is not False}
                    for p in analysis.players],
        "marks": [{"t": m.trick, "p": m.player, "k": m.kind, "text": mistake_words(m, lang)}
                  for m in analysis.mistakes],
    }


def _summary_rows(analysis: GameAnalysis, lang: str) -> list[dict[str, Any]]:
    """The analysis table of a game: one row per player (no bid regret without bid advice)."""
    return [{"player": s.player, "bids": s.bids, "makeable": s.makeable, "made": s.made,
             "decisions": s.decisions, "mistakes": s.mistakes, "handed": s.handed,
             "regret": "–" if s.regret is None else number_words(s.regret, lang),
             "accuracy": "–" if s.accuracy is None else f"{100 * s.accuracy:.0f}%"}
            for s in analysis.summary]


def _replay_deal(result: GameResult, deal: DealResult, lang: str,
                 analysis: DealAnalysis | None = None) -> dict[str, Any] | None:
    """The viewer's data for one deal with its tricks, or None without them."""
    record = result.record.deals[deal.position] if deal.position >= 0 else None
    if record is None or not record.tricks:
        return None
    deck = result.rules.deck_cards
    players = result.record.players
    history = deal.deal.history if deal.deal is not None else []
    hands = record.hands
    if not hands:
        pieced: dict[str, list[Card]] = {}
        for trick in record.tricks:
            for play in trick:
                pieced.setdefault(play.player, []).append(play.card)
        hands = pieced
    tricks = []
    for number, trick in enumerate(record.tricks, start=1):
        done = history[number - 1] if number - 1 < len(history) else None
        plays = []
        for play in trick:
            entry: dict[str, Any] = {"p": play.player, **_card(play.card, deck, lang)}
            if play.joker is not None:
                decl = play.joker
                entry["d"] = joker_words(decl.mode, int(decl.suit) if decl.suit is not None else None,
                                         str(decl.card) if decl.card is not None else None)
            plays.append(entry)
        tricks.append({"n": number, "w": players[done.winner] if done is not None else None, "plays": plays})
    trump = deal.trump
    view: dict[str, Any] = {
        "number": deal.number,
        "kind": kind_label(deal.kind),
        "cards": deal.cards,
        "dealer": deal.dealer,
        "trump": trump_label(trump) or _("no trump"),
        "bids": {n: b for n, b in deal.bids.items() if b is not None},
        "hands": {n: [_card(c, deck, lang) for c in sorted(cs, key=lambda c: _sort_key(c, deck))]
                  for n, cs in hands.items()},
        "tricks": tricks,
        "tricks_text": ngettext("{n} trick", "{n} tricks", len(tricks)).format(n=len(tricks)),
        "cards_text": ngettext("{n} card", "{n} cards", deal.cards).format(n=deal.cards),
    }
    if analysis is not None:
        view["an"] = _analysis_view(analysis, lang)
    return view


def _comments(result: GameResult) -> list[dict[str, Any]]:
    """The record's comments, the game's own first, each with its deal
    (``None`` for the game's): the text without the ``;`` that starts it."""
    record = result.record
    out: list[dict[str, Any]] = [{"deal": None, "text": c.lstrip(";").strip()} for c in record.comments]
    for deal in record.deals:
        out += [{"deal": deal.number, "text": c.lstrip(";").strip()} for c in deal.comments]
    return out
def _shown(data: Any) -> Any:
    """The replay's data with every text in it (names as keys too) as the
    page shows record text (:func:`isolated_text`): the viewer puts it in the
    page through ``textContent``, past the template's own escaping."""
    if isinstance(data, str):
        return isolated_text(data)
    if isinstance(data, dict):
        return {_shown(k): _shown(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_shown(v) for v in data]
    return data


def _viewer_words(lang: str) -> dict[str, str]:
    s = report_strings()
    return {"start": s["start"], "trick": s["trick"], "of": s["of"],
            "card": s["card"], "deal": s["deal"], "dealer": s["dealer"], "trump": s["trump"],
            "bid": s["bid"], "taken": s["taken"], "leads": s["leads"], "wins_trick": s["wins_trick"],
            "analysis": s["analysis"]}


def game_context(results: Iterable[GameResult], lang: str,
                 analyses: Mapping[int, GameAnalysis] | None = None,
                 replay_budget: int | None = None) -> dict[str, Any]:
    """Everything the game template needs for the games of one file;
    ``analyses`` (by game index) adds the double-dummy marks. The replays
    fill at most ``replay_budget`` characters of the page (default
    :data:`REPLAY_BUDGET`), game by game; the games left without one are
    listed as ``replays_left_out`` (numbers from 1). ``results`` may be an
    iterator: each game's result is let go once its part is made."""
    import json

    budget = REPLAY_BUDGET if replay_budget is None else replay_budget

    s = report_strings()
    games: list[dict[str, Any]] = []
    left_out: list[int] = []
    spent = 0
    for result in results:
        analysis = (analyses or {}).get(result.index)
        by_position = {d.position: d for d in analysis.deals} if analysis is not None else {}
        players = list(result.record.players)
        deals = []
        chart_x: list[float] = []
        chart_y: dict[str, list[float | None]] = {n: [] for n in players}
        step = 0
        for deal in result.deals:
            deals.append({"number": deal.number, "kind": kind_label(deal.kind), "cards": deal.cards,
                          "dealer": deal.dealer, "replayed": deal.replayed,
                          "trump": trump_label(deal.trump),
                          "cells": [_cell(deal, n) for n in players],
                          "problems": [p.message for p in deal.problems]})
            if deal.replayed:
                continue
            step += 1
            chart_x.append(step)
            for n in players:
                value = deal.totals.get(n)
                chart_y[n].append(float(value) if value is not None else None)
        series = {n: (chart_x, chart_y[n]) for n in players}
        chart = line_charts(series, title=s["running_totals"], xlabel=s["deal"], ylabel=s["total"])
        replay = [d for d in (_replay_deal(result, deal, lang, by_position.get(deal.position))
                              for deal in result.deals) if d is not None]
        viewer = _shown({"players": players, "deals": replay, "words": _viewer_words(lang)})
        if replay:
            size = len(json.dumps(viewer))  # as tojson writes it
            if spent + size > budget:
                left_out.append(result.index + 1)
                viewer["deals"] = []
            else:
                spent += size
        written_final = result.record.totals or {}
        games.append({
            "index": result.index + 1,
            "tags": dict(result.record.tags),
            "rules": result.rules.preset_name,
            "players": players,
            "deals": deals,
            "totals": [{"player": n, "total": result.totals.get(n),
                        "written": written_final.get(n) if written_final.get(n) != result.totals.get(n)
                        else None, "winner": n in result.winners} for n in players],
            "winners": result.winners,
            "unfinished": result.record.unfinished,
            "comments": _comments(result),
            "problems": [problem_row(p.kind, p.message.shown(), p.deal, p.trick, p.player)
                         for p in result.problems],
            "chart": chart,
            "replay": viewer,
            "replay_left_out": bool(replay) and not viewer["deals"],
            "analysis": _summary_rows(analysis, lang) if analysis is not None else None,
            "analysis_model": model_words(lang) if analysis is not None and any(
                p.bots is not None for d in analysis.deals for p in d.players) else None,
        })
    return {"games": games, "any_replay": any(g["replay"]["deals"] for g in games),
            "replays_left_out": left_out, "replay_mb": budget // 1_000_000}
