"""The score sheet reconciled: written bids, taken, scores and totals against what the rules make of
each deal, every difference at its cell; a sheet without play checked by arithmetic."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from raspis_cli.engine import Deal, Game, Violation, bid_score, infer_taken
from raspis_cli.engine.scoring import KINDS_WITHOUT_BIDS
from raspis_cli.judge.results import DealResult, trump_text
from raspis_cli.model.deal_kinds import kind_term
from raspis_cli.model.diagnostics import Diagnostic
from raspis_cli.model.record import NO_TRUMP, DealRecord, GameRecord, PlayEntry, Pos
from raspis_cli.rules import KINDS, Rules
from raspis_cli.rules.seats import bidding_order
from raspis_cli.rules.values import judged_kind
from raspis_cli.text.messages import Message, Quoted, Seq, Term, layout, msg
from raspis_cli.text.suggest import did_you_mean

__all__ = ["SheetReconciliation", "fitting_counts", "score_memo", "too_many_tricks"]


class SheetReconciliation:
    """What a replay does with each deal's result: the sheet's written bids, taken, scores and totals
    reconciled with what the rules make of the play (or, for a sheet without play, of the written
    taken), every difference reported at its cell; and the bookkeeping both halves share (where a
    name sits, how a violation is reported). A mixin of the replay
    (:class:`~raspis_cli.judge.replay.GameReplay`), which holds the state declared here."""

    record: GameRecord
    compact: bool
    previous_line: int
    ordered_bids: bool
    rules: Rules
    problems: list[Diagnostic]
    score_memo: dict[tuple[str, int | None, int, int], int]
    names: list[str]
    seat_of: dict[str, int]
    game: Game
    deals: list[DealResult]
    position: int
    total_offsets: dict[str, int]
    bidding_orders: dict[int, list[str]]

    def _report(self, deal: DealRecord | None, v: Violation,
                player: str | None = None) -> Diagnostic:
        who = player if player is not None else (
            self.names[v.seat] if v.seat is not None and v.seat < len(self.names) else None)
        pos: Pos | None
        if deal is None:
            pos = self.record.pos
        elif v.at == "play" and deal.tricks is not None and v.trick is not None:
            try:
                pos = deal.tricks[v.trick - 1][v.index or 0].pos or deal.where("tricks")
            except IndexError:
                pos = deal.where("tricks")
        elif v.at in ("bid", "hand", "taken", "score", "total") and who is not None:
            pos = deal.where(f"{v.at}:{who}")
        else:
            pos = deal.where(v.at)
        problem = Diagnostic(v.kind, v.message, deal.number if deal else None, v.trick, who, pos)
        self.problems.append(problem)
        return problem

    def _problem(self, deal: DealRecord, kind: str, message: Message, at: str,
                 player: str | None = None, trick: int | None = None,
                 pos: Pos | None = None) -> Diagnostic:
        where = pos or (deal.where(f"{at}:{player}") if player is not None else deal.where(at))
        problem = Diagnostic(kind, message, deal.number, trick, player, where)
        self.problems.append(problem)
        return problem


    def _seat(self, deal: DealRecord, name: str, at: str, pos: Pos | None = None,
              key: str | None = None) -> int | None:
        """The seat of a player named in the record; a ``players`` problem
        (at ``pos``, or where ``key`` was written) when there is none."""
        seat = self.seat_of.get(name)
        if seat is None:
            if pos is None and key is not None:
                pos = deal.where(key)
            self._problem(deal, "players",
                          msg("{name} is not a player of this game").format(name=Quoted(name))
                          + did_you_mean(name, self.seat_of), at, player=name, pos=pos)
        return seat

    def _bidding_names(self, first_bidder: int) -> list[str]:
        """The players' names in bidding order from ``first_bidder`` (made once per seat)."""
        order = self.bidding_orders.get(first_bidder)
        if order is None:
            order = self.bidding_orders[first_bidder] = [
                self.names[s] for s in bidding_order(first_bidder, len(self.names))]
        return order

    def _per_seat(self, values: Mapping[str, int]) -> list[int] | None:
        """A value written for every player, by seat; ``None`` when one is
        missing or written for a name that is not a player."""
        if list(values) == self.names:  # the reader writes a line's values in seating order
            return list(values.values())
        seat_of = self.seat_of
        if len(values) != len(seat_of):
            return None
        out = [0] * len(seat_of)
        for name, value in values.items():
            seat = seat_of.get(name)
            if seat is None:
                return None
            out[seat] = value
        return out

    def _entries(self, record: DealRecord) -> Sequence[PlayEntry] | None:
        """The record's tricks: compact while they are (and the replay is), else as objects."""
        play = record.compact_play() if self.compact else None
        return play if play is not None else record.tricks

    def _has_tricks(self, record: DealRecord) -> bool:
        return bool(self._entries(record))

    def _sheet_deal(self, record: DealRecord) -> bool:
        """A deal written as a score sheet's line (bids, taken, maybe scores,
        totals and penalties; no hands or play) checked with arithmetic:
        the taken add up, the scores and totals written are the ones the
        rules give, and the engine opens and bids the deal at once
        (:meth:`Game.sheet_deal`). True when all of it holds and the deal is
        recorded as the long way records it; False, and nothing changed,
        when something does not (the long way then says what)."""
        if record.hands is not None or record.replayed or record.trick_entries() is not None:
            return False  # (trick_entries: the compact play or the tricks, without making objects)
        seat_of = self.seat_of
        names = self.names
        n = len(names)
        dealer = seat_of.get(record.dealer)
        written_taken = record.taken
        if dealer is None or n < 2 or n != len(seat_of) or written_taken is None:
            return False
        cards = record.cards
        # the reader writes a sheet line's values in seating order: by seat at once
        taken = self._per_seat(written_taken)
        if taken is None or sum(taken) != cards or min(taken) < 0:
            return False
        kind = record.kind
        written_bids = record.bids
        bids: list[int] | None = None
        if written_bids:
            if list(written_bids) == self._bidding_names((dealer + 1) % n):
                # in bidding order (the dealer's left first): turned to seating order
                values = list(written_bids.values())
                first = (n - dealer - 1) % n
                bids = values[first:] + values[:first]
            elif self.ordered_bids:
                return False
            else:
                bids = self._per_seat(written_bids)
                if bids is None:
                    return False
        if kind not in KINDS or (bids is None) != (kind in KINDS_WITHOUT_BIDS):
            return False  # no score to compute (a bid missing, an unknown kind): the long way
        # penalties written: with no play to judge them by, counted as written
        penalties = [0] * n
        for penalty in record.penalties or ():
            seat = seat_of.get(penalty.player)
            if seat is None:
                return False
            penalties[seat] += penalty.points
        memo = self.score_memo
        scores = [0] * n
        for seat in range(n):
            key = (kind, None if bids is None else bids[seat], taken[seat], record.cards)
            known = memo.get(key)
            if known is None:
                known = self._bid_score(*key)
            scores[seat] = known + penalties[seat]
        written_scores = record.scores
        if written_scores is not None:
            if list(written_scores) == names:
                if list(written_scores.values()) != scores:
                    return False
            else:
                for name, value in written_scores.items():
                    seat = seat_of.get(name)
                    if seat is None or scores[seat] != value:
                        return False
        totals = self.game.totals
        offsets: list[tuple[str, int]] = []
        written_totals = record.totals
        if written_totals is not None:
            carried = self.total_offsets
            for name, value in written_totals.items():
                seat = seat_of.get(name)
                if seat is None:
                    continue
                offset = value - totals[seat] - scores[seat]
                if offset and offset != carried.get(name, 0):
                    return False
                offsets.append((name, offset))
        trump = record.trump
        make_deal = self.game.sheet_deal(record.number, kind, dealer, cards,
                                         None if trump is None or trump is NO_TRUMP else trump,
                                         trump is not None, bids)
        if make_deal is None:
            return False
        if record.pos is not None:
            self.previous_line = record.pos.line
        self.game.finish_sheet_deal(bids, scores)
        self.total_offsets.update(offsets)
        # the names are the seats in order (none listed twice), every list one per seat:
        # the dicts by name, and the engine's deal, made only when asked for
        self.deals.append(DealResult.by_seat(
            record.number, kind, cards, record.dealer, trump_text(trump), names,
            None if bids is None else list[int | None](bids), taken,
            "written", scores, list(totals), penalties, written_taken, written_scores,
            written_totals, make_deal, self.position))
        return True

    def _plain_results(self, record: DealRecord, deal: Deal) -> bool:
        """:meth:`_results` of a deal played to the end in the usual way (no
        penalty written or prescribed, not replayed, a bid for every player
        where the kind has bids, every name a seat and none twice) whose
        written taken, scores and totals all agree with the play: the same
        result without a loop per name. False, and nothing changed, when the
        deal is not such a deal (the long way then says what differs)."""
        names = self.names
        n = len(names)
        if (record.penalties is not None or deal.penalty_notes or record.replayed
                or n != len(self.seat_of) or (deal.revokes and self.rules.revoke_replay)):
            return False
        taken = deal.taken
        written_taken = record.taken
        if written_taken is not None and (list(written_taken) != names
                                          or list(written_taken.values()) != taken):
            return False
        written_bids = record.bids or {}
        bids = list(map(written_bids.get, names))
        has_bids = deal.has_bids
        if has_bids and None in bids:
            return False
        kind = record.kind
        memo = self.score_memo
        scores = [0] * n
        for seat in range(n):
            key = (kind, bids[seat], taken[seat], record.cards)
            known = memo.get(key)
            if known is None:
                known = self._bid_score(*key)
            scores[seat] = known
        written_scores = record.scores
        if written_scores is not None and (list(written_scores) != names
                                           or list(written_scores.values()) != scores):
            return False
        totals = self.game.totals
        running = [total + score for total, score in zip(totals, scores)]  # noqa: B905 (one per seat)
        written_totals = record.totals
        if written_totals is not None and (list(written_totals) != names
                                           or list(written_totals.values()) != running):
            return False
        self.game.finish_deal(deal, scores)
        if written_totals is not None and self.total_offsets:
            for name in names:  # each total written agrees: no difference carried on
                self.total_offsets[name] = 0
        # one per seat, in seating order: the dicts by name made only when asked for
        self.deals.append(DealResult.by_seat(
            record.number, kind, record.cards, record.dealer, trump_text(record.trump), names,
            bids, list(taken), "tricks", scores, running, None, written_taken, written_scores,
            written_totals, deal, self.position))
        return True

    def _results(self, record: DealRecord, deal: Deal, play_complete: bool,
                 stopped: bool) -> None:
        if play_complete and self.compact and self._plain_results(record, deal):
            return
        names = self.names
        seats = self.seat_of
        rules = self.rules
        written_taken = record.taken
        written_scores = record.scores
        taken: dict[str, int | None] = dict.fromkeys(seats)
        source = "none"
        if play_complete:
            source = "tricks"
            for name, seat in seats.items():
                taken[name] = deal.taken[seat]
            for name, value in (written_taken or {}).items():
                if name in seats and value != taken[name]:
                    self._problem(record, "taken-mismatch", msg("{player}'s taken is written as {written}; "
                                                              "the tricks give {taken}").format(
                                                                  player=name, written=value,
                                                                  taken=taken[name]),
                                  "taken", player=name)
        elif written_taken is not None:
            source = "written"
            for name, value in written_taken.items():
                if self._seat(record, name, "taken", key=f"taken:{name}") is not None:
                    taken[name] = value
        # written penalties against the prescribed ones: the play judges them when it
        # is all there, or when it is all there ever was (an abandoned, replayed deal)
        judged = play_complete or (record.replayed and self._has_tricks(record))
        prescribed = [0] * len(names)
        other = [0] * len(names)
        if judged:
            for seat, points, _reason in deal.penalty_notes:
                prescribed[seat] += points
        self._penalties(record, deal, judged, prescribed, other)
        written_bids = record.bids or {}
        bids = {name: written_bids.get(name) for name in seats}
        # infer taken from bids and scores where needed
        if not play_complete and not stopped and not record.replayed:
            source = self._infer_taken(record, deal, bids, taken, source,
                                       [o + p for o, p in zip(other, prescribed, strict=True)])
        # scores
        scores: dict[str, int | None] = {}
        for name, seat in seats.items():
            t = taken[name]
            penalty = prescribed[seat] + other[seat]
            if record.replayed:
                scores[name] = penalty
            elif t is None or (deal.has_bids and bids[name] is None):
                scores[name] = None
            else:
                scores[name] = self._bid_score(record.kind, bids[name], t, record.cards) + penalty
        if written_scores is not None and not stopped:
            for name, value in written_scores.items():
                if name not in seats:
                    self._seat(record, name, "score", key=f"score:{name}")
                    continue
                mine = scores[name]
                if mine is not None and mine != value:
                    self._problem(record, "score-mismatch", msg("{player}'s score in deal {number} is "
                                                              "written as {written}; recomputed "
                                                              "{score}").format(
                                                                  player=name, number=record.number,
                                                                  written=value, score=mine),
                                  "score", player=name)
        # totals go on with the written score where ours cannot be known
        applied = [0] * len(names)
        for name, seat in seats.items():
            known = scores[name]
            if known is None and written_scores is not None:
                known = written_scores.get(name)
            applied[seat] = known or 0
        self.game.finish_deal(deal, applied, record.replayed)
        running = {name: self.game.totals[seat] for name, seat in seats.items()}
        if record.totals is not None:
            for name, value in record.totals.items():
                if name not in seats:
                    continue
                # a difference is reported where it appears or changes, not again on every
                # later total that merely carries it forward
                offset = value - running[name]
                if offset and offset != self.total_offsets.get(name, 0):
                    text = (msg("{player}'s total after deal {number} is written as {written}; recomputed "
                              "{total} ({n} too high; later totals that carry the same difference are "
                              "not reported again)") if offset > 0 else
                            msg("{player}'s total after deal {number} is written as {written}; recomputed "
                              "{total} ({n} too low; later totals that carry the same difference are "
                              "not reported again)"))
                    self._problem(record, "total-mismatch", text.format(
                        player=name, number=record.number, written=value, total=running[name],
                        n=abs(offset)), "total", player=name)
                self.total_offsets[name] = offset
        if (play_complete and deal.revokes and rules.revoke_replay and not record.replayed):
            self._problem(record, "replay", msg("the deal had a revoke and the rules replay such a deal "
                                              "(revoke_replay), yet it is not marked replayed"), "deal")
        self.deals.append(DealResult(
            number=record.number, kind=record.kind, cards=record.cards, dealer=record.dealer,
            trump=trump_text(record.trump), bids=bids, taken=taken, taken_source=source,
            scores=scores, totals=running,
            penalties={name: prescribed[seat] + other[seat] for name, seat in seats.items()},
            written_taken=written_taken, written_scores=written_scores,
            written_totals=record.totals, replayed=record.replayed, deal=deal,
            position=self.position))

    def _bid_score(self, kind: str, bid: int | None, taken: int, cards: int) -> int:
        """:func:`bid_score` under this game's rules, remembered (a game asks
        the same few questions many times)."""
        key = (kind, bid, taken, cards)
        memo = self.score_memo
        known = memo.get(key)
        if known is None:
            if len(memo) >= _SCORE_MEMO_MAX:
                memo.clear()  # a hostile file's millions of distinct bids and counts
            known = memo[key] = bid_score(self.rules, judged_kind(kind), bid, taken, cards)
        return known

    def _infer_taken(self, record: DealRecord, deal: Deal, bids: Mapping[str, int | None],
                     taken: dict[str, int | None], source: str, penalties: Sequence[int]) -> str:
        """Fill ``taken`` from bids and written scores where play does not give
        it, and check that some trick counts fit every written value and add
        up to the cards (docs/RULES.md §7: ``taken-sum`` whether some or all of the
        counts were inferred). Returns the deal's taken source."""
        seats = self.seat_of
        written_scores = record.scores
        written_taken = record.taken or {}
        if not 0 <= record.cards <= self.rules.deck:
            # an impossible card count is deal-size's; only a full written taken is summed
            if written_taken and all(name in written_taken for name in seats):
                self._written_taken_sum(record, sum(written_taken[n] for n in seats))
            return source
        known = [t for t in taken.values() if t is not None]
        if len(known) == len(taken) and sum(known) == record.cards and min(known, default=0) >= 0:
            return source  # every count known, and they fit: nothing to infer or report
        # each player's possible counts: written, inferred from the score, or any (None)
        possible: dict[str, list[int] | None] = {}
        for name, seat in seats.items():
            if taken[name] is not None:
                possible[name] = [taken[name] or 0]
                continue
            score = written_scores.get(name) if written_scores is not None else None
            bid = bids[name]
            if score is None or (bid is None and deal.has_bids):
                possible[name] = None
                continue
            options = infer_taken(self.rules, judged_kind(record.kind), bid, score - penalties[seat],
                                  record.cards)
            possible[name] = options
            if not options:
                text = (msg("{player}'s score is written as {score}, which no number of tricks gives bid "
                          "{bid} in a {cards}-card deal") if bid is not None else
                        msg("{player}'s score is written as {score}, which no number of tricks gives a "
                          "{kind} in a {cards}-card deal"))
                self._problem(record, "score-mismatch", text.format(
                    player=name, score=score, bid=bid, kind=kind_term(record.kind), cards=record.cards),
                              "score", player=name)
        if any(options == [] for options in possible.values()):
            return self._taken_from(possible, taken, source)
        fits = fitting_counts(list(possible.values()), record.cards)
        if not fits:
            all_written = all(name in written_taken for name in seats)
            if all_written:
                self._written_taken_sum(record, sum(written_taken[n] for n in seats))
            elif all(o is not None and len(o) == 1 for o in possible.values()):
                total = sum((o or [0])[0] for o in possible.values())
                counts = Message.joined(", ", (layout("{player} {counts}", player=n, counts=(o or [0])[0])
                                               for n, o in possible.items()))
                text = (msg("the taken inferred from bids and scores ({counts}) add up to {total}, not "
                          "{cards}") if not written_taken else
                        msg("the taken written and inferred from bids and scores ({counts}) add up to "
                          "{total}, not {cards}"))
                self._problem(record, "taken-sum", text.format(counts=counts, total=total,
                                                               cards=record.cards), "scores",
                              pos=record.where("scores"))
            else:
                either = layout(" {word} ", word=msg("or"))
                counts = Message.joined(", ", (
                    layout("{player} {counts}", player=n,
                           counts=msg("any") if o is None else Seq(tuple(o), either))
                    for n, o in possible.items()))
                self._problem(record, "taken-sum", msg("no trick counts fit the bids, taken and scores "
                                                     "written and add up to {cards} ({counts})").format(
                                                         cards=record.cards, counts=counts),
                              "scores", pos=record.where("scores"))
            return self._taken_from(possible, taken, source)
        if len(fits) == 1:
            # the sum decides what the scores alone left open
            possible = {name: [count] for name, count in zip(possible, fits[0], strict=True)}
        return self._taken_from(possible, taken, source)

    def _written_taken_sum(self, record: DealRecord, total: int) -> None:
        if total != record.cards:
            self._problem(record, "taken-sum", msg("the taken written add up to {total}, not {cards}").format(
                total=total, cards=record.cards), "taken", pos=record.where("taken"))

    @staticmethod
    def _taken_from(possible: Mapping[str, list[int] | None], taken: dict[str, int | None],
                    source: str) -> str:
        for name, options in possible.items():
            if taken[name] is None and options is not None and len(options) == 1:
                taken[name] = options[0]
                if source == "none":
                    source = "inferred"
        return source

    def _penalties(self, record: DealRecord, deal: Deal, judged: bool,
                   prescribed: list[int], other: list[int]) -> None:
        """Check written penalties against the prescribed ones (``prescribed``
        per seat, when the play recorded ``judged`` them) and collect the
        rest into ``other``."""
        written = record.penalties
        if written is None:
            return
        ruled: dict[tuple[int, str], int] = {}
        for seat, points, reason in deal.penalty_notes if judged else ():
            ruled[(seat, reason)] = ruled.get((seat, reason), 0) + points
        seen: dict[tuple[int, str], int] = {}
        for penalty in written:
            found = self._seat(record, penalty.player, "penalty", penalty.pos)
            if found is None:
                continue
            seat = found
            rule = penalty.rule  # "ренонс" is the revoke the play is judged for, not another penalty
            if rule is not None and judged:
                key = (seat, rule)
                seen[key] = seen.get(key, 0) + penalty.points
            else:  # free words, or no play to judge a prescribed one by: as written
                other[seat] += penalty.points
        for key in sorted(set(ruled) | set(seen)):
            seat, reason = key
            want, got = ruled.get(key, 0), seen.get(key, 0)
            if want != got:
                name = self.names[seat]
                pos = next((p.pos for p in written if p.player == name and p.rule == reason),
                           record.where("penalties"))
                self._problem(record, "penalty", msg("{player}'s {reason} penalty is written as {written}; "
                                                   "the rules prescribe {want} for the play recorded").format(
                                                       player=name, reason=Term("penalty-reason", reason),
                                                       written=got, want=want),
                              "penalty",
                              player=name, pos=pos)


