"""Why a sheet says what it says: a cell's score as a formula of named rules,
and, for a sheet that disagrees with itself, the fewest corrections that make
it consistent.

A *correction* changes one written value: a bid, a taken, a deal's score, a
running total or a final total. The search tries every bid and taken of the
deals the replay finds something wrong in, and the recomputed score in place
of a written one; each try is a full replay (the engine, as ``validate``
runs it). What remains is counted in written totals that still differ: a
score wrong on paper and carried into the totals needs those totals
corrected too, so it costs more corrections than a score the totals already
ignore. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import assert_never

from raspis_cli.engine import KINDS_WITHOUT_BIDS, bid_score
from raspis_cli.engine.scoring import ScoreName, is_flat, score_factors, score_terms, term_value
from raspis_cli.judge.replay import DealResult, GameResult, RulesChoice, replay_game
from raspis_cli.model.record import DealRecord, GameRecord
from raspis_cli.rules import Rules
from raspis_cli.rules.values import DealKind, is_deal_kind
from raspis_cli.text.i18n import N_, _, ngettext, number

__all__ = ["CellFormula", "Correction", "Fix", "cell_formula", "find_fixes", "score_formula", "signed",
           "term_word"]

TOTAL_KINDS = frozenset({"total-mismatch"})
FIELD_RANK = {"score": 0, "total": 1, "final": 1, "taken": 2, "bid": 3}


def signed(value: int) -> str:
    """A score as the sheet shows it: ``+5``, ``-10``, ``0`` (``−10`` in Russian)."""
    return number(value, sign=True) if value else "0"


@dataclass(frozen=True)
class CellFormula:
    """One player's score in one deal, as a formula of the rules' values."""

    deal: int
    player: str
    text: str
    score: int | None
    written_score: int | None
    total: int
    written_total: int | None

    @property
    def agrees(self) -> bool:
        """Whether the written score and total (where written) are the recomputed ones."""
        return ((self.written_score is None or self.score is None
                 or self.written_score == self.score)
                and (self.written_total is None or self.written_total == self.total))


def _term_msgid(name: ScoreName) -> str:
    """The catalogue's msgid of a formula's term: the option's name, which is
    how English shows it."""
    match name:
        case "exact_per_trick":
            return N_("exact_per_trick")
        case "exact_bonus":
            return N_("exact_bonus")
        case "pass_made":
            return N_("pass_made")
        case "under_per_missing":
            return N_("under_per_missing")
        case "under_per_taken":
            return N_("under_per_taken")
        case "over_per_taken":
            return N_("over_per_taken")
        case "miser_zero":
            return N_("miser_zero")
        case "miser_per_trick":
            return N_("miser_per_trick")
        case "golden_zero":
            return N_("golden_zero")
        case "golden_per_trick":
            return N_("golden_per_trick")
        case "forehead_per_trick":
            return N_("forehead_per_trick")
        case "forehead_per_missing":
            return N_("forehead_per_missing")
        case "miser-sweep":
            return N_("miser-sweep")
        case "special_multiplier":
            return N_("special_multiplier")
        case "percent_multiplier":
            return N_("percent_multiplier")
        case "percent-4":
            return N_("percent-4")
        case "full-bid-double":
            return N_("full-bid-double")
        case _:
            assert_never(name)


def term_word(name: ScoreName) -> str:
    """How a formula shows one of its terms or factors: the option's name in
    English, the rule in words in Russian (``pass_made``: ``пас сыгран``)."""
    return _(_term_msgid(name))


def score_formula(rules: Rules, kind: DealKind, bid: int | None, taken: int, cards: int | None = None) -> str:
    """``0/0 → pass_made = +5``: the rules a score is made of, with their
    values; in Russian the rules in words, their option names in brackets
    (``0/0 → пас сыгран = +5 (pass_made)``)."""
    terms = [(name, term_value(rules, name), times)
             for name, times in score_terms(rules, kind, bid, taken, cards)]
    shown = [t for t in terms if t[1] != 0 and t[2] != 0] or terms[:1]
    parts = []
    for name, value, times in shown:
        parts.append(f"{term_word(name)} {signed(value)}" if times == 1 and is_flat(name)
                     else f"{term_word(name)} {number(value)} × {times}")
    body = " + ".join(parts)
    score = bid_score(rules, kind, bid, taken, cards)
    factors = score_factors(rules, kind, bid, taken, cards)
    names: list[ScoreName] = [name for name, _value, _times in shown]
    for label, factor in factors:
        body = f"({body}) × {term_word(label)} {factor}"
        names.append(label)
    if len(shown) == 1 and not factors and is_flat(shown[0][0]):
        body = term_word(shown[0][0])
    head = f"{'-' if bid is None else bid}/{taken}"
    named = f" ({', '.join(names)})" if any(term_word(n) != n for n in names) else ""
    return f"{head} → {body} = {signed(score)}{named}"


def _deal_kind(kind: str) -> DealKind:
    """A replayed deal's kind as the closed type; an unknown kind is refused."""
    if is_deal_kind(kind):
        return kind
    raise ValueError(f"unknown deal kind {kind!r}")


