"""Issue 10, point 15 (fuzz findings): ``equity`` refuses hands that are no list of hands with a
one-line CroupierError, and reads ``board=None`` as no board yet."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.equity import equity
from croupier.errors import CardParseError, CroupierError

HANDS = ["As Ks", "Qd Qh"]


@pytest.mark.parametrize("hands", [None, 42, object(), "AsKs QdQh", 1.5])
def test_hands_must_be_a_list_of_hands(hands: Any) -> None:
    with pytest.raises(CroupierError, match="hands must be a list of hands") as exc:
        equity(hands)
    assert "\n" not in str(exc.value)


def test_any_iterable_of_hands_is_read() -> None:
    assert equity(iter(HANDS), "Qs Js 2c").hands == equity(HANDS, "Qs Js 2c").hands
    assert equity(tuple(HANDS), "Qs Js 2c 3d").trials == 44


@pytest.mark.parametrize("hands", [[None, "Qd Qh"], ["As Ks", 42]])
def test_a_hand_of_the_wrong_kind_is_a_card_parse_error(hands: Any) -> None:
    with pytest.raises(CardParseError):
        equity(hands)


def test_board_none_means_no_board() -> None:
    empty = equity(HANDS, "Qs Js 2c")
    none = equity(HANDS, board=None, samples=200, seed=5)
    again = equity(HANDS, board=(), samples=200, seed=5)
    assert none.board == ()
    assert none.hands == again.hands
    assert sum(h.equity for h in empty.hands) == 1


@pytest.mark.parametrize("board", [42, object(), ["Qs", None]])
def test_board_of_the_wrong_kind_is_a_card_parse_error(board: Any) -> None:
    with pytest.raises(CardParseError):
        equity(HANDS, board=board)


def test_progress_must_be_callable() -> None:
    with pytest.raises(CroupierError, match="progress must be a callable"):
        equity(HANDS, "Qs Js 2c 3d", progress=5)  # type: ignore[arg-type]
    seen: list[tuple[int, int]] = []
    equity(HANDS, "Qs Js 2c 3d", progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (44, 44)
