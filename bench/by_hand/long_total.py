"""Run one DP total that takes hours and log each step as it finishes.

Run it as ``python -m bench.by_hand.long_total ROWS COLS --log FILE``.

The count is ``knight count ROWS COLS --total --json --resume CHECKPOINT``'s
own road (``driver.prepare`` then ``driver.total_of``), with a
progress function that appends a JSON line to ``--log`` after each step:
the wall seconds since the start, the step, the states held, this
process's anonymous memory (RssAnon) and the bytes its spill folders hold,
and the spill filesystem's bytes in use by the run (its free space at the
start less its free space now: the checkpoint's linked tables count too),
and the step's own peaks of the memory and that disk, sampled.
A thread samples the same every ``--every`` seconds and the log's last
line holds the peaks and the count's JSON (with each step's transitions:
``long_total_table`` makes them a rate). Killed, the count goes on from
its checkpoint when run again with the same ``--resume``; the log is
appended to. Without ``--resume`` there is no checkpoint (a run of
minutes, timed step by step: 8x8 closed, with no step's save in its time).
"""

import json
import os
import shutil
import sys
import tempfile
import threading
import time

from bench import command
from knight.harness_api import validate

SAMPLE_SECONDS = 2.0


class Watch:
    """The run's memory and disk, now and at their peak."""

    def __init__(self, log):
        self.log = log
        self.began = time.monotonic()
        self.free_at_start = shutil.disk_usage(tempfile.gettempdir()).free
        self.peaks = {"ram_bytes": 0, "disk_bytes": 0}
        self.step_peaks = dict(self.peaks)  # since the last step's line
        self._lock = threading.Lock()

    def now(self):
        from knight.harness_api import anonymous_memory, spill_bytes

        fields = {
            "ram_bytes": anonymous_memory(),
            "spill_bytes": spill_bytes(),
            "disk_bytes": self.free_at_start - shutil.disk_usage(tempfile.gettempdir()).free,
        }
        with self._lock:
            for name in self.peaks:
                self.peaks[name] = max(self.peaks[name], fields[name])
                self.step_peaks[name] = max(self.step_peaks[name], fields[name])
        return fields

    def write(self, record):
        record = {"seconds": round(time.monotonic() - self.began, 3), **record}
        with self._lock, open(self.log, "a") as file:
            file.write(json.dumps(record) + "\n")

    def progress(self, now):
        fields = self.now()
        with self._lock:
            peaks, self.step_peaks = self.step_peaks, {name: 0 for name in self.peaks}
        self.write({"step": now.done, "steps": now.total, "held": now.held, **fields, "step_peaks": peaks})


def _sample(watch, stop, every):
    while not stop.wait(every):
        watch.now()


@command.ends_in_one_line
def main(argv=None):
    parser = command.Parser(prog="python -m bench.by_hand.long_total", description=__doc__.splitlines()[0])
    parser.add_argument("rows", type=int)
    parser.add_argument("cols", type=int)
    parser.add_argument("--closed", action="store_true")
    parser.add_argument("--memory", help="the dp's memory budget (as knight count --memory takes it)")
    parser.add_argument("--disk", help="its disk budget out of core (as knight count --disk takes it)")
    parser.add_argument("--resume", help="the count's checkpoint file (none: no checkpoint)")
    parser.add_argument("--log", required=True, help="the JSON-lines log, appended to")
    parser.add_argument("--every", type=float, default=SAMPLE_SECONDS, help="seconds between samples")
    args = parser.parse_args(argv)
    from knight.harness_api import prepare, total_of

    memory = None if args.memory is None else validate.memory_text(args.memory)
    disk = None if args.disk is None else validate.disk_text(args.disk)
    job = prepare(
        args.rows, args.cols, None, args.closed, method="dp", resume=args.resume, memory=memory, disk=disk, total=True
    )
    watch = Watch(args.log)
    watch.write(
        {"start": [args.rows, args.cols], "closed": args.closed, "memory": memory, "disk": disk, "pid": os.getpid()}
    )
    stop = threading.Event()
    sampler = threading.Thread(target=_sample, args=(watch, stop, args.every), daemon=True)
    sampler.start()
    try:
        total = total_of(job, watch.progress)
        tours, work = total.tours, {name: value for name, value in total.as_dict().items() if name != "tours"}
    finally:
        stop.set()
        sampler.join()
    watch.write({"tours": tours, "peaks": watch.peaks, "work": work})
    print(json.dumps({"tours": tours, "peaks": watch.peaks, **work}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
