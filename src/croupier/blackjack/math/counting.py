"""Card-counting systems as data, and running and true counts.

A counting system gives each card a tag; the **running count** is the sum of the tags of the
cards seen (from the system's initial running count), and the **true count** is the running
count per deck still to be dealt. The systems are TOML files (the built-in ones in
``croupier/blackjack/math/systems/``, any other given by its path): a tag for every card value
A, 2-9 and T (every ten-value card), a value's tag may depend on the card's colour
(``7 = { red = 1, black = 0 }`` in Red 7), an optional ``ace_side_count`` (the aces are
counted apart and adjust the count for betting) and, for an unbalanced system, the published
initial running count. ``docs/counting.md`` describes the format.

A balanced system's true count is the running count divided by the decks remaining. An
unbalanced one (KO, Red 7) is played on its running count; its true count here is the
*balanced-equivalent* one: the running count less what the cards seen add on average,
divided by the decks remaining, so that a true count means the same shoe in every system.

This module is pure Python (no numpy): :mod:`~croupier.blackjack.math.removal` and
:mod:`~croupier.blackjack.math.indices` do the analysis.

>>> hi_lo = counting_system("hi-lo")
>>> count = Count(hi_lo, decks=6)
>>> count.see("5c 6d Th 2s 3h 4c")
>>> count.running, count.cards_seen, round(count.true, 3)
(4.0, 6, 0.68)
>>> sorted(SYSTEMS)
['halves', 'hi-lo', 'hi-opt-1', 'hi-opt-2', 'ko', 'omega-2', 'red-7', 'zen']
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from croupier.blackjack.values import card_value
from croupier.cards.card import Card, Suit, parse_cards
from croupier.errors import CroupierError

__all__ = ["SYSTEMS", "VALUES", "Count", "CountingSystem", "counting_system", "load_system"]

VALUES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
"""Card values in tag order: ``tags[0]`` is the ace's, ``tags[9]`` every ten-value card's."""

_ALIASES = {"10": "T"}
_DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
_RED = (Suit.DIAMONDS, Suit.HEARTS)
_MAX_TAG = 100.0


@dataclass(frozen=True)
class CountingSystem:
    """One counting system: a tag per card value (and colour), as data.

    >>> ko = counting_system("ko")
    >>> ko.balanced, ko.imbalance, ko.initial_running_count(6)
    (False, 4.0, -20.0)
    >>> counting_system("red-7").tag(Card.parse("7h")), counting_system("red-7").tag(Card.parse("7s"))
    (1.0, 0.0)
    """

    name: str
    """The system's name, e.g. ``Hi-Lo``."""
    key: str
    """Its name on the command line, e.g. ``hi-lo`` (a file's stem)."""
    red: tuple[float, ...]
    """The tag of a red card of each value A, 2, ..., 9, T."""
    black: tuple[float, ...]
    """The tag of a black card of each value (the same as :attr:`red` but for a colour count)."""
    ace_side_count: float = 0.0
    """For betting: how much each ace missing from the cards seen (against the expected
    number) adds to the running count (0: no side count)."""
    irc_offset: float = 0.0
    """The initial running count is ``irc_offset + irc_per_deck * decks``."""
    irc_per_deck: float = 0.0
    """See :attr:`irc_offset`."""
    reference: str = ""
    """Where the system was published."""
    published: Mapping[str, float] = field(default_factory=dict, compare=False)
    """Figures published for it (US hole-card games), shown for comparison only."""

    @property
    def tags(self) -> tuple[float, ...]:
        """The tag of each value A, 2, ..., T, a colour-counted value's averaged over the
        colours (what the analysis, which is colour-blind, uses).

        >>> counting_system("red-7").tags[6]
        0.5
        """
        return tuple((r + b) / 2 for r, b in zip(self.red, self.black, strict=True))

    @property
    def imbalance(self) -> float:
        """What a full deck adds to the running count (0 for a balanced system).

        >>> counting_system("red-7").imbalance
        2.0
        """
        return float(sum(n * t for n, t in zip(_DECK, self.tags, strict=True)))

    @property
    def balanced(self) -> bool:
        """Whether a full deck counts to zero.

        >>> counting_system("zen").balanced
        True
        """
        return abs(self.imbalance) < 1e-9

    @property
    def betting_tags(self) -> tuple[float, ...]:
        """The tags the betting count uses: with an ace side count, an ace counts
        ``-ace_side_count * 12/13`` more and every other card ``ace_side_count/13`` more
        (the side count's adjustment, spread over the cards seen); else :attr:`tags`.

        >>> [round(t, 3) for t in counting_system("hi-opt-1").betting_tags][:3]
        [-0.923, 0.077, 1.077]
        """
        k = self.ace_side_count
        if not k:
            return self.tags
        return tuple(t + k / 13 - (k if v == 0 else 0.0) for v, t in enumerate(self.tags))

    def tag(self, card: Card) -> float:
        """The tag of one card.

        >>> counting_system("halves").tag(Card.parse("5d"))
        1.5
        """
        tags = self.red if card.suit in _RED else self.black
        return tags[card_value(card) - 1]

    def initial_running_count(self, decks: int) -> float:
        """The running count before the first card of a shoe of ``decks`` decks.

        >>> counting_system("hi-lo").initial_running_count(6), counting_system("ko").initial_running_count(1)
        (0.0, 0.0)
        """
        return float(self.irc_offset + self.irc_per_deck * decks)

    def describe(self) -> str:
        """The tags on one line.

        >>> counting_system("red-7").describe()
        'Red 7: A -1, 2 +1, 3 +1, 4 +1, 5 +1, 6 +1, 7 +1 red / 0 black, 8 0, 9 0, T -1 (unbalanced, +2 a deck)'
        """
        parts = []
        for label, r, b in zip(VALUES, self.red, self.black, strict=True):
            parts.append(
                f"{label} {_signed(r)}"
                if r == b
                else f"{label} {_signed(r)} red / {_signed(b)} black"
            )
        extra = "balanced" if self.balanced else f"unbalanced, {_signed(self.imbalance)} a deck"
        if self.ace_side_count:
            extra += f", ace side count {_signed(self.ace_side_count).lstrip('+')}"
        return f"{self.name}: {', '.join(parts)} ({extra})"


