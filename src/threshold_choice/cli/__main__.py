"""``python -m threshold_choice.cli``: the ``threshold-choice`` command."""

import sys

from threshold_choice.cli import main

sys.exit(main())
