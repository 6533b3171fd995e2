"""This module holds the pytest hooks of the benchmark suite in bench/guard/test_speed.py."""


def pytest_benchmark_update_machine_info(config, machine_info):
    # a numba or llvmlite upgrade changes the machine code as much as a
    # kernel edit does, so every saved run says which compiler made it
    import llvmlite
    import numba
    import numpy

    machine_info["numba"] = numba.__version__
    machine_info["llvmlite"] = llvmlite.__version__
    machine_info["numpy"] = numpy.__version__
