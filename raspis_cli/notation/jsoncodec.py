"""Game records to and from the JSON interchange of ``docs/RECORD-JSON.md``.

Writing follows the contract field for field and adds three fields of the
project: ``totals`` inside a deal (the running totals written on paper), and
``comments`` in a game and in a deal (``[{"text": "; ...", "at": "on:deal"}]``)
so that comments survive notation → JSON → notation. Reading accepts records
that carry only the contract's fields; unknown fields are kept in ``extra``
and written back. Bad JSON or a value of the wrong type is reported as a
:class:`~raspis_cli.model.diagnostics.Diagnostic` (codes ``J...``), never an
exception. Games and deals get the line and column where their object
starts.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from raspis_cli.model.cards import Card, CardError, Suit, parse_card, parse_suit
from raspis_cli.model.diagnostics import Diagnostic, syntax_error
from raspis_cli.model.lines import PAIRS_LINES
from raspis_cli.model.record import (
    NO_TRUMP,
    DealRecord,
    GameRecord,
    JokerDecl,
    PenaltyRecord,
    PlayRecord,
    Pos,
    TrumpValue,
    bound_numbers,
)
from raspis_cli.notation.reader import ReadResult
from raspis_cli.notation.tokens import KIND_WORDS
from raspis_cli.notation.writer import bidding_order
from raspis_cli.rules import OPTIONS
from raspis_cli.rules.options import OptionError
from raspis_cli.text.i18n import N_
from raspis_cli.text.messages import Message, Quoted, layout, message_of, msg

__all__ = [
    "FORMAT",
    "JsonGamesWriter",
    "game_to_json",
    "game_to_jsonl_line",
    "games_to_json_text",
    "games_to_jsonl_text",
    "game_from_json",
    "read_json_text",
    "read_jsonl_text",
    "iter_jsonl_games",
    "JsonRecordError",
]

FORMAT = "raspis/1"

_GAME_KEYS = ("format", "tags", "rules", "players", "deals", "totals", "unfinished", "comments")
_DEAL_KEYS = ("number", "kind", "dealer", "cards", "trump", "hands", "bids", "bid_order", "tricks",
              *(kind.field for kind in PAIRS_LINES[1:]), "penalties", "replayed", "comments")


class JsonRecordError(ValueError):
    """A JSON value that is not a game record; ``path`` says where (``deals[3].cards``)."""

    def __init__(self, path: str, message: Message, pos: Pos | None = None) -> None:
        self.path = path
        self.pos = pos
        self.message = message
        """What is wrong, without the path."""
        super().__init__(layout("{path}: {message}", path=path, message=message) if path else message)


# --- writing -----------------------------------------------------------------


def _option_json(name: str, value: object) -> object:
    spec = OPTIONS.get(name)
    if spec is not None:
        try:
            return spec.to_json(spec.read(value))
        except (OptionError, TypeError, ValueError):
            pass
    return value


def _trump_json(trump: TrumpValue) -> str | None:
    if trump is NO_TRUMP:
        return None
    if isinstance(trump, Suit):
        return trump.name
    assert isinstance(trump, Card)
    return trump.code


def _comments_json(texts: list[str], anchors: list[str], default: str) -> list[dict[str, str]]:
    return [{"text": t, "at": anchors[i] if i < len(anchors) else default}
            for i, t in enumerate(texts)]


def deal_to_json(deal: DealRecord) -> dict[str, Any]:
    """One deal as a JSON object (docs/RECORD-JSON.md, plus ``totals``, ``comments``)."""
    out: dict[str, Any] = {"number": deal.number, "kind": deal.kind, "dealer": deal.dealer,
                           "cards": deal.cards}
    if deal.trump is not None:
        out["trump"] = _trump_json(deal.trump)
    if deal.hands is not None:
        out["hands"] = {name: [c.code for c in cards] for name, cards in deal.hands.items()}
    if deal.bids is not None:
        out["bids"] = dict(deal.bids)
    plays = deal.trick_plays()
    if plays is not None:
        tricks = []
        for trick in plays:
            entries = []
            for player, card, joker in trick:
                entry: dict[str, Any] = {"player": player, "card": card.code}
                if joker is not None:
                    entry["joker"] = joker.to_json()
                entries.append(entry)
            tricks.append(entries)
        out["tricks"] = tricks
    for kind in PAIRS_LINES[1:]:  # (bids, the first, are above with their order)
        value = getattr(deal, kind.field)
        if value is not None:
            out[kind.field] = dict(value)
    if deal.penalties is not None:
        out["penalties"] = [{"player": p.player, "points": p.points, "reason": p.reason}
                            for p in deal.penalties]
    if deal.replayed:
        out["replayed"] = True
    if deal.comments:
        out["comments"] = _comments_json(deal.comments, deal.comment_anchors, "after:deal")
    for key, value in deal.extra.items():
        out.setdefault(key, value)
    return out


def implied_bid_order(players: Sequence[str], dealer: str, bids: Mapping[str, int]) -> list[str]:
    """The order of a JSON deal's bids when it does not write ``bid_order``:
    the bidding order (left of the dealer first; docs/RECORD-JSON.md: "implied by
    the dealer, not by the object's key order"), names that are not players
    after them in their key order."""
    order = [p for p in bidding_order(players, dealer) if p in bids]
    seen = set(order)
    return order + [n for n in bids if n not in seen]


def game_to_json(game: GameRecord) -> dict[str, Any]:
    """One game as a JSON object of docs/RECORD-JSON.md. A deal whose bids were
    made in another order than the implied one (the notation can say so, a
    ``bid-order`` violation) also gets ``"bid_order": [names]``, so that the
    JSON form keeps the fact and gets the same verdict."""
    out: dict[str, Any] = {"format": FORMAT, "tags": dict(game.tags)}
    if game.rules_options:
        rules: dict[str, Any] = {}
        if game.rules_preset is not None:
            rules["preset"] = game.rules_preset
        rules["options"] = {n: _option_json(n, v) for n, v in game.rules_options.items()}
        out["rules"] = rules
    elif game.rules_preset is not None:
        out["rules"] = game.rules_preset
    out["players"] = list(game.players)
    out["deals"] = []
    for deal in game.deals:
        obj = deal_to_json(deal)
        if deal.bids and list(deal.bids) != implied_bid_order(game.players, deal.dealer, deal.bids):
            at = list(obj).index("bids") + 1
            items = list(obj.items())
            obj = dict([*items[:at], ("bid_order", list(deal.bids)), *items[at:]])
        out["deals"].append(obj)
    if game.totals is not None:
        out["totals"] = dict(game.totals)
    if game.unfinished:
        out["unfinished"] = True
    if game.comments:
        out["comments"] = _comments_json(game.comments, game.comment_anchors, "start")
    for key, value in game.extra.items():
        out.setdefault(key, value)
    return out


class JsonGamesWriter:
    """Games written one at a time as a ``.json`` file: one game as one
    object, several as a list (two-space indent), byte for byte what
    :func:`games_to_json_text` writes for them all; ``write`` receives the
    text piece by piece, so memory holds one game at a time."""

    def __init__(self, write: Callable[[str], object]) -> None:
        self.write = write
        self.count = 0
        self.first: str | None = None

    def add(self, game: GameRecord) -> None:
        """Write one more game."""
        text = json.dumps(game_to_json(game), ensure_ascii=False, indent=2)
        if self.count == 0:
            self.first = text  # one game alone is not a list: wait for a second
        else:
            if self.first is not None:
                self.write("[\n" + _in_list(self.first))
                self.first = None
            self.write(",\n" + _in_list(text))
        self.count += 1

    def close(self) -> None:
        """Write the end (``[]`` when there was no game)."""
        if self.count == 0:
            self.write("[]\n")
        elif self.first is not None:
            self.write(self.first + "\n")
        else:
            self.write("\n]\n")


def _in_list(text: str) -> str:
    """A value's indented JSON as an item of a list (JSON strings hold no raw line break)."""
    return "  " + text.replace("\n", "\n  ")


def games_to_json_text(games: Iterable[GameRecord]) -> str:
    """A ``.json`` file: one game object, or a list when there are several (``[]`` for none)."""
    parts: list[str] = []
    writer = JsonGamesWriter(parts.append)
    for game in games:
        writer.add(game)
    writer.close()
    return "".join(parts)


def game_to_jsonl_line(game: GameRecord) -> str:
    """One line of a ``.jsonl`` file (with its line break)."""
    return json.dumps(game_to_json(game), ensure_ascii=False) + "\n"


def games_to_jsonl_text(games: Iterable[GameRecord]) -> str:
    """A ``.jsonl`` file: one game object per line."""
    return "".join(game_to_jsonl_line(g) for g in games)


# --- reading -------------------------------------------------------------------


def _shown_value(value: object) -> str:
    """A JSON value as quoted in a message: at most 60 characters of it."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _expect(value: object, kind: type | tuple[type, ...], path: str, what: str) -> Any:
    if isinstance(value, bool) and kind is int:
        raise JsonRecordError(path, msg("expected {what}, got {got}").format(what=msg(what),
                                                                          got=json.dumps(value)))
    if not isinstance(value, kind):
        raise JsonRecordError(path, msg("expected {what}, got {got}").format(what=msg(what),
                                                                          got=_shown_value(value)))
    return value


def _name_map(value: object, path: str, what: str = N_("a number")) -> dict[str, int]:
    obj = _expect(value, dict, path, N_("an object of player names"))
    return {str(k): _expect(v, int, f"{path}.{k}", what) for k, v in obj.items()}


def _card(value: object, path: str) -> Card:
    text = _expect(value, str, path, N_("a card like \"10H\""))
    try:
        return parse_card(text)
    except CardError:
        raise JsonRecordError(path, msg("expected a card like \"10H\", \"QS\" or \"RJ\", got {got}").format(
            got=_shown_value(text))) from None


def _suit(value: object, path: str) -> Suit:
    text = _expect(value, str, path, N_("a suit letter like \"H\""))
    try:
        return parse_suit(text)
    except CardError:
        raise JsonRecordError(path, msg("expected a suit letter S, C, D or H, got {got}").format(
            got=_shown_value(text))) from None


_KINDS = tuple(dict.fromkeys(KIND_WORDS.values()))


def _kind(value: object, path: str) -> str:
    text = _expect(value, str, path, N_("a kind like \"normal\""))
    if text not in _KINDS:
        raise JsonRecordError(path, msg("expected a kind of deal ({kinds}), got {got}").format(
            kinds=", ".join(_KINDS), got=_shown_value(text)))
    return str(text)


def _comments(value: object, path: str, default: str) -> tuple[list[str], list[str]]:
    texts: list[str] = []
    anchors: list[str] = []
    for i, item in enumerate(_expect(value, list, path, N_("a list of comments"))):
        if isinstance(item, str):
            text, at = item, default
        else:
            obj = _expect(item, dict, f"{path}[{i}]", N_("a comment"))
            text = _expect(obj.get("text"), str, f"{path}[{i}].text", N_("the comment's text"))
            at = _expect(obj.get("at", default), str, f"{path}[{i}].at", N_("an anchor"))
        if not text.startswith((";", "{")):
            text = "; " + text if "\n" not in text else "{" + text + "}"
        texts.append(text)
        anchors.append(at)
    return texts, anchors


def deal_from_json(obj: object, path: str = "deal", players: Sequence[str] | None = None) -> DealRecord:
    """A deal from its JSON object; raises :class:`JsonRecordError`. Its bids
    are put in the order they were made: ``bid_order`` when written, else
    the implied order (:func:`implied_bid_order`, when ``players`` are given).
    ``"tricks": []`` is the same as no tricks (no card was played: the
    notation writes nothing for it either), and an empty object of bids,
    taken, scores or totals the same as none (the notation's cells cannot
    tell them apart: a row of ``-`` reads as a row still to fill in)."""
    d = _expect(obj, dict, path, N_("a deal object"))
    for key in ("number", "kind", "dealer", "cards"):
        if key not in d:
            raise JsonRecordError(path, msg("a deal needs {key}").format(key=Quoted(key)))
    deal = DealRecord(
        number=_expect(d["number"], int, f"{path}.number", N_("a deal number")),
        kind=_kind(d["kind"], f"{path}.kind"),
        dealer=_expect(d["dealer"], str, f"{path}.dealer", N_("the dealer's name")),
        cards=_expect(d["cards"], int, f"{path}.cards", N_("a number of cards")),
    )
    if "trump" in d:
        t = d["trump"]
        if t is None:
            deal.trump = NO_TRUMP
        else:
            text = _expect(t, str, f"{path}.trump", N_("a card, a suit letter or null"))
            deal.trump = _suit(text, f"{path}.trump") if len(text) == 1 else _card(
                text, f"{path}.trump")
    if "hands" in d:
        hands = _expect(d["hands"], dict, f"{path}.hands", N_("an object of hands"))
        deal.hands = {
            str(name): [_card(c, f"{path}.hands.{name}[{i}]") for i, c in
                        enumerate(_expect(cards, list, f"{path}.hands.{name}", N_("a list of cards")))]
            for name, cards in hands.items()
        }
    if "bids" in d:
        deal.bids = _name_map(d["bids"], f"{path}.bids", N_("a bid"))
        if "bid_order" in d:
            order = [_expect(n, str, f"{path}.bid_order[{i}]", N_("a player name"))
                     for i, n in enumerate(_expect(d["bid_order"], list, f"{path}.bid_order",
                                                   N_("a list of the names in \"bids\"")))]
            if sorted(order) != sorted(deal.bids) or len(set(order)) != len(order):
                raise JsonRecordError(f"{path}.bid_order", msg("must list each name of \"bids\" once"))
            deal.bids = {n: deal.bids[n] for n in order}
        elif players is not None:
            deal.bids = {n: deal.bids[n] for n in implied_bid_order(players, deal.dealer, deal.bids)}
        deal.bids = deal.bids or None
    elif "bid_order" in d:
        raise JsonRecordError(f"{path}.bid_order", msg("there is no \"bids\" to order"))
    if d.get("tricks") == []:
        pass  # no tricks written
    elif "tricks" in d:
        tricks = []
        for i, trick in enumerate(_expect(d["tricks"], list, f"{path}.tricks", N_("a list of tricks"))):
            tpath = f"{path}.tricks[{i}]"
            plays = []
            for j, entry in enumerate(_expect(trick, list, tpath, N_("a list of cards played"))):
                epath = f"{tpath}[{j}]"
                e = _expect(entry, dict, epath, N_("{\"player\", \"card\"}"))
                player = _expect(e.get("player"), str, f"{epath}.player", N_("a player name"))
                card = _card(e.get("card"), f"{epath}.card")
                decl = None
                if e.get("joker") is not None:
                    jo = _expect(e["joker"], dict, f"{epath}.joker", N_("a joker declaration"))
                    mode = _expect(jo.get("mode"), str, f"{epath}.joker.mode", N_("a joker mode"))
                    suit = _suit(jo["suit"], f"{epath}.joker.suit") if jo.get("suit") else None
                    jcard = _card(jo["card"], f"{epath}.joker.card") if jo.get("card") else None
                    decl = JokerDecl(mode, suit, jcard)
                plays.append(PlayRecord(player, card, decl))
            tricks.append(plays)
        deal.tricks = tricks
    for kind in PAIRS_LINES[1:]:
        if kind.field in d:
            setattr(deal, kind.field, _name_map(d[kind.field], f"{path}.{kind.field}") or None)
    if "penalties" in d:
        pens = []
        for i, p in enumerate(_expect(d["penalties"], list, f"{path}.penalties", N_("a list"))):
            ppath = f"{path}.penalties[{i}]"
            po = _expect(p, dict, ppath, N_("a penalty object"))
            pens.append(PenaltyRecord(
                _expect(po.get("player"), str, f"{ppath}.player", N_("a player name")),
                _expect(po.get("points"), int, f"{ppath}.points", N_("points")),
                _expect(po.get("reason", ""), str, f"{ppath}.reason", N_("a reason"))))
        deal.penalties = pens
    if "replayed" in d:
        deal.replayed = _expect(d["replayed"], bool, f"{path}.replayed", N_("true or false"))
    if "comments" in d:
        deal.comments, deal.comment_anchors = _comments(d["comments"], f"{path}.comments",
                                                        "after:deal")
    deal.extra = {k: v for k, v in d.items() if k not in _DEAL_KEYS}
    return deal


def game_from_json(obj: object, path: str = "") -> GameRecord:
    """A game from its JSON object; raises :class:`JsonRecordError`."""
    g = _expect(obj, dict, path or "game", N_("a game object"))
    players = [_expect(p, str, f"{path}players[{i}]", N_("a player name")) for i, p in
               enumerate(_expect(g.get("players", []), list, f"{path}players", N_("a list of names")))]
    game = GameRecord(players=players)
    tags = _expect(g.get("tags", {}), dict, f"{path}tags", N_("an object of tags"))
    game.tags = {str(k): _expect(v, str, f"{path}tags.{k}", N_("a string")) for k, v in tags.items()}
    rules = g.get("rules")
    if isinstance(rules, str):
        game.rules_preset = rules
    elif isinstance(rules, dict):
        preset = rules.get("preset")
        game.rules_preset = None if preset is None else _expect(
            preset, str, f"{path}rules.preset", N_("a preset name"))
        game.rules_options = dict(_expect(rules.get("options", {}), dict, f"{path}rules.options",
                                          N_("an object of options")))
    elif rules is not None:
        raise JsonRecordError(f"{path}rules",
                              msg("expected a preset name or {{\"preset\", \"options\"}}").format())
    game.deals = [deal_from_json(d, f"{path}deals[{i}]", players) for i, d in
                  enumerate(_expect(g.get("deals", []), list, f"{path}deals", N_("a list of deals")))]
    if "totals" in g:
        game.totals = _name_map(g["totals"], f"{path}totals")
    if "unfinished" in g:
        game.unfinished = _expect(g["unfinished"], bool, f"{path}unfinished", N_("true or false"))
    if "comments" in g:
        game.comments, game.comment_anchors = _comments(g["comments"], f"{path}comments", "start")
    game.extra = {k: v for k, v in g.items() if k not in _GAME_KEYS}
    for problem in bound_numbers(game):  # the first is enough to refuse the game
        where = f"{path}totals" if problem.key.startswith("final:") else f"{path}deals"
        raise JsonRecordError(where, problem.message)
    return game


class _Lines:
    """Line and column of offsets in a text (a sorted index of its line
    starts: each look-up is a bisection, not a count from the start)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_col(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def source(self, line: int) -> str:
        """The text of a 1-based line ("" when it is not in the text or too long to show)."""
        if not 0 < line <= len(self.starts):
            return ""
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return self.text[start:end] if end - start <= 1000 else ""


_WS = re.compile(r"[ \t\n\r]*")
_LONG_NUMBER = re.compile(r"\d{100,}")


def _decode_error(e: json.JSONDecodeError, lines: _Lines, path: str) -> Diagnostic:
    return syntax_error("J001", f"this is not valid JSON: {e.msg}", e.lineno, e.colno,
                      lines.source(e.lineno), path)


def _record_error(e: JsonRecordError, lines: _Lines, path: str, pos: Pos | None) -> Diagnostic:
    line, col = (pos.line, pos.column) if pos else (1, 1)
    return syntax_error("J002", msg("not a game record: {problem}").format(problem=message_of(e)), line, col,
                        lines.source(line), path)


def _place_deals(game: GameRecord, lines: _Lines, start: int, end: int) -> None:
    """Give deals the line of their ``"number"`` (searched in order: cheap)."""
    pos = start
    for deal in game.deals:
        m = re.compile(rf'"number"\s*:\s*{deal.number}\b').search(lines.text, pos, end)
        if m is None:
            return
        line, col = lines.line_col(m.start())
        deal.pos = Pos(line, col)
        pos = m.end()


def _iter_top(text: str) -> Iterator[tuple[object, int, int]]:
    """The games of a ``.json`` text with their offsets: one object or a list."""
    decoder = json.JSONDecoder()
    i = _WS.match(text).end()  # type: ignore[union-attr]
    if text.startswith("[", i):
        i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
        if text.startswith("]", i):
            return
        while True:
            obj, end = decoder.raw_decode(text, i)
            yield obj, i, end
            i = _WS.match(text, end).end()  # type: ignore[union-attr]
            if text.startswith(",", i):
                i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
                continue
            if text.startswith("]", i):
                i += 1
                break
            raise json.JSONDecodeError("expected ',' or ']'", text, i)
    else:
        obj, end = decoder.raw_decode(text, i)
        yield obj, i, end
        i = end
    rest = _WS.match(text, i).end()  # type: ignore[union-attr]
    if rest != len(text):
        raise json.JSONDecodeError("extra data after the JSON value", text, rest)


def read_json_text(text: str, path: str = "<json>", lines: bool = False) -> ReadResult:
    """Read a ``.json`` text: one game object or a list of them (with
    ``lines``, a ``.jsonl`` text: see :func:`read_jsonl_text`)."""
    if lines:
        return read_jsonl_text(text, path)
    if text.startswith("\ufeff"):
        text = text[1:]
    result = ReadResult()
    index_of = _Lines(text)
    is_list = text.lstrip()[:1] == "["
    index = 0
    try:
        for obj, start, end in _iter_top(text):
            line, col = index_of.line_col(start)
            try:
                game = game_from_json(obj, f"[{index}]." if index or is_list
                                      else "")
            except JsonRecordError as e:
                result.diagnostics.append(_record_error(e, index_of, path, Pos(line, col)))
            else:
                game.pos = Pos(line, col)
                game.span = (line, index_of.line_col(max(end - 1, start))[0])
                _place_deals(game, index_of, start, end)
                result.games.append(game)
            index += 1
    except json.JSONDecodeError as e:
        result.diagnostics.append(_decode_error(e, index_of, path))
    except RecursionError:
        result.diagnostics.append(syntax_error("J001", "this is not valid JSON: nested too deeply",
                                             1, 1, "", path))
    except ValueError:  # a number longer than sys.get_int_max_str_digits()
        m = _LONG_NUMBER.search(text)
        line, col = index_of.line_col(m.start()) if m else (1, 1)
        result.diagnostics.append(syntax_error(
            "J001", f"a number of {len(m.group()) if m else 'many'} digits is too long", line, col,
            index_of.source(line), path))
    return result


def read_jsonl_text(text: str, path: str = "<jsonl>") -> ReadResult:
    """Read a ``.jsonl`` text: one game object per line (blank lines skipped)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    result = ReadResult()
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")  # not splitlines(): U+2028
    result.games.extend(iter_jsonl_games(lines, path, result.diagnostics))
    return result


def iter_jsonl_games(lines: Iterable[str], path: str = "<jsonl>",
                     diagnostics: list[Diagnostic] | None = None, start: int = 1) -> Iterator[GameRecord]:
    """Yield the games of ``.jsonl`` lines one at a time; problems are
    appended to ``diagnostics``. ``start``: the number of the first line."""
    diags = diagnostics if diagnostics is not None else []
    for number, line in enumerate(lines, start):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            diags.append(syntax_error("J001", f"this is not valid JSON: {e.msg}",
                                    number, e.colno, _shown(line), path))
            continue
        except ValueError:  # a number longer than sys.get_int_max_str_digits()
            m = _LONG_NUMBER.search(line)
            diags.append(syntax_error("J001", f"a number of {len(m.group()) if m else 'many'} digits is "
                                    "too long", number, m.start() + 1 if m else 1, _shown(line), path))
            continue
        except RecursionError:
            diags.append(syntax_error("J001", "this is not valid JSON: nested too deeply",
                                    number, 1, _shown(line), path))
            continue
        try:
            game = game_from_json(obj)
        except JsonRecordError as e:
            diags.append(syntax_error("J002", msg("not a game record: {problem}").format(
                                          problem=message_of(e)), number, 1,
                                      _shown(line), path))
            continue
        game.pos = Pos(number, 1)
        game.span = (number, number)
        yield game


def _shown(line: str) -> str:
    """A source line as shown under a diagnostic: long lines are not repeated."""
    return line if len(line) <= 1000 else ""