def cell_formula(result: GameResult, deal: DealResult, player: str) -> CellFormula:
    """The formula of a cell: how the score comes from the bid, the taken and
    the rules; the penalties; the running total; what was written."""
    rules = result.rules
    bid = deal.bids.get(player)
    taken = deal.taken.get(player)
    score = deal.scores.get(player)
    written_score = (deal.written_scores or {}).get(player)
    written_total = (deal.written_totals or {}).get(player)
    total = deal.totals[player]
    penalty = deal.penalties.get(player, 0)
    prefix = _("deal {number} {player}: ").format(number=deal.number, player=player)
    if deal.replayed:
        text = _("the deal was replayed: it scores its penalties only")
        text += f" ({signed(penalty)})" if penalty else " (0)"
    elif taken is None:
        text = (_("bid {bid}, ").format(bid=bid) if bid is not None else "") + _("taken not written")
        if written_score is not None:
            text += "; " + _("no number of tricks gives the written score") if score is None else ""
    elif bid is None and deal.kind not in KINDS_WITHOUT_BIDS:
        text = _("-/{taken}: no bid written, so no score").format(taken=taken)
    else:
        text = score_formula(rules, _deal_kind(deal.kind), bid, taken, deal.cards)
        if deal.taken_source == "inferred":
            text += " " + _("(taken inferred from the written score)")
        if penalty:
            text += "; " + _("penalties {penalty}: {score}").format(penalty=signed(penalty),
                                                                   score=signed(score or 0))
    if written_score is not None and score is not None:
        text += "; " + _("written {value}").format(value=signed(written_score)) + (
            "" if written_score == score else " ✗")
    previous = total - (score if score is not None else (written_score or 0))
    if score is not None:
        text += "; " + _("total {sum}").format(
            sum=f"{previous} {'+' if score >= 0 else '-'} {abs(score)} = {total}")
    if written_total is not None:
        text += "; " + _("written {value}").format(value=written_total) + (
            "" if written_total == total else " ✗")
    return CellFormula(deal.number, player, prefix + text, score, written_score, total, written_total)


# --- corrections ---------------------------------------------------------------------------


_FIELD_NAMES = {"bid": N_("bid"), "taken": N_("taken"), "score": N_("score"), "total": N_("total"),
                "final": N_("final total")}


@dataclass(frozen=True)
class Correction:
    """One written value changed: ``field`` is bid, taken, score, total or final."""

    field: str
    player: str
    old: int | None
    new: int
    deal: int | None = None
    position: int = -1

    def text(self) -> str:
        """``deal 17 Борис: score written +25, should be +5``."""
        where = (_("deal {number} {player}").format(number=self.deal, player=self.player)
                 if self.deal is not None else f"{self.player}")
        old = _("not written") if self.old is None else _("written {value}").format(
            value=signed(self.old) if self.field == "score" else self.old)
        new = signed(self.new) if self.field == "score" else str(self.new)
        name = _(_FIELD_NAMES.get(self.field, self.field))
        return _("{where}: {field} {old}, should be {new}").format(where=where, field=name, old=old, new=new)


@dataclass
class Fix:
    """A set of corrections that makes the whole sheet consistent."""

    corrections: list[Correction]
    explanation: str
    cause: Correction | None = None
    totals: list[Correction] = field(default_factory=list)

    @property
    def size(self) -> int:
        """How many written values change."""
        return len(self.corrections)

    def rank(self) -> tuple[int, int]:
        """Fewer corrections first; then a score cell before a total, a taken, a bid."""
        return self.size, FIELD_RANK[self.cause.field if self.cause else "total"]


