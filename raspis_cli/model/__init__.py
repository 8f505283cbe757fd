"""The shared model: cards, the kinds of line a record has, the game record itself, joker declarations,
and the diagnostic type every layer reports with.

Above :mod:`raspis_cli.text`; below the rules, the engine and the notation.
"""
