"""Measure the peak memory of one large greedy tour, through the command and through the API.

Run it as ``python -m bench.by_hand.cli_memory``. It shows the
``knight`` command and the API side by side.

The command line must not hold much more than the search itself: its JSON
tour is written from the NumPy array a chunk at a time. Each case runs in a
fresh process; its peak resident set comes from ``os.wait4``, the kernel's
own count, so nothing in the measured process has to cooperate. The memory
check (``knight.validate.fits_in_memory``) promises this much and no more.
"""

import os
import subprocess
import sys

from bench import command
from bench.command import Parser
from knight.harness_api import validate

DEFAULT_SIDE = 10_000
# the CLI's peak may exceed the API's by at most this factor
PROMISED_RATIO = 1.5


def _api_code(side):
    start = side // 2
    return (
        "import knight\n"
        f"result = knight.solve({side}, {side}, ({start}, {start}), 'greedy', tiebreak='roth')\n"
        "assert result.found, result.status\n"
    )


def cases(side):
    """``{name: argv}`` of the processes to measure."""
    start = f"{side // 2 + 1},{side // 2 + 1}"
    command = [
        sys.executable,
        "-m",
        "knight",
        "solve",
        str(side),
        str(side),
        "--method",
        "greedy",
        "--start",
        start,
        "--tiebreak",
        "roth",
    ]
    return {
        "api": [sys.executable, "-c", _api_code(side)],
        "cli text": command,
        "cli --json": [*command, "--json"],
    }


def peak_bytes(argv):
    """Peak resident bytes of the process ``argv``, its output discarded."""
    with open(os.devnull, "wb") as sink:
        process = subprocess.Popen(argv, stdout=sink, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
        error = process.stderr.read().decode()
        process.stderr.close()
        process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"bench: {' '.join(argv[:4])} ... failed: {error.strip()}")
    return usage.ru_maxrss * 1024  # kilobytes on Linux


@command.ends_in_one_line
def main(argv=None):
    parser = Parser(prog="python -m bench.by_hand.cli_memory", description=__doc__.splitlines()[0])
    parser.add_argument("--side", default=str(DEFAULT_SIDE), help=f"board side (default {DEFAULT_SIDE}: 10^8 squares)")
    args = parser.parse_args(argv)
    side = validate.integer_text(args.side, "side", minimum=5, maximum=46340)
    peaks = {name: peak_bytes(command) for name, command in cases(side).items()}
    print(f"greedy tour of {side}x{side} ({side * side:,} squares), peak resident memory:")
    for name, peak in peaks.items():
        print(f"  {name:<11} {peak / 2**30:7.3f} GiB  ({peak / peaks['api']:.2f}x the API)")
    worst = max(peaks.values()) / peaks["api"]
    print(f"memory check's estimate for greedy: {validate.memory_needed(side, side, 'greedy') / 2**30:.3f} GiB")
    verdict = "within" if worst <= PROMISED_RATIO else "OVER"
    print(f"worst CLI / API = {worst:.2f}: {verdict} the promised {PROMISED_RATIO}x")
    return 0 if worst <= PROMISED_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
