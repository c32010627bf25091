"""Poker simulators, apart from the referee: they play many hands, the referee plays one.

* :mod:`~croupier.poker.sim.simulate`: hands played through the referee
  (:class:`~croupier.poker.state.HandState`) by the built-in policies, across processes;
* :mod:`~croupier.poker.sim.fastsim`: the compiled simulator for the blind community-card
  games (:func:`fast_simulate`, :func:`fast_simulate_parallel`, :class:`FastResult`), over
  the numba kernel of :mod:`~croupier.poker.sim._fastsim_kernel`.

The compiled simulator's names are exported (lazily) by :mod:`croupier.poker`; importing this
package itself loads none of its modules.

>>> from croupier.poker import fast_simulate
>>> fast_simulate.__module__
'croupier.poker.sim.fastsim'
"""
