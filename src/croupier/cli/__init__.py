"""The ``croupier`` command line (see :mod:`croupier.cli.app`)."""
