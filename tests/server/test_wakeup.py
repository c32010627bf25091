"""The table task's :class:`~croupier.server.runner.Wakeup`: an event for one waiter with
a timeout, without a helper task."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("fastapi")

from croupier.server.runner import Wakeup


def test_a_set_before_the_wait_returns_at_once_and_stays_until_cleared() -> None:
    async def main() -> list[bool]:
        wakeup = Wakeup()
        wakeup.set()
        first, second = await wakeup.wait(5), await wakeup.wait(5)
        wakeup.clear()
        return [first, second, await wakeup.wait(0.01)]

    assert asyncio.run(main()) == [True, True, False]


def test_a_set_wakes_the_waiter_before_its_timeout() -> None:
    async def main() -> tuple[bool, float]:
        loop = asyncio.get_running_loop()
        wakeup = Wakeup()
        loop.call_later(0.02, wakeup.set)
        start = loop.time()
        woken = await wakeup.wait(5)
        return woken, loop.time() - start

    woken, waited = asyncio.run(main())
    assert woken
    assert waited < 1


def test_a_cancelled_waiter_leaves_no_timer_and_a_later_wait_works() -> None:
    async def main() -> tuple[bool, bool]:
        wakeup = Wakeup()
        task = asyncio.create_task(wakeup.wait(5))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        later = asyncio.get_running_loop().call_soon(wakeup.set)
        assert later is not None
        return await wakeup.wait(5), wakeup._waiter is None

    assert asyncio.run(main()) == (True, True)


def test_a_second_waiter_is_refused() -> None:
    async def main() -> None:
        wakeup = Wakeup()
        first = asyncio.create_task(wakeup.wait(5))
        await asyncio.sleep(0)
        try:
            with pytest.raises(AssertionError, match="one waiter"):
                await wakeup.wait(5)
        finally:
            wakeup.set()
            assert await first

    asyncio.run(main())
