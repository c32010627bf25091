"""The showdown: reading the hands, who shows and who may muck, side pots, the odd chip
(Omaha 17.5(e)), the rake and the awards; conceding and asking to see a hand. One part of
:class:`~croupier.poker.state.HandState`: functions over the shared
:class:`~croupier.poker._core.HandCore`, each returning or logging its events.

>>> from croupier.poker import HandState, TableRules
>>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1)
>>> hand.fold(); hand.awards[0].shares
Folded(seat=2)
((1, 10),)
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.cards.card import Card
from croupier.checks import seat_number
from croupier.errors import IllegalActionError, InvalidActionError
from croupier.evaluation.composition import ANY_FIVE
from croupier.evaluation.evaluate import evaluate
from croupier.evaluation.fast import fast_tables
from croupier.evaluation.hand import HandValue
from croupier.poker import events as ev
from croupier.poker._core import Chore, HandCore, PlayerState, Stage, _malformed
from croupier.poker.pots import split_pot
from croupier.poker.settings import OddChip

__all__ = [
    "award",
    "concede",
    "evaluate_hand",
    "inspect",
    "request_show",
    "show_down",
    "verify_concede",
    "verify_request_show",
]


def evaluate_hand(core: HandCore, player: PlayerState) -> HandValue:
    """The player's hand, read with the board under the game's composition and ranking.

    >>> from croupier.cards import parse_cards
    >>> from croupier.poker import TableRules
    >>> core = HandCore(TableRules(), button=1, stacks={1: 100, 2: 100})
    >>> core.board[:] = parse_cards("2c 7d 9h Js 3s")
    >>> core.players[1].down[:] = parse_cards("As Ah")
    >>> evaluate_hand(core, core.players[1]).describe()
    'Pair of aces'
    """
    board = tuple(core.board)
    composition = core.game.composition
    ranking = core.game.ranking
    if not board or not composition.is_exact:
        own = player.cards
        if 5 <= len(own) + len(board) <= 7:
            # the best five of all the cards, as evaluate() reads them, without its checks
            # of the cards: a hand's cards are distinct cards of its game's deck
            rank = fast_tables(ranking).rank_indices([c.index for c in (*own, *board)])
            return HandValue(rank, own, board, ANY_FIVE, ranking)
        return evaluate(own, board, ranking=ranking)
    return evaluate(player.cards, board, composition=composition, ranking=ranking)


_NAMES: dict[tuple[str, int], str] = {}
"""Each hand value's name in words, by ranking and rank (a name depends on nothing else)."""


def _name(value: HandValue) -> str:
    """``value.describe()``, worked out once per rank."""
    key = (value.ranking.name, value.rank)
    name = _NAMES.get(key)
    if name is None:
        name = _NAMES[key] = value.describe()
    return name


def show_down(core: HandCore, aggressor: int | None) -> None:
    """Read the hands still in; the last aggressor shows first, then clockwise; a hand
    that cannot win may be mucked unless the rules show all (17.5(d)).

    >>> from croupier.cards import parse_cards
    >>> from croupier.poker import TableRules
    >>> core = HandCore(TableRules(), button=1, stacks={1: 100, 2: 100})
    >>> for seat, cards in ((1, "As Ah"), (2, "Kd Kc")):
    ...     core.players[seat].down[:] = parse_cards(cards)
    ...     _ = core.put(core.players[seat], 10)
    >>> core.board[:] = parse_cards("2c 7d 9h Js 3s")
    >>> show_down(core, aggressor=None)
    >>> [e.describe() for e in core.log]
    ['seat 2 shows Kd Kc (Pair of kings)', 'seat 1 shows As Ah (Pair of aces)']
    """
    live = [p for p in core.in_hand() if p.seat not in core.dead] or core.in_hand()
    for seat in sorted(core.dead):
        core.record(ev.HandMucked(seat))
    core.hands = {p.seat: evaluate_hand(core, p) for p in live}
    # 17.5(d): the called player shows first; checked through: first left of the button
    first = aggressor if aggressor in core.hands else None
    order = core.clockwise_from(core.button)
    if first is not None:
        order = [first, *[s for s in core.clockwise_from(first) if s != first]]
    winners = _pot_winners(core)
    shown: list[HandValue] = []
    for seat in [s for s in order if s in core.hands]:
        value = core.hands[seat]
        must = not shown or value >= max(shown) or seat in winners
        if must or core.rules.show_all_at_showdown:
            shown.append(value)
            core.record(ev.HandShown(seat, core.players[seat].cards, _name(value)))
        else:
            core.record(ev.HandMucked(seat))
    core.stage = Stage.AWARD


