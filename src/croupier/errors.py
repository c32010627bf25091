"""The exception tree.

Every error croupier raises for bad input or an illegal action derives from
:class:`CroupierError`, itself a :class:`ValueError`, so a generic
``except ValueError`` still works while callers can tell the kinds apart.

>>> issubclass(CardParseError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "CardParseError",
    "CroupierError",
    "DuplicateCardError",
    "HandSizeError",
    "IllegalActionError",
    "InvalidActionError",
    "RuleViolationError",
]


class CroupierError(ValueError):
    """Root of every error croupier raises on bad input or an illegal action.

    >>> isinstance(CroupierError("x"), ValueError)
    True
    """


class CardParseError(CroupierError):
    """A card token could not be read; the message names the bad token.

    >>> from croupier.cards import Card
    >>> Card.parse("1x")
    Traceback (most recent call last):
    ...
    croupier.errors.CardParseError: bad card '1x': rank '1' is not one of 2-9, T (or 10), J, Q, K, A
    """


class DuplicateCardError(CroupierError):
    """The same card appears twice where a hand or deal must not repeat a card.

    >>> from croupier.cards import parse_cards
    >>> parse_cards("As Kd As")
    Traceback (most recent call last):
    ...
    croupier.errors.DuplicateCardError: duplicate card As in 'As Kd As'
    """


class HandSizeError(CroupierError):
    """A hand has the wrong number of cards for the game or the evaluator.

    >>> from croupier.evaluation import evaluate
    >>> evaluate("As Kd")
    Traceback (most recent call last):
    ...
    croupier.errors.HandSizeError: a high hand needs 5 to 7 cards in all, got 2
    """


class RuleViolationError(CroupierError):
    """An action or configuration breaks a named rule.

    ``rule`` is the rule id as in ``../shared/rules`` (e.g. ``"Omaha 17.6(f)"``)
    and ``allowed`` says what would have been legal.

    >>> err = RuleViolationError("Omaha 17.6(f)", "a fourth raise at a full table", "call or fold")
    >>> str(err)
    'Omaha 17.6(f): a fourth raise at a full table; allowed: call or fold'
    >>> err.rule
    'Omaha 17.6(f)'
    """

    def __init__(self, rule: str, problem: str, allowed: str | None = None) -> None:
        self.rule = rule
        self.problem = problem
        self.allowed = allowed
        text = f"{rule}: {problem}"
        if allowed is not None:
            text += f"; allowed: {allowed}"
        super().__init__(text)


class InvalidActionError(CroupierError):
    """An action that is malformed whatever the state: a wrong type, a negative or
    fractional number of chips, text that names no action, a card that is no card.
    The state is unchanged.

    >>> from croupier.poker.actions import parse_action
    >>> parse_action("raise lots")
    Traceback (most recent call last):
    ...
    croupier.errors.InvalidActionError: bad action 'raise lots': 'lots' is not a whole number of chips
    """


class IllegalActionError(RuleViolationError):
    """A well-formed action the rules do not allow now (in either referee); the state is
    unchanged. ``rule`` names the rule and ``allowed`` what would be legal.

    >>> IllegalActionError("Omaha 17.2(a)", "seat 3 cannot check: 10 to call", "fold, call 10")
    IllegalActionError('Omaha 17.2(a): seat 3 cannot check: 10 to call; allowed: fold, call 10')
    """
