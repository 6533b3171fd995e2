import sys

try:
    from knight.cli import main
except KeyboardInterrupt:  # a Ctrl-C before the command line's own handling is up
    sys.stderr.write("knight: interrupted\n")
    sys.exit(130)

sys.exit(main())
