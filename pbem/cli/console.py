"""The `pbem` command as installed (its console script): a process of its own, short-lived, tuned as one.

Three things a library must not do to the program that imports it, and the command does to itself:

- the cyclic garbage collector's first threshold raised from 700 allocations to 100,000, before anything is
  imported: a move makes some 20,000 objects that live to its end (modules, the schemas' checks, the game), which
  the collector would otherwise walk thirty times over for nothing (a twentieth of a move's CPU). A long batch (a
  mail inbox, a tick over many games) still collects, every 100,000 allocations;
- no teardown: a command's files are closed and renamed into place before it returns, so nothing is left to
  clean up but memory the system takes back anyway, and freeing a hundred and fifty modules one object at a time
  costs a move a seventh of its CPU. What asked to run at exit (a temporary folder's clean-up, the git cat-file
  reader's end) still runs; with a thread still running, or on a Python without CPython's list of exit
  functions, the usual exit.
- the phrases Click gives its options when they are made (`--help`'s "Show this message and exit.", a path's
  "directory", `--version`'s) taken as they are, not looked up through gettext: pbem ships no catalogue of
  Click's (it says its own words in its readers' languages), and each look-up probes the system's catalogue
  folders for one, the first importing `locale` to do so: seven look-ups, a sixtieth of a move's instructions.
  Click's error messages are still looked up (pbem.cli.commands shows them, rarely).

docs/performance.md has the measurements.
"""
from __future__ import annotations

import gc
import os
import sys

FIRST_THRESHOLD = 100_000


def run() -> None:
    gc.set_threshold(FIRST_THRESHOLD, *gc.get_threshold()[1:])
    import click.decorators
    import click.types
    click.decorators._ = click.types._ = str  # Click's option phrases as they are (see above)
    import atexit
    import threading

    from .commands import main  # imported under the raised threshold
    code = main()
    run_exit_functions = getattr(atexit, "_run_exitfuncs", None)  # the list Py_Finalize runs (atexit.register)
    if run_exit_functions is None or threading.active_count() > 1:
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):  # the reader went away, or a stream was closed: nothing more to say
        pass
    run_exit_functions()
    os._exit(code)
