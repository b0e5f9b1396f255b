"""``python -m arena``: see arena.cli."""

import sys

from arena.cli import main

sys.exit(main())
