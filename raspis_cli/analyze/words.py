"""The findings of ``raspis analyze`` in words, in English or Russian.

One place for every phrase a person reads about an analysis: what a player
could force, the bid advice, the card that lost a bid or handed one to
somebody, why a deal was left out. ``raspis analyze``'s text output and
``raspis report --analyze``'s game page both write them from here, in the
language asked for (``"en"`` or ``"ru"``); the JSON output and the comments
``--annotate`` writes into a record stay English (they are data).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from raspis_cli.model.cards import card_words

if TYPE_CHECKING:
    from raspis_cli.analyze.findings import Mistake, PlayerDeal
    from raspis_cli.solver.pimc import BidAdvice

__all__ = ["PHRASES", "SKIP_REASONS", "advice_words", "bounds_words", "forced_words",
           "mistake_words", "not_computed_words", "not_makeable_words", "nothing_analysed_words",
           "number_words", "regret_words", "skipped_words"]

PHRASES: Final[dict[str, dict[str, str]]] = {
    "en": {
        "bid_took": "bid {bid}, took {taken}",
        "took": "took {taken}",
        "exactly_one": "could force exactly {k}",
        "exactly_many": "could force exactly {ks} or {last}",
        "no_exact": "could force no exact count",
        "bounds": "sure to take at least {at_least} playing to win tricks, "
                  "at most {at_most} playing to lose them",
        "not_makeable": "not makeable",
        "not_solved": "not solved within the search budget",
        "lost": "after {card}, {player} could no longer make the bid of {bid}",
        "keeping": "{cards} would have kept it",
        "handed": "{player}'s {card} handed {bidder} the bid of {bid}",
        "trick": "trick {trick}: {text}",
        "advice": "advice ({solved}/{drawn} samples): best bid {best} (expected {best_value}), "
                  "bid {bid} expected {bid_value}",
        "advice_settled": "advice (settled after {drawn} samples, {solved} solved): best bid {best} "
                          "(expected {best_value}), bid {bid} expected {bid_value}",
        "forced": "bid {bid} was the only bid allowed: nothing to advise",
        "not_computed": "not computed",
        "nothing_analysed": "{file}: no deal has its hands and its play recorded: nothing to analyse",
        "regret": "regret {regret}",
        "best_bid": "best bid {best}, regret {regret} points",
        "no_sample": "advice: no sample solved within the search budget",
        "skipped": "not analysed: {why}",
    },
    "ru": {
        "bid_took": "заказ {bid}, взяток: {taken}",
        "took": "взяток: {taken}",
        "exactly_one": "можно было обеспечить ровно {k}",
        "exactly_many": "можно было обеспечить ровно {ks} или {last}",
        "no_exact": "точного числа взяток обеспечить было нельзя",
        "bounds": "играя на взятки — гарантированно не меньше {at_least}, "
                  "играя на недобор — не больше {at_most}",
        "not_makeable": "заказ невыполним",
        "not_solved": "не решено в пределах поиска",
        "lost": "после {card} ({player}) заказ {bid} уже не выполнить",
        "keeping": "его сохранил бы ход {cards}",
        "handed": "{card} ({player}): подарок — {bidder} теперь может выполнить заказ {bid}",
        "trick": "взятка {trick}: {text}",
        "advice": "совет (решено выборок: {solved} из {drawn}): лучший заказ {best} "
                  "(ожидание {best_value}), заказ {bid}: ожидание {bid_value}",
        "advice_settled": "совет (ясен после выборок: {drawn}, решено: {solved}): лучший заказ {best} "
                          "(ожидание {best_value}), заказ {bid}: ожидание {bid_value}",
        "forced": "заказ {bid} был единственным допустимым: советовать нечего",
        "not_computed": "не считалось",
        "nothing_analysed": "{file}: ни в одной раздаче не записаны руки и розыгрыш — "
                            "анализировать нечего",
        "regret": "упущено {regret}",
        "best_bid": "лучший заказ {best}, упущено {regret} очк.",
        "no_sample": "совет: ни одна выборка не решена в пределах поиска",
        "skipped": "не анализировалась: {why}",
    },
}
"""Every phrase of an analysis, per language (the same keys and placeholders in each)."""

SKIP_REASONS: Final[dict[str, dict[str, str]]] = {
    "en": {},
    "ru": {
        "the hands or the play are not recorded": "руки или розыгрыш не записаны",
        "the play is not complete": "розыгрыш не закончен",
        "the recorded play breaks the rules": "записанный розыгрыш нарушает правила",
    },
}
"""Why a deal was left out (``DealAnalysis.skipped``, English), in each language."""


def _words(lang: str) -> dict[str, str]:
    return PHRASES.get(lang, PHRASES["en"])


def bounds_words(at_least: int, at_most: int, lang: str) -> str:
    """``sure to take at least 1 playing to win tricks, at most 3 playing to lose them``: the two
    guarantees, each by its own way of playing (the most tricks the player could be
    sure to take, the fewest it could be sure to hold itself to)."""
    return _words(lang)["bounds"].format(at_least=at_least, at_most=at_most)


def forced_words(p: PlayerDeal, lang: str, *, with_mark: bool = True) -> str:
    """``bid 3, took 2; could force exactly 2 or 3 (could take at least 3, or at most 2)``,
    and (``with_mark``) ``· not makeable`` when the bid could not be forced."""
    s = _words(lang)
    head = (s["bid_took"].format(bid=p.bid, taken=p.taken) if p.bid is not None
            else s["took"].format(taken=p.taken))
    if p.outcome is None:
        return f"{head}; {s['not_solved']}"
    exact = [str(k) for k in p.outcome.exact]
    if not exact:
        forced = s["no_exact"]
    elif len(exact) == 1:
        forced = s["exactly_one"].format(k=exact[0])
    else:
        forced = s["exactly_many"].format(ks=", ".join(exact[:-1]), last=exact[-1])
    text = f"{head}; {forced} ({bounds_words(p.outcome.at_least, p.outcome.at_most, lang)})"
    if with_mark and p.makeable is False:
        text += f" · {s['not_makeable']}"
    return text


def not_makeable_words(lang: str) -> str:
    """``not makeable``: the mark of a bid the player could not force."""
    return _words(lang)["not_makeable"]


def number_words(value: float, lang: str, *, sign: bool = False) -> str:
    """A figure with one decimal: ``+1.5``; in Russian with a decimal comma, ``+1,5``."""
    text = f"{value:+.1f}" if sign else f"{value:.1f}"
    return text.replace(".", ",") if lang == "ru" else text


def not_computed_words(lang: str) -> str:
    """``not computed``: a figure nothing was computed for (no bid advice)."""
    return _words(lang)["not_computed"]


def nothing_analysed_words(file: str, lang: str) -> str:
    """The one line for a file none of whose deals could be analysed."""
    return _words(lang)["nothing_analysed"].format(file=file)


def regret_words(p: PlayerDeal, lang: str) -> str | None:
    """``regret 5.0``: what the bid made cost against the best bid's expected
    score, or ``None`` when there is no advice or nothing was lost."""
    if p.advice is None or p.bid is None:
        return None
    regret = p.advice.regret(p.bid)
    if regret is None or regret <= 0:
        return None
    return _words(lang)["regret"].format(regret=number_words(regret, lang))


def advice_words(p: PlayerDeal, lang: str, *, brief: bool = False) -> str | None:
    """The bid advice of one player's deal, or ``None`` when there is none to give.

    ``brief``: ``best bid 1, regret 5.0 points`` (the report's line); otherwise
    the line of ``raspis analyze`` (samples solved, whether the best bid
    settled early, expected scores; the regret is :func:`regret_words`). A
    forced bid (the only one allowed) is said so."""
    s = _words(lang)
    advice: BidAdvice | None = p.advice
    if advice is None or p.bid is None:
        return None
    if advice.forced:
        return s["forced"].format(bid=p.bid)
    regret = advice.regret(p.bid)
    if advice.best is None or regret is None:
        return None if brief or advice.solved else s["no_sample"]
    if brief:
        return s["best_bid"].format(best=advice.best, regret=number_words(regret, lang))
    exp = advice.expected
    return s["advice_settled" if advice.settled else "advice"].format(
        solved=advice.solved, drawn=advice.drawn, best=advice.best,
        best_value=number_words(exp[advice.best], lang, sign=True), bid=p.bid,
        bid_value=number_words(exp[p.bid], lang, sign=True))


def mistake_words(m: Mistake, lang: str, *, with_trick: bool = False) -> str:
    """One mistake in words: the card that lost a bid (and what would have kept
    it, a joker's declarations said together where they all would), or the
    card that handed a bid to somebody; ``with_trick`` puts the trick's
    number in front (the report shows it on the trick instead)."""
    s = _words(lang)
    card = card_words(m.card, lang) + (f" ({m.declared.words(lang)})" if m.declared is not None else "")
    if m.kind == "lost-bid":
        text = s["lost"].format(player=m.player, card=card, bid=m.bid)
        if m.keeping:
            text += "; " + s["keeping"].format(cards=", ".join(k.words(lang) for k in m.keeping))
    else:
        text = s["handed"].format(player=m.player, card=card, bidder=m.bidder, bid=m.bid)
    return s["trick"].format(trick=m.trick, text=text) if with_trick else text


def skipped_words(reason: str, lang: str) -> str:
    """``not analysed: the play is not complete``, in the language asked for."""
    why = SKIP_REASONS.get(lang, {}).get(reason, reason)
    return _words(lang)["skipped"].format(why=why)
