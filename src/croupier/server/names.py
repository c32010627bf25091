"""Account names: what a name may be, and the key that makes two names the same.

A name is NFKC-normalised (so ``ａｌｉｃｅ`` in full-width letters is ``alice``) and is then
1 to :data:`MAX_NAME` characters of letters, digits and ``_ . -``, with at least one
letter or digit, and neither starting nor ending with punctuation. Two names are the same
account when their :func:`name_key` (the normalised name, case-folded) is the same:
``alice``, ``Alice`` and ``ALICE`` are one name. Reserved names are refused: anything that
reads as a house bot's name (``bot``, ``bot-1``, ``Bot_7``...) and the names of the room's
own roles (:data:`RESERVED`).

>>> check_name("Ann.Lee")
'Ann.Lee'
>>> name_key("ＡＮＮ")
'ann'
>>> check_name("bot-1")
Traceback (most recent call last):
...
croupier.server.names.BadNameError: the name 'bot-1' is reserved for the house's bots
>>> check_name("-ann")
Traceback (most recent call last):
...
croupier.server.names.BadNameError: a name may not start or end with punctuation: '-ann'
"""

from __future__ import annotations

import re
import unicodedata

from croupier.errors import CroupierError

__all__ = [
    "BOT_PREFIX",
    "MAX_NAME",
    "RESERVED",
    "BadNameError",
    "bot_name",
    "check_name",
    "is_bot_like",
    "is_reserved",
    "name_key",
]

MAX_NAME = 40
"""The longest name, in characters after normalisation."""

BOT_PREFIX = "bot-"
"""The house bots are named ``bot-<seat>``; no account may take such a name."""

RESERVED = frozenset({"admin", "dealer", "house", "system", "croupier", "spectator"})
"""Names of the room's own roles, refused as account names (in any case, with or without
punctuation inside)."""

_PUNCTUATION = "_.-"
_BOT_LIKE = re.compile(r"^bot(?:[_.\-]|\d|$)")
_INVISIBLE = frozenset(
    (
        *(0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0),
        *range(0x180B, 0x1810),
        *range(0xFE00, 0xFE10),
        *range(0x1D173, 0x1D17B),
        *range(0xE0100, 0xE01F0),
    )
)
"""Letters and marks that show nothing (Unicode's default-ignorable code points outside
the format characters, which are refused anyway): ``bot\u034f-1`` would look exactly
like ``bot-1``."""


class BadNameError(CroupierError):
    """A name that may not be registered; the message says why, in one line.

    >>> str(BadNameError("too long"))
    'too long'
    """


def bot_name(seat: int) -> str:
    """The name of the house bot at ``seat``.

    >>> bot_name(3)
    'bot-3'
    """
    return f"{BOT_PREFIX}{seat}"


def normalise(name: str) -> str:
    """NFKC, the form a name is kept and compared in.

    >>> normalise("ﬁsh")
    'fish'
    """
    return unicodedata.normalize("NFKC", name)


def name_key(name: str) -> str:
    """What makes two names the same account: NFKC, then case-folded.

    >>> name_key("Straße") == name_key("STRASSE")
    True
    """
    return normalise(name).casefold()


def is_reserved(name: str) -> bool:
    """Whether ``name`` reads as a house bot's or a role's name (in any case).

    >>> [is_reserved(n) for n in ("BOT-2", "bot7", "Ad.min", "bottle", "Dealer")]
    [True, True, True, False, True]
    """
    if is_bot_like(name):
        return True
    key = name_key(name)
    bare = "".join(c for c in key if c not in _PUNCTUATION)
    return key in RESERVED or bare in RESERVED


def _allowed(char: str) -> bool:
    if ord(char) in _INVISIBLE:
        return False
    return char in _PUNCTUATION or unicodedata.category(char)[0] in "LNM"


def is_bot_like(name: str) -> bool:
    """Whether ``name`` reads as a house bot's (in any case or width).

    >>> [is_bot_like(n) for n in ("bot-1", "BOT", "bot7", "bottle", "dealer")]
    [True, True, True, False, False]
    """
    return _BOT_LIKE.match(name_key(name)) is not None


def check_name(name: object) -> str:
    """The normalised name, or :class:`BadNameError` saying what is wrong with it.

    >>> check_name("a b")
    Traceback (most recent call last):
    ...
    croupier.server.names.BadNameError: a name is letters, digits and _ . - only: ' ' is not allowed in 'a b'
    >>> check_name("...")
    Traceback (most recent call last):
    ...
    croupier.server.names.BadNameError: a name needs a letter or a digit: '...'
    >>> check_name("bot\u034f-1")  # an invisible mark inside
    Traceback (most recent call last):
    ...
    croupier.server.names.BadNameError: a name is letters, digits and _ . - only: '\u034f' is not allowed in 'bot\u034f-1'
    """
    if not isinstance(name, str):
        raise BadNameError(f"a name is text, not {type(name).__name__}")
    text = normalise(name)
    if not 1 <= len(text) <= MAX_NAME:
        raise BadNameError(f"a name is 1 to {MAX_NAME} characters, not {len(text)}")
    bad = next((c for c in text if not _allowed(c)), None)
    if bad is not None:
        raise BadNameError(
            f"a name is letters, digits and _ . - only: {bad!r} is not allowed in {text!r}"
        )
    if not any(unicodedata.category(c)[0] in "LN" for c in text):
        raise BadNameError(f"a name needs a letter or a digit: {text!r}")
    if (
        text[0] in _PUNCTUATION
        or text[-1] in _PUNCTUATION
        or unicodedata.category(text[0])[0] == "M"
    ):
        raise BadNameError(f"a name may not start or end with punctuation: {text!r}")
    if is_bot_like(text):
        raise BadNameError(f"the name {text!r} is reserved for the house's bots")
    if is_reserved(text):
        raise BadNameError(f"the name {text!r} is reserved for the card room")
    return text
