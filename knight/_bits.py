"""Bit instructions for the bitboard kernel, as LLVM intrinsics.

Numba has no popcount of its own; this compiles to one ``popcnt``
instruction where the CPU has it.
"""

from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, word):
    """Number of set bits of a uint64."""
    if word != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        function = builder.module.declare_intrinsic("llvm.ctpop", [args[0].type])
        return builder.call(function, args)

    return types.uint64(types.uint64), codegen