_SCORE_MEMOS: dict[Rules, dict[tuple[str, int | None, int, int], int]] = {}
_SCORE_MEMO_MAX = 1 << 14
"""The most deal scores remembered per rule set (a real game asks a few
dozen questions; bids and counts from -999 to 999 in six kinds would be 24
million, gigabytes kept for good)."""


def score_memo(rules: Rules) -> dict[tuple[str, int | None, int, int], int]:
    """The remembered deal scores under ``rules`` (kind, bid, taken, cards -> score),
    shared by the games replayed under the same rules (a few rule sets at most
    are kept)."""
    memo = _SCORE_MEMOS.get(rules)
    if memo is None:
        if len(_SCORE_MEMOS) >= 16:
            _SCORE_MEMOS.clear()
        memo = _SCORE_MEMOS[rules] = {}
    return memo


def too_many_tricks(tricks: int, cards: int) -> Message:
    """Why a deal cannot have this many tricks, in words."""
    return msg("the deal has {tricks} tricks; {cards} cards make {cards}").format(tricks=tricks, cards=cards)


_Chosen = tuple[int, "_Chosen"] | None
"""Trick counts chosen so far, as a linked list (the latest first)."""


def fitting_counts(possible: Sequence[Sequence[int] | None], cards: int) -> list[tuple[int, ...]]:
    """The combinations of trick counts, one per player from each player's
    possible counts (``None``: any of 0..cards), that add up to ``cards``:
    none, the only one, or two of several (enough to tell which)."""
    if all(options is not None and len(options) == 1 for options in possible):
        # every count known: they fit when none is negative and they add up
        known = tuple(options[0] for options in possible if options is not None)
        return [known] if sum(known) == cards and min(known, default=0) >= 0 else []
    # ways[i][total]: how many ways (capped at 2) the first i players take `total` tricks
    ways = [[0] * (cards + 1) for _ in range(len(possible) + 1)]
    ways[0][0] = 1
    for index, options in enumerate(possible):
        row, nxt = ways[index], ways[index + 1]
        counts = range(cards + 1) if options is None else options
        for total, count in enumerate(row):
            if count:
                for taken in counts:
                    if taken >= 0 and total + taken <= cards:
                        nxt[total + taken] = min(2, nxt[total + taken] + count)
    if not ways[-1][cards]:
        return []

    # the first two combinations in order (the last player's count first, as
    # they were counted), depth first with a stack of its own: a recursion
    # per player overflowed Python's stack for a record of ~1,000 players;
    # each entry: (players left, tricks left, the counts chosen as a linked list)
    found: list[tuple[int, ...]] = []
    stack: list[tuple[int, int, _Chosen]] = [(len(possible), cards, None)]
    while stack and len(found) < 2:
        index, left, chosen = stack.pop()
        if index == 0:
            picked: list[int] = []
            while chosen is not None:
                picked.append(chosen[0])
                chosen = chosen[1]
            found.append(tuple(picked))
            continue
        options = possible[index - 1]
        row = ways[index - 1]
        stack.extend(reversed([(index - 1, left - taken, (taken, chosen))
                               for taken in (range(cards + 1) if options is None else options)
                               if 0 <= taken <= left and row[left - taken]]))
    return found
