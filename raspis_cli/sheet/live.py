"""Keeping the sheet at the table, deal by deal: the state behind ``raspis live``.

:class:`LiveSheet` holds the file's games and the one being played. Every
check goes through the replay (the engine, as ``validate`` uses it): a trump,
a bid and the taken counts are tried on the record with the deal filled in,
and refused with the replay's own message when it reports a problem, so
``live`` never writes what ``validate`` rejects. Pure: no I/O, no prompts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from raspis_cli.engine import KINDS_WITHOUT_BIDS, Deal
from raspis_cli.judge.replay import DealResult, GameResult, Problem, RulesChoice, replay_game, resolve_rules
from raspis_cli.model.record import NO_TRUMP, DealRecord, GameRecord, PenaltyRecord, TrumpValue
from raspis_cli.notation.tokens import JOKER_WORD, NONE_WORD, read_trump_token
from raspis_cli.notation.writer import bidding_order, write_games
from raspis_cli.rules import Rules
from raspis_cli.sheet.blank import (
    NextDeal,
    SheetError,
    blank_out,
    fill_deal,
    is_played,
    next_deal,
    with_deals,
    write_results,
)
from raspis_cli.text.i18n import _, kind_label, ngettext

__all__ = ["Entry", "LiveSheet", "SheetError"]



BID_KINDS = ("bid-range", "dealer-restriction", "third-pass")


@dataclass
class Entry:
    """A deal being entered: what has been typed so far."""

    deal: NextDeal
    trump: TrumpValue | None = None
    bids: dict[str, int] = field(default_factory=dict)
    taken: dict[str, int] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)

    @property
    def has_bids(self) -> bool:
        """Whether the deal's kind has bids (not miser or golden)."""
        return self.deal.kind not in KINDS_WITHOUT_BIDS


