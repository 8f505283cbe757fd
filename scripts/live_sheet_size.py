"""How many lines, and how wide, the sheet of `raspis live` is at a terminal.

For 3 to 6 players (raspisnoy; classic for 6), a game of 10 deals and one of
28 (3 players: 25, the schedule has 26 and a finished sheet is not reopened)
is typed through a pipe from a simulated game; then `raspis live FILE` runs in
a pseudo-terminal of each width (pexpect, tests/livekit.py), `sheet` is typed
at the first question and the lines printed up to the next one are measured
(rich's cell width). Prints a line per case; ``--show`` prints the sheets too.

    python -m scripts.live_sheet_size [--columns 80 120] [--lang en ru] [--show]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from rich.cells import cell_len

from tests.livekit import LiveDriver, cli_env, planned_game

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["Анна", "Борис", "Вера", "Дима", "Евгения", "Фёдор"]
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")
QUESTION = r"\n[^\n]*(trump|козырь|bids|заказ|kind|вид|cards each|карт)[^\n]*:"
WORDS = {"en": ("sheet", "game 1 ·"), "ru": ("расписка", "партия 1 ·")}


def preset(players: int) -> str:
    """raspisnoy takes 3 to 5 players; classic seats 6."""
    return "raspisnoy" if players <= 5 else "classic"


def write_sheet(path: Path, players: int, deals: int) -> None:
    """A sheet of ``deals`` deals (fewer when the schedule is shorter), typed through a pipe."""
    names = NAMES[:players]
    game, typed = planned_game(7, names, preset(players))
    answers: list[str] = []
    for deal in typed[:min(deals, len(typed) - 1)]:
        kind = game.deals[deal.number - 1].kind
        if kind != "normal" and preset(players) == "classic":
            answers.append(kind)  # classic leaves its specials to the table: live asks the kind
        if deal.trump is not None:
            answers.append(deal.trump)
        answers += [str(bid) for _name, bid in deal.bids] + [str(n) for _name, n in deal.taken]
    command = [sys.executable, "-m", "raspis_cli", "live", str(path), "--players", ", ".join(names),
               "--rules", preset(players), "--dealer", typed[0].dealer]
    done = subprocess.run(command,
                          input="\n".join([*answers, "quit"]) + "\n", capture_output=True, text=True,
                          env=cli_env(), cwd=ROOT, check=False)
    if done.returncode != 0:
        raise SystemExit(done.stderr)


def sheet_lines(path: Path, columns: int, lang: str) -> list[str]:
    """What `sheet` prints in a pseudo-terminal ``columns`` wide."""
    command, title = WORDS[lang]
    live = LiveDriver(path, lang=lang, columns=columns)
    live.expect(QUESTION)
    live.child.sendline(command)
    shown = ESCAPES.sub("", live.expect(QUESTION)).split("\n")
    live.child.sendline("quit")
    live.finish()
    start = next(i for i, line in enumerate(shown) if line.startswith(title))
    return [line for line in shown[start:-1] if line.strip()]


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--columns", type=int, nargs="+", default=[80, 120])
    parser.add_argument("--lang", nargs="+", default=["en", "ru"])
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for players in (3, 4, 5, 6):
            for deals in (10, 28):
                path = Path(folder) / f"g{players}-{deals}.rsp"
                write_sheet(path, players, deals)
                for lang in args.lang:
                    for columns in args.columns:
                        lines = sheet_lines(path, columns, lang)
                        widest = max(cell_len(line) for line in lines)
                        print(f"{lang} players={players} deals={deals} COLUMNS={columns}: "
                              f"{len(lines)} lines, widest {widest}")
                        if args.show:
                            print("\n".join(lines))


if __name__ == "__main__":
    main()
