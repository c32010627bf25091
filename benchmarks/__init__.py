"""croupier's benchmarks against its peers, all measured in one run: ``python -m benchmarks``.

Modules: :mod:`benchmarks.bench_eval7` (seven-card evaluation),
:mod:`benchmarks.bench_omaha` (Omaha evaluation), :mod:`benchmarks.bench_equity`
(exact preflop equity) and :mod:`benchmarks.bench_startup` (fresh-process start-up,
warm and cold caches). See ``benchmarks/README.md``.
"""