def _pot_winners(core: HandCore) -> set[int]:
    out: set[int] = set()
    for pot in core.pots:
        contenders = [s for s in pot.eligible if s in core.hands]
        if contenders:
            best = max(core.hands[s] for s in contenders)
            out.update(s for s in contenders if core.hands[s] == best)
    return out


def _return_unreachable(core: HandCore) -> None:
    """Chips no live player can win go back: when every player who covered an all-in
    player has folded, the all-in player wins only the matching amount from each other
    player (Poker definitions: All-in); the rest returns to those who put it in."""
    live = [p for p in core.players.values() if not p.folded]
    if not live or any(not p.all_in for p in live):
        return
    cap = max(p.contributed for p in live)
    for player in core.players.values():
        excess = player.contributed - cap
        if excess > 0:
            player.contributed -= excess
            player.stack += excess
            core.record(ev.BetReturned(player.seat, excess))


def _odd_chip_seat(core: HandCore, winners: Sequence[int]) -> int:
    if core.rules.odd_chip is OddChip.FIRST_LEFT_OF_BUTTON or not core.hands:
        return next(s for s in core.clockwise_from(core.button) if s in winners)

    def used(seat: int) -> tuple[Card, ...]:
        hand = core.hands[seat]
        return hand.own_cards if core.board else hand.best_five  # stud, draw: all own

    # Omaha 17.5(e): the highest card by suit among the hole cards used; a winner who
    # plays the board has none, so the fallback decides only when no winner uses one
    using = [s for s in winners if used(s)]
    if using:
        high = {s: max(used(s)) for s in using}
    else:  # Decision 3.2-12: nobody uses a hole card; the highest card of the five
        high = {s: max(core.hands[s].best_five) for s in winners}
    best = max(high.values())
    tied = [s for s, card in high.items() if card == best]  # same card: first left of button
    return next(s for s in core.clockwise_from(core.button) if s in tied)


def award(core: HandCore) -> None:
    """Pay each pot (the rake first), the odd chip by 17.5(e); the hand is then over.

    >>> from croupier.cards import parse_cards
    >>> from croupier.poker import TableRules
    >>> core = HandCore(TableRules(), button=1, stacks={1: 100, 2: 100})
    >>> for seat, cards in ((1, "As Ah"), (2, "Kd Kc")):
    ...     core.players[seat].down[:] = parse_cards(cards)
    ...     _ = core.put(core.players[seat], 10)
    >>> core.board[:] = parse_cards("2c 7d 9h Js 3s")
    >>> show_down(core, aggressor=None); award(core)
    >>> core.players[1].stack, core.stage
    (110, <Stage.DONE: 'done'>)
    """
    _return_unreachable(core)
    pots = core.pots
    saw_second_round = core.street > 0
    rake = core.rules.rake.amount(
        core.total_pot, unit=core.rules.chip_unit, saw_flop=saw_second_round
    )
    if rake:
        core.record(ev.RakeTaken(rake))
    paid: list[tuple[int, int, list[int]]] = []  # (first pot's index, chips, winners)
    for index, pot in enumerate(pots):
        amount = pot.amount
        take = min(rake, amount)
        amount -= take
        rake -= take
        contenders = [s for s in pot.eligible if not core.players[s].folded]
        claim = [s for s in contenders if s in core.hands] if core.hands else []
        if core.hands and not claim:  # every claimant conceded: their cards speak
            for seat in contenders:
                core.hands[seat] = evaluate_hand(core, core.players[seat])
            claim = contenders
        contenders = claim or contenders
        if core.hands:
            best = max(core.hands[s] for s in contenders)
            winners = [s for s in contenders if core.hands[s] == best]
        else:
            winners = contenders
        if core.rules.merge_pots_with_the_same_winners and paid and paid[-1][2] == winners:
            first, chips, _ = paid.pop()  # the same winners: one pot, divided once
            paid.append((first, chips + amount, winners))
        else:
            paid.append((index, amount, winners))
    for index, amount, winners in paid:
        odd = _odd_chip_seat(core, winners) if len(winners) > 1 else winners[0]
        shares = split_pot(amount, winners, unit=core.rules.chip_unit, odd_chip_to=odd)
        for seat, chips in shares.items():
            core.players[seat].stack += chips
        remainder = amount - min(shares.values()) * len(winners) if len(winners) > 1 else 0
        paid_out = ev.PotAwarded(
            index, amount, tuple(sorted(shares.items())), odd if remainder else None
        )
        core.awarded.append(paid_out)
        core.record(paid_out)
    for player in core.players.values():
        player.bet = 0
    core.record(ev.DealEnded(tuple((s, p.stack) for s, p in core.players.items())))
    core.stage = Stage.DONE


