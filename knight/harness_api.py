"""This module is the one internal surface of knight that the benchmark harness measures through.

It lists what the harness (bench/) may use of knight beyond its public API
(``knight.__all__``), and why. Nothing in bench/ imports any other knight
module, and a test (tests/bench/test_harness_api.py) holds it to that.

The harness is a user of knight that also has to agree with it on facts a
user never sees, so that its records, options and comparisons say what
knight says:

- ``validate``: the checks and limits of knight's own options
  (``integer_text``, ``choice``, ``board``, ``budget``, ``start_text``,
  ``fits_in_memory``, ``memory_needed``, ``METHODS``, ``TIEBREAKS``,
  ``MAX_SQUARES``, ``MAX_INT64``), so a bad ``python -m bench`` option
  fails in the same words as a bad ``knight`` one.
- ``status``: the status codes and their ``WORDS``, so run records,
  figures and the references of the speed guard spell a status as
  ``Result.status`` does.
- ``journal``: the append-only, crash-safe file format of knight's unit
  store, each line under its own checksum, which a run folder's runs.csv
  uses for ``--resume``.
- ``strict_json``: JSON that refuses NaN and infinity, for meta.json and
  the committed baselines, and the reader bounded in depth that reads them
  back.
- ``exit_status``: the exit statuses and the one-line argument parser of
  the ``knight`` command, so that ``python -m bench`` ends as it does.
- ``owned_files``: knight's tests of a temporary's owner (its maker's
  process gone, this user's, its mark there), so that the checkouts and
  scratch folders of a killed bench run are removed as the DP's spill
  folders are.
- ``atomic_write``: a file written whole or not at all, under a temporary
  name of knight's own (never a user's file), for meta.json, REPORT.md
  and index.html.
- ``drawing``: the SVG drawing of a tour that ``knight solve --svg`` and
  the notebook reprs make, for the tours REPORT.md shows, so the report
  draws them as a user sees them.
- ``usable_cores``: the cores this process may use, as knight's thread
  pools count them, for meta.json's machine facts.
- ``representatives``: one start square per symmetry class, the sweep's
  ``--starts symmetry``.
- ``total_with_work``: the frontier DP's open total with its work counters
  (transitions, peak states, merges): the counting study's "DP open total"
  engine (``knight.count_total`` gives the total without them); with
  ``ClusterRun`` (a runner for it on a Dask client), the same total on a
  cluster, with the per-step summaries that say where its time goes
  (bench/by_hand/dp_cluster_overhead.py).
- ``count_hamiltonian``, ``StepPolicy`` and ``memory_model``: one DP run,
  the policy that says how it takes its steps, and the DP's memory model,
  for the step-engine study (bench/studies/dp_steps/dp_step_worker.py),
  which compares the step engines on the same boards: it passes each run
  a ``StepPolicy`` (the hash step or the partitioned one; for the
  out-of-core engine, ``partitioned_states=0``, a ``min_room`` it sizes by
  ``memory_model.step_bytes`` and a one-byte budget, so every step gets
  that room) and reads the steps that ran out of core from the run's
  ``Work`` (``out_of_core_steps``). No public option picks a step's way:
  it is the engine's.
- ``anonymous_memory`` and ``PeakSampler``: this process's ``RssAnon``, as
  the DP's memory budget reads it, and the sampler of its peak and of the
  spill folders' bytes that ``knight count --total --json`` reports, for
  that study's bytes per state in memory and on disk.
- ``prepare``, ``total_of`` and ``spill_bytes``: a DP total on the
  command line's own road (``knight count --total --json --resume``), with
  a progress function of the caller's, and the bytes that the run's spill
  folders hold. The log of a count of hours (bench/by_hand/long_total.py)
  needs them, since no public call gives them step by step.
- ``BITBOARD_SQUARES``: the board size up to which ``solve`` takes the
  bitboard kernel, so the C baseline searches with the same kind of kernel.
- ``search_kernels`` and ``neighbour_table``: the compiled searches themselves,
  their scratch makers and their inputs, so that the toolchain comparison
  (bench/studies/versus/versus_study.py) hands Numba, C and Cython the same prepared
  arrays and times the kernel call alone, as no public call can.
- ``jit``: the one compile policy (knight/runtime/_jit.py), so that the empty
  function that measures Numba's fixed call cost is dispatched as the
  kernels are.

All but ``neighbour_table`` load Numba, so they are looked up on first use, as
``knight.solve`` is; the rest is plain Python, cheap to import.
"""

from knight import drawing, exit_status, validate
from knight.counting.peak_sampler import PeakSampler
from knight.files import atomic_write, journal, owned_files, strict_json
from knight.geometry.symmetry import representatives
from knight.runtime import status
from knight.runtime._lazy import lazy_getattr
from knight.runtime.machine import anonymous_memory, usable_cores

# the names imported here; the rest are _LAZY's
__all__ = [
    "PeakSampler",
    "anonymous_memory",
    "atomic_write",
    "drawing",
    "exit_status",
    "journal",
    "owned_files",
    "representatives",
    "status",
    "strict_json",
    "usable_cores",
    "validate",
]

# name -> the module that defines it (or, for a module's own name, the
# module itself), imported on first use (loads Numba)
_LAZY = {
    "BITBOARD_SQUARES": "knight.search.solver",
    "total_with_work": "knight.counting.dp.engine",
    "ClusterRun": "knight.counting.dp.runs.cluster_run",
    "count_hamiltonian": "knight.counting.dp.runs.run_loop",
    "StepPolicy": "knight.counting.dp.planning.policy",
    "memory_model": "knight.counting.dp.planning.memory_model",
    "prepare": "knight.counting.driver",
    "total_of": "knight.counting.driver",
    "spill_bytes": "knight.files.owned_files",
    "search_kernels": "knight.search.search_kernels",
    "jit": "knight.runtime._jit",
    "neighbour_table": "knight.geometry.neighbours",
}

__getattr__ = lazy_getattr("knight.harness_api", _LAZY)
