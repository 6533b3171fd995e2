"""The command line run in this process, for the CLI's tests: its status
and standard output."""

import io
import json

from knight import cli


def run(*argv):
    out = io.StringIO()
    status = cli.main(list(argv), out=out)
    return status, out.getvalue()


def run_json(*argv):
    status, text = run(*argv, "--json")
    assert status == 0
    return json.loads(text)
