"""croupier's benchmarks against its peers, all measured in one run: ``python -m benchmarks``.

Every figure is a ratio measured as alternating pairs (croupier, peer, croupier, peer ...)
with the machine printed beside it; see ``benchmarks/README.md``. Modules:
:mod:`benchmarks.bench_eval7` (seven-card evaluation), :mod:`benchmarks.bench_omaha`
(Omaha evaluation), :mod:`benchmarks.bench_equity` (exact preflop equity),
:mod:`benchmarks.bench_ranges` (range equity against eval7), :mod:`benchmarks.bench_startup`
(fresh-process start-up), :mod:`benchmarks.bench_poker_sim` (hands a second against
PokerKit), :mod:`benchmarks.bench_copy_poker` and :mod:`benchmarks.bench_copy_blackjack`
(state copies), and, outside the default run, :mod:`benchmarks.bench_blackjack` and
:mod:`benchmarks.bench_diff_pokerkit`. The machinery: :mod:`benchmarks._timing`,
:mod:`benchmarks._harness`, :mod:`benchmarks._report`, :mod:`benchmarks._machine`,
:mod:`benchmarks._pheval_c`.
"""
