"""The score sheet at the table: a blank sheet (``raspis new``) and keeping it deal by deal (``raspis
live``).
"""
