"""Post-mortem of recorded deals with the double-dummy solver.

For every deal whose hands are known and whose play is complete and legal:
what each player could force (:mod:`raspis_cli.solver.search`), the card
that lost a bid and the card that handed one to somebody, and what should
have been bid (PIMC, :mod:`raspis_cli.solver.pimc`). Pure: takes replayed
games, returns data; ``raspis analyze`` prints it. The JSON shapes are in
``docs/ANALYZE.md``.

Definitions (also in docs/ANALYZE.md):

* a bid is *makeable* when, at the first card, its bidder could force
  exactly that many tricks against the other players acting together;
* a play *loses* its player's bid when before it the bid could be forced and
  after it not; the *keeping* plays are the legal plays that would have
  kept it;
* a play *hands* a bid to another player when before it that player could
  not force the bid and after it could;
* a *decision* is a play of a player whose bid could still be forced, with
  at least two legal plays to choose from; *accuracy* =
  (decisions − plays that lost the bid) / decisions (``None`` without
  decisions);
* *bid regret* = expected score of the best bid − expected score of the bid
  made, over the PIMC samples.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from raspis_cli.analyze import DEFAULT_SAMPLES, NO_HANDS
from raspis_cli.analyze.bot_opinion import bot_opinion
from raspis_cli.analyze.findings import (
    DealAnalysis,
    GameAnalysis,
    KeptPlay,
    Mistake,
    PlayerDeal,
    PlayerSummary,
)
from raspis_cli.analyze.words import mistake_words
from raspis_cli.engine import Deal, JokerDecl, Play
from raspis_cli.judge.replay import DealResult, GameResult
from raspis_cli.model.cards import Card
from raspis_cli.model.record import DealRecord
from raspis_cli.solver import kernel as solver_kernel
from raspis_cli.solver.pimc import bid_advice
from raspis_cli.solver.search import BudgetExceededError, Outcome, Solver
from raspis_cli.text.messages import message_of

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_SAMPLES",
    "NO_HANDS",
    "DealAnalysis",
    "GameAnalysis",
    "Mistake",
    "PlayerDeal",
    "PlayerSummary",
    "analyze_game",
    "annotate_game",
    "expected_positions",
    "search_budget",
]

DEFAULT_BUDGET = None if solver_kernel.JIT else 200_000
"""Positions one question to the solver (can this bid still be forced here?),
and the samples of one player's bid advice in one deal together, may visit
before they give up: no limit with the compiled kernel (numba), every
question answered; 200,000 positions (seconds) as plain Python."""


def search_budget(asked: int | None) -> int | None:
    """The budget a ``--budget`` option asks for: :data:`DEFAULT_BUDGET` when
    not given, none (``None``: unbounded) for 0, else the number given."""
    return DEFAULT_BUDGET if asked is None else (asked or None)


def expected_positions(players: int, cards: int, samples: int) -> int:
    """What the analysis of a deal of ``players`` × ``cards`` is expected to
    visit with ``samples`` samples per bid advice, before any is measured:
    about 2 million positions a sample on a 3 × 12 deal, 3.3 times fewer for
    each 3 cards fewer in play (measured on the README's sample), the
    play's questions as two samples a player. A prior: a progress bar
    scales it by the deals measured so far."""
    per_sample = 2_000_000 * 3.3 ** ((players * cards - 36) / 3)
    return max(1, int(per_sample * players * (samples + 2)))


def kept_plays(keeping: Sequence[Play], legal: Sequence[Play],
               plain: Callable[[JokerDecl], JokerDecl] = lambda decl: decl) -> list[KeptPlay]:
    """The plays that would have kept a bid, each card once: a joker's
    declarations said together where every legal one of the card (or of
    one of its modes) keeps it, two declarations that are the same play
    (``plain``: :meth:`~raspis_cli.engine.Deal.plain_declaration`) said once."""
    out: list[KeptPlay] = []
    cards = list(dict.fromkeys(play.card for play in keeping))
    for card in cards:
        kept = list(dict.fromkeys(plain(play.joker) for play in keeping
                                  if play.card == card and play.joker is not None))
        if not kept:
            out.append(KeptPlay(str(card)))
            continue
        every = list(dict.fromkeys(plain(play.joker) for play in legal
                                   if play.card == card and play.joker is not None))
        if set(kept) >= set(every):
            out.append(KeptPlay(str(card), any_declaration=True))
            continue
        modes = [mode for mode in dict.fromkeys(d.mode for d in every)
                 if sum(d.mode == mode for d in every) > 1
                 and {d for d in every if d.mode == mode} <= set(kept)]
        rest = tuple(d for d in kept if d.mode not in modes)
        out.append(KeptPlay(str(card), rest, tuple(modes)))
    return out


def start_of_play(final: Deal) -> tuple[Deal, list[tuple[int, int, JokerDecl | None]]]:
    """A fresh deal at the first card (hands as dealt, bids as made) and the
    plays in order, rebuilt from the replayed deal's history."""
    assert final.hands is not None
    hands = list(final.hands)
    plays: list[tuple[int, int, JokerDecl | None]] = []
    for trick in final.history:
        for seat, card, decl in trick.entries:
            hands[seat] |= 1 << card
            plays.append((seat, card, decl))
    start = Deal(final.rules, final.players, final.dealer, final.cards, final.kind, final.trump,
                 hands, final.pass_streaks, final.names)
    for offset in range(final.players):
        seat = (start.first_bidder + offset) % final.players
        bid = final.bids[seat]
        if start.has_bids and bid is not None:
            start.bid(seat, bid)
    start.skip_bidding()
    return start, plays


def _seen_cards(record: DealRecord, start: Deal) -> tuple[int, dict[int, int]]:
    """The trump card as the bidders saw it: in no hand (turned up), or shown
    from a hand (the holder's)."""
    trump = record.trump
    if not isinstance(trump, Card):
        return 0, {}
    assert start.hands is not None
    for seat, hand in enumerate(start.hands):
        if hand >> trump & 1:
            return 0, {seat: 1 << trump}
    return 1 << trump, {}


def _legal_bids(start: Deal, seat: int) -> list[int]:
    """The bids ``seat`` could make at its turn, after the bids before it."""
    probe = Deal(start.rules, start.players, start.dealer, start.cards, start.kind, start.trump,
                 start.hands, start.pass_streaks, start.names)
    while probe.next_bidder is not None and probe.next_bidder != seat:
        bidder = probe.next_bidder
        bid = start.bids[bidder]
        probe.bid(bidder, bid if bid is not None else 0)
    return probe.legal_bids()


def analyze_deal(result: GameResult, deal_result: DealResult, *, samples: int = DEFAULT_SAMPLES,
                 seed: int = 0, budget: int | None = DEFAULT_BUDGET,
                 only: str | None = None,
                 on_positions: Callable[[int], None] | None = None) -> DealAnalysis:
    """One deal: what each player (or only the player named ``only``) could
    force, the mistakes of the play, and (``samples`` > 0) the bid advice
    and the bots' opinion beside it. ``on_positions`` is told the solver's
    positions as they are visited (after the play's questions, then after
    each sample of the advice): what a progress bar counts."""
    record = result.record.deals[deal_result.position]
    out = DealAnalysis(record.number, deal_result.position, record.cards, record.kind)
    final = deal_result.deal
    if final is None or final.hands is None or not final.history:
        out.skipped = NO_HANDS
        return out
    if not final.done:
        out.skipped = "the play is not complete"
        return out
    if any(p.deal == record.number and p.trick is not None for p in result.problems):
        out.skipped = "the recorded play breaks the rules"
        return out
    names = result.record.players
    start, plays = start_of_play(final)
    bids = start.bids if start.has_bids else [None] * start.players
    seats = [s for s in range(start.players) if only is None or names[s] == only]
    # one solver per player: successive positions of the play share its table
    try:
        solvers = {s: Solver(start, s, budget) for s in range(start.players)}
    except ValueError as error:  # a table beyond the solver's size (more than 8 players)
        out.skipped = message_of(error).shown()
        return out
    status: dict[int, list[bool | None]] = {}
    for seat in range(start.players):
        bid = bids[seat]
        if bid is None:
            continue
        status[seat] = _statuses(solvers[seat], start, plays, bid)
    trick_of = [i // start.players + 1 for i in range(len(plays))]
    state = _copy(start)
    lost_by: dict[int, int] = {}
    decisions: dict[int, int] = {}
    for index, (seat, card, decl) in enumerate(plays):
        chances = status.get(seat)
        if chances is not None and chances[index] and seat in seats:
            if len(state.legal_plays()) >= 2:
                decisions[seat] = decisions.get(seat, 0) + 1
            if chances[index + 1] is False:
                lost_by[seat] = lost_by.get(seat, 0) + 1
                bid = bids[seat]
                assert bid is not None
                try:
                    keeping = kept_plays(solvers[seat].forcing_plays(state, bid),
                                         state.legal_plays(), state.plain_declaration)
                except BudgetExceededError:
                    keeping = []
                out.mistakes.append(Mistake("lost-bid", trick_of[index], names[seat],
                                            str(Card.from_index(card)), decl, names[seat], bid,
                                            keeping))
        for other, chances_other in status.items():
            if other == seat or seat not in seats:
                continue
            if chances_other[index] is False and chances_other[index + 1] is True:
                bid = bids[other]
                assert bid is not None
                out.mistakes.append(Mistake("handed-bid", trick_of[index], names[seat],
                                            str(Card.from_index(card)), decl, names[other], bid))
        state.apply_legal(seat, card, decl)
    seen, shown = _seen_cards(record, start)
    for seat in seats:
        solved = True
        try:
            outcome: Outcome | None = solvers[seat].outcome(start)
        except BudgetExceededError:
            outcome = None
            solved = False
        if any(v is None for v in status.get(seat, [])):
            solved = False
        out.players.append(PlayerDeal(names[seat], bids[seat], final.taken[seat], outcome,
                                      decisions.get(seat, 0), lost_by.get(seat, 0), solved=solved))
    out.positions = sum(solver.nodes for solver in solvers.values())
    if on_positions is not None:
        on_positions(out.positions)
    # the advice's solvers make tables of their own: the play's are let go first
    solvers.clear()

    def counted(positions: int) -> None:
        out.positions += positions
        if on_positions is not None:
            on_positions(positions)

    if samples > 0:
        for seat, player in zip(seats, out.players, strict=True):
            if bids[seat] is None:
                continue
            legal = _legal_bids(start, seat)
            line_seed = f"{seed}/{result.index}/{record.number}/{seat}"
            # every sample solved to its end (no position spent on a sample
            # then left out); ``budget``, when given, caps the line's samples
            player.advice = bid_advice(start.rules, start, seat, samples, seed=line_seed,
                                       legal=legal, seen=seen, shown=shown, budget=None,
                                       total_budget=budget, on_positions=counted)
            if not player.advice.forced:
                player.bots = bot_opinion(start, seat, samples, seed=line_seed, legal=legal,
                                          seen=seen, shown=shown)
    return out


def _copy(deal: Deal) -> Deal:
    from raspis_cli.solver.search import play_copy

    return play_copy(deal)


def _statuses(solver: Solver, start: Deal, plays: Sequence[tuple[int, int, JokerDecl | None]],
              bid: int) -> list[bool | None]:
    """Whether the bid can be forced before each play and after the last
    (``None`` where the search went over its budget)."""
    state = _copy(start)
    out: list[bool | None] = []
    for index in range(len(plays) + 1):
        try:
            out.append(solver.can_force(state, bid))
        except BudgetExceededError:
            out.append(None)
        if index < len(plays):
            seat, card, decl = plays[index]
            state.apply_legal(seat, card, decl)
    return out


def analyze_game(result: GameResult, *, deal: int | None = None, player: str | None = None,
                 samples: int = DEFAULT_SAMPLES, seed: int = 0,
                 budget: int | None = DEFAULT_BUDGET) -> GameAnalysis:
    """Every deal of a replayed game (or deal number ``deal``), and the summary."""
    analyses = [analyze_deal(result, d, samples=samples, seed=seed, budget=budget, only=player)
                for d in result.deals if deal is None or d.number == deal]
    return GameAnalysis(result.index, result.record.tags.get("Event"), analyses,
                        summarize(result.record.players, analyses, player))


def summarize(names: Sequence[str], analyses: Sequence[DealAnalysis],
              only: str | None = None) -> list[PlayerSummary]:
    """The per-player figures over these deals."""
    summary = {n: PlayerSummary(n) for n in names if only is None or n == only}
    for analysis in analyses:
        for p in analysis.players:
            s = summary.get(p.player)
            if s is None:
                continue
            if p.bid is not None:
                s.bids += 1
                s.made += p.bid == p.taken
                s.makeable += bool(p.makeable)
            s.decisions += p.decisions
            s.mistakes += p.lost
            regret = None if p.advice is None or p.bid is None else p.advice.regret(p.bid)
            if regret is not None:
                s.regret = (s.regret or 0.0) + regret
        for m in analysis.mistakes:
            if m.kind == "handed-bid" and m.player in summary:
                summary[m.player].handed += 1
    return list(summary.values())


def deal_comment(analysis: DealAnalysis) -> list[tuple[str, str]]:
    """The annotations of one deal as (anchor, comment) pairs in the
    notation's comment syntax: a line after the deal line with each
    player's forceable counts, and each mistake at the end of its trick."""
    if analysis.skipped is not None:
        return []
    parts = []
    for p in analysis.players:
        if p.outcome is None:
            parts.append(f"{p.player} not solved")
            continue
        forced = "/".join(str(k) for k in p.outcome.exact) or "none"
        text = f"{p.player} bid {p.bid} forceable {forced}" if p.bid is not None else \
            f"{p.player} at least {p.outcome.at_least}"
        regret = None if p.advice is None or p.bid is None else p.advice.regret(p.bid)
        if p.advice is not None and regret is not None:
            text += f" best bid {p.advice.best} regret {regret:.1f}"
            bots = None if p.bots is None else p.bots.best
            if bots is not None and bots != p.advice.best:  # as the words say it: only where they differ
                text += f" bots' best bid {bots}"
        parts.append(text)
    out = [("after:deal", "; analyze: " + "; ".join(parts))]
    for m in analysis.mistakes:
        out.append((f"on:trick:{m.trick}", "; analyze: " + mistake_words(m, "en", with_trick=True)))
    return out


def annotate_game(record_deals: Sequence[DealRecord], analysis: GameAnalysis) -> None:
    """Write the findings into the records: comments (kept by fmt, convert and
    validate) and an ``analysis`` field of the deal in JSON. Earlier
    ``; analyze:`` comments are replaced."""
    for deal_analysis in analysis.deals:
        record = record_deals[deal_analysis.position]
        anchors = list(record.comment_anchors) + ["after:deal"] * (
            len(record.comments) - len(record.comment_anchors))
        kept = [(a, c) for a, c in zip(anchors, record.comments, strict=True)
                if not c.startswith("; analyze:")]
        kept += deal_comment(deal_analysis)
        record.comment_anchors = [a for a, _ in kept]
        record.comments = [c for _, c in kept]
        if deal_analysis.skipped is None:
            record.extra["analysis"] = deal_analysis.to_json()

