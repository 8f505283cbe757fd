"""The double-dummy post-mortem of recorded deals (``raspis analyze``) and its findings in words.
"""
