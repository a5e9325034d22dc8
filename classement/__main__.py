"""`python -m classement …`: the `classement` command."""

import sys

from classement.cli import main

sys.exit(main())
