"""The double-dummy solver: its integer search kernel, the solver over engine deals, and Perfect
Information Monte Carlo bid advice over it.
"""
