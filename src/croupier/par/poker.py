"""The poker PAR sheet: the house's take per hand and per hour for each game and betting
structure, given the table's charge: a rake (a share of the pot, capped), a fee a hand
taken from the pot, and a time charge (chips a seat per period).

**Rake and fee** depend on the pots, so they are **simulated**: hands are played through
the referee (:class:`~croupier.poker.state.HandState`, which takes the rake itself, Decision
3.2-15: nothing when the hand ends in its first betting round unless the table drops
always) by a documented player model (:data:`MODELS`) at the table's stakes, every stack
reset to ``stack`` (100 big blinds) each hand and the button moving a seat a hand. The
rake a hand is reported with its 95 % interval; an hour's rake is that times the hands an
hour, an **assumed** pace (:data:`HANDS_PER_HOUR`, a typical live-dealer pace a game,
overridable). A **time charge** is exact: the charge times the seats times the periods in
an hour (and a hand's share of it at the assumed pace).

>>> charge = TableCharge(Rake(percent=Fraction(1, 20), cap=30))
>>> par = poker_par([("holdem", "no-limit")], charge=charge, players=3, hands=40,
...                 model="calling-station", seed=1)
>>> t = par.tables[0]
>>> t.rake_per_hand.value, t.rake_per_hand.source     # 3 players call 10: pot 30, 5 % of it
(Decimal('1'), 'simulated')
"""

from __future__ import annotations

import numbers
import random
import secrets
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from multiprocessing import get_context
from typing import Any

from croupier.errors import CroupierError
from croupier.par.sheet import (
    ASSUMED,
    EXACT,
    SIMULATED,
    Z95,
    Bars,
    Estimate,
    Series,
    Sheet,
    Table,
    chips,
    proportion,
)
from croupier.poker import events as ev
from croupier.poker.bots import BOTS
from croupier.poker.games import GAMES, ForcedBets
from croupier.poker.policies import POLICIES, Policy
from croupier.poker.settings import Rake, TableRules
from croupier.poker.state import HandState
from croupier.poker.structures import structure_for_stakes

__all__ = [
    "CARD_ROOM_TABLES",
    "CHUNK_HANDS",
    "HANDS_PER_HOUR",
    "MODELS",
    "STRUCTURE_NAMES",
    "PokerPar",
    "TableCharge",
    "TableResult",
    "poker_par",
    "table_rules",
]

CARD_ROOM_TABLES = (("holdem", "no-limit"), ("omaha", "pot-limit"), ("stud7", "fixed-limit"))
"""The games and structures a sheet covers by default: the card room's poker tables."""

STRUCTURE_NAMES = ("no-limit", "pot-limit", "half-pot", "fixed-limit", "spread-limit")
"""The betting structures (amounts set from the big blind, as ``croupier poker simulate``)."""

HANDS_PER_HOUR = {
    "holdem": 30,
    "omaha": 30,
    "manila": 30,
    "manila3": 30,
    "draw": 30,
    "stud5": 30,
    "stud7": 25,
}
"""The assumed pace of a live-dealt table, hands an hour, by game (an assumption the
sheet states; give the house's own figure where it has one)."""

MODELS = {
    "bot": "the card room's default bot (Monte-Carlo equity against ranges read from the "
    "action, pot odds, position, some bluffing) in every seat",
    "hand-strength": "a made-hand player in every seat: raises two pair or better, calls "
    "with a pair, an ace or a king high or a small price, folds the rest to a bet",
    "calling-station": "a calling station in every seat: checks or calls every hand to the "
    "showdown (every pot is the forced bets called round)",
    "random": "uniformly random legal actions in every seat, raises to a uniform legal "
    "amount (far bigger pots than live play)",
}
"""The player models a sheet can simulate, and what they do."""

CHUNK_HANDS = 250
"""Hands a task (one seed each, whatever the number of workers)."""


