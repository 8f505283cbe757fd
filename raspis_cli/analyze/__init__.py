"""The double-dummy post-mortem of recorded deals (``raspis analyze``) and its findings in words.

This package's own names are the two the command line needs before the
solver is loaded (its options' defaults): importing it loads no solver.
"""

DEFAULT_SAMPLES = 12
"""PIMC samples per bid advice when ``--samples`` is not given: each solved to
its end, so a line stops at its 12th sample (on the README's game they name
the best bid of a run of up to 100 samples on 23 of its 27 12-card lines:
docs/benchmark.md)."""

NO_HANDS = "the hands or the play are not recorded"
"""Why a deal without its hands or its play is left out."""
