"""The exception every argument check raises."""


class InvalidArgument(ValueError):
    """An argument is out of range; the message names it and the valid range."""
