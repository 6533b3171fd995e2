"""This module binds the plain-Python reference to one search, for CPython and for PyPy.

The reference is bench/baselines/python.py. CPython calls it in process and
PyPy in its worker. The call and an empty function of the same arguments are
wrapped alike. The module uses the standard library only, because PyPy runs
it.

Plain Python is some hundred times slower than compiled code, so it runs
the first ``budget_cap`` nodes of the search; nodes per second is what
compares, and its node count must be the compiled sides' capped at that."""

from bench.baselines import python as naive


def _empty_search(*arguments):
    return "none", 0, None


def _empty_count(*arguments):
    return "none", 0, 0


def bind(method, rows, cols, start, closed, budget, tiebreak, budget_cap):
    """``(call, empty)``; each returns ``(status word, nodes)``."""
    arguments = (rows, cols, tuple(start), closed, min(budget, budget_cap))
    if method == "count":
        # count's answer is (status, tours, nodes); the searches' (status, nodes, path)
        return _answering(naive.count, arguments, 2), _answering(_empty_count, arguments, 2)
    if method != "backtrack":
        arguments += (tiebreak,)
    return _answering(getattr(naive, method), arguments, 1), _answering(_empty_search, arguments, 1)


def _answering(function, arguments, nodes_at):
    def call():
        answer = function(*arguments)
        return answer[0], answer[nodes_at]

    return call
