"""``python -m croupier`` runs the command line, like the ``croupier`` script."""

import sys

from croupier.cli.app import main

sys.exit(main())
