"""This package holds the studies that a preset sweep runs besides its searches.

Each study is one folder here, with its worker and report where it has them.
bench/studies/registry.py finds them. Experiments run by hand live apart, in
bench/by_hand/.

Adding a study is one new folder, ``bench/studies/NAME/``:

- ``NAME_study.py``: a subclass of ``bench.studies.study.Study`` (its
  ``name``, ``data_file``, ``figure_file``, ``extra``, ``skip_help``,
  ``announcement``, and ``setting``, ``measure``, ``figure``, ``section``)
  and ``STUDY``, its one instance; a worker module and a report module
  beside it when it has them (``NAME_worker.py``, ``NAME_report.py``);
- ``__init__.py``: a docstring, and no import: ``python -m`` starts a
  study's worker through its package, and runpy warns when the package
  has already imported the module it is about to run.

That is all the harness needs: the registry finds the folder, ``python -m
bench`` runs the study after the others and offers ``--no-NAME``,
``meta.json`` keeps its setting under ``extra``, and REPORT.md, index.html
and ``make plots`` draw it from ``data_file``. Around it, as for any file:
a row in docs/layout.md for each of its files (tests/test_layout_doc.py),
and its tests in tests/bench/. Only to place it before another study in
the run and the report, one line: its name in ``registry.ORDER``.

Module names stay unique across knight/ and bench/
(tests/knight/test_import_graph.py), hence the ``NAME_`` prefixes; a study
imports bench/'s core and other folders, never bench/report/, which
imports the registry.
"""