@dataclass(frozen=True)
class TableCharge:
    """What the house charges at a table: the engine's :class:`~croupier.poker.settings.Rake`
    (a share of each pot with a cap, and a fee a hand from the pot) and a time charge of
    ``time_charge`` chips a seat every ``period_minutes``.

    >>> TableCharge(time_charge=5, period_minutes=30).time_per_hour(6)
    Fraction(60, 1)
    >>> TableCharge(time_charge=-1)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: the time charge is a whole number of chips from 0, not -1
    """

    rake: Rake = field(default_factory=Rake)
    """The rake and fee taken from each pot."""
    time_charge: int = 0
    """Chips each seated player pays the house every period."""
    period_minutes: int = 30
    """The time charge's period."""

    def __post_init__(self) -> None:
        if not isinstance(self.rake, Rake):
            raise CroupierError(f"rake must be a Rake, not {self.rake!r}")
        for name, value, low in (
            ("the time charge", self.time_charge, 0),
            ("the period", self.period_minutes, 1),
        ):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
                unit = "chips" if low == 0 else "minutes"
                raise CroupierError(f"{name} is a whole number of {unit} from {low}, not {value!r}")

    @property
    def takes_anything(self) -> bool:
        """Whether the table charges anything at all.

        >>> TableCharge().takes_anything
        False
        """
        r = self.rake
        return bool(r.percent or r.per_hand or self.time_charge)

    def time_per_hour(self, seats: int) -> Fraction:
        """The time charge an hour at a table of ``seats`` players (exact)."""
        return Fraction(self.time_charge * seats * 60, self.period_minutes)

    def describe(self) -> list[tuple[str, str]]:
        """The charge as (what, plain words) pairs.

        >>> TableCharge(Rake(percent=Fraction(1, 20), cap=30)).describe()[0]
        ('Rake', '5 % of the pot, at most 30 chips, nothing if the hand ends in its first betting round')
        """
        r = self.rake
        rows = []
        if r.percent:
            text = f"{_percent(r.percent)} % of the pot"
            text += f", at most {r.cap} chips" if r.cap is not None else ", no cap"
            rows.append(("Rake", text + _drop(r)))
        if r.per_hand:
            rows.append(("Fee", f"{r.per_hand} chips a hand from the pot" + _drop(r)))
        if self.time_charge:
            rows.append(
                (
                    "Time charge",
                    f"{self.time_charge} chips a seat every {self.period_minutes} minutes",
                )
            )
        return rows or [("Charge", "none")]


def _percent(share: Fraction) -> str:
    return str(chips(share * 100, places=4))


def _drop(rake: Rake) -> str:
    if rake.no_flop_no_drop:
        return ", nothing if the hand ends in its first betting round"
    return ", taken from every hand"


