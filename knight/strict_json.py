"""JSON that every parser reads: Python's ``json`` writes NaN and Infinity,
which are not JSON. A float that is not finite (a rate measured over no
work, say) is written as null instead. Pure Python: cheap to import."""

import json
import math


def finite(value):
    """``value`` with every non-finite float, at any depth, replaced by None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(item) for item in value]
    return value


def dumps(value, **options):
    """``json.dumps`` of ``finite(value)``; raises rather than write NaN."""
    return json.dumps(finite(value), allow_nan=False, **options)
