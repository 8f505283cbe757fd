"""Bots that bid and play: the heuristic policy of the simulator and the double-dummy (PIMC) bot.
"""