def table_rules(game: str, structure: str, *, big_blind: int, rake: Rake) -> TableRules:
    """The table's rules at stakes set from the big blind, as ``croupier poker simulate``
    sets them: blinds of half and all of it (a stud game: an ante of a fifth of it, at least
    1, a bring-in of half, the table minimum), fixed-limit bets of it and twice it.

    >>> table_rules("stud7", "fixed-limit", big_blind=10, rake=Rake()).ante
    2
    >>> table_rules("holdem", "poker", big_blind=10, rake=Rake())
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: unknown betting structure 'poker': one of no-limit, pot-limit, half-pot, fixed-limit, spread-limit
    """
    if game not in GAMES:
        raise CroupierError(f"unknown game {game!r}: one of {', '.join(GAMES)}")
    if structure not in STRUCTURE_NAMES:
        raise CroupierError(
            f"unknown betting structure {structure!r}: one of {', '.join(STRUCTURE_NAMES)}"
        )
    spec = GAMES[game]
    bb = big_blind
    shape = structure_for_stakes(structure, bb)
    if spec.forced is ForcedBets.BLINDS:
        return TableRules(spec, shape, blinds=(bb // 2, bb), table_minimum=bb, rake=rake)
    return TableRules(
        spec, shape, blinds=(), ante=max(bb // 5, 1), bring_in=bb // 2, table_minimum=bb // 2,
        rake=rake,
    )  # fmt: skip


# ------------------------------------------------------------------------ simulation
def _player(model: str, rng: random.Random) -> Policy:
    if model == "bot":
        return BOTS["default"](rng)
    return POLICIES[model](rng)


_Tally = tuple[int, int, int, int, int, int, int, int, dict[int, int]]


def _chunk(args: tuple[TableRules, str, int, int, int, int]) -> _Tally:
    """Play one task's hands; (hands, rake, rake², hands raked, hands at the cap, pot, pot²,
    hands past the first betting round, hands by rake)."""
    rules, model, players, stack, hands, seed = args
    rng = random.Random(seed)
    player = _player(model, rng)  # one player in every seat: the bot's pre-flop cache is shared
    cap = rules.rake.cap
    rake_sum = rake_sq = raked = capped = pot_sum = pot_sq = later = 0
    by_rake: Counter[int] = Counter()
    for i in range(hands):
        stacks = dict.fromkeys(range(1, players + 1), stack)
        hand = HandState(rules, stacks, i % players + 1, rng=rng)
        while not hand.is_complete:
            seat = hand.legal_actions().actor
            hand.apply(player(hand.view_for(seat)).for_seat(seat))
        rake = sum(e.amount for e in hand.events if isinstance(e, ev.RakeTaken))
        pot = rake + sum(e.amount for e in hand.events if isinstance(e, ev.PotAwarded))
        rake_sum += rake
        rake_sq += rake * rake
        raked += rake > 0
        capped += cap is not None and rake == cap and rake > 0
        pot_sum += pot
        pot_sq += pot * pot
        later += hand.street > 0
        by_rake[rake] += 1
    return hands, rake_sum, rake_sq, raked, capped, pot_sum, pot_sq, later, dict(by_rake)


@dataclass(frozen=True)
class TableResult:
    """One game and structure's column of the sheet (chips; money as exact decimals).

    >>> par = poker_par([("holdem", "fixed-limit")], charge=TableCharge(time_charge=5),
    ...                 players=4, hands=10, model="calling-station", seed=2)
    >>> t = par.tables[0]
    >>> t.time_per_hour.value, t.take_per_hour.value     # 4 seats, 5 chips a half hour
    (Decimal('40'), Decimal('40'))
    """

    game: str
    """The game's name."""
    structure: str
    """The betting structure's name."""
    rules: TableRules
    """The table's rules (its rake included)."""
    charge: TableCharge
    """What the table charges."""
    seats: int
    """Players at the table."""
    hands_per_hour: int
    """The assumed pace."""
    hands: int
    """Hands simulated."""
    rake_total: int
    """Chips raked (rake and fee) over all hands."""
    rake_squares: int
    """Sum of each hand's rake squared."""
    raked_hands: int
    """Hands that paid any rake."""
    capped_hands: int
    """Hands raked at the cap."""
    pot_total: int
    """Chips in the pots (before the rake) over all hands."""
    pot_squares: int
    """Sum of each pot squared."""
    later_hands: int
    """Hands that went past the first betting round."""
    by_rake: dict[int, int]
    """Hands by chips raked."""
    seconds: float = 0.0
    """Wall time of the simulation."""

    @property
    def title(self) -> str:
        """The game and structure, for a heading."""
        return f"{GAMES[self.game].title}, {self.structure}"

    def _mean(self, total: int, squares: int) -> Estimate:
        n = self.hands
        mean = Fraction(total, n)
        var = Fraction(squares, n) - mean * mean
        half = Z95 * (max(float(var), 0.0) / n) ** 0.5 if n > 1 else 0.0
        low = max(Fraction(float(mean) - half), Fraction(0))
        return Estimate(
            chips(mean), chips(low), chips(Fraction(float(mean) + half)), SIMULATED, mean
        )

    @property
    def rake_per_hand(self) -> Estimate:
        """Chips raked a hand (rake and fee), with its 95 % interval."""
        return self._mean(self.rake_total, self.rake_squares)

    @property
    def pot_per_hand(self) -> Estimate:
        """The average pot before the rake, with its 95 % interval."""
        return self._mean(self.pot_total, self.pot_squares)

    @property
    def pace(self) -> Estimate:
        """The hands an hour (assumed)."""
        return Estimate(self.hands_per_hour, source=ASSUMED)

    def _per_hour(self, e: Estimate) -> Estimate:
        h = self.hands_per_hour
        if e.fraction is None or e.low is None or e.high is None:
            raise CroupierError("a simulated figure without its interval")
        return Estimate(
            chips(e.fraction * h), chips(Fraction(e.low) * h), chips(Fraction(e.high) * h),
            SIMULATED, e.fraction * h,
        )  # fmt: skip

    @property
    def rake_per_hour(self) -> Estimate:
        """The rake an hour at the assumed pace."""
        return self._per_hour(self.rake_per_hand)

    @property
    def time_per_hour(self) -> Estimate:
        """The time charge an hour (exact)."""
        value = self.charge.time_per_hour(self.seats)
        return Estimate(chips(value), source=EXACT, fraction=value)

    @property
    def time_per_hand(self) -> Estimate:
        """A hand's share of the time charge at the assumed pace (exact given the pace)."""
        value = self.charge.time_per_hour(self.seats) / self.hands_per_hour
        return Estimate(chips(value), source=EXACT, fraction=value)

    def _plus_time(self, e: Estimate, time: Fraction) -> Estimate:
        if e.fraction is None or e.low is None or e.high is None:
            raise CroupierError("a simulated figure without its interval")
        return Estimate(
            chips(e.fraction + time), chips(Fraction(e.low) + time),
            chips(Fraction(e.high) + time), SIMULATED, e.fraction + time,
        )  # fmt: skip

    @property
    def take_per_hand(self) -> Estimate:
        """The house's whole take a hand: rake, fee and the hand's share of the time charge."""
        return self._plus_time(
            self.rake_per_hand, self.charge.time_per_hour(self.seats) / self.hands_per_hour
        )

    @property
    def take_per_hour(self) -> Estimate:
        """The house's whole take an hour."""
        return self._plus_time(self.rake_per_hour, self.charge.time_per_hour(self.seats))

    @property
    def take_per_seat_hour(self) -> Estimate:
        """The house's take an hour for each seated player."""
        e = self.take_per_hour
        if e.fraction is None or e.low is None or e.high is None:
            raise CroupierError("a simulated figure without its interval")
        n = self.seats
        return Estimate(
            chips(e.fraction / n), chips(Fraction(e.low) / n), chips(Fraction(e.high) / n),
            SIMULATED, e.fraction / n,
        )  # fmt: skip

    def share(self, name: str) -> Estimate:
        """A share of hands: ``raked``, ``capped`` (raked at the cap) or ``later`` (past
        the first betting round)."""
        count = {"raked": self.raked_hands, "capped": self.capped_hands, "later": self.later_hands}
        if name not in count:
            raise CroupierError(f"no share named {name!r}: raked, capped, later")
        return proportion(count[name], self.hands)

    def to_json(self) -> dict[str, Any]:
        """This table's figures as strict-JSON-ready data (money as decimal strings).

        >>> par = poker_par([("holdem", "no-limit")], charge=TableCharge(time_charge=5),
        ...                 players=2, hands=4, model="calling-station", seed=3)
        >>> par.tables[0].to_json()["time_charge_per_hour"]
        {'value': '20', 'source': 'exact'}
        """
        return {
            "game": self.game,
            "title": GAMES[self.game].title,
            "structure": self.structure,
            "seats": self.seats,
            "hands": self.hands,
            "hands_per_hour": self.pace.to_json(),
            "pot_per_hand": self.pot_per_hand.to_json(),
            "rake_per_hand": self.rake_per_hand.to_json(),
            "rake_per_hour": self.rake_per_hour.to_json(),
            "time_charge_per_hour": self.time_per_hour.to_json(),
            "time_charge_per_hand": self.time_per_hand.to_json(),
            "take_per_hand": self.take_per_hand.to_json(),
            "take_per_hour": self.take_per_hour.to_json(),
            "take_per_seat_hour": self.take_per_seat_hour.to_json(),
            "hands_raked": self.share("raked").to_json(),
            "hands_at_the_cap": self.share("capped").to_json(),
            "hands_past_the_first_round": self.share("later").to_json(),
            "rake_total_chips": self.rake_total,
            "hands_by_rake": {str(r): c for r, c in sorted(self.by_rake.items())},
            "seconds": self.seconds,
        }


@dataclass(frozen=True)
class PokerPar:
    """A poker PAR sheet's figures (:func:`poker_par` makes one).

    >>> par = poker_par([("omaha", "pot-limit")], charge=TableCharge(time_charge=6),
    ...                 players=3, hands=5, model="calling-station", seed=4)
    >>> par.sheet().tables[0].header
    ('Figure', 'Omaha, pot-limit', 'How found')
    """

    tables: tuple[TableResult, ...]
    """One result a game and structure."""
    charge: TableCharge
    """What the tables charge."""
    players: int
    """Players a table."""
    big_blind: int
    """The stakes: the last blind (stud: twice the bring-in)."""
    stack: int
    """Each player's stack at the start of every hand."""
    model: str
    """The player model (:data:`MODELS`)."""
    seed: int
    """The run's seed."""
    seconds: float = 0.0
    """Wall time."""
    workers: int = 1
    """Processes used."""

    def to_json(self) -> dict[str, Any]:
        """Everything as strict-JSON-ready data.

        >>> par = poker_par([("holdem", "no-limit")], charge=TableCharge(time_charge=1),
        ...                 players=2, hands=2, model="calling-station", seed=5)
        >>> par.to_json()["charge"]["time_charge"]
        1
        """
        r = self.charge.rake
        return {
            "sheet": "poker",
            "charge": {
                "rake_percent": str(chips(r.percent * 100, places=4)),
                "rake_cap": r.cap,
                "fee_per_hand": r.per_hand,
                "no_flop_no_drop": r.no_flop_no_drop,
                "time_charge": self.charge.time_charge,
                "period_minutes": self.charge.period_minutes,
            },
            "players": self.players,
            "big_blind": self.big_blind,
            "stack": self.stack,
            "model": self.model,
            "model_description": MODELS[self.model],
            "seed": self.seed,
            "tables": [t.to_json() for t in self.tables],
            "seconds": self.seconds,
            "workers": self.workers,
            "notes": list(self._notes()),
        }

    def _notes(self) -> tuple[str, ...]:
        paces = ", ".join(f"{GAMES[t.game].title} {t.hands_per_hour}" for t in self.tables)
        return (
            "Rake and fee: simulated. Each hand is played through the referee, which takes the "
            "rake and fee from the pot as the table's charge says (Decision 3.2-15: the main "
            "pot first, rounded down to the chip unit).",
            f"Player model: {MODELS[self.model]}. The take depends on the pots, so on how the "
            "players play: a sheet is only as good as its model.",
            f"Stacks: {self.stack} chips each at the start of every hand; the button moves a "
            "seat a hand; every seat is filled.",
            f"Hands an hour (assumed): {paces}. An hour's rake is a hand's rake times this "
            "pace, so its interval is the hand's scaled; give the house's own pace with "
            "hands_per_hour (--hands-per-hour).",
            "Time charge: exact, the charge times the seated players times the periods in an "
            "hour; a hand's share of it divides by the assumed pace.",
            "Simulated figures show a 95 % interval in brackets (the normal interval of a mean; "
            "Wilson's for a share).",
        )

    def sheet(self) -> Sheet:
        """The sheet to render: facts, the take table (four tables a column group), the
        rake's distribution, charts, notes.

        >>> par = poker_par([("holdem", "no-limit")], charge=TableCharge(time_charge=1),
        ...                 players=2, hands=2, model="calling-station", seed=6)
        >>> [t.title for t in par.sheet().tables]
        ['House take', 'Chips raked a hand']
        """
        facts = [
            ("Games", "; ".join(t.title for t in self.tables)),
            ("Players a table", str(self.players)),
            ("Stakes", f"big blind {self.big_blind} (stud: bring-in {self.big_blind // 2})"),
            *self.charge.describe(),
            ("Player model", self.model),
            ("Hands simulated", ", ".join(f"{t.hands:,}" for t in self.tables)),
            ("Seed", str(self.seed)),
        ]
        tables = [
            self._take(list(self.tables[i : i + 4]), i) for i in range(0, len(self.tables), 4)
        ]
        tables.append(self._rake_table())
        return Sheet(
            title="Poker PAR sheet",
            facts=tuple(facts),
            tables=tuple(tables),
            charts=self._charts(),
            notes=self._notes(),
            data=self.to_json(),
        )

    def _take(self, group: list[TableResult], start: int) -> Table:
        figures: list[tuple[str, Callable[[TableResult], Estimate]]] = [
            ("Average pot (chips)", lambda t: t.pot_per_hand),
            ("Hands past the first betting round", lambda t: t.share("later")),
            ("Hands raked", lambda t: t.share("raked")),
            ("Hands raked at the cap", lambda t: t.share("capped")),
            ("Rake and fee a hand (chips)", lambda t: t.rake_per_hand),
            ("Hands an hour", lambda t: t.pace),
            ("Rake and fee an hour", lambda t: t.rake_per_hour),
            ("Time charge an hour", lambda t: t.time_per_hour),
            ("Time charge a hand", lambda t: t.time_per_hand),
            ("House take a hand", lambda t: t.take_per_hand),
            ("House take an hour", lambda t: t.take_per_hour),
            ("House take a seat an hour", lambda t: t.take_per_seat_hour),
        ]
        percent = {"Hands past the first betting round", "Hands raked", "Hands raked at the cap"}
        rows = []
        for label, get in figures:
            values = [get(t) for t in group]
            share = label in percent
            cells = [v.describe(percent=share, digits=1 if share else 2) for v in values]
            rows.append((label, *cells, values[0].source))
        title = "House take" if len(self.tables) <= 4 else f"House take ({start // 4 + 1})"
        return Table(
            title,
            ("Figure", *(t.title for t in group), "How found"),
            tuple(rows),
            ("Money in chips; an hour's figures at the assumed pace.",),
        )

    def _rake_table(self) -> Table:
        amounts = sorted(set().union(*(set(t.by_rake) for t in self.tables)))
        rows = tuple(
            (
                str(a),
                *(
                    proportion(t.by_rake.get(a, 0), t.hands).describe(percent=True, digits=2)
                    for t in self.tables
                ),
            )
            for a in amounts
        )
        return Table(
            "Chips raked a hand",
            ("Rake and fee (chips)", *(t.title for t in self.tables)),
            rows,
            ("Simulated share of hands, with its 95 % (Wilson) interval.",),
        )

    def _charts(self) -> tuple[Bars, ...]:
        names = tuple(t.title for t in self.tables)

        def series(name: str, get: Callable[[TableResult], Estimate]) -> Series:
            es = [get(t) for t in self.tables]
            return Series(
                name,
                tuple(float(e.value) for e in es),
                tuple(float(e.low if e.low is not None else e.value) for e in es),
                tuple(float(e.high if e.high is not None else e.value) for e in es),
            )

        parts = []
        rake = self.charge.rake
        if rake.percent or rake.per_hand:
            parts.append(series("rake and fee", lambda t: t.rake_per_hour))
        if self.charge.time_charge:
            parts.append(series("time charge", lambda t: t.time_per_hour))
        if len(parts) > 1:
            parts.append(series("total", lambda t: t.take_per_hour))
        take = Bars(
            "House take an hour",
            "",
            "chips an hour",
            names,
            tuple(parts),
            note="Rake and fee simulated (bars: 95 % interval) at the assumed hands an hour; "
            "time charge exact.",
        )
        amounts = sorted(set().union(*(set(t.by_rake) for t in self.tables)))
        spread = Bars(
            "Chips raked a hand",
            "rake and fee (chips)",
            "share of hands",
            tuple(str(a) for a in amounts),
            tuple(
                Series(t.title, tuple(t.by_rake.get(a, 0) / t.hands for a in amounts))
                for t in self.tables
            ),
            note="Simulated.",
        )
        return (take, spread)


def poker_par(
    tables: Sequence[tuple[str, str]] = CARD_ROOM_TABLES,
    *,
    charge: TableCharge,
    players: int = 6,
    big_blind: int = 10,
    stack: int | None = None,
    hands: int = 1000,
    model: str = "bot",
    hands_per_hour: int | Mapping[str, int] | None = None,
    seed: int | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> PokerPar:
    """Work out a poker PAR sheet: for each (game, structure) of ``tables``, ``hands``
    hands played by ``model`` players at ``players`` seats, stakes set from ``big_blind``
    (:func:`table_rules`), stacks of ``stack`` (100 big blinds) every hand, under the
    table's ``charge``. ``hands_per_hour``: one pace for every game, or by game (default
    :data:`HANDS_PER_HOUR`). A seed gives the same sheet with any ``workers``.

    >>> poker_par([("holdem", "no-limit")], charge=TableCharge(), hands=10)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: the table charges nothing: give a rake, a fee or a time charge
    """
    if not isinstance(charge, TableCharge):
        raise CroupierError(f"charge must be a TableCharge, not {charge!r}")
    if not charge.takes_anything:
        raise CroupierError("the table charges nothing: give a rake, a fee or a time charge")
    for name, value, low in (
        ("players", players, 2),
        ("hands", hands, 1),
        ("workers", workers, 1),
        ("big_blind", big_blind, 2),
    ):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
            raise CroupierError(f"{name} must be a whole number from {low}, not {value!r}")
    if model not in MODELS:
        raise CroupierError(f"the player model is one of {', '.join(MODELS)}, not {model!r}")
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0
    ):
        raise CroupierError(f"seed must be a whole number from 0, not {seed!r}")
    if not tables:
        raise CroupierError("give at least one game and structure")
    start_chips = stack if stack is not None else 100 * big_blind
    if (
        isinstance(start_chips, bool)
        or not isinstance(start_chips, numbers.Integral)
        or start_chips < 1
    ):
        raise CroupierError(f"stack must be a whole number of chips from 1, not {stack!r}")
    paces = _paces(hands_per_hour)
    seed = secrets.randbits(63) if seed is None else int(seed)
    started = time.perf_counter()
    results = []
    for game, structure in dict.fromkeys(tuple(t) for t in tables):
        rules = table_rules(game, structure, big_blind=big_blind, rake=charge.rake)
        if players > GAMES[game].max_players:
            raise CroupierError(f"{GAMES[game].title} seats at most {GAMES[game].max_players}")
        master = random.Random(f"croupier par {seed} {game} {structure}")
        jobs = []
        left = hands
        while left > 0:
            take = min(CHUNK_HANDS, left)
            jobs.append((rules, model, players, start_chips, take, master.randrange(2**63)))
            left -= take
        t0 = time.perf_counter()
        parts = _run(jobs, workers, progress)
        by_rake: Counter[int] = Counter()
        for part in parts:
            by_rake.update(part[8])
        sums = [sum(p[i] for p in parts) for i in range(8)]
        pace = paces.get(game, HANDS_PER_HOUR[game])
        seconds = time.perf_counter() - t0
        results.append(
            TableResult(
                game,
                structure,
                rules,
                charge,
                players,
                pace,
                *sums,
                dict(sorted(by_rake.items())),
                seconds,
            )
        )
    return PokerPar(
        tuple(results), charge, players, big_blind, start_chips, model, seed,
        time.perf_counter() - started, workers,
    )  # fmt: skip


def _paces(hands_per_hour: int | Mapping[str, int] | None) -> dict[str, int]:
    if hands_per_hour is None:
        return dict(HANDS_PER_HOUR)
    if isinstance(hands_per_hour, Mapping):
        paces = dict(HANDS_PER_HOUR)
        for game, pace in hands_per_hour.items():
            if game not in GAMES:
                raise CroupierError(f"unknown game {game!r}: one of {', '.join(GAMES)}")
            paces[game] = pace
    else:
        paces = dict.fromkeys(GAMES, hands_per_hour)
    for pace in paces.values():
        if isinstance(pace, bool) or not isinstance(pace, numbers.Integral) or pace < 1:
            raise CroupierError(f"hands an hour is a whole number from 1, not {pace!r}")
    return paces


def _run(
    jobs: list[tuple[TableRules, str, int, int, int, int]],
    workers: int,
    progress: Callable[[int], None] | None,
) -> list[_Tally]:
    parts: list[_Tally] = []
    if workers == 1 or len(jobs) == 1:
        for job in jobs:
            parts.append(_chunk(job))
            if progress:
                progress(job[4])
        return parts
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        for job, part in zip(jobs, pool.map(_chunk, jobs), strict=True):
            parts.append(part)
            if progress:
                progress(job[4])
    return parts
