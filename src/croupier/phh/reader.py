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
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from croupier.errors import CroupierError
from croupier.phh.variants import CROUPIER_VARIANT, KNOWN_VARIANTS, VARIANTS

__all__ = ["HandHistory", "PHHError", "UnsupportedVariantError", "decode", "load", "loads"]

REQUIRED: dict[str, tuple[str, ...]] = {code: v.required for code, v in VARIANTS.items()}
"""The variants croupier plays, with their required fields (besides ``variant``)."""

_FORBIDDEN = {
    "bring_in": ("blinds_or_straddles",),
    "min_bet": ("small_bet", "big_bet"),
}

_PER_PLAYER_AMOUNTS = ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks")
"""Arrays of one amount per player (checked: numbers, finite, never negative)."""

_POSITIVE_AMOUNTS = ("min_bet", "small_bet", "big_bet", "bring_in")
"""Single amounts that must be positive."""

MAX_DECIMAL_PLACES = 6
"""The finest amount a file may give (millionths of its unit): finer is refused, not rounded."""


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
        if variant == CROUPIER_VARIANT:  # a croupier game PHH lacks: its own fields describe it
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
        self.check_types()
        n = self.players
        if n < 2:
            raise PHHError("a hand needs at least two starting stacks", where=self.where)
        for name in ("antes", "blinds_or_straddles", "finishing_stacks", "players", "seats"):
            if name in self.fields and len(self.fields[name]) != n:
                raise PHHError(f"{name} has {len(self.fields[name])} entries for {n} players",
                               where=self.where)  # fmt: skip
        for i, stack in enumerate(self.fields["starting_stacks"], start=1):
            if stack <= 0:
                raise PHHError(f"starting stack of p{i} must be positive, got {stack}",
                               where=self.where)  # fmt: skip

    def check_types(self) -> None:
        """Check the type of every field croupier reads: ``actions`` an array of strings,
        amounts integers or decimals that are finite, not negative and not finer than
        :data:`MAX_DECIMAL_PLACES` (``inf``, an unknown stack in PHH, cannot be replayed)."""
        f = self.fields
        if "actions" in f:
            actions = f["actions"]
            if not isinstance(actions, list):
                raise PHHError(f"actions must be an array of strings, got {actions!r}",
                               where=self.where)  # fmt: skip
            for i, action in enumerate(actions, start=1):
                if not isinstance(action, str):
                    raise PHHError(f"action {i} must be a string, got {action!r}",
                                   where=self.where)  # fmt: skip
        for name in _PER_PLAYER_AMOUNTS:
            if name not in f:
                continue
            values = f[name]
            if not isinstance(values, list):
                raise PHHError(f"{name} must be an array of amounts, got {values!r}",
                               where=self.where)  # fmt: skip
            for i, value in enumerate(values, start=1):
                _check_amount(value, f"{name} entry {i}", self.where)
        for name in _POSITIVE_AMOUNTS:
            if name in f:
                _check_amount(f[name], name, self.where)
                if f[name] <= 0:
                    raise PHHError(f"{name} must be positive, got {f[name]}", where=self.where)
        for name in ("players",):
            if name in f and not isinstance(f[name], list):
                raise PHHError(f"{name} must be an array, got {f[name]!r}", where=self.where)
        if "seats" in f and not isinstance(f["seats"], list):
            raise PHHError(f"seats must be an array, got {f['seats']!r}", where=self.where)
        if "ante_trimming_status" in f and not isinstance(f["ante_trimming_status"], bool):
            raise PHHError(
                f"ante_trimming_status must be true or false, got {f['ante_trimming_status']!r}",
                where=self.where,
            )


def _check_amount(value: Any, name: str, where: str) -> None:
    """An amount: an integer or a finite decimal, not negative, at most 6 decimal places."""
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise PHHError(f"{name} must be a number, got {value!r}", where=where)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise PHHError(
                f"{name} is {value}: croupier replays finite amounts only (PHH's inf means "
                "an unknown stack)",
                where=where,
            )
        exponent = value.normalize().as_tuple().exponent
        if isinstance(exponent, int) and -exponent > MAX_DECIMAL_PLACES:
            raise PHHError(
                f"{name} {value} has more than {MAX_DECIMAL_PLACES} decimal places", where=where
            )
    if value < 0:
        raise PHHError(f"{name} must not be negative, got {value}", where=where)


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
        data = path.read_bytes()
    except OSError as exc:
        raise PHHError(f"cannot read: {exc.strerror}", where=str(path)) from None
    return loads(decode(data, str(path)), source=str(path), multi=path.suffix == ".phhs")


def decode(data: bytes, source: str = "<bytes>") -> str:
    """The text of a PHH file, which must be UTF-8 (a UTF-8 byte-order mark is allowed).

    >>> decode("variant = 'NT'".encode("utf-16"), "x.phh")
    Traceback (most recent call last):
    ...
    croupier.phh.reader.PHHError: x.phh: the file is UTF-16 text; PHH files are UTF-8 (re-save it as UTF-8)
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise PHHError("the file is UTF-16 text; PHH files are UTF-8 (re-save it as UTF-8)",
                       where=source)  # fmt: skip
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PHHError(
            f"not UTF-8 text (byte {exc.start + 1} is 0x{data[exc.start]:02x}): PHH files are "
            "UTF-8 TOML",
            where=source,
        ) from None
    if "\x00" in text:
        raise PHHError("the file holds NUL bytes: it is binary, not PHH (TOML) text",
                       where=source)  # fmt: skip
    return text
