"""The table task's wait: :func:`~croupier.server.runner.wait_for_set` is an
:class:`asyncio.Event` awaited under :func:`asyncio.timeout` (no helper task)."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("fastapi")

from croupier.server.runner import wait_for_set


def test_a_set_before_the_wait_returns_at_once_and_stays_until_cleared() -> None:
    async def main() -> list[bool]:
        event = asyncio.Event()
        event.set()
        first, second = await wait_for_set(event, 5), await wait_for_set(event, 5)
        event.clear()
        return [first, second, await wait_for_set(event, 0.01)]

    assert asyncio.run(main()) == [True, True, False]


def test_a_set_wakes_the_waiter_before_its_timeout() -> None:
    async def main() -> tuple[bool, float]:
        loop = asyncio.get_running_loop()
        event = asyncio.Event()
        loop.call_later(0.02, event.set)
        start = loop.time()
        woken = await wait_for_set(event, 5)
        return woken, loop.time() - start

    woken, waited = asyncio.run(main())
    assert woken
    assert waited < 1


def test_the_timeout_ends_the_wait_and_makes_no_task() -> None:
    async def main() -> tuple[bool, float, int, list[int]]:
        loop = asyncio.get_running_loop()
        before = len(asyncio.all_tasks())
        during: list[int] = []
        loop.call_later(0.02, lambda: during.append(len(asyncio.all_tasks())))
        start = loop.time()
        woken = await wait_for_set(asyncio.Event(), 0.05)
        return woken, loop.time() - start, before, during

    woken, waited, before, during = asyncio.run(main())
    assert not woken
    assert 0.04 <= waited < 1
    assert during == [before]  # the waiting task alone, no helper beside it


def test_a_cancelled_waiter_is_cancelled_not_timed_out() -> None:
    async def main() -> bool:
        event = asyncio.Event()
        task = asyncio.create_task(wait_for_set(event, 5))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        asyncio.get_running_loop().call_soon(event.set)
        return await wait_for_set(event, 5)

    assert asyncio.run(main()) is True
