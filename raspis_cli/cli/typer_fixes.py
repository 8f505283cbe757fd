"""Two mends to typer (0.2x), installed before the command line is parsed.

Help shows real metavars: a list argument is ``FILE...`` in the usage line and
in the list of arguments (typer writes ``{files}...`` and ``files... <list[str]>``).

Command-line values are taken as they are when they already have their type.
typer (0.2x) checks every parameter value through a pydantic ``TypeAdapter``;
importing pydantic and building the adapters doubles the start of every
command (about as long again as importing typer). Most values need no
checking: click has already made a string a string, an ``IntRange`` value an
int (a ``FloatRange`` value a float), a choice one of its choices. :func:`install` wraps typer's
``build_runtime_param`` so that such a value is returned at once (a choice
turned into its enum member, a folder into a ``Path``); any other value, and
so every error message, still goes through typer's own pydantic path, built
only then.

Both reach into typer's internals (``typer.core.build_runtime_param``,
``typer._coercion.RuntimeParam``, ``TyperArgument``'s display methods), which
no extension point of typer offers: pyproject bounds typer to the minor
release they were written and tested for, and ``tests/test_typer_fixes.py``
fails when :func:`install` finds them changed (:data:`TYPER_TESTED`). A user
on another typer gets typer's own behaviour: slower, ``{files}...``, never
wrong.
"""

from __future__ import annotations

import enum
import math
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union, get_args, get_origin

TYPER_TESTED = "0.29"
"""The typer minor release these mends are written and tested for (pyproject bounds typer to it)."""

MENDS = ("quick values", "metavars")
"""What :func:`install` mends on the typer it is written for."""

_mended: list[str] = []
_installed = False


def _plain(annotation: Any) -> Any:
    """``X`` for ``X | None`` / ``Optional[X]``; the annotation otherwise."""
    if get_origin(annotation) in (Union, types.UnionType):
        rest = [a for a in get_args(annotation) if a is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return annotation


def _quick(target: Any, value: Any, info: Any = None) -> tuple[bool, Any]:
    """(True, value as ``target``) when that needs no checking, else (False, None)."""
    if target is bool:
        return (True, value) if isinstance(value, bool) else (False, None)
    if target is str:
        return (True, value) if type(value) is str else (False, None)
    if target is int or target is float:
        digits = value.strip().lstrip("+-") if type(value) is str else ""
        if digits.isascii() and digits.isdigit() and len(digits) < 19:
            value = target(value)
        if type(value) is not target or (target is float and not math.isfinite(value)):
            return False, None
        low, high = getattr(info, "min", None), getattr(info, "max", None)
        if getattr(info, "clamp", False) or getattr(info, "min_open", False) \
                or getattr(info, "max_open", False) or (low is not None and value < low) \
                or (high is not None and value > high):
            return False, None
        return True, value
    if isinstance(target, type) and issubclass(target, enum.Enum):
        if isinstance(value, target):
            return True, value
        for member in target:
            if member.value == value:
                return True, member
        return False, None
    if target is Path and isinstance(value, str):
        return True, Path(value)
    return False, None


def install() -> tuple[str, ...]:
    """Wrap typer's ``build_runtime_param`` and mend the metavars (once);
    returns what is mended (:data:`MENDS` on the typer this is written for,
    less on another: its own behaviour is kept where its internals differ)."""
    global _installed
    if _installed:
        return tuple(_mended)
    _installed = True
    try:
        from typer import _coercion, core
    except ImportError:  # pragma: no cover - another typer
        return ()
    if _mend_metavars(core):
        _mended.append("metavars")
    original = getattr(core, "build_runtime_param", None)
    base = getattr(_coercion, "RuntimeParam", None)
    if original is None or base is None or not hasattr(core, "_TyperParameter"):
        return tuple(_mended)  # pragma: no cover - another typer
    build_full: Callable[[Any], Any] = original

    @dataclass(frozen=True)
    class QuickRuntimeParam(base):  # type: ignore[misc, valid-type]
        """Values that already have their type pass; the rest go to typer's own checks."""

        descriptor: Any = None
        full: list[Any] = field(default_factory=list)

        def _fallback(self) -> Any:
            if not self.full:
                self.full.append(build_full(self.descriptor))
            return self.full[0]

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            target = _plain(self.annotation)
            if get_origin(target) is list and isinstance(value, (list, tuple)):
                (item_type,) = get_args(target) or (Any,)
                items = [_quick(_plain(item_type), item, self.parameter_info) for item in value]
                if all(ok for ok, _item in items):
                    return [item for _ok, item in items]
            else:
                ok, quick = _quick(target, value, self.parameter_info)
                if ok:
                    return quick
            return self._fallback()._coerce_value(value, param=param, ctx=ctx)

    def build_runtime_param(descriptor: Any) -> Any:
        if getattr(descriptor, "file_annotation", None) is not None:
            return build_full(descriptor)
        return QuickRuntimeParam(parameter_info=descriptor.parameter_info, annotation=descriptor.annotation,
                                 descriptor=descriptor)

    core.build_runtime_param = build_runtime_param  # type: ignore[attr-defined]
    _mended.append("quick values")
    return tuple(_mended)


def _mend_metavars(core: Any) -> bool:
    """``FILE...`` rather than ``{FILE}...``; no ``<list[str]>`` beside an
    argument's metavar. False (nothing changed) on a typer without those methods."""
    argument = getattr(core, "TyperArgument", None)
    needed = ("_usage_display_name", "display_type_rich", "_rich_display_name")
    if argument is None or not all(callable(getattr(argument, name, None)) for name in needed):
        return False  # pragma: no cover - another typer
    display_type_rich = argument.display_type_rich

    def usage_name(self: Any) -> str:
        name = str(self.metavar or self.name).upper()
        if not self.required:
            name = f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")

    def help_type(self: Any, ctx: Any) -> str | None:
        if self.metavar is not None:
            return None
        return display_type_rich(self, ctx)  # type: ignore[no-any-return]

    def help_name(self: Any) -> str:
        name = str(self.metavar or self.name).upper()
        return name + ("..." if self.nargs != 1 else "")

    argument._usage_display_name = usage_name
    argument.display_type_rich = help_type
    argument._rich_display_name = help_name
    return True
