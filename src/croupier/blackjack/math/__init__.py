"""Blackjack math, apart from the referee: it takes the referee's own :class:`BlackjackRules`
and plays by them, but the referee never needs it (and never loads numpy or numba for it).

* :mod:`~croupier.blackjack.math.analysis`: the exact composition-dependent analysis
  (:class:`Analysis`, :func:`house_edge`, :func:`dealer_outcomes`, :func:`insurance_ev`),
  over the multiset graphs of :mod:`~croupier.blackjack.math._exact_graphs` and the numba
  kernels of :mod:`~croupier.blackjack.math._exact_kernel`;
* :mod:`~croupier.blackjack.math.strategy`: strategy charts (:class:`StrategyChart`, the
  published :data:`US_SIX_DECK`);
* :mod:`~croupier.blackjack.math.simulate`: the compiled simulator (:func:`simulate`) and its
  kernel :mod:`~croupier.blackjack.math._sim_kernel`;
* :mod:`~croupier.blackjack.math._policy`: the one compiled ``decide`` routine that the
  analysis, the simulator and :class:`~croupier.blackjack.policies.BasicStrategy` share;
* :mod:`~croupier.blackjack.math.pictures`: the chart and running-EV pictures (matplotlib).

Import the public names from :mod:`croupier.blackjack`, which loads this package on first use;
importing this package itself loads none of its modules.

>>> from croupier.blackjack import Analysis, simulate
>>> Analysis.__module__, simulate.__module__
('croupier.blackjack.math.analysis', 'croupier.blackjack.math.simulate')
"""