# ------------------------------------------------------------- conceding
def verify_concede(core: HandCore, seat: int) -> None:
    """Raise unless ``seat`` may give up its claim now: at the showdown, before the hands
    are read (a hand thrown away is dead, Poker definitions: Dead Hand).

    >>> from croupier.poker import TableRules
    >>> core = HandCore(TableRules(), button=1, stacks={1: 100, 2: 100})
    >>> verify_concede(core, 2)
    Traceback (most recent call last):
    ...
    croupier.errors.IllegalActionError: Poker definitions: Dead Hand: a hand may be conceded only at the showdown; allowed: at the showdown
    """
    if core.next_chore is not Chore.SHOWDOWN:
        raise IllegalActionError(
            "Poker definitions: Dead Hand",
            "a hand may be conceded only at the showdown",
            "at the showdown",
        )
    seat = _malformed(seat_number, seat, "a seat")
    if seat not in core.players or core.players[seat].folded:
        raise IllegalActionError(
            "Poker definitions: Dead Hand",
            f"seat {seat} is not in the showdown",
            "a seat still in the hand",
        )


def concede(core: HandCore, seat: int) -> ev.Conceded:
    """Give up the hand unshown at the showdown (driven step by step, ``automatic=False``);
    the hand can then win no pot unless every other claimant has conceded too.

    >>> from croupier.poker import TableRules
    >>> core = HandCore(TableRules(), button=1, stacks={1: 100, 2: 100})
    >>> core.stage = Stage.SHOWDOWN
    >>> concede(core, 2), core.dead
    (Conceded(seat=2), {2})
    """
    verify_concede(core, seat)
    seat = int(seat)
    core.dead.add(seat)
    event = ev.Conceded(seat)
    core.record(event)
    return event


# ------------------------------------------------------- after the showdown
def verify_request_show(core: HandCore, seat: int) -> None:
    """Raise unless ``seat``'s hand may be shown on request: any player may ask to see
    any hand in the final showdown (Omaha 17.5(d)).

    >>> from croupier.poker import TableRules
    >>> core = HandCore(TableRules(), button=1, stacks={1: 100, 2: 100})
    >>> verify_request_show(core, 2)
    Traceback (most recent call last):
    ...
    croupier.errors.IllegalActionError: Omaha 17.5(d): hands may be asked for only in the final showdown; allowed: after the showdown
    """
    if core.stage not in (Stage.AWARD, Stage.DONE) or not core.hands:
        raise IllegalActionError(
            "Omaha 17.5(d)",
            "hands may be asked for only in the final showdown",
            "after the showdown",
        )
    seat = _malformed(seat_number, seat, "a seat")
    if seat not in core.hands:
        raise IllegalActionError(
            "Omaha 17.5(d)",
            f"seat {seat} was not in the final showdown",
            f"one of seats {sorted(core.hands)}",
        )


def request_show(core: HandCore, seat: int) -> ev.HandShown:
    """Expose a showdown hand at any player's request (17.5(d)); cards speak, so the
    result stands. A hand already shown is not logged twice.

    >>> from croupier.cards import parse_cards
    >>> from croupier.poker import TableRules
    >>> core = HandCore(TableRules(), button=1, stacks={1: 100, 2: 100})
    >>> for seat, cards in ((1, "As Ah"), (2, "Kd Kc")):
    ...     core.players[seat].down[:] = parse_cards(cards)
    ...     _ = core.put(core.players[seat], 10)
    >>> core.board[:] = parse_cards("2c 7d 9h Js 3s")
    >>> core.players[1].down[:] = parse_cards("Qs Qh")  # now the kings win; the queens are mucked
    >>> show_down(core, aggressor=2); request_show(core, 1).describe()
    'seat 1 shows Qs Qh (Pair of queens)'
    """
    verify_request_show(core, seat)
    seat = int(seat)
    value = core.hands[seat]
    shown = ev.HandShown(seat, core.players[seat].cards, _name(value))
    if shown not in core.log:
        core.record(ev.ShowRequested(seat))
        core.record(shown)
    return shown


def inspect(core: HandCore, seat: int) -> tuple[Card, ...]:
    """The dealer's look at a player's cards once the hand is over (Poker 18.3).

    >>> from croupier.cards import parse_cards
    >>> from croupier.poker import TableRules
    >>> core = HandCore(TableRules(), button=1, stacks={1: 100, 2: 100})
    >>> core.players[2].down[:] = parse_cards("Kd Kc")
    >>> core.stage = Stage.DONE
    >>> inspect(core, 2)
    (Card('Kd'), Card('Kc'))
    """
    if core.stage != Stage.DONE:
        raise IllegalActionError(
            "Poker 18.3",
            "the dealer may inspect a hand only at the completion of the hand",
            "after the hand",
        )
    seat = _malformed(seat_number, seat, "a seat")
    if seat not in core.players:
        raise InvalidActionError(f"seat {seat} is not in this hand")
    return core.players[seat].cards
