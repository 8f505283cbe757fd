"""The findings of ``raspis analyze`` in words, in English or Russian.

One place for every phrase a person reads about an analysis: what a player
could force, the bid advice, the card that lost a bid or handed one to
somebody, why a deal was left out. ``raspis analyze``'s text output and
``raspis report --analyze``'s game page both write them from here, in the
language asked for (``"en"`` or ``"ru"``: each phrase is a msgid of the
gettext catalogue, said in that language by
:func:`~raspis_cli.text.i18n.speaking`, counts through ``ngettext``); the JSON
output and the comments ``--annotate`` writes into a record stay English
(they are data).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from raspis_cli.model.cards import card_words
from raspis_cli.text.i18n import N_, _, decimal, ngettext, speaking

if TYPE_CHECKING:
    from raspis_cli.analyze.findings import Mistake, PlayerDeal
    from raspis_cli.solver.pimc import BidAdvice

__all__ = ["SKIP_REASONS", "advice_words", "bots_words", "bounds_words", "forced_words",
           "mistake_words", "model_words", "not_computed_words", "not_makeable_words",
           "nothing_analysed_words", "number_words", "regret_words", "skipped_words"]

SKIP_REASONS: Final = (
    N_("the hands or the play are not recorded"),
    N_("the play is not complete"),
    N_("the recorded play breaks the rules"),
)
"""Why a deal was left out (``DealAnalysis.skipped``, English): msgids, translated when shown."""


def bounds_words(at_least: int, at_most: int, lang: str) -> str:
    """``sure to take at least 1 playing to win tricks, at most 3 playing to lose them``: the two
    guarantees, each by its own way of playing (the most tricks the player could be
    sure to take, the fewest it could be sure to hold itself to)."""
    with speaking(lang):
        return _("sure to take at least {at_least} playing to win tricks, "
                 "at most {at_most} playing to lose them").format(at_least=at_least, at_most=at_most)


def _forced(exact: list[int]) -> str:
    """``could force exactly 2 or 3`` in the language in force."""
    if not exact:
        return _("could force no exact count")
    if len(exact) == 1:
        return ngettext("could force exactly {k}", "could force exactly {k}", exact[0]).format(k=exact[0])
    return ngettext("could force exactly {ks} or {last}", "could force exactly {ks} or {last}",
                    exact[-1]).format(ks=", ".join(map(str, exact[:-1])), last=exact[-1])


def forced_words(p: PlayerDeal, lang: str, *, with_mark: bool = True) -> str:
    """``bid 3, took 2; could force exactly 2 or 3 (could take at least 3, or at most 2)``,
    and (``with_mark``) ``· the bid could not be forced`` (:func:`not_makeable_words`) when it
    could not (a bid the others handed back is made though it could not be forced)."""
    with speaking(lang):
        head = (ngettext("bid {bid}, took {taken}", "bid {bid}, took {taken}", p.taken)
                .format(bid=p.bid, taken=p.taken) if p.bid is not None
                else ngettext("took {taken}", "took {taken}", p.taken).format(taken=p.taken))
        if p.outcome is None:
            return head + "; " + _("not solved within the search budget")
        text = (head + "; " + _forced(list(p.outcome.exact))
                + f" ({bounds_words(p.outcome.at_least, p.outcome.at_most, lang)})")
        if with_mark and p.makeable is False:
            text += " · " + not_makeable_words(lang)
        return text


def not_makeable_words(lang: str) -> str:
    """``the bid could not be forced``: the mark of a bid the player could not force."""
    with speaking(lang):
        return _("the bid could not be forced")


def number_words(value: float, lang: str, *, sign: bool = False) -> str:
    """A figure with one decimal: ``+1.5``; in Russian with a decimal comma, ``+1,5``."""
    with speaking(lang):
        return decimal(value, 1, sign=sign)


def not_computed_words(lang: str) -> str:
    """``not computed``: a figure nothing was computed for (no bid advice)."""
    with speaking(lang):
        return _("not computed")


def nothing_analysed_words(file: str, lang: str) -> str:
    """The one line for a file none of whose deals could be analysed."""
    with speaking(lang):
        return _("{file}: no deal has its hands and its play recorded: nothing to analyse").format(file=file)


def regret_words(p: PlayerDeal, lang: str) -> str | None:
    """``regret 5.0``: what the bid made cost against the best bid's expected
    score, or ``None`` when there is no advice or nothing was lost."""
    if p.advice is None or p.bid is None:
        return None
    regret = p.advice.regret(p.bid)
    if regret is None or regret <= 0:
        return None
    with speaking(lang):
        return _("regret {regret}").format(regret=number_words(regret, lang))


def advice_words(p: PlayerDeal, lang: str, *, brief: bool = False) -> str | None:
    """The bid advice of one player's deal, or ``None`` when there is none to give.

    ``brief``: ``best bid 1, regret 5.0 points`` (the report's line), and
    ``; the bots' best bid 2`` where the bots' opinion differs; otherwise
    the line of ``raspis analyze`` (samples solved, whether the best bid
    settled early or the search budget stopped the samples, expected
    scores; the regret is :func:`regret_words`). A forced bid (the only one
    allowed) is said so."""
    advice: BidAdvice | None = p.advice
    if advice is None or p.bid is None:
        return None
    with speaking(lang):
        if advice.forced:
            return _("bid {bid} was the only bid allowed: nothing to advise").format(bid=p.bid)
        regret = advice.regret(p.bid)
        if advice.best is None or regret is None:
            return None if brief or advice.solved else _("advice: no sample solved within the search budget")
        if brief:
            text = _("best bid {best}, regret {regret} points").format(
                best=advice.best, regret=number_words(regret, lang))
            bots = None if p.bots is None else p.bots.best
            if bots is not None and bots != advice.best:
                text += "; " + _("the bots' best bid {bots}").format(bots=bots)
            return text
        exp = advice.expected
        if advice.settled:
            text = ngettext("advice (settled after {drawn} samples, {solved} solved): best bid {best} "
                            "(expected {best_value}), bid {bid} expected {bid_value}",
                            "advice (settled after {drawn} samples, {solved} solved): best bid {best} "
                            "(expected {best_value}), bid {bid} expected {bid_value}", advice.drawn)
        elif advice.budget_spent:
            text = ngettext("advice (search budget spent after {drawn} sample, {solved} solved): best bid "
                            "{best} (expected {best_value}), bid {bid} expected {bid_value}",
                            "advice (search budget spent after {drawn} samples, {solved} solved): best bid "
                            "{best} (expected {best_value}), bid {bid} expected {bid_value}", advice.drawn)
        else:
            text = ngettext("advice ({solved}/{drawn} samples): best bid {best} (expected {best_value}), "
                            "bid {bid} expected {bid_value}",
                            "advice ({solved}/{drawn} samples): best bid {best} (expected {best_value}), "
                            "bid {bid} expected {bid_value}", advice.solved)
        return text.format(solved=advice.solved, drawn=advice.drawn, best=advice.best,
                           best_value=number_words(exp[advice.best], lang, sign=True), bid=p.bid,
                           bid_value=number_words(exp[p.bid], lang, sign=True))


def model_words(lang: str) -> str:
    """The one plain line on what the advice's and the bots' figures mean,
    said once above the deals."""
    with speaking(lang):
        return _("advice: what each bid is sure to score if the other players play together against "
                 "the bidder, every card seen; bots: the mean score when raspis's own bots play the "
                 "same deals out (cheap, closer to a real table, not a proof)")


def bots_words(p: PlayerDeal, lang: str) -> str | None:
    """The bots' opinion beside the advice of one player's deal:
    ``bots (12 deals played out): best bid 2 (mean +6.1), bid 0 mean +1.4``;
    where the advice's best bid is another, both are named, and a best bid
    of 0 that only the model of the advice makes best is said so. ``None``
    without an opinion."""
    bots = p.bots
    if bots is None or p.bid is None or bots.best is None:
        return None
    advice = p.advice
    exact = None if advice is None else advice.best
    with speaking(lang):
        text = ngettext("bots ({n} deal played out): best bid {best} (mean {best_value}), "
                        "bid {bid} mean {bid_value}",
                        "bots ({n} deals played out): best bid {best} (mean {best_value}), "
                        "bid {bid} mean {bid_value}", bots.samples).format(
            n=bots.samples, best=bots.best, bid=p.bid,
            best_value=number_words(bots.expected[bots.best], lang, sign=True),
            bid_value=number_words(bots.expected[p.bid], lang, sign=True))
        if exact is None or exact == bots.best:
            return text
        assert advice is not None
        tied = advice.expected.get(bots.best) == advice.expected[exact]
        if exact == 0 and not tied:  # a tie is not the model's doing: both bids said below
            return text + " · " + _("the advice's 0 wins only because the others are taken to play "
                                    "together against the bidder, every card seen")
        return text + " · " + _("the advice says {exact}, the bots {bots}").format(
            exact=exact, bots=bots.best)


def mistake_words(m: Mistake, lang: str, *, with_trick: bool = False) -> str:
    """One mistake in words: the card that lost a bid (and what would have kept
    it, a joker's declarations said together where they all would), or the
    card that handed a bid to somebody; ``with_trick`` puts the trick's
    number in front (the report shows it on the trick instead)."""
    card = card_words(m.card, lang) + (f" ({m.declared.words(lang)})" if m.declared is not None else "")
    keeping = ", ".join(k.words(lang) for k in m.keeping)
    with speaking(lang):
        if m.kind == "lost-bid":
            text = _("after {card}, {player} could no longer make the bid of {bid}").format(
                player=m.player, card=card, bid=m.bid)
            if m.keeping:
                text += "; " + _("{cards} would have kept it").format(cards=keeping)
        else:
            text = _("{player}'s {card} handed {bidder} the bid of {bid}").format(
                player=m.player, card=card, bidder=m.bidder, bid=m.bid)
        return _("trick {trick}: {text}").format(trick=m.trick, text=text) if with_trick else text


def skipped_words(reason: str, lang: str) -> str:
    """``not analysed: the play is not complete``, in the language asked for."""
    with speaking(lang):
        why = _(reason) if reason in SKIP_REASONS else reason
        return _("not analysed: {why}").format(why=why)