class LiveSheet:
    """The games of a file and the one being kept (the last one)."""

    def __init__(self, games: Sequence[GameRecord], choice: RulesChoice | None = None) -> None:
        if not games:
            raise SheetError(_("the file holds no game"))
        self.games = list(games)
        self.choice = choice
        rules, problems = resolve_rules(self.game, choice)
        if problems:
            raise SheetError("; ".join(p.message for p in problems))
        if len(set(self.game.players)) != len(self.game.players) or len(self.game.players) < 2:
            raise SheetError(_("the game needs two or more players, each named once, in its [Players] tag"))
        self.rules: Rules = rules
        self.result: GameResult = replay_game(self.game, choice=choice)

    # -- the game ---------------------------------------------------------------------

    @property
    def game(self) -> GameRecord:
        """The game being kept."""
        return self.games[-1]

    @property
    def players(self) -> list[str]:
        """The players in seating order."""
        return list(self.game.players)

    def text(self) -> str:
        """The file's text: every game in the canonical notation."""
        return write_games(self.games)

    def next_deal(self) -> NextDeal | None:
        """The deal to enter next; ``None`` when the game is complete."""
        return next_deal(self.game, self.rules)

    def played(self) -> int:
        """How many deals have their results written."""
        return sum(1 for d in self.game.deals if is_played(d))

    def total_deals(self) -> int | None:
        """The number of deals of the schedule (``None`` for a free schedule)."""
        from raspis_cli.rules.schedule import schedule_for

        schedule = schedule_for(self.rules, len(self.players))
        return None if schedule.free else len(schedule.listing)

    def start(self, deal: NextDeal) -> Entry:
        """A new entry for this deal, with the comments its line already has."""
        entry = Entry(deal)
        if deal.index < len(self.game.deals):
            entry.comments = list(self.game.deals[deal.index].comments)
        return entry

    def bidding_order(self, entry: Entry) -> list[str]:
        """The players in the order they bid: left of the dealer first."""
        return bidding_order(self.players, entry.deal.dealer)

    def asks_trump(self, entry: Entry) -> bool:
        """Whether the deal has a trump to write down (not a no-trump deal,
        not circular trumps, not a full deal the rules leave without one)."""
        d = entry.deal
        if d.kind == "no-trump" or self.rules.circular_trumps:
            return False
        full = d.cards * len(self.players) == self.rules.deck
        return not (full and self.rules.full_deal_trump == "none")

    # -- trying values on the record ----------------------------------------------

    def _record(self, entry: Entry, bids: dict[str, int] | None = None,
                taken: dict[str, int] | None = None) -> DealRecord:
        d = entry.deal
        trump = entry.trump
        if trump is None and not self.asks_trump(entry):
            trump = NO_TRUMP if d.kind == "no-trump" else None
        return DealRecord(number=d.number, kind=d.kind, dealer=d.dealer, cards=d.cards, trump=trump,
                          bids=dict(bids) if bids else None, taken=dict(taken) if taken else None,
                          comments=list(entry.comments),
                          comment_anchors=["on:deal"] * len(entry.comments))

    def _problems(self, entry: Entry, deal: DealRecord) -> list[Problem]:
        game = fill_deal(self.game, entry.deal.index, deal)
        result = replay_game(game, choice=self.choice)
        return [p for p in result.problems if p.deal == entry.deal.number]

    def read_trump(self, entry: Entry, text: str) -> TrumpValue | str:
        """The trump typed (a card, a suit, ``-``), or why it cannot be."""
        token = text.strip().replace(" ", "")
        got = read_trump_token(token)
        if got is None:
            return _("{got} is not a card, a suit or '-' (write the card turned up: 9♥, 9h, 9ч, or its suit, "
                     "or - for none)").format(got=repr(text.strip()))
        value: TrumpValue
        if got == NONE_WORD:
            value = NO_TRUMP
        elif got == JOKER_WORD:
            jokers = self.rules.deck_cards.jokers
            if len(jokers) != 1:
                return _("this deck has two jokers or none: write RJ or BJ")
            value = jokers[0]
        else:
            assert not isinstance(got, str)
            value = got
        trial = Entry(entry.deal, value)
        for p in self._problems(trial, self._record(trial)):
            if p.kind in ("trump", "unknown-card"):
                return p.message
        return value

    def bid_problem(self, entry: Entry, player: str, bid: int) -> str | None:
        """Why ``player`` may not bid ``bid`` after the bids entered (the
        replay's message), or ``None`` when the bid stands."""
        trial = dict(entry.bids)
        trial[player] = bid
        for p in self._problems(entry, self._record(entry, trial)):
            if p.kind in BID_KINDS and p.player == player:
                return p.message
        return None

    def forbidden_bids(self, entry: Entry, player: str) -> list[int]:
        """The bids ``player`` may not make now (the dealer's forbidden bid,
        a third pass): the engine's legal bids, in the state the replay of
        the sheet with the bids entered leaves the deal in."""
        game = fill_deal(self.game, entry.deal.index, self._record(entry, entry.bids))
        result = replay_game(game, choice=self.choice)
        replayed = next((d.deal for d in result.deals if d.position == entry.deal.index), None)
        if replayed is None:
            return []
        deal = Deal(self.rules, len(self.players), replayed.dealer, replayed.cards, replayed.kind,
                    replayed.trump, None, replayed.pass_streaks, self.players)
        seat = {name: i for i, name in enumerate(self.players)}
        for name, bid in entry.bids.items():
            deal.bid(seat[name], bid)
        if deal.next_bidder != seat[player]:
            return []
        legal = set(deal.legal_bids())
        return [b for b in range(entry.deal.cards + 1) if b not in legal]

    def taken_problem(self, entry: Entry, player: str, taken: int) -> str | None:
        """Why ``player`` cannot have taken ``taken`` given the counts entered
        so far (the counts must add up to the cards), or ``None``."""
        cards = entry.deal.cards
        if taken < 0 or taken > cards:
            return _("{player} cannot take {taken} tricks of {cards}").format(player=player, taken=taken,
                                                                            cards=cards)
        order = self.bidding_order(entry)
        so_far = sum(entry.taken.values())
        left = [p for p in order if p not in entry.taken and p != player]
        if so_far + taken > cards:
            return ngettext("the taken would add up to {sum}, more than the {cards} card dealt",
                            "the taken would add up to {sum}, more than the {cards} cards dealt",
                            cards).format(sum=so_far + taken, cards=cards)
        if not left and so_far + taken != cards:
            return _("the taken must add up to {cards}: {player} took {left}, not {taken}").format(
                cards=cards, player=player, left=cards - so_far, taken=taken)
        return None

    # -- completing, undoing --------------------------------------------------------

    def complete(self, entry: Entry) -> tuple[DealResult, list[Problem]]:
        """Write the deal into the game with the engine's scores and running
        totals; the deal's result and any problem the replay still finds."""
        deal = self._record(entry, entry.bids if entry.has_bids else None, entry.taken)
        game = fill_deal(self.game, entry.deal.index, deal)
        game, result = write_results(game, self.choice)
        self.games[-1] = game
        self.result = result
        mine = [d for d in result.deals if d.position == entry.deal.index]
        problems = [p for p in result.problems if p.deal == entry.deal.number]
        return mine[0], problems

    def kind_choices(self, entry: Entry) -> tuple[str, ...]:
        """The kinds the table may choose for this deal: the special deals of
        a schedule that leaves their order to the table (``classic``: after
        the fixed deals, any special kind at the largest deal), else none."""
        from raspis_cli.rules.schedule import schedule_for

        schedule = schedule_for(self.rules, len(self.players))
        if not schedule.tail_kinds:
            return ()
        scored = sum(1 for d in self.game.deals[:entry.deal.index] if not d.replayed)
        return schedule.tail_kinds if scored >= len(schedule.fixed) else ()

    def read_kind(self, entry: Entry, text: str) -> tuple[str] | str:
        """The kind typed for a deal whose kind the table chooses (a 1-tuple),
        or why it cannot be (an error text naming the kinds allowed)."""
        from raspis_cli.notation.tokens import KIND_WORDS

        choices = self.kind_choices(entry)
        kind = KIND_WORDS.get(text.strip().lower())
        if kind is None or kind not in choices:
            return _("{got} is not one of the special deals: {kinds}").format(
                got=repr(text.strip()), kinds=", ".join(kind_label(k) for k in choices))
        return (kind,)

    def replay(self, entry: Entry, revoker: str | None) -> DealResult:
        """Write the deal as abandoned and dealt again (пересдача, docs/RULES.md
        §7): the trump if typed, the revoker's penalty (the rules'
        ``revoke_penalty``) and ``replayed``; the same deal (number, cards,
        kind, dealer) follows, to be entered next."""
        d = entry.deal
        record = self._record(entry)
        record.bids = record.taken = None
        record.replayed = True
        if revoker is not None and self.rules.revoke_penalty:
            record.penalties = [PenaltyRecord(revoker, self.rules.revoke_penalty, "revoke")]
        game = fill_deal(self.game, d.index, record)
        again = DealRecord(number=d.number, kind=d.kind, dealer=d.dealer, cards=d.cards)
        deals = list(game.deals)
        deals.insert(d.index + 1, again)
        game = with_deals(game, deals)
        game, result = write_results(game, self.choice)
        self.games[-1] = game
        self.result = result
        return next(x for x in result.deals if x.position == d.index)

    def keep_comments(self, entry: Entry) -> bool:
        """Write the comments typed for a deal not finished onto its (blank)
        line; True when there were new ones."""
        index = entry.deal.index
        if index >= len(self.game.deals) or self.game.deals[index].comments == entry.comments:
            return False
        deal = self.game.deals[index]
        deal.comments = list(entry.comments)
        deal.comment_anchors = ["on:deal"] * len(entry.comments)
        return True

    def undo(self) -> int | None:
        """Blank out the last deal written; its number, or ``None`` if none."""
        played = [i for i, d in enumerate(self.game.deals) if is_played(d)]
        if not played:
            return None
        index = played[-1]
        number = self.game.deals[index].number
        game = self.game
        if game.deals[index].replayed:  # the deal dealt again is taken back with it
            after = game.deals[index + 1] if index + 1 < len(game.deals) else None
            if after is not None and after.number == number and not is_played(after):
                game = with_deals(game, game.deals[:index + 1] + game.deals[index + 2:])
        game = blank_out(game, index)
        game, result = write_results(game, self.choice)
        self.games[-1] = game
        self.result = result
        return number

    def totals(self) -> dict[str, int]:
        """The running totals after the deals written."""
        return dict(self.result.totals)

    @property
    def finished(self) -> bool:
        """Whether the game is complete (no ``unfinished`` mark)."""
        return not self.game.unfinished
