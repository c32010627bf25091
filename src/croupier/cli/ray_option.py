"""The ``--ray [ADDRESS]`` option of the long-running commands (simulate, match).

``--ray`` alone runs on Ray's choice of cluster (``$RAY_ADDRESS``, else a fresh local one);
``--ray HOST:PORT`` on the cluster whose head is there (see :mod:`croupier.distributed`).
Ray is imported only when the option is given.

>>> import click
>>> from click.testing import CliRunner
>>> @click.command()
... @ray_option
... def show(ray_address: str | None) -> None:
...     click.echo(repr(ray_address))
>>> [CliRunner().invoke(show, args).output.strip() for args in ([], ["--ray"], ["--ray", "auto"])]
['None', "''", "'auto'"]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

__all__ = ["ray_option"]

F = TypeVar("F", bound=Callable[..., Any])


def ray_option(command: F) -> F:
    """Add ``--ray [ADDRESS]`` (the ``ray_address`` parameter: None without the option,
    ``""`` with no address) to a command.

    >>> @ray_option
    ... def run(ray_address: str | None) -> None: ...
    >>> [p.name for p in run.__click_params__]
    ['ray_address']
    """
    return click.option(
        "--ray",
        "ray_address",
        is_flag=False,
        flag_value="",
        default=None,
        metavar="[ADDRESS]",
        help="Fan the work out on a Ray cluster (the 'ray' extra): its head's HOST:PORT "
        "(as 'ray start --head' prints it), ray://HOST:PORT, auto (this machine's cluster), "
        "or nothing ($RAY_ADDRESS, else a new local cluster). A seed gives the same result "
        "as without --ray.",
    )(command)
