"""This package holds what every timed search of the harness rests on.

``repeats`` holds the clocks and the timed repeats, and ``named_search`` one
named search and its outcome. ``paired`` measures several sides interleaved,
and ``revisions`` runs other revisions of knight in processes of their own.
The workers beside them (``ab_worker``, ``instruction_worker``) import
``named_search`` as a top-level module from this folder.
"""
