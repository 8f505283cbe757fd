"""Explaining a sheet: each score as a formula, the fewest corrections of a disputed sheet, and
settling up for money.
"""