def _signed(x: float) -> str:
    text = f"{x:g}"
    return text if x <= 0 else f"+{text}"


@dataclass
class Count:
    """The running count of a shoe as its cards are seen, with the true count.

    >>> count = Count(counting_system("ko"), decks=2)
    >>> count.running                          # KO starts at 4 - 4 x decks
    -4.0
    >>> count.see("2c 3d 7h")
    >>> count.running, round(count.decks_remaining, 4), round(count.true, 4)
    (-1.0, 1.9423, 1.4257)
    """

    system: CountingSystem
    """The counting system."""
    decks: int
    """Decks in the shoe."""
    running: float = field(init=False)
    """The running count (from the system's initial running count)."""
    cards_seen: int = field(init=False, default=0)
    """Cards seen since the shuffle."""
    aces_seen: int = field(init=False, default=0)
    """Aces seen (the side count)."""

    def __post_init__(self) -> None:
        if isinstance(self.decks, bool) or not isinstance(self.decks, int) or self.decks < 1:
            raise CroupierError(f"decks is a whole number from 1, not {self.decks!r}")
        self.running = self.system.initial_running_count(self.decks)

    def see(self, cards: str | Card | Iterable[str | Card]) -> None:
        """Count the cards seen (text such as ``"As 7d"``, or cards).

        >>> count = Count(counting_system("hi-lo"), decks=1)
        >>> count.see(["Ah", "Kd"]); count.running
        -2.0
        """
        seen = (cards,) if isinstance(cards, Card) else parse_cards(cards, unique=False)
        if self.cards_seen + len(seen) > 52 * self.decks:
            raise CroupierError(
                f"a shoe of {self.decks} deck(s) has {52 * self.decks} cards: "
                f"{self.cards_seen + len(seen)} seen"
            )
        for card in seen:
            self.running += self.system.tag(card)
            self.aces_seen += card_value(card) == 1
        self.cards_seen += len(seen)

    @property
    def cards_remaining(self) -> int:
        """Cards still in the shoe."""
        return 52 * self.decks - self.cards_seen

    @property
    def decks_remaining(self) -> float:
        """Decks still in the shoe (cards remaining / 52).

        >>> Count(counting_system("hi-lo"), decks=6).decks_remaining
        6.0
        """
        return self.cards_remaining / 52

    @property
    def true(self) -> float:
        """The true count: for a balanced system the running count per deck remaining; for
        an unbalanced one the balanced-equivalent (the running count less the initial one
        and the imbalance of the cards seen, per deck remaining). NaN once the shoe is out.

        >>> count = Count(counting_system("hi-lo"), decks=6)
        >>> count.see("2c 3c 4c 5c 6c 2d 3d 4d 5d 6d 2h 3h 4h"); count.running, round(count.true, 3)
        (13.0, 2.261)
        """
        if self.cards_remaining == 0:
            return math.nan
        expected = self.system.imbalance * self.cards_seen / 52
        start = self.system.initial_running_count(self.decks)
        return (self.running - start - expected) / (self.cards_remaining / 52)

    @property
    def betting(self) -> float:
        """The running count for betting: with an ace side count, adjusted by
        ``ace_side_count`` for each ace missing from the cards seen (``cards_seen / 13``
        expected); else the running count.

        >>> count = Count(counting_system("hi-opt-1"), decks=1)
        >>> count.see("3c 4d 5h 6s 7c 8d 9h 2s 3d 4h 5s 6c 7d")   # a quarter deck, no ace
        >>> count.running, count.betting
        (8.0, 9.0)
        """
        k = self.system.ace_side_count
        return self.running + k * (self.cards_seen / 13 - self.aces_seen)


