"""PAR sheets: the figures a house keeps for each game, as Markdown, JSON or a PDF with charts.

* :mod:`~croupier.par.blackjack`: house edge (exact), the distribution of a round's net
  result, standard deviation, hit frequency, element of risk, blackjack, bust, push and
  insurance frequencies, with basic strategy and with optimal play
  (:func:`blackjack_par`);
* :mod:`~croupier.par.poker`: the house's take a hand and an hour for each game and
  structure from the table's rake, fee or time charge (:func:`poker_par`);
* :mod:`~croupier.par.sheet`: figures with their source and 95 % interval, tables, charts;
* :mod:`~croupier.par.render`: Markdown, JSON, and the PDF (matplotlib).

Every figure says whether it is exact, simulated (with its 95 % interval) or assumed. The
math (numpy, numba) loads on first use of :func:`blackjack_par`; importing this package
loads none of it. (The text renderer ``render(sheet, fmt)`` is imported from
:mod:`croupier.par.render`, whose name it shares.)

>>> import croupier.par
>>> croupier.par.render_markdown.__module__, croupier.par.poker_par.__module__
('croupier.par.render', 'croupier.par.poker')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier._lazy import lazy_exports

if TYPE_CHECKING:
    from croupier.par.blackjack import BlackjackPar, blackjack_par
    from croupier.par.poker import PokerPar, TableCharge, poker_par
    from croupier.par.render import render_json, render_markdown, write_pdf
    from croupier.par.sheet import Estimate, Sheet
else:
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "croupier.par.blackjack": ("BlackjackPar", "blackjack_par"),
            "croupier.par.poker": ("PokerPar", "TableCharge", "poker_par"),
            "croupier.par.render": ("render_json", "render_markdown", "write_pdf"),
            "croupier.par.sheet": ("Estimate", "Sheet"),
        },
    )

__all__ = [
    "BlackjackPar",
    "Estimate",
    "PokerPar",
    "Sheet",
    "TableCharge",
    "blackjack_par",
    "poker_par",
    "render_json",
    "render_markdown",
    "write_pdf",
]
