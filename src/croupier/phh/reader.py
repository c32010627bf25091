"""Reading PHH (Poker Hand History) files: ``.phh`` (one hand) and ``.phhs`` (many).

Amounts are read exactly: TOML floats become :class:`~decimal.Decimal`, integers stay
integers; a binary float never touches a chip count.

>>> hands = loads("variant = 'NT'\\nantes = [0, 0]\\nblinds_or_straddles = [1, 2]\\n"
...               "min_bet = 2\\nstarting_stacks = [200, 200]\\nactions = ['p2 f']\\n")
>>> hands[0].variant, hands[0].fields["starting_stacks"]
('NT', [200, 200])
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from croupier.errors import CroupierError

__all__ = ["HandHistory", "PHHError", "UnsupportedVariantError", "load", "loads"]

REQUIRED: dict[str, tuple[str, ...]] = {
    "NT": ("antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions"),
    "PO": ("antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions"),
    "FT": ("antes", "blinds_or_straddles", "small_bet", "big_bet", "starting_stacks", "actions"),
    "F7S": ("antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions"),
}
"""The variants croupier plays, with their required fields (besides ``variant``)."""

KNOWN_VARIANTS = ("FT", "NT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB")
"""Every variant code of PHH 0.0.2."""

_FORBIDDEN = {
    "bring_in": ("blinds_or_straddles",),
    "min_bet": ("small_bet", "big_bet"),
}


class PHHError(CroupierError):
    """A hand history that breaks the PHH format or a rule of the game; says where.

    >>> str(PHHError("bad", where="x.phh [3]"))
    'x.phh [3]: bad'
    """

    def __init__(self, message: str, *, where: str = "", rule: str | None = None) -> None:
        self.where = where
        """File and hand (and action) where the problem is."""
        self.rule = rule
        """The rule broken, when it is a rule of the game."""
        text = f"{where}: {message}" if where else message
        if rule:
            text += f" ({rule})"
        super().__init__(text)


class UnsupportedVariantError(PHHError):
    """A PHH variant croupier does not play (razz, lowball, hi-lo, badugi, short deck).

    >>> loads("variant = 'FR'\\n")[0].check()
    Traceback (most recent call last):
    ...
    croupier.phh.reader.UnsupportedVariantError: <text>: unsupported variant 'FR': croupier plays NT, PO, FT, F7S
    """


@dataclass
class HandHistory:
    """One hand's fields, as read (``fields`` keeps every field, user fields included).

    >>> HandHistory({"variant": "NT"}, key="1").variant
    'NT'
    """

    fields: dict[str, Any]
    """Every field of the hand, amounts as int or Decimal."""
    key: str | None = None
    """The table key in a ``.phhs`` file (``"3"`` for ``[3]``), None in a ``.phh`` file."""
    source: str = ""
    """Where it was read from, for messages."""
    warnings: list[str] = field(default_factory=list)
    """Unknown fields and other tolerated oddities."""

    @property
    def variant(self) -> str:
        """The variant code."""
        return str(self.fields.get("variant", ""))

    @property
    def where(self) -> str:
        """``file [key]`` for messages."""
        return f"{self.source} [{self.key}]" if self.key is not None else self.source

    @property
    def players(self) -> int:
        """How many players were dealt in."""
        return len(self.fields.get("starting_stacks", ()))

    def check(self) -> None:
        """Check the variant and the required and forbidden fields (strict reading)."""
        variant = self.variant
        if variant == "_croupier":  # a croupier game PHH lacks: its own fields describe it
            needed = (
                "_croupier_game",
                "_croupier_structure",
                "antes",
                "starting_stacks",
                "actions",
            )
            missing = [name for name in needed if name not in self.fields]
            if missing:
                raise PHHError(f"a croupier hand needs the fields {', '.join(missing)}",
                               where=self.where)  # fmt: skip
            return
        if variant not in REQUIRED:
            if variant in KNOWN_VARIANTS or variant:
                raise UnsupportedVariantError(
                    f"unsupported variant {variant!r}: croupier plays {', '.join(REQUIRED)}",
                    where=self.where,
                )
            raise PHHError("no variant field", where=self.where)
        missing = [name for name in REQUIRED[variant] if name not in self.fields]
        if missing:
            raise PHHError(f"{variant} needs the fields {', '.join(missing)}", where=self.where)
        for present, banned in _FORBIDDEN.items():
            clash = [b for b in banned if present in self.fields and b in self.fields]
            if clash:
                raise PHHError(f"{present} cannot appear with {clash[0]}", where=self.where)
        n = self.players
        if n < 2:
            raise PHHError("a hand needs at least two starting stacks", where=self.where)
        for name in ("antes", "blinds_or_straddles", "finishing_stacks", "players", "seats"):
            if name in self.fields and len(self.fields[name]) != n:
                raise PHHError(f"{name} has {len(self.fields[name])} entries for {n} players",
                               where=self.where)  # fmt: skip
        if any(not _positive(s) for s in self.fields["starting_stacks"]):
            raise PHHError("starting stacks must be positive", where=self.where)


def _positive(value: Any) -> bool:
    return isinstance(value, int | Decimal) and value > 0


def loads(text: str, *, source: str = "<text>", multi: bool | None = None) -> list[HandHistory]:
    """Parse PHH text: one hand, or (``multi`` or tables at the top) a ``.phhs`` collection."""
    try:
        document = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"not valid TOML: {exc}", where=source) from None
    if multi is None:
        multi = bool(document) and all(isinstance(v, dict) for v in document.values())
    if not multi:
        return [HandHistory(document, None, source)]
    hands = []
    for key, value in document.items():  # document order, keys kept as written
        if not isinstance(value, dict):
            raise PHHError(f"top-level value {key!r} is not a hand table", where=source)
        hands.append(HandHistory(value, key, source))
    return hands


def load(path: str | Path) -> list[HandHistory]:
    """Read a ``.phh`` or ``.phhs`` file.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".phhs", delete=False) as f:
    ...     _ = f.write("[1]\\nvariant = 'NT'\\n\\n[7]\\nvariant = 'FR'\\n")
    >>> [h.key for h in load(f.name)]; os.unlink(f.name)
    ['1', '7']
    """
    path = Path(path)
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        raise PHHError(f"cannot read: {exc.strerror}", where=str(path)) from None
    return loads(text, source=str(path), multi=path.suffix == ".phhs")
