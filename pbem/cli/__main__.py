"""`python -m pbem.cli`: the command line run as a module (a game repository's textconv driver runs it so, and keeps
running it after an upgrade: its git config names this module)."""
import sys

from .commands import main

sys.exit(main())
