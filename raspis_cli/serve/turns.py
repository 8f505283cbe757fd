"""The open deal as a sequence of questions, answered with the words ``live`` reads.

:class:`Turns` walks the steps of a deal over :class:`raspis_cli.live.LiveSheet`
(the kind when the table chooses it, the cards of a free schedule, the trump,
each bid in bidding order, each taken) and says what it asks next
(:class:`Question`: the step, whose turn, the values offered, those the rules
refuse now). An answer is a word as typed at ``live``'s prompt (``2``,
``пас``, ``9h``, ``back``, ``undo``, ``; a comment``); every value goes
through the sheet's own checks. Pure: no I/O.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from raspis_cli.sheet.live import Entry, LiveSheet
from raspis_cli.text.i18n import _

__all__ = ["Question", "Turns"]

SUIT_WORDS = ("♠", "♣", "♦", "♥")
BACK = frozenset({"back", "назад"})
UNDO = frozenset({"undo", "отмена", "отменить"})
REPLAYED = frozenset({"replayed", "пересдача", "redeal"})


@dataclass(frozen=True, slots=True)
class Question:
    """What the sheet asks next: ``step`` (kind, cards, trump, bid, taken,
    revoker, over), whose turn it is, the values offered (as words to send
    back) and those of them the rules refuse now."""

    step: str
    player: str | None = None
    choices: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()


def _number(text: str) -> int | None:
    low = text.strip().lower()
    if low in ("пас", "п", "pass", "p"):
        return 0
    if low.isdigit() and len(low) < 4:
        return int(low)
    return None


class Turns:
    """The live sheet with the open deal's answers so far (to step back)."""

    def __init__(self, sheet: LiveSheet) -> None:
        self.sheet = sheet
        self.steps: list[tuple[str, str | None, str]] = []
        self.asking_revoker = False
        self.entry: Entry | None = None
        self._restart()

    # -- state ------------------------------------------------------------------

    def text(self) -> str:
        """The file's text."""
        return self.sheet.text()

    def state_key(self) -> tuple[object, ...]:
        """What the phones see of the open deal (changes bump the version)."""
        entry = self.entry
        return (tuple(self.steps), self.asking_revoker,
                tuple(entry.comments) if entry is not None else ())

    def _restart(self) -> None:
        nd = self.sheet.next_deal()
        self.entry = self.sheet.start(nd) if nd is not None else None

    def order(self) -> list[str]:
        """The bidding order of the open deal (empty when the game is over)."""
        return [] if self.entry is None else self.sheet.bidding_order(self.entry)

    def question(self) -> Question:
        """The next question of the open deal."""
        entry, sheet = self.entry, self.sheet
        if entry is None:
            return Question("over")
        if self.asking_revoker:
            return Question("revoker", choices=("-", *sheet.players))
        done = {(step, player) for step, player, _value in self.steps}
        if sheet.kind_choices(entry) and ("kind", None) not in done:
            return Question("kind", choices=sheet.kind_choices(entry))
        if entry.deal.cards == 0:
            return Question("cards", choices=tuple(str(n) for n in range(1, 13)))
        if sheet.asks_trump(entry) and entry.trump is None:
            return Question("trump", choices=(*SUIT_WORDS, "-"))
        cards = tuple(str(n) for n in range(entry.deal.cards + 1))
        order = sheet.bidding_order(entry)
        if entry.has_bids:
            for name in order:
                if name not in entry.bids:
                    forbidden = sheet.forbidden_bids(entry, name)
                    return Question("bid", name, cards, tuple(str(b) for b in forbidden))
        for name in order:
            if name not in entry.taken:
                refused = tuple(c for c in cards if sheet.taken_problem(entry, name, int(c)) is not None)
                return Question("taken", name, cards, refused)
        return Question("over")  # pragma: no cover - a complete entry is written at once

    # -- answers ----------------------------------------------------------------

    def answer(self, text: str) -> tuple[str | None, str]:
        """Take one answer: ``(None, what was done)`` or ``(why not, "")``."""
        said = text.strip()
        word = said.lower()
        entry, sheet = self.entry, self.sheet
        if said.startswith(";"):
            if entry is None:
                return _("the game is over: there is no deal to comment on"), ""
            if not said.strip(" ;"):
                return _("the comment is empty"), ""
            entry.comments.append(said)
            return None, _("comment kept for deal {number}").format(number=entry.deal.number)
        if word in UNDO:
            if self.steps or self.asking_revoker:
                return self._back()
            number = sheet.undo()
            if number is None:
                return _("nothing to undo: no deal is written yet"), ""
            self.steps = []
            self._restart()
            return None, _("deal {number} taken back; enter it again").format(number=number)
        if word in BACK:
            if not self.steps and not self.asking_revoker:
                return _("nothing to step back to in this deal"), ""
            return self._back()
        if entry is None:
            return _("the game is over: nothing more to enter"), ""
        if word in REPLAYED:
            if not sheet.rules.revoke_penalty:
                return self._replayed(None)
            self.asking_revoker = True
            return None, ""
        question = self.question()
        problem = self._take(question, said)
        if problem is not None:
            return problem, ""
        self.steps.append((question.step, question.player, said))
        return self._complete_if_done()

    def _replayed(self, revoker: str | None) -> tuple[str | None, str]:
        entry = self.entry
        assert entry is not None
        self.sheet.replay(entry, revoker)
        self.steps, self.asking_revoker = [], False
        self._restart()
        return None, _("deal {number} is replayed (пересдача): it is dealt again by {dealer}").format(
            number=entry.deal.number, dealer=entry.deal.dealer)

    def _take(self, question: Question, said: str) -> str | None:
        entry, sheet = self.entry, self.sheet
        assert entry is not None
        if question.step == "revoker":
            if said not in question.choices:
                return _("{got} is not a player: {players}, or - for nobody").format(
                    got=repr(said), players=", ".join(sheet.players))
            self._replayed(None if said == "-" else said)
            return None
        if question.step == "kind":
            got = sheet.read_kind(entry, said)
            if isinstance(got, str):
                return got
            entry.deal = dataclasses.replace(entry.deal, kind=got[0])
            return None
        if question.step == "trump":
            trump = sheet.read_trump(entry, said)
            if isinstance(trump, str):
                return trump
            entry.trump = trump
            return None
        value = _number(said)
        if question.step == "cards":
            if not value:
                return _("{got} is not a number of cards").format(got=repr(said))
            entry.deal = dataclasses.replace(entry.deal, cards=value)
            return None
        assert question.player is not None
        if question.step == "bid":
            if value is None:
                return _("{got} is not a bid: a number 0 to {cards}").format(got=repr(said),
                                                                             cards=entry.deal.cards)
            problem = sheet.bid_problem(entry, question.player, value)
            if problem is None:
                entry.bids[question.player] = value
            return problem
        if value is None:
            return _("{got} is not a number of tricks").format(got=repr(said))
        problem = sheet.taken_problem(entry, question.player, value)
        if problem is None:
            entry.taken[question.player] = value
        return problem

    def _complete_if_done(self) -> tuple[str | None, str]:
        entry = self.entry
        if entry is None or self.asking_revoker or self.question().step != "over":
            return None, ""
        result, _problems = self.sheet.complete(entry)
        self.steps = []
        self._restart()
        return None, _("deal {number} written").format(number=result.number)

    def _back(self) -> tuple[str | None, str]:
        """Take back the open deal's last answer (or leave the revoker question)."""
        if self.asking_revoker:
            self.asking_revoker = False
            return None, ""
        steps = self.steps[:-1]
        comments = list(self.entry.comments) if self.entry is not None else []
        self.steps = []
        self._restart()
        if self.entry is not None:
            self.entry.comments = comments
        for step, player, said in steps:
            problem = self._take(Question(step, player), said)
            assert problem is None, problem
            self.steps.append((step, player, said))
        return None, ""