def _apply(game: GameRecord, c: Correction) -> GameRecord:
    deals = list(game.deals)
    old = deals[c.position]
    new = DealRecord(number=old.number, kind=old.kind, dealer=old.dealer, cards=old.cards,
                     trump=old.trump, hands=old.hands, bids=old.bids, tricks=old.tricks,
                     taken=old.taken, scores=old.scores, totals=old.totals, penalties=old.penalties,
                     replayed=old.replayed, positions=old.positions)
    attr = {"bid": "bids", "taken": "taken", "score": "scores"}[c.field]
    values = dict(getattr(old, attr) or {})
    values[c.player] = c.new
    setattr(new, attr, values)
    deals[c.position] = new
    return GameRecord(players=game.players, deals=deals, tags=game.tags,
                      rules_preset=game.rules_preset, rules_options=game.rules_options,
                      totals=game.totals, unfinished=game.unfinished, positions=game.positions)


def _total_corrections(result: GameResult) -> list[Correction]:
    """Every written running or final total that differs from the recomputed one."""
    out: list[Correction] = []
    for d in result.deals:
        for name, written in (d.written_totals or {}).items():
            if name in d.totals and written != d.totals[name]:
                out.append(Correction("total", name, written, d.totals[name], d.number, d.position))
    for name, written in (result.record.totals or {}).items():
        if name in result.totals and written != result.totals[name]:
            out.append(Correction("final", name, written, result.totals[name]))
    return out


def _other_problems(result: GameResult) -> int:
    return sum(1 for p in result.problems if p.kind not in TOTAL_KINDS)


def _candidates(game: GameRecord, result: GameResult) -> Iterable[Correction]:
    """Single changes of a bid, a taken or a score in the deals with a problem."""
    suspect = {p.deal for p in result.problems if p.deal is not None}
    for d in result.deals:
        if d.number not in suspect or d.replayed:
            continue
        record = game.deals[d.position]
        for name in game.players:
            bid = (record.bids or {}).get(name)
            taken = (record.taken or {}).get(name)
            if bid is not None:
                for b in range(d.cards + 1):
                    if b != bid:
                        yield Correction("bid", name, bid, b, d.number, d.position)
            if taken is not None:
                for t in range(d.cards + 1):
                    if t != taken:
                        yield Correction("taken", name, taken, t, d.number, d.position)
            written = (record.scores or {}).get(name)
            if written is None:
                continue
            mine = d.scores.get(name)
            options: set[int] = set()
            if mine is not None and record.taken is not None:
                options.add(mine)
            elif d.kind in KINDS_WITHOUT_BIDS or bid is not None:
                penalty = d.penalties.get(name, 0)
                options |= {bid_score(result.rules, _deal_kind(d.kind), bid, t, d.cards) + penalty
                            for t in range(d.cards + 1)}
            for s in sorted(options - {written}):
                yield Correction("score", name, written, s, d.number, d.position)


def find_fixes(game: GameRecord, choice: RulesChoice | None = None, limit: int = 5) -> list[Fix]:
    """The smallest sets of corrections that make the sheet consistent, best first.

    Empty when the sheet is consistent already. When no single change of a
    bid, a taken or a score suffices, the changes are chosen one at a time
    (each the one that leaves the least wrong) and given as one fix."""
    base = replay_game(game, choice=choice)
    if not base.problems and not _total_corrections(base):
        return []
    fixes: list[Fix] = []
    if _other_problems(base) == 0:
        fixes.append(_describe(base, None, _total_corrections(base)))
    tried: list[tuple[int, int, Correction, GameResult]] = []
    for c in _candidates(game, base):
        result = replay_game(_apply(game, c), choice=choice)
        others = _other_problems(result)
        totals = _total_corrections(result)
        if others == 0:
            fixes.append(_describe(result, c, totals))
        tried.append((others, len(totals), c, result))
    if fixes:
        fixes.sort(key=Fix.rank)
        return _distinct(fixes)[:limit]
    # several independent mistakes: one change at a time, each the best
    chosen: list[Correction] = []
    current = game
    result = base
    for _step in range(8):
        if not tried:
            break
        before = (_other_problems(result), len(_total_corrections(result)))
        best = min(tried, key=lambda t: (t[0], t[1], FIELD_RANK[t[2].field]))
        if (best[0], best[1]) >= before:
            break
        chosen.append(best[2])
        current = _apply(current, best[2])
        result = best[3]
        if _other_problems(result) == 0:
            break
        tried = []
        for c in _candidates(current, result):
            r = replay_game(_apply(current, c), choice=choice)
            tried.append((_other_problems(r), len(_total_corrections(r)), c, r))
    if not chosen or _other_problems(result):
        return []
    totals = _total_corrections(result)
    parts = [f"({'abcdefgh'[k]}) {_describe(result, c, []).explanation}" for k, c in enumerate(chosen)]
    corrections = chosen + totals
    tail = _totals_text(totals, None)
    head = _("{n} separate mistakes, each corrected on its own: "
             "").format(n=len(chosen)) if len(chosen) > 1 else ""
    return [Fix(corrections, head + "; ".join(parts) + (f"; {tail}" if tail else ""), chosen[0], totals)]


