"""This module gives the kernels bit and cache instructions as LLVM intrinsics.

Numba has no popcount of its own; this compiles to one ``popcnt``
instruction where the CPU has it. With the JIT disabled
(``NUMBA_DISABLE_JIT=1``, for coverage runs and debuggers) an intrinsic
cannot run, so ``popcount`` is plain Python instead.
"""

import numpy as np
from llvmlite import ir
from numba import config, types
from numba.core import cgutils
from numba.extending import intrinsic

from knight.runtime._jit import jit


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


@intrinsic
def _prefetch_intrinsic(typingctx, array, index):
    """Ask the CPU to start loading ``array[index]``'s cache line: a hint
    with no effect on results. The DP's hash insertions are cache misses;
    prefetching a batch of them before inserting overlaps their waits."""
    if not isinstance(array, types.Array) or not isinstance(index, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        data = context.make_array(array_type)(context, builder, args[0]).data
        address = builder.gep(data, [args[1]])
        byte_pointer = builder.bitcast(address, ir.IntType(8).as_pointer())
        int32 = ir.IntType(32)
        function_type = ir.FunctionType(ir.VoidType(), [byte_pointer.type, int32, int32, int32])
        function = cgutils.get_or_insert_function(builder.module, function_type, "llvm.prefetch.p0")
        # read (0), high temporal locality (3), data cache (1)
        builder.call(function, [byte_pointer, int32(0), int32(3), int32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


def _prefetch_python(array, index):
    """No cache to warm in the interpreter."""


prefetch = _prefetch_python if config.DISABLE_JIT else _prefetch_intrinsic


def _wrapping_multiply_compiled(a, b):
    """``a * b`` modulo 2^64 of two uint64s: compiled, the machine wraps."""
    return a * b


def _wrapping_multiply_python(a, b):
    """``a * b`` modulo 2^64, in Python integers: NumPy scalars wrap too but
    warn of an overflow that is here the intent (a hash)."""
    return np.uint64((int(a) * int(b)) & 0xFFFF_FFFF_FFFF_FFFF)


wrapping_multiply = (
    _wrapping_multiply_python if config.DISABLE_JIT else jit(inline="always")(_wrapping_multiply_compiled)
)
