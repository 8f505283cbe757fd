"""``raspis show``: one deal replayed trick by trick."""

from __future__ import annotations

from typing import Annotated

import typer

from raspis_cli.cli.app import app
from raspis_cli.cli.console import fail, safe_markup, stdout
from raspis_cli.cli.options import (
    EncodingOption,
    RecordFileArgument,
    RulesOption,
    SetOption,
    check_encoding_option,
    check_format,
    rules_choice,
)
from raspis_cli.cli.output import write_json, write_jsonl
from raspis_cli.judge.check import CheckError, deal_story, read_results
from raspis_cli.judge.replay import GameResult
from raspis_cli.judge.results import trump_label
from raspis_cli.model.cards import Card, Deck, card_text
from raspis_cli.model.deal_kinds import kind_label
from raspis_cli.model.diagnostics import Diagnostic, kind_title
from raspis_cli.model.record import DealRecord
from raspis_cli.text.i18n import _, ngettext, number

__all__ = ["show"]


def _joker_text(card: Card) -> str:
    """A joker in a hand: the card that is the joker (``joker 7♠``), or a joker of 54 cards by
    its colour (``red joker``: ``RJ`` is notation, not words)."""
    if card.is_red_or_black_joker:
        return _("red joker") if card.code == "RJ" else _("black joker")
    return _("joker {card}").format(card=card_text(card))


def _hand_text(cards: list[Card], deck: Deck) -> str:
    """A hand by suit, highest first, the joker last and named."""
    by_suit: dict[int, list[str]] = {}
    for card in sorted(cards, key=lambda c: (deck.suit_of(c) if deck.suit_of(c) is not None else 9,
                                             -c.rank)):
        suit = deck.suit_of(card)
        by_suit.setdefault(9 if suit is None else suit, []).append(
            _joker_text(card) if deck.is_joker(card) else card_text(card))
    return "  ".join(" ".join(group) for _, group in sorted(by_suit.items()))


def _print_story(result: GameResult, record: DealRecord, story: dict[str, object]) -> None:
    out = stdout.print
    trump = (_("no trump") if story["trump"] == "none" else
             _("trump {trump}").format(trump=trump_label(str(story["trump"]), _("not written"))))
    cards = ngettext("{n} card", "{n} cards", record.cards).format(n=record.cards)
    head = ["[bold]" + safe_markup(_("Deal {number}").format(number=record.number)) + "[/bold]",
            *(safe_markup(part) for part in (kind_label(record.kind), cards,
                                             _("dealer {name}").format(name=record.dealer), trump))]
    for line in _folded(_marked(head, " ·"), " · ".join(head)):
        out(line)
    hands = record.hands or {}
    if not hands and record.tricks:
        pieced: dict[str, list[Card]] = {}
        for trick in record.tricks:
            for play in trick:
                pieced.setdefault(play.player, []).append(play.card)
        hands = pieced
        out(safe_markup(_("hands (pieced together from the tricks):")))
    elif hands:
        out(safe_markup(_("hands:")))
    for name in result.record.players:
        if name in hands:
            hand = safe_markup(_hand_text(hands[name], result.rules.deck_cards))
            suits = hand.split("  ")  # a hand is written suit by suit, two spaces between
            for line in _folded([f"  {safe_markup(name)}:", *(suit + " " for suit in suits[:-1]), suits[-1]],
                                f"  {safe_markup(name)}: {hand}"):
                out(line)
    if record.bids:
        for line in _folded(*_listed(_("bids: {bids}").format(
                bids=_ITEMS.join(f"{n} {b}" for n, b in record.bids.items())))):
            out(line)
    tricks = story["tricks"]
    assert isinstance(tricks, list)
    recorded = record.tricks or []
    for trick_index, trick in enumerate(tricks):
        parts = []
        declared = {p.player: p.joker for p in (recorded[trick_index] if trick_index < len(recorded) else [])
                    if p.joker is not None}
        for play in trick["plays"]:
            card = Card.parse(play["card"])
            text = f"{play['player']} {_joker_text(card) if card.is_red_or_black_joker else card_text(card)}"
            if "declared" in play:
                decl = declared.get(str(play["player"]))
                text += f" ({decl.words() if decl is not None else play['declared']})"
            text = safe_markup(text)
            if "violations" in play:
                kinds = ", ".join(kind_title(str(v["kind"])) for v in play["violations"])
                text = f"[bold red]{text} ✗ {safe_markup(kinds)}[/bold red]"
            parts.append(text)
        winner = trick["winner"] or "?"
        taken, taken_whole = _listed("(" + _ITEMS.join(f"{n} {t}" for n, t in trick["taken"].items()) + ")")
        plays = [f"{trick['number']:>2}. " + parts[0], *parts[1:]]
        ending = f"→ [bold]{safe_markup(winner)}[/bold]"
        for line in _folded([*_marked(plays, " ·"), ending, *taken],
                            " · ".join(plays) + "  " + ending + "   " + taken_whole):
            out(line)
    if tricks:
        last = tricks[-1]["taken"]
        bids = record.bids or {}
        for line in _folded(*_listed(_("tricks taken: {taken}").format(taken=_ITEMS.join(
                f"{n} {t}" + (" " + _("(bid {bid})").format(bid=bids[n]) if n in bids else "")
                for n, t in last.items())))):
            out(line)
    problems: list[Diagnostic] = [p for p in result.problems if p.deal == record.number]
    scores = story["scores"]
    if isinstance(scores, dict):
        for line in _folded(*_listed(_("scores: {scores}").format(scores=_ITEMS.join(
                f"{n} {number(s) if isinstance(s, int) else '?'}" for n, s in scores.items())))):
            out(line)
    for problem in problems:
        if problem.trick is None:
            out(f"[red]{safe_markup(kind_title(problem.kind))}[/red]: {safe_markup(problem.message.shown())}")
    if not problems:
        out(safe_markup(_("no violations")))


