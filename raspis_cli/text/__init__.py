"""Text a person reads or types: the interface language and its catalogue, bytes decoded to lines, text
made safe for a terminal, and "did you mean".

The bottom layer: the standard library only.
"""
