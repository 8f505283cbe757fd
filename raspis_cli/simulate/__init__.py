"""Simulated games: complete, legal game records played by simple bots.

Pure library code: no I/O, no printing. :mod:`~raspis_cli.simulate.game` plays one game,
:mod:`~raspis_cli.simulate.run` many (in several processes), :mod:`~raspis_cli.simulate.club` a
club's history; :mod:`~raspis_cli.simulate.simulator` deals and has the bots of
:mod:`raspis_cli.bots` bid and play. The engine is the oracle for what
is legal and how it scores. The heuristic bots play each deal as one loop on
integers (:meth:`Simulator.play_compact`) with the engine's rule tables
(:mod:`raspis_cli.engine.trick`), its joker plays
(:meth:`Deal.legal_joker_plays`), its :func:`trick_winner` for a trick with
a joker and its :func:`~raspis_cli.engine.scoring.bid_score`; the PIMC bots
(and ``Simulator.fast_play`` off) play through the engine itself
(:class:`~raspis_cli.engine.Game`, :class:`~raspis_cli.engine.Deal`: every
bid among :meth:`Deal.legal_bids`, every card among :meth:`Deal.legal_plays`,
each applied there). ``tests/test_sim_fast.py`` holds the two to the same
games, and ``tests/test_simulate.py`` replays simulated games of every preset
through the engine and the validator: they come out clean.

>>> from raspis_cli.rules import Rules
>>> from raspis_cli.simulate.game import simulate_game
>>> game = simulate_game(Rules.preset("raspisnoy"), 4, seed=7)
>>> len(game.deals)
28

Randomness comes only from a :class:`random.Random` made from the seed, so
a seed always gives the same game. :func:`simulate_games` gives game
``i`` the seed :func:`game_seed` ``(seed, i)``, so any slice of a long run
can be made again (or made in parallel) on its own: :func:`simulated_texts`
renders a run as text in several processes, the same text for any number.
"""