def _distinct(fixes: Sequence[Fix]) -> list[Fix]:
    seen: set[tuple[Correction, ...]] = set()
    out = []
    for f in fixes:
        key = tuple(sorted(f.corrections, key=repr))
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def _totals_text(totals: Sequence[Correction], cause: Correction | None) -> str:
    if not totals:
        return ""
    offsets = {(t.old or 0) - t.new for t in totals}
    if len({t.player for t in totals}) == 1 and len(offsets) == 1 and len(totals) > 1:
        first, last = totals[0], totals[-1]
        offset = offsets.pop()
        end = _("the final total") if last.field == "final" else _("deal {number}").format(number=last.deal)
        carried = (_("the running totals carry the written score") if cause and cause.field == "score"
                   else _("the running totals carry it"))
        each = (_("{player}'s {n} totals from deal {first} to {end} are each {offset} too high") if offset > 0
                else _("{player}'s {n} totals from deal {first} to {end} are each {offset} too low"))
        return (carried + ": " + each.format(player=first.player, n=len(totals), first=first.deal, end=end,
                                             offset=abs(offset))
                + f" ({first.old} → {first.new} … {last.old} → {last.new})")
    shown = ", ".join(f"{_('final') if t.field == 'final' else _('deal {number}').format(number=t.deal)} "
                      f"{t.player} {t.old} → {t.new}" for t in totals[:4])
    more = (" " + ngettext("and {n} more", "and {n} more", len(totals) - 4).format(n=len(totals) - 4)
            if len(totals) > 4 else "")
    return ngettext("{n} total to correct too ({list})", "{n} totals to correct too ({list})",
                    len(totals)).format(n=len(totals), list=shown + more)


def _describe(result: GameResult, cause: Correction | None, totals: list[Correction]) -> Fix:
    """The words of a fix: what to change, and why the rest then agrees."""
    if cause is None:
        first = totals[0]
        same_player = [t for t in totals if t.player == first.player]
        if len(totals) == 1:
            text = first.text() + "; " + _("the totals after it are right: only this total is wrong")
        elif len(same_player) == len(totals) and len({(t.old or 0) - t.new for t in totals}) == 1:
            text = first.text() + ": " + _("an addition slip of {slip} carried into every later total of "
                                           "{player} ({n} totals)").format(
                slip=signed((first.old or 0) - first.new), player=first.player, n=len(totals))
        else:
            text = _totals_text(totals, None)
        return Fix(list(totals), text, None, list(totals))
    d = next(x for x in result.deals if x.position == cause.position)
    formula = _formula_of(result.rules, d, cause.player)
    text = cause.text()
    if cause.field == "score":
        why = f" ({formula})" if formula else ""
        text += why
        if not totals:
            text += "; " + _("the running totals after it already assume {score}: only the score cell is "
                             "wrong").format(score=signed(cause.new))
    else:
        text += ": " + _("then {formula}").format(formula=formula) if formula else ""
        if d.written_scores and cause.player in d.written_scores:
            text += ", " + _("as written")
        if not totals:
            text += "; " + _("every score and total written then agrees")
    if totals:
        text += "; " + _totals_text(totals, cause)
    return Fix([cause, *totals], text, cause, list(totals))


def _formula_of(rules: Rules, d: DealResult, player: str) -> str:
    taken = d.taken.get(player)
    bid = d.bids.get(player)
    if taken is None or (bid is None and d.kind not in KINDS_WITHOUT_BIDS):
        return ""
    text = score_formula(rules, _deal_kind(d.kind), bid, taken, d.cards)
    penalty = d.penalties.get(player, 0)
    if penalty:
        text += ", " + _("penalties {penalty}").format(penalty=signed(penalty))
    return text


