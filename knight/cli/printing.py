"""This module prints the commands' output as aligned ``name value`` fields or one JSON object.

It also formats durations."""

from knight.files import strict_json

# boards printed square by square up to this size; larger ones would only
# scroll past, so they are summarised instead
MAX_PRINTED_SQUARES = 10_000


def print_fields(out, *fields):
    """One ``name value`` line per field, the values aligned in one column."""
    for name, value in fields:
        print(f"{name:<8} {value}", file=out)


def print_json(record, out):
    print(strict_json.dumps(record), file=out)


def json_head(rows, cols, closed, start, **fields):
    """The first keys of a count's or an estimate's JSON object."""
    record = {"rows": rows, "cols": cols, "closed": closed, **fields}
    if start is not None:
        record["start"] = [start[0] + 1, start[1] + 1]
    return record


def fields_of(result, *names):
    """Some fields of a result, by name, for its JSON object."""
    return {name: getattr(result, name) for name in names}


def duration(seconds):
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:.3g} {unit}"
    return f"{seconds:.3g} seconds"
