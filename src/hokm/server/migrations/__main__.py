"""``python -m hokm.server.migrations URL``: migrate a database to the newest schema."""

import sys

from . import main

sys.exit(main())
