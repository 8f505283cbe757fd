"""Fault injection: break a correct game record in one known way.

:func:`inject` changes a record (usually a simulated one) so that a validator
must report one particular violation, and returns what it must report: an
:class:`ExpectedViolation` (kind, deal number, 1-based trick or ``None``,
player name or ``None``). Everything else in the record is kept consistent,
as a scorekeeper who did not notice the fault would have written it: where
the fault changes who takes a trick, the written taken, scores and totals
are rewritten from the engine, so the fault is the *only* violation. Each
fault is checked with the engine before it is returned.

The faults and the violations each must produce (and nothing else):

``revoke``
    A player plays a card off the suit led while holding that suit: two
    cards are swapped between hands (relabelled in the hands and tricks), or
    two of the player's own plays are swapped. ``follow-suit`` at the deal,
    the trick and the player. The written taken/scores/totals follow the play
    as recorded, the revoke penalty of the rules included (written as a
    ``revoke`` penalty). Under ``revoke_replay`` the revoked deal is marked
    ``replayed`` (it scores only its penalties), its record stops where the
    revoke was seen (somewhere in the revoke's trick, after the revoking
    card: docs/RULES.md §7), and a correct deal with the same number and dealer
    follows it, as the rules want.
``dealer-sum``
    (``dealer_restriction=sum`` only.) The dealer's bid is changed so that
    the bids add up to the card count; the dealer's score and every later
    total are rewritten. ``dealer-restriction`` at the deal, for the dealer
    (no trick).
``joker-demand``
    Against a leading joker's ``high``/``lowest`` demand a player plays
    another card of the suit demanded (two of the player's plays swapped, or
    a joker lead's declaration changed to a demand the play breaks).
    ``joker-demand`` at the deal, trick and player.
``score``
    One written deal score is changed. ``score-mismatch`` at the deal, for
    the player (no trick). The written totals are left as they were.
``total``
    One written running total (a deal's ``totals``) is changed and the
    difference carried on into every later total and the final totals, as
    when a scorekeeper adds up wrongly once. ``total-mismatch`` at that deal,
    for the player (no trick). A validator that reports a difference only
    where it appears reports nothing else; one that compares every written
    total on its own also reports the later ones and the final total of the
    same player (``tolerated``).
``drop-trick``
    The last trick of a deal is removed; the written taken and scores are
    left as played. ``trick-count`` at the deal (no trick, no player). A
    validator that then falls back on the written taken reports nothing
    else; :attr:`ExpectedViolation.tolerated` lists what one that recounts
    the short play may also report.
``duplicate-card``
    In a deal with a stock, the trump card turned up is changed to another
    card of the trump suit that a player holds. ``duplicate-card`` at the
    deal, for that player (no trick).
``skip-dealer``
    One deal is dealt by the seat after the one whose turn it was; later
    deals keep the rotation of the seating. That deal and all later ones are
    dealt and played again (by the simulator's bots), since the totals
    change. ``dealer-order`` at that deal only, for the dealer written there
    (no trick): each deal is checked against the rotation from the first.

:func:`inject` returns ``None`` when the record offers no place for the
fault (no joker demand was played, no stock to turn a trump from, a
``sheet`` record without scores, ...). It mutates the record it is given;
:func:`with_fault` works on a deep copy.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Final

from raspis_cli.engine import Deal, Game, JokerDecl, Violation
from raspis_cli.engine.trick import led_suit
from raspis_cli.model.cards import SUIT_INDEX, Card, Suit, mask_of
from raspis_cli.model.record import NO_TRUMP, DealRecord, GameRecord, PenaltyRecord, PlayRecord
from raspis_cli.rules import Rules
from raspis_cli.rules.seats import bidding_order
from raspis_cli.rules.trumps import trump_holder
from raspis_cli.rules.values import judged_kind
from raspis_cli.simulate.simulator import Simulator

__all__ = ["FAULTS", "ExpectedViolation", "inject", "with_fault"]

FAULTS: Final = (
    "revoke", "dealer-sum", "joker-demand", "score", "total", "drop-trick", "duplicate-card",
    "skip-dealer",
)
"""Every fault :func:`inject` knows, by name."""

_MAX_TRIES: Final = 80


@dataclass(frozen=True)
class ExpectedViolation:
    """What a validator must report for an injected fault.

    ``deal`` is the deal number, ``trick`` 1-based (``None`` when the
    violation is not about one trick), ``player`` a name (``None`` when it is
    about nobody in particular). ``tolerated`` are kinds a validator may
    report besides (``drop-trick``: in the same deal; ``total``: later
    totals of the same player).
    """

    fault: str
    kind: str
    deal: int
    trick: int | None
    player: str | None
    tolerated: tuple[str, ...] = ()


def with_fault(game: GameRecord, fault: str,
               rng: random.Random) -> tuple[GameRecord, ExpectedViolation | None]:
    """A deep copy of ``game`` with the fault injected, and what it must produce."""
    broken = copy.deepcopy(game)
    return broken, inject(broken, fault, rng)


def inject(game: GameRecord, fault: str, rng: random.Random) -> ExpectedViolation | None:
    """Break ``game`` in place with ``fault`` (one of :data:`FAULTS`); return
    the violation a validator must report, or ``None`` (record unchanged)
    when the record offers no place for it. Raises :class:`ValueError` for
    an unknown fault."""
    try:
        injector = _INJECTORS[fault]
    except KeyError:
        raise ValueError(f"unknown fault {fault!r}; the faults are {', '.join(FAULTS)}") from None
    rules = Rules.from_record(game.rules_preset, game.rules_options)
    return injector(_Context(game, rules, rng))


# --- shared machinery ----------------------------------------------------------


class _Context:
    """The record being broken, its rules, seats and random source."""

    def __init__(self, game: GameRecord, rules: Rules, rng: random.Random) -> None:
        self.game = game
        self.rules = rules
        self.rng = rng
        self.names = list(game.players)
        self.seat = {name: seat for seat, name in enumerate(self.names)}
        self.players = len(self.names)

    def open_deal(self, record: DealRecord) -> Deal:
        """A fresh engine deal for this record (hands and trump as written)."""
        rules = self.rules
        hands = None
        if record.hands is not None:
            hands = [mask_of(record.hands.get(name, ())) for name in self.names]
        trump: Suit | None = None
        written = record.trump
        if isinstance(written, Suit):
            trump = written
        elif isinstance(written, Card) and record.kind != "no-trump":
            trump = rules.deck_cards.suit_of(written)
        return Deal(rules, self.players, self.seat[record.dealer], record.cards, judged_kind(record.kind),
                    trump, hands, None, self.names)

    def play_violations(self, record: DealRecord) -> tuple[Deal, list[Violation]]:
        """Replay a deal's bids and tricks on a fresh engine deal; the
        violations of the play (bids are not judged here)."""
        deal = self.open_deal(record)
        if record.bids is not None and deal.has_bids:
            for seat in bidding_order(deal.first_bidder, self.players):
                deal.bid(seat, record.bids[self.names[seat]])
        deal.skip_bidding()
        found: list[Violation] = []
        for trick in record.tricks or ():
            for play in trick:
                problems = deal.play(self.seat[play.player], play.card, play.joker)
                found += problems
                if any(v.kind in ("not-in-hand", "unknown-card") for v in problems):
                    return deal, found
        return deal, found

    def rescore(self) -> list[Violation]:
        """Rewrite every written taken, penalty, score and total from the
        engine, as a scorekeeper would from the record as it now stands; the
        violations the engine finds on the way (all of them)."""
        game = self.game
        names = self.names
        engine = Game(self.rules, self.players, names)
        found: list[Violation] = []
        for record in game.deals:
            hands = None
            if record.hands is not None:
                hands = [list(record.hands.get(name, ())) for name in names]
            written = record.trump
            trump = None if written is None or written is NO_TRUMP else written
            assert trump is None or isinstance(trump, (Card, Suit))
            deal, problems = engine.start_deal(record.number, record.kind, self.seat[record.dealer],
                                               record.cards, trump, written is not None, hands,
                                               True, record.replayed)
            found += problems
            if record.bids is not None and deal.has_bids:
                for seat in bidding_order(deal.first_bidder, self.players):
                    found += deal.bid(seat, record.bids[names[seat]])
            deal.skip_bidding()
            for trick in record.tricks or ():
                for play in trick:
                    found += deal.play(self.seat[play.player], play.card, play.joker)
            if record.tricks is not None and (deal.done or record.replayed):
                # a replayed deal may stop anywhere; it scores only its penalties
                taken = list(deal.taken)
                if record.taken is not None and not record.replayed:
                    record.taken = dict(zip(names, taken, strict=True))
                if record.scores is not None:
                    record.penalties = [PenaltyRecord(names[s], p, r)
                                        for s, p, r in deal.penalty_notes] or None
            else:
                assert record.taken is not None
                taken = [record.taken[name] for name in names]
            scores = (list(deal.penalties) if record.replayed
                      else deal.scores(taken))
            if record.scores is not None:
                record.scores = dict(zip(names, scores, strict=True))
            engine.finish_deal(deal, scores, record.replayed)
            if record.totals is not None:
                record.totals = dict(zip(names, engine.totals, strict=True))
        if game.totals is not None:
            game.totals = dict(zip(names, engine.totals, strict=True))
        return found

    def dealt_before(self, record: DealRecord, trick_no: int, name: str) -> list[Card]:
        """What ``name`` still holds when trick ``trick_no`` (1-based) starts."""
        assert record.hands is not None and record.tricks is not None
        played = {p.card for t in record.tricks[: trick_no - 1] for p in t if p.player == name}
        return [c for c in record.hands[name] if c not in played]


def _played_deals(ctx: _Context) -> list[int]:
    """Indexes of deals with hands and tricks (and not replayed), shuffled."""
    out = [i for i, d in enumerate(ctx.game.deals)
           if d.hands is not None and d.tricks is not None and not d.replayed]
    ctx.rng.shuffle(out)
    return out


def _led_suit(record: DealRecord, trick: list[PlayRecord], ctx: _Context) -> int | None:
    """The suit led of a recorded trick (as the engine reads it)."""
    entries = [(0, play.card, play.joker) for play in trick]
    led, _ = led_suit(entries, ctx.rules.deck_cards.joker_mask)
    return None if led is None else int(led)


def _try_deal_change(ctx: _Context, index: int, change: Callable[[DealRecord], None],
                     kind: str, trick: int, player: str) -> bool:
    """Apply ``change`` to a copy of deal ``index``; keep it when the engine
    finds exactly one violation in its play, ``kind`` at ``trick`` by
    ``player``, and nothing else in the game after a rescore."""
    game = ctx.game
    original = game.deals[index]
    candidate = copy.deepcopy(original)
    change(candidate)
    _, found = ctx.play_violations(candidate)
    want = (kind, trick, ctx.seat[player])
    if [(v.kind, v.trick, v.seat) for v in found] != [want]:
        return False
    saved = copy.deepcopy(game)
    game.deals[index] = candidate
    everything = ctx.rescore()
    if [(v.kind, v.trick, v.seat) for v in everything] == [want]:
        return True
    _restore(game, saved)
    return False


def _restore(game: GameRecord, saved: GameRecord) -> None:
    game.deals = saved.deals
    game.totals = saved.totals


def _relabel(record: DealRecord, a: Card, b: Card) -> None:
    """Swap two cards everywhere in a deal (hands and tricks)."""
    swap = {a: b, b: a}
    assert record.hands is not None and record.tricks is not None
    for name, hand in record.hands.items():
        record.hands[name] = [swap.get(c, c) for c in hand]
    for trick in record.tricks:
        for play in trick:
            play.card = swap.get(play.card, play.card)


def _swap_plays(record: DealRecord, name: str, t1: int, t2: int) -> None:
    """Swap what ``name`` played in tricks ``t1`` and ``t2`` (0-based)."""
    assert record.tricks is not None
    p1 = next(p for p in record.tricks[t1] if p.player == name)
    p2 = next(p for p in record.tricks[t2] if p.player == name)
    p1.card, p2.card = p2.card, p1.card
    p1.joker, p2.joker = p2.joker, p1.joker


def _trick_of(record: DealRecord, name: str, card: Card) -> int | None:
    assert record.tricks is not None
    for number, trick in enumerate(record.tricks):
        for play in trick:
            if play.player == name and play.card == card:
                return number
    return None


# --- the faults ---------------------------------------------------------------------


def _revoke(ctx: _Context) -> ExpectedViolation | None:
    deck = ctx.rules.deck_cards
    tries = 0
    for index in _played_deals(ctx):
        record = ctx.game.deals[index]
        assert record.tricks is not None and record.hands is not None
        options: list[tuple[Callable[[DealRecord], None], int, str]] = []
        trump_card = record.trump if isinstance(record.trump, Card) else None
        for t, trick in enumerate(record.tricks):
            led = _led_suit(record, trick, ctx)
            lead_decl = trick[0].joker
            if led is None or (lead_decl is not None and lead_decl.mode in ("high", "lowest")):
                continue
            for play in trick[1:]:
                name = play.player
                if deck.is_joker(play.card):
                    continue
                if SUIT_INDEX[play.card] == led:
                    # followed suit: swap with a later off-suit play of theirs
                    for later in range(t + 1, len(record.tricks)):
                        other = next(p for p in record.tricks[later] if p.player == name)
                        if not deck.is_joker(other.card) and SUIT_INDEX[other.card] != led:
                            options.append((partial(_swap_plays, name=name, t1=t, t2=later),
                                            t + 1, name))
                    continue
                # void in the suit led: give them a card of it from someone who plays it later
                own_later = [c for c in ctx.dealt_before(record, t + 2, name)
                             if not deck.is_joker(c) and c != trump_card]
                for holder in ctx.names:
                    if holder == name:
                        continue
                    for card in ctx.dealt_before(record, t + 1, holder):
                        if SUIT_INDEX[card] != led or deck.is_joker(card) or card == trump_card:
                            continue
                        for mine in own_later:
                            options.append((partial(_relabel, a=card, b=mine), t + 1, name))
        ctx.rng.shuffle(options)
        for change, trick_no, name in options[:20]:
            tries += 1
            if tries > _MAX_TRIES:
                return None
            saved = copy.deepcopy(record)
            if not _try_deal_change(ctx, index, change, "follow-suit", trick_no, name):
                continue
            number = record.number
            if ctx.rules.revoke_replay:
                _mark_replayed(ctx, index, saved, trick_no, name)
            return ExpectedViolation("revoke", "follow-suit", number, trick_no, name)
    return None


def _mark_replayed(ctx: _Context, index: int, original: DealRecord, trick_no: int,
                   name: str) -> None:
    """Under ``revoke_replay``: the revoked deal is abandoned where the revoke
    is seen (its record stops somewhere in the revoke's trick, after the
    revoking card) and dealt again (here: the correct original deal follows
    it)."""
    game = ctx.game
    revoked = game.deals[index]
    revoked.replayed = True
    revoked.taken = None
    assert revoked.tricks is not None
    trick = revoked.tricks[trick_no - 1]
    at = next(i for i, play in enumerate(trick) if play.player == name)
    revoked.tricks = [*revoked.tricks[:trick_no - 1], trick[:ctx.rng.randint(at + 1, len(trick))]]
    game.deals.insert(index + 1, original)
    ctx.rescore()


def _dealer_sum(ctx: _Context) -> ExpectedViolation | None:
    if ctx.rules.dealer_restriction != "sum":
        return None
    indexes = [i for i, d in enumerate(ctx.game.deals) if d.bids is not None and not d.replayed]
    ctx.rng.shuffle(indexes)
    for index in indexes[:_MAX_TRIES]:
        record = ctx.game.deals[index]
        assert record.bids is not None
        others = sum(b for name, b in record.bids.items() if name != record.dealer)
        bid = record.cards - others
        if not 0 <= bid <= record.cards:
            continue
        saved = copy.deepcopy(ctx.game)
        record.bids[record.dealer] = bid
        found = ctx.rescore()
        want = [("dealer-restriction", None, ctx.seat[record.dealer])]
        if [(v.kind, v.trick, v.seat) for v in found] == want:
            return ExpectedViolation("dealer-sum", "dealer-restriction", record.number, None,
                                     record.dealer)
        _restore(ctx.game, saved)
    return None


def _joker_demand(ctx: _Context) -> ExpectedViolation | None:
    rules = ctx.rules
    deck = rules.deck_cards
    demands = [m for m in ("high", "lowest") if m in rules.joker_lead_modes]
    if not demands:
        return None
    tries = 0
    for index in _played_deals(ctx):
        record = ctx.game.deals[index]
        assert record.tricks is not None
        options: list[tuple[Callable[[DealRecord], None], int, str]] = []
        for t, trick in enumerate(record.tricks):
            lead = trick[0]
            if not deck.is_joker(lead.card) or lead.joker is None:
                continue
            decl = lead.joker
            for play in trick[1:]:
                name = play.player
                if deck.is_joker(play.card):
                    continue
                suit = SUIT_INDEX[play.card]
                held = [c for c in ctx.dealt_before(record, t + 1, name)
                        if not deck.is_joker(c) and SUIT_INDEX[c] == suit and c != play.card]
                if decl.mode in demands and decl.suit == suit:
                    # break the demand: play another card of the suit here
                    for card in held:
                        later = _trick_of(record, name, card)
                        if later is not None and later > t:
                            options.append((partial(_swap_plays, name=name, t1=t, t2=later),
                                            t + 1, name))
                elif decl.mode not in ("high", "lowest") and held:
                    if rules.joker_demand_first_trick_only and t > 0:
                        continue
                    # a demand this play breaks: the highest (or lowest) was held
                    for mode in demands:
                        higher = any(c > play.card for c in held)
                        lower = any(c < play.card for c in held)
                        if (mode == "high" and higher) or (mode == "lowest" and lower):
                            new = JokerDecl(mode, suit=Suit(suit))
                            options.append((partial(_declare, trick=t, decl=new), t + 1, name))
        ctx.rng.shuffle(options)
        for change, trick_no, name in options[:20]:
            tries += 1
            if tries > _MAX_TRIES:
                return None
            if _try_deal_change(ctx, index, change, "joker-demand", trick_no, name):
                return ExpectedViolation("joker-demand", "joker-demand", record.number, trick_no,
                                         name)
    return None


def _declare(record: DealRecord, trick: int, decl: JokerDecl) -> None:
    assert record.tricks is not None
    record.tricks[trick][0].joker = decl


def _score(ctx: _Context) -> ExpectedViolation | None:
    deals = [d for d in ctx.game.deals if d.scores is not None]
    if not deals:
        return None
    record = ctx.rng.choice(deals)
    assert record.scores is not None
    name = ctx.rng.choice(ctx.names)
    record.scores[name] += ctx.rng.choice((-10, -5, -1, 1, 5, 10))
    return ExpectedViolation("score", "score-mismatch", record.number, None, name)


def _total(ctx: _Context) -> ExpectedViolation | None:
    game = ctx.game
    indexes = [i for i, d in enumerate(game.deals) if d.totals is not None]
    if not indexes:
        return None
    index = ctx.rng.choice(indexes)
    name = ctx.rng.choice(ctx.names)
    delta = ctx.rng.choice((-10, -5, -1, 1, 5, 10))
    # the scorekeeper adds up wrongly once and carries the difference on
    for record in game.deals[index:]:
        if record.totals is not None:
            record.totals[name] += delta
    if game.totals is not None:
        game.totals[name] += delta
    return ExpectedViolation("total", "total-mismatch", game.deals[index].number, None, name,
                             ("total-mismatch",))


def _drop_trick(ctx: _Context) -> ExpectedViolation | None:
    deals = [d for d in ctx.game.deals if d.tricks and not d.replayed]
    if not deals:
        return None
    record = ctx.rng.choice(deals)
    assert record.tricks is not None
    record.tricks.pop()
    return ExpectedViolation("drop-trick", "trick-count", record.number, None, None,
                             ("taken-mismatch", "score-mismatch", "total-mismatch", "penalty"))


def _duplicate_card(ctx: _Context) -> ExpectedViolation | None:
    deck = ctx.rules.deck_cards
    if trump_holder(ctx.rules, False) != "stock":
        return None  # trump_card dealer-last: the trump is the dealer's own card, nothing is turned up
    options: list[tuple[DealRecord, Card, str]] = []
    for record in ctx.game.deals:
        trump = record.trump
        if (record.hands is None or not isinstance(trump, Card) or deck.is_joker(trump)
                or record.cards * ctx.players >= deck.size):
            continue
        for name, hand in record.hands.items():
            options += [(record, c, name) for c in hand
                        if not deck.is_joker(c) and SUIT_INDEX[c] == SUIT_INDEX[trump]]
    if not options:
        return None
    record, card, name = ctx.rng.choice(options)
    record.trump = card
    return ExpectedViolation("duplicate-card", "duplicate-card", record.number, None, name)


def _skip_dealer(ctx: _Context) -> ExpectedViolation | None:
    game = ctx.game
    if len(game.deals) < 2 or any(d.replayed for d in game.deals):
        return None
    index = ctx.rng.randrange(1, len(game.deals))
    names = ctx.names
    detail = ("full" if game.deals[0].hands is not None
              else "scores" if game.deals[0].scores is not None else "sheet")
    engine = Game(ctx.rules, ctx.players, names)
    # the deals before stay as they are: replay them for the engine's state
    for record in game.deals[:index]:
        hands = ([list(record.hands[n]) for n in names] if record.hands is not None else None)
        trump = None if record.trump is None or record.trump is NO_TRUMP else record.trump
        assert trump is None or isinstance(trump, (Card, Suit))
        deal, _ = engine.start_deal(record.number, record.kind, ctx.seat[record.dealer],
                                    record.cards, trump, record.trump is not None, hands)
        if record.bids is not None and deal.has_bids:
            for seat in bidding_order(deal.first_bidder, ctx.players):
                deal.bid(seat, record.bids[names[seat]])
        deal.skip_bidding()
        for trick in record.tricks or ():
            for play in trick:
                deal.play(ctx.seat[play.player], play.card, play.joker)
        taken = (list(deal.taken) if deal.done
                 else [(record.taken or {}).get(n, 0) for n in names])
        engine.finish_deal(deal, deal.scores(taken))
    sim = Simulator(ctx.rules, names, ctx.rng, detail)
    due = ctx.seat[game.deals[index].dealer]
    shifted = (due + 1) % ctx.players
    new_dealer = names[shifted]
    tail: list[DealRecord] = []
    for offset, record in enumerate(game.deals[index:]):
        # only this deal goes to the wrong seat; the rotation goes on from the seating
        dealer = shifted if offset == 0 else (due + offset) % ctx.players
        allow = ("dealer-order",) if offset == 0 else ()
        tail.append(sim.play_deal(engine, record.number, judged_kind(record.kind), record.cards, dealer,
                                  allow=allow))
    game.deals[index:] = tail
    if game.totals is not None:
        game.totals = dict(zip(names, engine.totals, strict=True))
    return ExpectedViolation("skip-dealer", "dealer-order", game.deals[index].number, None,
                             new_dealer)


_INJECTORS: Final[dict[str, Callable[[_Context], ExpectedViolation | None]]] = {
    "revoke": _revoke,
    "dealer-sum": _dealer_sum,
    "joker-demand": _joker_demand,
    "score": _score,
    "total": _total,
    "drop-trick": _drop_trick,
    "duplicate-card": _duplicate_card,
    "skip-dealer": _skip_dealer,
}
