from bench.timing.repeats import Timing, time_repeats


def test_timing_statistics():
    timing = Timing((3.0, 1.0, 2.0))
    assert (timing.median, timing.min, timing.max) == (2.0, 1.0, 3.0)
    assert timing.spread == 1.0


def test_time_repeats_prefers_the_kernel_time():
    class Answer:
        seconds = 0.5

    timing, value = time_repeats(lambda: Answer(), 3)
    assert timing.samples == (0.5, 0.5, 0.5)
    assert isinstance(value, Answer)


def test_time_repeats_times_plain_calls():
    calls = []
    timing, value = time_repeats(lambda: calls.append(1) or len(calls), 4)
    assert value == 4 and len(timing.samples) == 4 and timing.min >= 0
