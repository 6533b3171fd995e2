"""Write the markdown table of a long_total run's log, one row a step.

Run it as ``python -m bench.by_hand.long_total_table LOG``. A row shows
the states held after the step, its wall seconds, its wall microseconds for
each state it made, the packed bytes of a state of its table on disk, its
peak anonymous memory (RssAnon) and the run's peak disk during the step.
Where the log's last line gives them, it also shows the millions of
transitions (successors emitted) a wall second. A finished run gives them in
``transitions_per_step``, for the steps of its last segment.

A run killed and resumed appends to the same log: each start begins a
*segment*, its clock and its disk figures from zero. A step's seconds are
counted from the step before in its segment, or from the segment's start
(so start-up, the pattern passes and compilation, is in them: the table
marks such a step). The disk is the fall of the spill filesystem's free
space since the segment's start, plus what the run held there when it
started again: the last step's figure before it (its checkpoint's tables,
which stay; the killed process's spill folder goes).
"""

import json
import sys

from bench import command
from knight import InvalidArgument

_GIB = 2**30
HEADER = (
    "| step | states held after it | seconds | wall us a state made | packed bytes a state on disk "
    "| peak RssAnon GiB | peak disk GiB | M transitions a second |\n"
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
)
RESUMED = "after a start: the pattern passes and compilation included"


# what a step's record holds, as long_total writes it
_STEP_FIELDS = ("step", "held", "seconds", "ram_bytes", "spill_bytes", "disk_bytes")
_PEAK_FIELDS = ("ram_bytes", "disk_bytes")
_NUMBER = (int, float)


def _record(line, number):
    """Line ``number`` of a log as its JSON object; InvalidArgument, naming
    the line, where it is none (not a long_total log, or a line cut short)."""
    try:
        record = json.loads(line)
    except ValueError:
        record = None
    if not isinstance(record, dict) or not isinstance(record.get("seconds"), _NUMBER):
        raise InvalidArgument(f"line {number} of the log is not a long_total record: {line[:60]!r}")
    return record


def read_steps(lines):
    """The log's lines (JSON) as one dict a step, in order: ``step``,
    ``held``, ``seconds`` (the step's own), ``after_start`` (the first step
    of a segment), ``disk_bytes`` and ``ram_peak_bytes`` (its peaks,
    ``disk_bytes`` the run's whole holding), ``spill_bytes``, and
    ``emitted`` (the step's transitions; None where the log has none)."""
    steps = []
    segment = []  # the steps since the last start
    began = last = 0.0
    offset = held_before = 0
    fresh = True  # a log's first step counts from its start
    for number, line in enumerate(lines, 1):
        record = _record(line, number)
        if "start" in record:
            began = last = record["seconds"]
            offset = held_before
            fresh = True
            segment = []
            continue
        if "step" not in record:
            work = record.get("work")
            emitted = work.get("transitions_per_step") if isinstance(work, dict) else None
            for step, count in zip(segment, emitted if isinstance(emitted, list) else [], strict=False):
                step["emitted"] = count if isinstance(count, _NUMBER) else None
            continue
        peaks = record.get("step_peaks")
        if not (
            all(isinstance(record.get(name), _NUMBER) for name in _STEP_FIELDS)
            and isinstance(peaks, dict)
            and all(isinstance(peaks.get(name), _NUMBER) for name in _PEAK_FIELDS)
        ):
            raise InvalidArgument(f"line {number} of the log is a step's record without its fields")
        steps.append(
            {
                "step": record["step"],
                "held": record["held"],
                "seconds": record["seconds"] - (began if fresh else last),
                "after_start": fresh,
                "disk_bytes": offset + max(peaks["disk_bytes"], record["disk_bytes"]),
                "ram_peak_bytes": max(peaks["ram_bytes"], record["ram_bytes"]),
                "spill_bytes": record["spill_bytes"],
                "emitted": None,
            }
        )
        segment.append(steps[-1])
        last, fresh = record["seconds"], False
        held_before = offset + record["disk_bytes"]
    return steps


def table(steps, first_step=1):
    """The markdown table of ``read_steps``' steps from ``first_step`` on."""
    rows = [HEADER]
    for step in (entry for entry in steps if entry["step"] >= first_step):
        made = step["held"]
        per_state = f"{1e6 * step['seconds'] / made:.2f}" if made else ""
        on_disk = f"{step['spill_bytes'] / made:.2f}" if made and step["spill_bytes"] else "in memory"
        seconds = f"{step['seconds']:.1f}" + (" *" if step["after_start"] else "")
        rate = f"{step['emitted'] / step['seconds'] / 1e6:.1f}" if step["emitted"] and step["seconds"] else ""
        rows.append(
            f"| {step['step']} | {made:,} | {seconds} | {per_state} | {on_disk} "
            f"| {step['ram_peak_bytes'] / _GIB:.1f} | {step['disk_bytes'] / _GIB:.1f} | {rate} |"
        )
    if any(step["after_start"] for step in steps if step["step"] >= first_step):
        rows.append(f"\n\\* {RESUMED}")
    return "\n".join(rows)


@command.ends_in_one_line
def main(argv=None):
    parser = command.Parser(prog="python -m bench.by_hand.long_total_table", description=__doc__.splitlines()[0])
    parser.add_argument("log", help="a long_total run's JSON-lines log")
    parser.add_argument("--from", dest="first", type=int, default=1, help="the first step to show")
    args = parser.parse_args(argv)
    with open(args.log) as lines:
        print(table(read_steps(lines), args.first))
    return 0


if __name__ == "__main__":
    sys.exit(main())
