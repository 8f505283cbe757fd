"""From replayed games to table rows: the game id, and one Arrow table per
table of :data:`~raspis_cli.store.schema.TABLES` for a batch of games.

Pure computation, no database: this is what ``load -j N`` runs in worker
processes.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
from collections.abc import Callable
from typing import Any, Final

import pyarrow as pa

from raspis_cli.judge.replay import DealResult, GameResult
from raspis_cli.model.cards import Card, Suit
from raspis_cli.model.joker import JokerDecl
from raspis_cli.model.record import NO_TRUMP, DealRecord, GameRecord, PlayEntry
from raspis_cli.notation.writer import option_text
from raspis_cli.rules import OPTIONS, PRESETS, Rules
from raspis_cli.rules.bidding import forbidden_bids
from raspis_cli.rules.options import OptionError
from raspis_cli.rules.standings import final_places
from raspis_cli.store.schema import GAME_TABLES, stored_columns

__all__ = ["ID_LENGTH", "TableBuilder", "arrow_schema", "canonical_game", "dealer_restricted", "game_date",
           "game_id"]

ID_LENGTH = 20
"""Hex digits of SHA-256 kept as the game id (80 bits)."""


# --- the game id -------------------------------------------------------------


def _trump_code(trump: object) -> str | None:
    """A trump as stored: a card code (``10H``), a suit letter (``H``) or
    ``none`` (no two of which are alike)."""
    if trump is None:
        return None
    if trump is NO_TRUMP:
        return "none"
    if isinstance(trump, Card):
        return trump.code
    if isinstance(trump, Suit):
        return trump.name
    return str(trump)


def _canonical_rules(game: GameRecord) -> dict[str, object]:
    preset = game.rules_preset or "raspisnoy"
    base = Rules.preset(preset) if preset in PRESETS else None
    options: dict[str, object] = {}
    for name, raw in game.rules_options.items():
        spec = OPTIONS.get(name)
        if spec is None or base is None:
            options[name] = ["as-written", option_text(name, raw)]  # as the notation writes it
            continue
        try:
            value = spec.read(raw)
        except (OptionError, ValueError):
            options[name] = ["as-written", option_text(name, raw)]
            continue
        if value != getattr(base, name):
            options[name] = spec.to_json(value)
    return {"preset": preset, "options": options}


def _decl_value(decl: JokerDecl) -> list[str | None]:
    return [decl.mode, decl.suit.name if decl.suit is not None else None,
            decl.card.code if decl.card is not None else None]


def _canonical_deal(deal: DealRecord) -> dict[str, object]:
    out: dict[str, object] = {
        "number": deal.number, "kind": deal.kind, "dealer": deal.dealer, "cards": deal.cards,
        "trump": _trump_code(deal.trump), "replayed": deal.replayed,
    }
    if deal.hands is not None:
        out["hands"] = {name: sorted(_CODES[c] for c in cards) for name, cards in deal.hands.items()}
    if deal.bids is not None:
        # the order of the bids is a fact of the record (a bid-order violation or not)
        out["bids"] = [[name, bid] for name, bid in deal.bids.items()]
    for key in ("taken", "scores", "totals"):
        value = getattr(deal, key)
        if value is not None:
            out[key] = dict(value)
    entries = deal.trick_entries()
    if entries:  # "tricks": [] says no more than no tricks at all
        codes = _CODES
        out["tricks"] = [
            # a plain compact trick read as it is (the players from the leader, the cards)
            # (tuples: JSON writes them as the arrays they stand for, and they cost less to make)
            [(player, codes[card], None) for player, card in zip(entry[0], entry[1])]  # noqa: B905 (as trick_plays)
            if type(entry) is tuple and len(entry) == 4 else
            [[player, codes[card], None if joker is None else _decl_value(joker)]
             for player, card, joker in _entry_plays(entry)]
            for entry in entries]
    if deal.penalties is not None:
        out["penalties"] = [[p.player, p.points, p.reason] for p in deal.penalties]
    return out


def _entry_plays(entry: PlayEntry) -> list[tuple[str, Card, JokerDecl | None]]:
    """A trick of the record as (player, card, declaration) per card, in play
    order (:meth:`DealRecord.trick_plays` of one trick)."""
    if isinstance(entry, list):
        return [(p.player, p.card, p.joker) for p in entry]
    if len(entry) == 6:
        return list(zip(entry[0], entry[1], entry[4], strict=False))
    return list(zip(entry[0], entry[1], [None] * len(entry[1]), strict=False))


def canonical_game(game: GameRecord) -> dict[str, object]:
    """What a game *says*, as plain JSON values: tags, rules (options equal to
    the preset's dropped), players, every deal with every written value (bids
    in the order they were made, tricks card by card with declarations), the
    written totals. Source positions, comments, unknown JSON fields and file
    names are left out, so the same game in notation or JSON, or reformatted,
    gives the same value."""
    return {
        "tags": dict(game.tags),
        "rules": _canonical_rules(game),
        "players": list(game.players),
        "deals": [_canonical_deal(d) for d in game.deals],
        "totals": dict(game.totals) if game.totals is not None else None,
        "unfinished": game.unfinished,
    }


def game_id(game: GameRecord) -> str:
    """The game's id: the first :data:`ID_LENGTH` hex digits of the SHA-256 of
    its canonical form (:func:`canonical_game`) as canonical JSON (sorted
    keys, no spaces, UTF-8). JSON quotes every string, so no name, tag or
    comment can imitate the structure around it (as a separator could)."""
    text = json.dumps(canonical_game(game), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:ID_LENGTH]


_DATE = re.compile(r"\s*(\d{4})(?:[-./](\d{1,2}|\?\?)(?:[-./](\d{1,2}|\?\?))?)?")


def game_date(tags: dict[str, str]) -> tuple[datetime.date | None, int | None]:
    """The Date tag as (date, year): ``2026-11-20`` (also with dots or slashes)
    gives both; ``2026`` or ``2026.??.??`` gives the year only."""
    text = tags.get("Date") or tags.get("date")
    if not text:
        return None, None
    match = _DATE.match(text)
    if match is None:
        return None, None
    year = int(match.group(1))
    month, day = match.group(2), match.group(3)
    if month and day and month.isdigit() and day.isdigit():
        try:
            return datetime.date(year, int(month), int(day)), year
        except ValueError:
            return None, year
    return None, year


# --- the dealer restriction ---------------------------------------------------


def dealer_restricted(rules: Rules, cards: int, before: int) -> bool:
    """``deals.dealer_restricted``: whether the rules' dealer restriction
    forbade the dealer a bid that could be made (0 … ``cards``), the other
    players' bids adding up to ``before``. The answer is the rule's own:
    :func:`~raspis_cli.rules.bidding.forbidden_bids` for the dealer (the pass
    limit left out: it is not the dealer restriction)."""
    forbidden = forbidden_bids(rules.dealer_restriction, None, cards, True, before, 0)
    return any(kind == "dealer-restriction" and 0 <= bid <= cards for bid, kind in forbidden.items())


def _others_bids(deal: DealRecord, result: DealResult | None, seat_of: dict[str, int],
                 dealer_seat: int | None) -> int | None:
    """The sum of the bids of the players other than the dealer, as
    ``deal_results`` holds them (one row per name); ``None`` when the deal
    has no bids, the dealer is not a player or one of those bids is not
    known."""
    if result is None or dealer_seat is None or not deal.bids:
        return None
    by_seat = result.seat_values()
    if by_seat is not None:
        bids = by_seat[0]
        if bids is None:
            return None
        others = [bids[seat] for seat in seat_of.values() if seat != dealer_seat]
    else:
        by_name = result.bids
        others = [by_name.get(name) for name, seat in seat_of.items() if seat != dealer_seat]
    total = 0
    for bid in others:
        if bid is None:
            return None
        total += bid
    return total


# --- Arrow ---------------------------------------------------------------------

_ARROW_TYPES: dict[str, Any] = {
    "VARCHAR": pa.string(),
    "INTEGER": pa.int32(),
    "TINYINT": pa.int8(),
    "BOOLEAN": pa.bool_(),
    "DATE": pa.date32(),
    "MAP(VARCHAR, VARCHAR)": pa.map_(pa.string(), pa.string()),
}


def arrow_schema(table: str) -> Any:
    """The Arrow schema of the rows ``load`` builds for a table of
    :data:`~raspis_cli.store.schema.TABLES` (for ``plays``: ``plays_int``'s)."""
    return pa.schema([pa.field(c.name, _ARROW_TYPES[c.sql_type]) for c in stored_columns(table)])


def _suit(suit: Suit | None) -> str | None:
    return suit.name if suit is not None else None


_CODES: Final = tuple(Card.from_index(i).code for i in range(54))
_JOKER_CARDS: dict[int, frozenset[int]] = {}
"""The joker cards of each deck's joker mask (a few decks)."""



def _row_maker(table: str) -> Callable[..., tuple[object, ...]]:
    """A function that takes a table's columns by name (keyword-only, all
    required) and returns the row tuple in the stored column order."""
    names = [c.name for c in stored_columns(table)]
    assert all(n.isidentifier() for n in names)
    source = f"def {table}_row(*, {', '.join(names)}):\n    return ({', '.join(names)},)\n"
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # the column names come from the schema (identifiers, checked above)
    maker: Callable[..., tuple[object, ...]] = namespace[f"{table}_row"]
    return maker


ROWS: Final[dict[str, Callable[..., tuple[object, ...]]]] = {name: _row_maker(name) for name in GAME_TABLES}
"""Per table, the row maker: rows are built by column name (an unknown or a
missing column is a ``TypeError``), so two columns of one type cannot be
swapped silently; the row is a plain tuple in the stored column order
(:func:`~raspis_cli.store.schema.stored_columns`: ``plays`` as ``plays_int``)."""


class TableBuilder:
    """Rows of many games, column by column; :meth:`tables` makes Arrow tables."""

    def __init__(self) -> None:
        self.row_lists: dict[str, list[tuple[object, ...]]] = {name: [] for name in GAME_TABLES}

    def _add(self, table: str, **values: object) -> None:
        """One row, given by column name (an unknown or missing name is a TypeError)."""
        self.row_lists[table].append(ROWS[table](**values))

    def rows(self, table: str) -> int:
        """Rows gathered so far in one table."""
        return len(self.row_lists[table])

    def tables(self) -> dict[str, Any]:
        """One ``pyarrow.Table`` per table, in :data:`GAME_TABLES` order."""
        out = {}
        for name, rows in self.row_lists.items():
            # Arrow reads the row tuples as structs and splits them into
            # columns, three times faster than transposing them in Python
            rows_type = pa.struct(list(arrow_schema(name)))
            out[name] = pa.Table.from_struct_array(pa.array(rows, type=rows_type))
        return out

    def add_game(self, gid: str, result: GameResult, source_file: str) -> None:
        """Every row of one checked game (:func:`raspis_cli.judge.check.check_game`:
        its problems include the syntax problems on its lines)."""
        record = result.record
        names = list(record.players)
        seat_of: dict[str, int] = {}
        for seat, name in enumerate(names):
            seat_of.setdefault(name, seat)
        problems = result.problems
        date, year = game_date(record.tags)
        rules = result.rules
        changed = rules.changed_from(Rules.preset(rules.preset_name))
        span = record.span
        self._add("games", game_id=gid, date=date, year=year, event=record.tags.get("Event"),
                  site=record.tags.get("Site"), tags=list(record.tags.items()),
                  rules_preset=rules.preset_name,
                  rules_options=[(n, json.dumps(OPTIONS[n].to_json(v), ensure_ascii=False))
                                 for n, v in changed.items()],
                  rules=json.dumps(rules.to_json(), ensure_ascii=False), player_count=len(names),
                  deal_count=len(record.deals), unfinished=record.unfinished, valid=not problems,
                  violation_count=len(problems), source_file=source_file, game_index=result.index,
                  first_line=span[0] if span else None, last_line=span[1] if span else None)
        totals = [result.totals.get(name) for name in names]
        known = [seat for seat, t in enumerate(totals) if t is not None]
        places = dict(zip(known, final_places([t for t in totals if t is not None], rules.zero_total_rank),
                          strict=True))
        for seat, name in enumerate(names):
            total = totals[seat]
            place = places.get(seat)
            written = record.totals.get(name) if record.totals is not None else None
            self._add("seats", game_id=gid, seat=seat, player=name, total=total,
                      written_total=written, place=place, winner=place == 1)
        by_position = {d.position: d for d in result.deals}
        for index, deal in enumerate(record.deals):
            self._add_deal(gid, index, deal, by_position.get(index), seat_of, names, rules)
        for ordinal, p in enumerate(problems):
            self._add("violations", game_id=gid, ordinal=ordinal, kind=p.kind, message=p.canonical_text(),
                      deal=p.deal, trick=p.trick, player=p.player, source_line=p.line,
                      source_column=p.column, code=p.code or None,
                      message_data=json.dumps(p.message_data(), ensure_ascii=False, separators=(",", ":")))

    def _add_deal(self, gid: str, index: int, deal: DealRecord, result: DealResult | None,
                  seat_of: dict[str, int], names: list[str], rules: Rules) -> None:
        engine = result.deal if result is not None else None
        dealer_seat = seat_of.get(deal.dealer)
        trump_suit = _suit(engine.trump) if engine is not None else None
        bid_sum = sum(deal.bids.values()) if deal.bids else None
        before = _others_bids(deal, result, seat_of, dealer_seat)
        entries = deal.trick_entries()
        self._add("deals", game_id=gid, deal_index=index, number=deal.number, kind=deal.kind,
                  cards=deal.cards, dealer=deal.dealer, dealer_seat=dealer_seat,
                  trump=_trump_code(deal.trump), trump_suit=trump_suit, bid_sum=bid_sum,
                  has_tricks=bool(entries),
                  taken_source=result.taken_source if result is not None else None,
                  replayed=deal.replayed,
                  dealer_restricted=None if before is None else dealer_restricted(
                      rules, deal.cards, before))
        if result is not None:
            self._add_results(gid, index, deal, result, seat_of, names, dealer_seat)
        if not entries:
            return
        winners = ({number: (winner, led, trump) for number, winner, led, trump in engine.trick_winners()}
                   if engine is not None else {})
        deck = rules.deck_cards
        jokers = deck.joker_mask
        joker_cards = _JOKER_CARDS.get(jokers)
        if joker_cards is None:
            joker_cards = _JOKER_CARDS[jokers] = frozenset(c for c in range(54) if jokers >> c & 1)
        plays = self.row_lists["plays"]
        tricks = self.row_lists["tricks"]
        play_row = ROWS["plays"]
        trick_row = ROWS["tricks"]
        rotations: dict[int, tuple[list[str], list[int | None]]] = {}
        """The seats of each list of players the compact tricks share, by its id."""
        for number, entry in enumerate(entries, start=1):
            # the compact record of play read as it is (a plain trick: the players
            # from the leader and the cards), the plays as objects only where made
            trick: list[tuple[str, Card, JokerDecl | None]]
            if type(entry) is tuple and len(entry) == 4:
                players, cards = entry[0], entry[1]
                if not cards:
                    continue
                leader = players[0]
                known = rotations.get(id(players))
                if known is not None and known[0] is players:
                    seats = known[1]
                else:
                    seats = [seat_of.get(p) for p in players]
                    rotations[id(players)] = (players, seats)
                trick = []
            else:
                trick = _entry_plays(entry)
                if not trick:
                    continue
                players = [play[0] for play in trick]
                cards = [play[1] for play in trick]
                leader = players[0]
                seats = [seat_of.get(p) for p in players]
            done = winners.get(number)
            winner = done[0] if done is not None else None
            tricks.append(trick_row(
                game_id=gid, deal_index=index, trick=number, leader_seat=seats[0], leader=leader,
                winner_seat=winner,
                winner=names[winner] if winner is not None and winner < len(names) else None,
                led_suit=_suit(done[1]) if done else None,
                trump_suit=_suit(done[2]) if done else None))
            if not trick and joker_cards.isdisjoint(cards):
                # a plain trick (no joker, every player a seat or not): its rows at once,
                # by position (tests/test_store_rows.py checks every column against the record)
                plays.extend([(gid, index, number, position, seats[position], card, False, None, None,
                               None, None if winner is None else seats[position] == winner,
                               None if seats[position] is not None else players[position])
                              for position, card in enumerate(cards)])
                continue
            for position, card in enumerate(cards):
                play_seat = seats[position]
                won = None if winner is None else play_seat == winner
                joker = trick[position][2] if trick else None
                if joker is None and not jokers >> card & 1:
                    # the one row built by position: a plain card, the hot loop of a load
                    # (by name it costs a third more load time); tests/test_store_rows.py
                    # checks every column of these rows against the record
                    plays.append((gid, index, number, position, play_seat, card, False, None,
                                  None, None, won, None if play_seat is not None else players[position]))
                    continue
                declared = joker.suit if joker is not None else None
                named = joker.card if joker is not None else None
                plays.append(play_row(
                    game_id=gid, deal_index=index, trick=number, position=position, seat=play_seat,
                    card=card, is_joker=deck.is_joker(card),
                    joker_mode=joker.mode if joker is not None else None,
                    joker_suit=declared, joker_card=named, won=won,
                    player=None if play_seat is not None else players[position]))

    def _add_results(self, gid: str, index: int, deal: DealRecord, result: DealResult,
                     seat_of: dict[str, int], names: list[str], dealer_seat: int | None) -> None:
        """The rows of ``deal_results``: from the result's lists by seat while it
        has them (:meth:`DealResult.seat_values`), else from its dicts by name."""
        n = len(names)
        wt, ws, wtot = result.written_taken, result.written_scores, result.written_totals
        rows = self.row_lists["deal_results"]
        row = ROWS["deal_results"]
        by_seat = result.seat_values()
        penalties = result.penalties if by_seat is None else None
        scored = not deal.replayed  # an abandoned deal scores no bid: no outcome
        for name, seat in seat_of.items():
            if by_seat is not None:
                bids, taken_list, scores, totals = by_seat
                bid = None if bids is None else bids[seat]
                taken: int | None = taken_list[seat]
                score: int | None = scores[seat]
                total: int | None = totals[seat]
                penalty: int | None = result.seat_penalty(seat)
            else:
                assert penalties is not None
                bid, taken = result.bids.get(name), result.taken.get(name)
                score, total = result.scores.get(name), result.totals.get(name)
                penalty = penalties.get(name)
            outcome = None
            if bid is not None and taken is not None and scored:
                outcome = "exact" if bid == taken else "under" if taken < bid else "over"
            position = (seat - dealer_seat - 1) % n + 1 if dealer_seat is not None else None
            rows.append(row(game_id=gid, deal_index=index, number=deal.number,
                            seat=seat, player=name, bid_position=position,
                            is_dealer=seat == dealer_seat, bid=bid, taken=taken, outcome=outcome,
                            score=score, penalty=penalty, total=total,
                            written_taken=wt.get(name) if wt else None,
                            written_score=ws.get(name) if ws else None,
                            written_total=wtot.get(name) if wtot else None))
