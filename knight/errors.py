"""This module defines the exception that every argument check raises."""


class InvalidArgument(ValueError):
    """Report an argument that is out of range, naming the argument and its valid range.

    Every function of ``knight`` raises this exception for a bad argument.
    It is a ``ValueError``, so code that catches ``ValueError`` catches it too.

    See Also
    --------
    solve : One of the functions that raise it.

    Examples
    --------
    >>> import knight
    >>> try:
    ...     knight.solve(0, 5)
    ... except knight.InvalidArgument as error:
    ...     print(error)
    rows must be >= 1, got 0
    >>> issubclass(knight.InvalidArgument, ValueError)
    True
    """
