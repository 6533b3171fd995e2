"""Run the ``knight`` command line as ``python -m knight``."""

import sys

try:
    from knight.cli import main
except KeyboardInterrupt:  # a Ctrl-C before the command line's own handling is up
    exec("")  # exit_status.forget_python_interrupt, which may not be imported yet
    sys.stderr.write("knight: interrupted\n")
    sys.exit(130)

sys.exit(main())
