"""Command line: ``python -m tests.simcluster build|start|oracle`` (see docs/testing.md)."""
from __future__ import annotations

import sys

from tests.simcluster.cli import main

if __name__ == "__main__":
    sys.exit(main())
