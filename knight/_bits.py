"""Bit instructions for the bitboard kernel, as LLVM intrinsics.

Numba has no popcount of its own; this compiles to one ``popcnt``
instruction where the CPU has it. With the JIT disabled
(``NUMBA_DISABLE_JIT=1``, for coverage runs and debuggers) an intrinsic
cannot run, so ``popcount`` is plain Python instead.
"""

from numba import config, types
from numba.extending import intrinsic


@intrinsic
def _popcount_intrinsic(typingctx, word):
    """Number of set bits of a uint64."""
    if word != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        function = builder.module.declare_intrinsic("llvm.ctpop", [args[0].type])
        return builder.call(function, args)

    return types.uint64(types.uint64), codegen


def _popcount_python(word):
    """Number of set bits of a uint64, for the interpreter."""
    return bin(int(word)).count("1")


popcount = _popcount_python if config.DISABLE_JIT else _popcount_intrinsic
