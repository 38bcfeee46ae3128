"""``python -m gammon``."""

import sys

from gammon.cli import main

sys.exit(main())
