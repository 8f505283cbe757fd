"""How fast ``raspis simulate`` makes games, against issue 16's target.

Plays ``--games`` four-player raspisnoy games (``--seed``, every card) in
this process and writes each as canonical notation, as ``raspis simulate``
does, timing CPU (``time.process_time``) of each part, the least of
``--runs``: ``play`` (bots and the deals as integers) and ``write`` (the
notation written from the integers), game by game as the command streams
them. Prints milliseconds per game, the CPU
time 10,000 games would take, and issue 16's target for it (20 s) with
*met* or *MISSED*.

    .venv/bin/python bench/simulate_bench.py                 # 300 games, 3 runs
    .venv/bin/python bench/simulate_bench.py --profile       # and cProfile's top functions
    .venv/bin/python bench/simulate_bench.py --card-by-card  # the bots on the engine's objects
    .venv/bin/python bench/simulate_bench.py --records       # simulate_game's records, write_game
    .venv/bin/python bench/simulate_bench.py --quick         # tiny: checks the script runs

``--card-by-card`` plays every deal through the engine card by card
(``Simulator.fast_play`` off); ``--records`` makes each game's records
(:func:`simulate_game`, what the library returns and the JSON formats
write) and writes them with ``write_game``. Every way makes the same games
and the same text. Interpreter startup is not included (``raspis simulate``
adds about half a second, once).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time

from raspis_cli.notation.writer import write_game
from raspis_cli.rules import Rules
from raspis_cli.simulate.run import played_games, render_played, simulate_games
from raspis_cli.simulate.simulator import Simulator

TARGET_GAMES = 10_000
TARGET_SECONDS = 20.0


def _once(games: int, seed: int, records: bool = False) -> tuple[float, float, int]:
    """CPU seconds of playing and of writing ``games`` games, and the text's
    size: as ``raspis simulate`` does (a game made, then written, then
    dropped), or (``records``) through the records."""
    rules = Rules.preset("raspisnoy")
    clock = time.process_time
    play = write = 0.0
    size = 0
    if records:
        made = simulate_games(rules, 4, games, seed)
        for _ in range(games):
            start = clock()
            game = next(made)
            played = clock()
            size += len(write_game(game))
            written = clock()
            play += played - start
            write += written - played
        return play, write, size
    parts = played_games(rules, 4, games, seed, "full", 0, None, None, None, {})
    for _ in range(games):
        start = clock()
        head, deals = next(parts)
        played = clock()
        size += len(render_played(head, deals, "notation"))
        written = clock()
        play += played - start
        write += written - played
    return play, write, size


def main(argv: list[str] | None = None) -> int:
    """Run the measurement and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    parser.add_argument("--card-by-card", action="store_true",
                        help="the bots' card-by-card path (Simulator.fast_play off)")
    parser.add_argument("--records", action="store_true",
                        help="make the games' records (simulate_game) and write them (write_game)")
    parser.add_argument("--quick", action="store_true", help="3 games, 1 run")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.runs = 3, 1
    if args.card_by_card:
        Simulator.fast_play = False
    _once(min(args.games, 5), args.seed + 1, args.records)  # warm up: imports, caches
    best_play = best_write = float("inf")
    size = 0
    for _ in range(args.runs):
        play, write, size = _once(args.games, args.seed, args.records)
        best_play = min(best_play, play)
        best_write = min(best_write, write)
    per_game = (best_play + best_write) / args.games
    projected = per_game * TARGET_GAMES
    path = ("card by card" if args.card_by_card else "integers") + (", records" if args.records else "")
    print(f"simulate: {args.games} four-player raspisnoy games, seed {args.seed}, bots' path: {path}, "
          f"CPU, least of {args.runs}; {size / args.games / 1000:.1f} kB of notation a game")
    print("| part | CPU s | ms/game |")
    print("|---|---:|---:|")
    print(f"| play (bots, deals) | {best_play:.2f} | {best_play / args.games * 1000:.2f} |")
    print(f"| write (notation) | {best_write:.2f} | {best_write / args.games * 1000:.2f} |")
    print(f"| total | {best_play + best_write:.2f} | {per_game * 1000:.2f} |")
    verdict = "met" if projected <= TARGET_SECONDS else "MISSED"
    print(f"| {TARGET_GAMES:,} games, CPU (target <= {TARGET_SECONDS:.0f} s) | {projected:.1f} s | "
          f"{verdict} |")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        _once(args.games, args.seed, args.records)
        profile.disable()
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(25)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
