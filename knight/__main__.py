import sys

from knight.cli import main

sys.exit(main())
