/* Client requests of valgrind's callgrind, for bench/guard/instructions.py:
 * instrumentation switched on once the first calls are done, and each
 * measured call counted from zero and dumped under its name. Built at run
 * time with `cc -shared -fPIC` and loaded by ctypes; outside valgrind every
 * request does nothing. */
#include <valgrind/callgrind.h>

void knight_callgrind_instrument(void)
{
    CALLGRIND_START_INSTRUMENTATION;
}

void knight_callgrind_zero(void)
{
    CALLGRIND_ZERO_STATS;
}

void knight_callgrind_dump(const char *name)
{
    CALLGRIND_DUMP_STATS_AT(name);
}

void knight_callgrind_stop(void)
{
    CALLGRIND_STOP_INSTRUMENTATION;
}
