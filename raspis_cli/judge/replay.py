"""Replay a recorded game through the engine: every violation with its place,
and the score sheet recomputed.

This layer turns what a record *says* (names, written values, source
positions) into what the engine understands (seats, masks, suits), and the
engine's violations back into reports a person can act on: kind, message,
deal, trick, player, line and column. It does no I/O.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from raspis_cli.engine import Deal, Game, Violation
from raspis_cli.judge.reconcile import SheetReconciliation, score_memo, too_many_tricks
from raspis_cli.judge.results import DealResult, GameResult, RulesChoice, resolve_rules
from raspis_cli.model.cards import Card, Suit
from raspis_cli.model.deal_kinds import has_trump, judged_kind, kind_term
from raspis_cli.model.diagnostics import Diagnostic
from raspis_cli.model.record import NO_TRUMP, DealRecord, GameRecord, PlayEntry, compact_plays
from raspis_cli.rules.seats import bidding_order
from raspis_cli.rules.standings import first_places
from raspis_cli.text.messages import Quoted, msg
from raspis_cli.text.suggest import did_you_mean

Problem = Diagnostic
"""The name the replay gave its problems before there was one diagnostic type."""

__all__ = [
    "DealResult",
    "GameReplay",
    "GameResult",
    "Problem",
    "RulesChoice",
    "replay_game",
    "resolve_rules",
]



class GameReplay(SheetReconciliation):
    """The replay of one game; :func:`replay_game` is its public face."""

    def __init__(self, game: GameRecord, index: int, choice: RulesChoice | None,
                 ordered_bids: bool, syntax_lines: Sequence[int] = (), compact: bool = True) -> None:
        self.record = game
        self.compact = compact
        self.rotation_seats: dict[str, list[int]] = {}
        self.syntax_lines = sorted(syntax_lines)
        self.previous_line = game.span[0] if game.span else 0
        self.index = index
        self.ordered_bids = ordered_bids
        self.rules, self.problems = resolve_rules(game, choice)
        self.score_memo = score_memo(self.rules)
        self.names = list(game.players)
        self.seat_of: dict[str, int] = {}
        for name in self.names:
            if name in self.seat_of:
                self.problems.append(Diagnostic("players", msg("player {name} is listed twice").format(
                    name=Quoted(name)),
                                             player=name,
                                             pos=game.positions.get(f"player:{name}",
                                                                    game.where("players"))))
            else:
                self.seat_of[name] = len(self.seat_of)
        self.game = Game(self.rules, len(self.names), self.names)
        for v in self.game.player_problems():
            self.problems.append(Diagnostic(v.kind, v.message, pos=game.where("players")))
        self.deals: list[DealResult] = []
        self.position = 0
        self.total_offsets: dict[str, int] = {}
        self.bidding_orders: dict[int, list[str]] = {}
        """The names in bidding order, by the first bidder's seat."""

    # -- reporting ----------------------------------------------------------

    def run(self) -> GameResult:
        record = self.record
        for position, deal in enumerate(record.deals):
            last = position == len(record.deals) - 1
            self.position = position
            self._deal(deal, record.unfinished and last)
        for v in self.game.finish(record.unfinished):
            self._report(None, v)
        totals = {name: self.game.totals[seat] for name, seat in self.seat_of.items()}
        if record.totals is not None:
            for name, written in record.totals.items():
                pos = record.positions.get(f"total:{name}", record.pos)
                if name not in totals:
                    self.problems.append(Diagnostic("players", msg(
                        "a total is written for {name}, who is not a player of this game").format(
                        name=Quoted(name)) + did_you_mean(name, self.seat_of),
                                                 player=name, pos=pos))
                elif written - totals[name] not in (0, self.total_offsets.get(name, 0)):
                    # as for running totals: the difference the last written total
                    # carries is not reported again
                    self.problems.append(Diagnostic("total-mismatch", msg(
                        "{player}'s final total is written as {written}; recomputed {total}").format(
                            player=name, written=written, total=totals[name]),
                                                 player=name, pos=pos))
        best = [self.names[s] for s in first_places([totals[n] for n in self.seat_of],
                                                    self.rules.zero_total_rank)]
        return GameResult(self.index, record, self.rules, self.problems, self.deals, totals, best)

    def _deal(self, record: DealRecord, may_stop_early: bool) -> None:
        if self.compact and self._sheet_deal(record):
            return
        n_players = len(self.seat_of)
        dealer = self._seat(record, record.dealer, "dealer", key="dealer")
        if dealer is None or n_players < 2:
            return
        # hands: as written, or pieced together from the tricks
        hands: list[list[Card]] | None = None
        hands_complete = True
        if (record.hands is not None and n_players == len(self.names)
                and list(record.hands) == self.names):
            hands = list(record.hands.values())  # every hand, in seating order (read, not changed)
        elif record.hands is not None:
            hands = [[] for _ in range(n_players)]
            for name, cards in record.hands.items():
                seat = self._seat(record, name, "hand", key=f"hand:{name}")
                if seat is not None:
                    hands[seat] = list(cards)
            hands_complete = all(name in record.hands for name in self.seat_of)
            if not hands_complete and self._has_tricks(record):
                # a hand not written holds (at least) what its player is seen to play
                for player, card in self._played(record):
                    seat = self.seat_of.get(player)
                    if seat is not None and player not in record.hands:
                        hands[seat].append(card)
        elif self._has_tricks(record):
            hands = [[] for _ in range(n_players)]
            for player, card in self._played(record):
                seat = self.seat_of.get(player)
                if seat is not None:
                    hands[seat].append(card)
            sizes = self._trick_sizes(record)
            hands_complete = (len(sizes) == record.cards
                              and all(size == n_players for size in sizes))
            if not hands_complete or may_stop_early or record.replayed:
                hands_complete = False
        trump_given = record.trump is not None
        trump = None if record.trump is None or record.trump is NO_TRUMP else record.trump
        assert trump is None or isinstance(trump, (Card, Suit))
        line = record.pos.line if record.pos else self.previous_line
        lost = bool(self.syntax_lines) and any(self.previous_line < bad < line
                                               for bad in self.syntax_lines)
        self.previous_line = line
        engine_deal, violations = self.game.start_deal(
            record.number, record.kind, dealer, record.cards, trump, trump_given, hands,
            hands_complete, record.replayed, gap_explained=lost)
        if hands is not None and record.hands is None:
            # pieced together: a repeated card is a play problem, reported there
            violations = [v for v in violations if v.kind != "duplicate-card" or v.at == "trump"]
        for v in violations:
            self._report(record, v)
        if (not trump_given and has_trump(judged_kind(record.kind)) and self._has_tricks(record)
                and not self.rules.circular_trumps):
            self._problem(record, "trump", msg("the trump is not written; the tricks are judged as if there "
                                             "were none"), "trump")
        self._bids(record, engine_deal)
        # a replayed deal was abandoned (at a revoke, under revoke_replay): its play may
        # stop anywhere, even inside a trick, and every card recorded is still checked
        play_complete = self._tricks(record, engine_deal, may_stop_early or record.replayed)
        # an unfinished game's last deal counts as stopped only where its play stops short
        stopped = may_stop_early and self._has_tricks(record) and not play_complete
        self._results(record, engine_deal, play_complete, stopped)

    def _played(self, record: DealRecord) -> Iterator[tuple[str, Card]]:
        """Each card of the tricks with its player's name, in the order played."""
        for entry in self._entries(record) or ():
            if isinstance(entry, tuple):
                yield from zip(entry[0], entry[1], strict=False)
            else:
                for play in entry:
                    yield play.player, play.card

    def _trick_sizes(self, record: DealRecord) -> list[int]:
        return [len(entry[1]) if isinstance(entry, tuple) else len(entry)
                for entry in self._entries(record) or ()]

    def _bids(self, record: DealRecord, deal: Deal) -> None:
        bids = record.bids
        if not bids:
            deal.skip_bidding()
            return
        if not deal.has_bids:
            for name, value in bids.items():
                self._report(record, Violation("bid-order", msg(
                    "a {kind} deal has no bids, yet {player} bid {bid}").format(
                        kind=kind_term(record.kind), player=name, bid=value), at="bid"), player=name)
            deal.skip_bidding()
            return
        if self.compact:
            order = self._bidding_names(deal.first_bidder)
            if (list(bids) == order and len(order) == len(self.seat_of)
                    and deal.bid_all(list(bids.values()))):
                return  # every player's bid, in bidding order, each plainly legal: made at once
        written = [n for n in bids if n in self.seat_of]
        for name in bids:
            if name not in self.seat_of:
                self._seat(record, name, "bid", key=f"bid:{name}")
        expected_order = [self.names[s] for s in bidding_order(deal.first_bidder, len(self.names))]
        if self.ordered_bids:
            present = [n for n in expected_order if n in bids]
            if written != present:
                # (with a name listed twice in the players the lists differ in length)
                first_wrong = next((w for w, p in zip(written, present, strict=False) if w != p),
                                   written[-1] if written else None)
                self._problem(record, "bid-order", msg("bids are written out of order: {players} bid in "
                                                     "that order (left of the dealer first)").format(
                                                         players=", ".join(expected_order)),
                              "bid", player=first_wrong)
        for name in expected_order:
            if name not in bids:
                self._problem(record, "bid-order", msg("no bid is written for {player}").format(player=name),
                              "bids",
                              player=name, pos=record.where("bids"))
                break
            for v in deal.bid(self.seat_of[name], bids[name]):
                self._report(record, v)
        deal.skip_bidding()

    def _tricks(self, record: DealRecord, deal: Deal, may_stop_early: bool) -> bool:
        """Play the recorded tricks; True when the play went to the end.

        Compact tricks (:data:`~raspis_cli.model.record.CompactTrick`) are tried
        whole with bit masks, as many in a row as are plainly legal
        (:meth:`Deal.play_plain_tricks`), and so is a
        trick read as plays, a joker's included (:meth:`Deal.play_trick`); a
        trick the masks find a problem in is played card by card from its
        plays as objects, which is what reports the problem."""
        entries: Sequence[PlayEntry] | None = record.compact_play() if self.compact else None
        if entries is None:
            entries = record.tricks
            if entries is None:
                return False
        fast = self.compact
        n_players = len(self.names)
        rotation_seats = self.rotation_seats
        played = 0
        """The tricks played whole by :meth:`Deal.play_plain_tricks` so far."""
        for number, entry in enumerate(entries, start=1):
            if number <= played:
                continue
            if fast and type(entry) is tuple and len(entry) == 4:
                played = deal.play_plain_tricks(entries, number - 1, rotation_seats)
                if played >= number:
                    continue
            if isinstance(entry, tuple):
                rotation, cards = entry[0], entry[1]
                if number <= record.cards and len(cards) == n_players:
                    seats = rotation_seats.get(rotation[0])
                    if seats is None:
                        seats = rotation_seats[rotation[0]] = [self.seat_of.get(p, -1) for p in rotation]
                    if (deal.play_plain_trick(seats, cards) if len(entry) == 4
                            else deal.play_trick(seats, cards, entry[4])):
                        continue
                trick = compact_plays(entry)
            else:
                trick = entry
            if number > record.cards:
                self._problem(record, "trick-count", too_many_tricks(len(entries), record.cards),
                              "tricks", trick=number,
                              pos=trick[0].pos if trick else None)
                return False
            last = number == len(entries)
            if len(trick) != n_players and not (last and may_stop_early and len(trick) < n_players):
                self._problem(record, "trick-count", msg("trick {number} has {n} cards; {players} players "
                                                       "play one each").format(
                                                           number=number, n=len(trick), players=n_players),
                              "tricks", trick=number,
                              pos=trick[0].pos if trick else None)
                return False
            if fast and isinstance(entry, list):
                seats = [self.seat_of.get(play.player, -1) for play in trick]
                if deal.play_trick(seats, [play.card for play in trick],
                                   [play.joker for play in trick]):
                    continue
            for play in trick:
                seat = self._seat(record, play.player, "tricks", play.pos)
                if seat is None:
                    return False
                found = deal.play(seat, play.card, play.joker)
                for v in found:
                    self._report(record, v)
                if any(v.kind in ("not-in-hand", "unknown-card") for v in found):
                    return False
        if deal.done:
            return True
        if not may_stop_early:
            self._problem(record, "trick-count", too_many_tricks(len(entries), record.cards), "tricks")
        return False


def replay_game(game: GameRecord, index: int = 0, choice: RulesChoice | None = None,
                ordered_bids: bool = False, syntax_lines: Sequence[int] = (),
                compact: bool = True) -> GameResult:
    """Replay one recorded game; ``ordered_bids`` when the source writes bids
    in the order they were made (the notation), so their order is checked.
    ``syntax_lines`` are lines the reader could not parse: a gap in the deal
    numbers across one of them is put down to it, not reported again.
    ``compact=False`` plays every card one by one from the record's plays as
    objects (never the whole-trick bit-mask path): the reference the compact
    path is tested against; the report is the same either way."""
    return GameReplay(game, index, choice, ordered_bids, syntax_lines, compact).run()