# ------------------------------------------------------------- reading systems
def _number(where: str, what: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise CroupierError(f"{where}: {what} must be a number, not {value!r}")
    if abs(value) > _MAX_TAG:
        raise CroupierError(f"{where}: {what} {value!r} is out of range (at most {_MAX_TAG:g})")
    return float(value)


def _from_data(data: Mapping[str, Any], key: str, where: str) -> CountingSystem:
    known = {"name", "reference", "tags", "ace_side_count", "initial_running_count", "published"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise CroupierError(
            f"{where}: unknown field(s) {', '.join(unknown)} (fields: {', '.join(sorted(known))})"
        )
    name = data.get("name", key)
    if not isinstance(name, str) or not name.strip():
        raise CroupierError(f"{where}: name must be a non-empty string")
    tags = data.get("tags")
    if not isinstance(tags, dict):
        raise CroupierError(f"{where}: a [tags] table is needed, with a tag for A, 2-9 and T")
    given = {_ALIASES.get(str(k).upper(), str(k).upper()): v for k, v in tags.items()}
    if len(given) != len(tags):
        raise CroupierError(f"{where}: a value is given twice in [tags] (T and 10?)")
    bad = sorted(set(given) - set(VALUES))
    if bad:
        raise CroupierError(
            f"{where}: unknown card value(s) {', '.join(bad)} in [tags] "
            "(use A, 2-9 and T for every ten-value card)"
        )
    missing = [v for v in VALUES if v not in given]
    if missing:
        raise CroupierError(f"{where}: [tags] has no tag for {', '.join(missing)}")
    red: list[float] = []
    black: list[float] = []
    for label in VALUES:
        tag = given[label]
        if isinstance(tag, dict):
            if set(tag) != {"red", "black"}:
                raise CroupierError(
                    f"{where}: the tag of {label} by colour is {{ red = ..., black = ... }}"
                )
            red.append(_number(where, f"the red {label}'s tag", tag["red"]))
            black.append(_number(where, f"the black {label}'s tag", tag["black"]))
        else:
            red.append(_number(where, f"the tag of {label}", tag))
            black.append(red[-1])
    if not any(red) and not any(black):
        raise CroupierError(f"{where}: every tag is zero: that counts nothing")
    side = _number(where, "ace_side_count", data.get("ace_side_count", 0))
    irc = data.get("initial_running_count", {})
    if not isinstance(irc, dict) or set(irc) - {"offset", "per_deck"}:
        raise CroupierError(f"{where}: [initial_running_count] takes offset and per_deck")
    published = data.get("published", {})
    if not isinstance(published, dict):
        raise CroupierError(f"{where}: [published] is a table of figures")
    figures = {str(k): _number(where, f"published {k}", v) for k, v in published.items()}
    reference = data.get("reference", "")
    if not isinstance(reference, str):
        raise CroupierError(f"{where}: reference must be a string")
    return CountingSystem(
        name=name.strip(),
        key=key,
        red=tuple(red),
        black=tuple(black),
        ace_side_count=side,
        irc_offset=_number(where, "the initial running count's offset", irc.get("offset", 0)),
        irc_per_deck=_number(where, "the initial running count per deck", irc.get("per_deck", 0)),
        reference=reference,
        published=figures,
    )


def load_system(path: str | Path) -> CountingSystem:
    """Read a counting system from a TOML file (see the module docstring); its key is the
    file's stem. A file that cannot be read or does not describe a system raises
    :class:`~croupier.errors.CroupierError` saying what is wrong.

    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "mine.toml")
    >>> _ = open(path, "w").write('[tags]\\nA = -1\\n2 = 1\\n3 = 1\\n4 = 1\\n5 = 1\\n6 = 1\\n'
    ...                           '7 = 0\\n8 = 0\\n9 = 0\\n10 = -1\\n')
    >>> load_system(path).tags == counting_system("hi-lo").tags
    True
    >>> _ = open(path, "w").write('[tags]\\nA = -1\\n')
    >>> load_system(path)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: mine.toml: [tags] has no tag for 2, 3, 4, 5, 6, 7, 8, 9, T
    """
    file = Path(path)
    try:
        with file.open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise CroupierError(f"no counting system file {str(file)!r}") from None
    except IsADirectoryError:
        raise CroupierError(f"{str(file)!r} is a folder, not a counting system file") from None
    except OSError as exc:
        raise CroupierError(f"{file}: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CroupierError(f"{file.name}: not valid TOML ({exc})") from None
    return _from_data(data, file.stem, file.name)


_ORDER = ("hi-lo", "ko", "hi-opt-1", "hi-opt-2", "omega-2", "zen", "halves", "red-7")


def _builtin() -> dict[str, CountingSystem]:
    folder = resources.files("croupier.blackjack.math") / "systems"
    found: dict[str, CountingSystem] = {}
    for entry in folder.iterdir():
        if entry.name.endswith(".toml"):
            key = entry.name.removesuffix(".toml")
            found[key] = _from_data(tomllib.loads(entry.read_text("utf-8")), key, entry.name)
    rank = {key: i for i, key in enumerate(_ORDER)}
    return {key: found[key] for key in sorted(found, key=lambda k: (rank.get(k, len(rank)), k))}


SYSTEMS: dict[str, CountingSystem] = _builtin()
"""The built-in systems by key, in this order: ``hi-lo``, ``ko``, ``hi-opt-1``, ``hi-opt-2``,
``omega-2``, ``zen``, ``halves`` (Wong Halves), ``red-7``."""


def counting_system(name: str) -> CountingSystem:
    """A built-in system by its key (any case), or a system file given by its path (a name
    ending in ``.toml``).

    >>> counting_system("Hi-Lo").name, counting_system("omega-2").tags[8]
    ('Hi-Lo', -1.0)
    >>> counting_system("hilo")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: no counting system 'hilo'; built in: hi-lo, ko, hi-opt-1, hi-opt-2, omega-2, zen, halves, red-7 (or give a .toml file)
    """
    text = str(name).strip()
    if text.lower().endswith(".toml"):
        return load_system(text)
    system = SYSTEMS.get(text.lower())
    if system is None:
        raise CroupierError(
            f"no counting system {text!r}; built in: {', '.join(SYSTEMS)} (or give a .toml file)"
        )
    return system
