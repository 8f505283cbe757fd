"""Typing a game into `raspis live` through a real pseudo-terminal (pexpect).

The game typed is a simulated one (`raspis_cli.simulate.simulator`, full play, so that
every deal has its trump): its trumps, bids in bidding order and tricks
taken, answered prompt by prompt as a scorekeeper would. Used by
tests/test_live.py and bench/live_typing.py.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pexpect

from raspis_cli.judge.replay import replay_game
from raspis_cli.model.record import NO_TRUMP, GameRecord
from raspis_cli.notation.writer import bidding_order
from raspis_cli.rules import Rules
from raspis_cli.simulate.game import simulate_game

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Анна", "Борис", "Вера", "Дима"]


@dataclass(frozen=True)
class TypedDeal:
    """What is typed for one deal."""

    number: int
    trump: str | None
    bids: list[tuple[str, int]]
    taken: list[tuple[str, int]]
    dealer: str


def planned_game(seed: int = 7, players: list[str] | None = None,
                 preset: str = "raspisnoy") -> tuple[GameRecord, list[TypedDeal]]:
    """A complete simulated game (raspisnoy, or ``preset``) and what to type for each deal."""
    names = players or PLAYERS
    game = simulate_game(Rules.preset(preset), len(names), seed, names, "full")
    result = replay_game(game)
    assert result.valid, result.problems
    typed: list[TypedDeal] = []
    for deal, done in zip(game.deals, result.deals, strict=True):
        order = bidding_order(names, deal.dealer)
        trump = None
        if deal.kind != "no-trump":
            trump = "-" if deal.trump is None or deal.trump is NO_TRUMP else str(deal.trump)
        bids = [(n, (deal.bids or {})[n]) for n in order] if deal.bids else []
        taken = [(n, done.taken[n] or 0) for n in order]
        typed.append(TypedDeal(deal.number, trump, bids, taken, deal.dealer))
    return game, typed


def cli_env() -> dict[str, str]:
    """The environment of a scorekeeper's terminal (no colour; prompt_toolkit
    told not to wait for cursor-position answers, which pexpect does not give)."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(NO_COLOR="1", TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", PYTHONIOENCODING="utf-8",
               PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""))
    return env


PROMPTS = {
    "en": {"header": r"── deal {n}\b", "done": r"deal {n} · ", "trump": r"trump( \[[^\]]*\])?:",
           "bid": r"{name}( \(dealer\))? bids \([^)]*\)( \[[^\]]*\])?:", "taken": r"{name} took[^:\n]*:",
           "deals": "28 deals"},
    "ru": {"header": r"── раздача {n}\b", "done": r"раздача {n} · ", "trump": r"козырь( \[[^\]]*\])?:",
           "bid": r"{name}( \(сдаёт\))?, заказ \([^)]*\)( \[[^\]]*\])?:", "taken": r"{name}: взято[^:\n]*:",
           "deals": "28 раздач"},
}
"""The prompts of `live` in each interface language, as regular expressions."""


class LiveDriver:
    """`raspis live FILE ARGS` in a pseudo-terminal, answered prompt by prompt
    (``lang``: the interface language, given as ``--lang``; ``columns``: the
    terminal's width)."""

    def __init__(self, path: Path, *args: str, timeout: float = 60, lang: str = "en",
                 columns: int = 120) -> None:
        self.child = pexpect.spawn(sys.executable, ["-m", "raspis_cli", "live", str(path), *args,
                                                    "--lang", lang],
                                   cwd=str(ROOT), env=cli_env(), encoding="utf-8",
                                   dimensions=(50, columns), timeout=timeout)
        # answer as soon as the prompt is there (pexpect waits 50 ms before each line by
        # default, for terminals that drop input typed too early; prompt_toolkit does not)
        self.child.delaybeforesend = None
        self.transcript: list[str] = []
        self.words = PROMPTS[lang]

    def header(self, number: int) -> str:
        """The pattern of deal ``number``'s first line."""
        return self.words["header"].format(n=number)

    def done(self, number: int) -> str:
        """The pattern of the table shown when deal ``number`` is written."""
        return self.words["done"].format(n=number)

    def trump(self) -> str:
        """The pattern of the trump question."""
        return self.words["trump"]

    def bid(self, name: str) -> str:
        """The pattern of ``name``'s bid question."""
        return self.words["bid"].replace("{name}", re.escape(name))

    def taken(self, name: str) -> str:
        """The pattern of ``name``'s count question."""
        return self.words["taken"].replace("{name}", re.escape(name))

    def expect(self, pattern: str) -> str:
        """Wait for a regular expression in the output; what came before it and the match."""
        self.child.expect(pattern)
        seen = str(self.child.before) + str(self.child.after)
        self.transcript.append(seen)
        return seen

    def answer(self, prompt: str, text: str) -> str:
        """Wait for a prompt and type an answer with Enter."""
        seen = self.expect(prompt)
        self.child.sendline(text)
        return seen

    def type_deal(self, deal: TypedDeal) -> None:
        """Answer one deal's prompts: trump, bids, taken."""
        self.expect(self.header(deal.number))
        if deal.trump is not None:
            self.answer(self.trump(), deal.trump)
        for name, bid in deal.bids:
            self.answer(self.bid(name), str(bid))
        self.type_taken(deal)

    def type_taken(self, deal: TypedDeal) -> None:
        """Answer a deal's counts, and wait for its table."""
        for k, (name, taken) in enumerate(deal.taken):
            last = k == len(deal.taken) - 1
            # the last count is offered as the default: Enter takes it
            self.answer(self.taken(name), "" if last else str(taken))
        self.expect(self.done(deal.number))

    def finish(self) -> int:
        """Wait for the end; the exit status."""
        self.child.expect(pexpect.EOF)
        self.transcript.append(str(self.child.before))
        self.child.close()
        return int(self.child.exitstatus if self.child.exitstatus is not None else -1)

    def kill(self) -> None:
        """SIGKILL the process, as a power cut or a closed laptop would."""
        self.child.kill(9)
        self.child.close(force=True)
