"""Judging a record: the replay through the engine (every violation at its place), the score sheet
reconciled with what was written, and the check every judging command runs.
"""
