"""The tables' settings: :class:`TableConfig` (one ``[[table]]`` of the TOML file), the
tables ``croupier serve`` opens by default, and the checks of both kinds of table.

A poker table's rules are :meth:`TableConfig.rules`; a blackjack table's are
:func:`blackjack_rules` (checked by :func:`check_blackjack_config`, which
:meth:`TableConfig.check` calls for a blackjack table). The tasks that run the tables are
:mod:`croupier.server.tables` (poker, and :func:`~croupier.server.tables.make_runner`) and
:mod:`croupier.server.blackjack_table`; this module imports neither.

Blackjack settings: ``seats`` is the number of boxes (1..7), ``bot_style`` a key of
:data:`~croupier.blackjack.bots.BLACKJACK_BOTS` (the poker default ``random``, a setting
left out, means ``default``), ``wager`` the wager a bot places (default the table
minimum), ``buy_in`` defaults to 50 bot wagers, ``limits`` to the NZ rules' minimum and
maximum.

>>> config = TableConfig.from_dict({"name": "nl-1", "game": "holdem", "bots": 2})
>>> config.rules().game.name, config.seats, config.buy_in_chips()
('holdem', 6, 1000)
>>> [c.name for c in load_tables('[[table]]\\nname = "a"\\n[[table]]\\nname = "b"\\ngame = "omaha"')]
['a', 'b']
>>> check_blackjack_config(TableConfig("bj", game="blackjack", seats=5, bots=2, bot_style="gut"))
>>> check_blackjack_config(TableConfig("bj", game="blackjack", seats=8, bots=2, bot_style="gut"))
Traceback (most recent call last):
...
croupier.errors.CroupierError: table bj: a blackjack table has 1 to 7 boxes (seats), not 8
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from croupier.blackjack.bots import BLACKJACK_BOTS
from croupier.blackjack.rules import NZ, BlackjackRules, checked_rules
from croupier.errors import CroupierError
from croupier.poker.bots import BOTS
from croupier.poker.games import ForcedBets, game_by_name
from croupier.poker.settings import TableRules
from croupier.poker.structures import FixedLimit, structure_for_stakes

__all__ = [
    "DEFAULT_TABLES",
    "MAX_BOXES",
    "TableConfig",
    "blackjack_rules",
    "bot_style",
    "check_blackjack_config",
    "load_tables",
]


@dataclass(frozen=True)
class TableConfig:
    """One table as the TOML file declares it (``[[table]]``; every key but ``name`` is
    optional). ``blinds`` are the blinds (stud: ``[bring-in, small bet]``).

    >>> TableConfig("t", game="stud7").rules().blinds
    ()
    """

    name: str
    game: str = "holdem"
    structure: str = "no-limit"
    blinds: tuple[int, ...] = (5, 10)
    seats: int = 6
    bots: int = 2
    """Seats 1..bots are bots."""
    bot_style: str = "random"
    buy_in: int | None = None
    """Chips a player sits down with (default: 100 big blinds)."""
    time_bank: float = 30.0
    """Seconds a human seat has to act."""
    bot_delay: float = 0.3
    """Seconds a bot waits before acting (so people can follow the hand)."""
    play_without_humans: bool = False
    """Deal hands with bots only (else the table waits for a person to sit)."""
    seed: int | None = None
    """Seed the shuffles (tests only: a seeded deal proves nothing)."""
    on_crash: str = "resume"
    """What a restart does with the hand a crash interrupted: ``resume`` it where it
    stopped, or ``void`` it (every wager goes back)."""
    wager: int | None = None
    """Blackjack: the wager a bot places on its box (default the table minimum)."""
    limits: tuple[int, int] | None = None
    """Blackjack: the table's minimum and maximum wager (default the NZ rules')."""

    @property
    def kind(self) -> str:
        """``poker`` or ``blackjack``."""
        return "blackjack" if self.game == "blackjack" else "poker"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableConfig:
        """Build from a TOML table; unknown keys raise :class:`CroupierError`."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise CroupierError(f"unknown table setting(s): {', '.join(unknown)}")
        values = dict(data)
        for key in ("blinds", "limits"):
            if isinstance(values.get(key), list):
                values[key] = tuple(values[key])
        try:
            config = cls(**values)
        except TypeError as error:
            raise CroupierError(f"bad table setting: {error}") from None
        config.check()
        return config

    def check(self) -> None:
        """Raise :class:`CroupierError` naming the first bad setting."""
        types: dict[str, tuple[type, ...]] = {
            "name": (str,), "game": (str,), "structure": (str,), "seats": (int,),
            "bots": (int,), "bot_style": (str,), "time_bank": (int, float),
            "bot_delay": (int, float), "play_without_humans": (bool,), "on_crash": (str,),
        }  # fmt: skip
        for key, allowed in types.items():
            value = getattr(self, key)
            if not isinstance(value, allowed) or (bool not in allowed and isinstance(value, bool)):
                raise CroupierError(f"table setting {key} = {value!r} has the wrong type")
        if self.time_bank <= 0 or self.bot_delay < 0:
            raise CroupierError(f"table {self.name}: time_bank > 0 and bot_delay >= 0 seconds")
        if self.on_crash not in ("resume", "void"):
            raise CroupierError(f"table {self.name}: on_crash is 'resume' or 'void'")
        if not 0 <= self.bots <= self.seats:
            raise CroupierError(f"table {self.name}: bots must be 0..{self.seats}")
        if self.kind == "blackjack":
            check_blackjack_config(self)
            return
        if self.bot_style not in BOTS:
            raise CroupierError(f"unknown bot style {self.bot_style!r}: one of {sorted(BOTS)}")
        self.rules().validate()

    def rules(self) -> TableRules:
        """The table's rules (poker)."""
        game = game_by_name(self.game)
        big = self.blinds[-1]
        if game.forced is ForcedBets.BLINDS:
            return TableRules(game, structure_for_stakes(self.structure, big), blinds=self.blinds)
        low = self.blinds[0] if len(self.blinds) > 1 else max(1, big // 2)
        return TableRules(
            game, FixedLimit(big, 2 * big), blinds=(), ante=1, bring_in=low, table_minimum=low
        )

    def buy_in_chips(self) -> int:
        """The buy-in (default 100 big blinds)."""
        return self.buy_in if self.buy_in is not None else 100 * self.blinds[-1]


DEFAULT_TABLES = (
    TableConfig("holdem-1", "holdem", "no-limit", (5, 10), seats=6, bots=3),
    TableConfig("omaha-1", "omaha", "pot-limit", (5, 10), seats=6, bots=3),
    TableConfig("stud-1", "stud7", blinds=(5, 10), seats=6, bots=3),
    TableConfig("blackjack-1", "blackjack", seats=7, bots=3, bot_style="basic"),
)
"""The tables ``croupier serve`` opens without ``--tables``."""


def load_tables(text: str) -> list[TableConfig]:
    """The ``[[table]]`` entries of a TOML document (names must be unique)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CroupierError(f"bad tables file: {error}") from None
    configs = [TableConfig.from_dict(t) for t in data.get("table", [])]
    names = [c.name for c in configs]
    if len(set(names)) != len(names) or not configs:
        raise CroupierError("a tables file lists one or more tables with unique names")
    return configs


MAX_BOXES = 7
"""The most boxes a blackjack table has (the NZ layout)."""


def bot_style(config: TableConfig) -> str:
    """The table's bot style: ``bot_style``, the poker default ``random`` (a setting left
    out) meaning ``default``.

    >>> bot_style(TableConfig("bj", game="blackjack")), bot_style(TableConfig("bj", bot_style="gut"))
    ('default', 'gut')
    """
    return "default" if config.bot_style == "random" else config.bot_style


def blackjack_rules(config: TableConfig) -> BlackjackRules:
    """The table's rules: NZ with ``seats`` boxes and the ``limits`` (when given).

    >>> rules = blackjack_rules(TableConfig("bj", game="blackjack", seats=3, limits=(5, 500)))
    >>> rules.boxes, rules.table_minimum, rules.table_maximum
    (3, 5, 500)
    """
    changes: dict[str, object] = {"boxes": config.seats}
    if config.limits is not None:
        changes["table_minimum"], changes["table_maximum"] = config.limits
    return NZ.with_(**changes)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_blackjack_config(config: TableConfig) -> None:
    """Raise :class:`CroupierError` naming the first bad blackjack setting (the common
    ones are :meth:`TableConfig.check`'s).

    >>> check_blackjack_config(TableConfig("bj", game="blackjack", limits=(50, 20)))
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: table bj: limits = (50, 20): a minimum and a maximum wager, 1 <= minimum <= maximum
    >>> check_blackjack_config(TableConfig("bj", game="blackjack", wager=5))
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: table bj: a bot's wager of 5 is outside the table limits 10..10000
    """
    name = config.name
    if config.game != "blackjack":
        raise CroupierError(f"table {name}: game {config.game!r} is not blackjack")
    if not _whole(config.seats) or not 1 <= config.seats <= MAX_BOXES:
        raise CroupierError(
            f"table {name}: a blackjack table has 1 to {MAX_BOXES} boxes (seats), not {config.seats!r}"
        )
    if not _whole(config.bots) or not 0 <= config.bots <= config.seats:
        raise CroupierError(f"table {name}: bots must be 0..{config.seats}, not {config.bots!r}")
    style = bot_style(config)
    if style not in BLACKJACK_BOTS:
        raise CroupierError(
            f"table {name}: unknown blackjack bot style {config.bot_style!r}: "
            f"one of {sorted(BLACKJACK_BOTS)}"
        )
    limits = config.limits
    if limits is not None and (
        not isinstance(limits, tuple)
        or len(limits) != 2
        or not all(_whole(v) for v in limits)
        or not 1 <= limits[0] <= limits[1]
    ):
        raise CroupierError(
            f"table {name}: limits = {limits!r}: a minimum and a maximum wager, "
            "1 <= minimum <= maximum"
        )
    try:
        rules = checked_rules(blackjack_rules(config), strict_nz=True)
    except CroupierError as error:
        raise CroupierError(f"table {name}: {error}") from None
    wager = rules.table_minimum if config.wager is None else config.wager
    if not _whole(wager) or not rules.table_minimum <= wager <= rules.table_maximum:
        raise CroupierError(
            f"table {name}: a bot's wager of {wager!r} is outside the table limits "
            f"{rules.table_minimum}..{rules.table_maximum}"
        )
    if wager % rules.chip_unit:
        raise CroupierError(f"table {name}: a bot's wager of {wager} is not in chips")
    buy_in = 50 * wager if config.buy_in is None else config.buy_in
    if not _whole(buy_in) or buy_in < wager:
        raise CroupierError(
            f"table {name}: the buy-in {buy_in!r} must cover a bot's wager of {wager}"
        )
