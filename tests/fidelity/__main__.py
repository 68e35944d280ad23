"""``python -m tests.fidelity``: see :mod:`tests.fidelity.cli`."""
import sys

from tests.fidelity.cli import main

sys.exit(main())