def _folded(pieces: list[str], whole: str | None = None) -> list[str]:
    """Lines of markup to print: ``whole`` (default: the pieces joined by spaces) as one line
    when the output is not a terminal (a file keeps one line for each) or when it fits; in a
    narrower terminal, folded between pieces, the lines after the first indented, never cut
    inside a piece (a play, a player's figure)."""
    whole = " ".join(pieces) if whole is None else whole
    if not stdout.is_terminal:
        return [whole]
    from rich.cells import cell_len
    from rich.text import Text

    def width(markup: str) -> int:
        return cell_len(Text.from_markup(markup).plain)

    room = stdout.width
    if width(whole) <= room:
        return [whole]
    lines: list[str] = []
    line = ""
    for piece in pieces:
        joined = piece if not line else line + " " + piece
        if line and width(joined) > room:
            lines.append(line.rstrip())
            line = "    " + piece
        else:
            line = joined
    lines.append(line.rstrip())
    return lines


_ITEMS = "\x00"
"""Between the players' items of a listing line while it is made: no name holds it (the
reader refuses control characters), so the line is folded between players, never inside a
name that holds a comma."""


def _listed(text: str) -> tuple[list[str], str]:
    """A listing line made with :data:`_ITEMS` between its items (``bids: Анна 1`` ...): its
    pieces to fold between and the whole line, each as markup (``, `` between items)."""
    items = text.split(_ITEMS)
    return _marked([safe_markup(item) for item in items], ","), safe_markup(", ".join(items))


def _marked(parts: list[str], mark: str) -> list[str]:
    """Parts to fold between, each but the last followed by ``mark`` (`` ·``, ``,``)."""
    return [part + mark for part in parts[:-1]] + parts[-1:]


@app.command("show")
def show(
    file: RecordFileArgument,
    game: Annotated[int, typer.Option("--game", "-g", help=_("Game N (1-based)."), min=1, metavar="N")] = 1,
    deal: Annotated[int | None, typer.Option("--deal", "-d", help=_("Deal number (default: the first "
                                             "with tricks)."), metavar="N")] = None,
    preset: RulesOption = None,
    options: SetOption = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help=_("text, json or jsonl."),
                                     metavar="text|json|jsonl")] = "text",
    encoding: EncodingOption = None,
) -> None:
    """One deal replayed trick by trick: hands, trump, bids, every trick with
    its leader, the joker declarations in words, the winner; illegal plays marked."""
    check_format(fmt, ("text", "json", "jsonl"))
    choice = rules_choice(preset, options)
    check_encoding_option(encoding)
    try:
        [(result, _compared)] = read_results(file, choice, encoding, game)
    except CheckError as e:
        fail(str(e))
    record = result.record
    positions = [i for i, d in enumerate(record.deals) if deal is None or d.number == deal]
    if deal is None:
        with_tricks = [i for i in positions if record.deals[i].tricks]
        positions = with_tricks[:1] or positions[:1]
    if not positions and deal is None:
        fail(_("game {number} has no deals").format(number=game))
    if not positions:
        fail(_("game {number} has no deal {deal}").format(number=game, deal=deal))
    stories = [deal_story(result, i) for i in positions]
    if fmt == "json":
        write_json(stories if len(stories) > 1 else stories[0])
        return
    if fmt == "jsonl":
        write_jsonl(stories)
        return
    for i, story in zip(positions, stories, strict=True):
        _print_story(result, record.deals[i], story)
