"""``python -m countdp``: the same as the ``countdp`` console script."""

import sys

from countdp.harness.cli import main

if __name__ == "__main__":
    sys.exit(main())
