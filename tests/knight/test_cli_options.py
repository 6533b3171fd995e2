"""Every option of every mode of the command line (issue 29, item 8): each
one a mode does not take is refused in one line with exit status 2 and
nothing written, never accepted and ignored (``count --total --svg F``
exited 0 and wrote nothing). The walk reads the options from the parser
itself, so an option added later must be classified here."""

import contextlib
import io

import pytest

from knight import cli, exit_status

# a mode: its command line, and the options it takes; every other option
# of its subcommand must be refused. Values each option is tried with:
VALUES = {
    "--start": "1,1",
    "--method": None,  # per mode below: a value that mode runs
    "--tiebreak": "roth",
    "--budget": "100000",
    "--closed": None,
    "--plain": None,
    "--depth": "2",
    "--workers": "1",
    "--scheduler": "tcp://127.0.0.1:9",
    "--resume": "FILE",
    "--memory": "1GiB",
    "--disk": "1GiB",
    "--total": None,
    "--every-width": None,
    "--json": None,
    "--svg": "FILE",
    "--probes": "20",
    "--seed": "1",
}
# options that need something this test does not start (a Dask cluster):
# checked for refusal only
NEEDS_A_CLUSTER = {"--scheduler"}

MODES = {
    "solve warnsdorff": (
        ["solve", "5", "5", "--method", "warnsdorff"],
        {"--start", "--method", "--tiebreak", "--budget", "--closed", "--json", "--svg"},
    ),
    "solve backtrack": (
        ["solve", "5", "5", "--method", "backtrack"],
        {"--start", "--method", "--budget", "--closed", "--json", "--svg"},
    ),
    "count dfs grid": (
        ["count", "3", "4", "--method", "dfs"],
        {"--method", "--budget", "--closed", "--plain", "--depth", "--workers", "--scheduler", "--resume"}
        | {"--json", "--svg", "--start"},
    ),
    "count dp": (
        ["count", "3", "4", "--method", "dp"],
        # --total: the dp's total alone, the mode below
        {"--method", "--closed", "--scheduler", "--resume", "--memory", "--disk", "--json", "--svg", "--start"}
        | {"--total"},
    ),
    "count --total": (
        ["count", "3", "4", "--total"],
        {"--method", "--closed", "--scheduler", "--resume", "--memory", "--disk", "--json", "--total", "--every-width"},
    ),
    "count --total --every-width": (
        ["count", "3", "4", "--total", "--every-width"],
        {"--method", "--closed", "--memory", "--json", "--total", "--every-width"},
    ),
    "estimate": (["estimate", "5", "5"], {"--start", "--closed", "--probes", "--seed", "--json"}),
    "exists": (["exists", "5", "5"], {"--closed", "--json"}),
}
# pairs a mode takes alone but not together: --svg draws every start's
# count (tests/knight/test_cli_svg.py)
NOT_TOGETHER = {
    ("count dfs grid", "--svg", "--start"),
    ("count dp", "--svg", "--start"),
    # local threads are the dfs's only off a cluster: they were ignored on one
    ("count dfs grid", "--workers", "--scheduler"),
}


def _options(command):
    parser = cli.build_parser()
    subparsers = next(action for action in parser._actions if action.dest == "command")
    return {
        option
        for action in subparsers.choices[command]._actions
        for option in action.option_strings
        if option.startswith("--") and option != "--help"
    }


def test_every_option_of_every_mode_is_classified():
    for name, (argv, takes) in MODES.items():
        options = _options(argv[0])
        assert takes <= options, name
        assert options <= set(VALUES), f"{options - set(VALUES)}: give each new option a value and a mode"


def _argv(argv, option, tmp_path):
    if option == "--method":
        return list(argv)  # the mode's own --method is the one tried
    value = VALUES[option]
    if value == "FILE":
        value = str(tmp_path / ("drawing.svg" if option == "--svg" else "resume.file"))
    return [*argv, option] if value is None else [*argv, option, value]


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = cli.main(argv, out=out)
    return status, out.getvalue(), err.getvalue()


CASES = [(name, option) for name, (argv, _) in MODES.items() for option in sorted(_options(argv[0]))]


@pytest.mark.parametrize(("mode", "option"), CASES, ids=[f"{mode}:{option}" for mode, option in CASES])
def test_an_option_is_taken_or_refused_in_one_line(tmp_path, mode, option):
    argv, takes = MODES[mode]
    status, out, err = _run(_argv(argv, option, tmp_path))
    if option in takes:
        if option in NEEDS_A_CLUSTER:
            return  # nothing listens there: the refusal names the address, not the option
        assert status == 0, err
        return
    assert status == exit_status.EXIT_USAGE, f"{mode} accepted {option}: {err or out}"
    assert out == "" and err.startswith("knight: error: ") and err.count("\n") == 1
    assert option.lstrip("-").split("-")[0] in err or option in err, err
    assert list(tmp_path.iterdir()) == [], "a refused command wrote a file"


@pytest.mark.parametrize(("mode", "first", "second"), sorted(NOT_TOGETHER))
def test_options_taken_alone_but_not_together_are_refused(tmp_path, mode, first, second):
    argv, _ = MODES[mode]
    status, out, err = _run(_argv(_argv(argv, first, tmp_path), second, tmp_path))
    assert status == exit_status.EXIT_USAGE and out == "" and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


VALUED = sorted(
    {option for _, (argv, _) in MODES.items() for option in _options(argv[0]) if VALUES[option] is not None}
)


@pytest.mark.parametrize("option", VALUED)
@pytest.mark.parametrize("value", ["--", "--=--"])
def test_a_value_that_looks_like_an_option_is_the_option_s_text(tmp_path, monkeypatch, option, value):
    """``--memory=--``: the argparse of Python 3.11 handed the option an
    empty list, and its check ended in a traceback. Every mode that takes
    the option reads it as the text given: taken (a file of that name), or
    refused in one line."""
    if (option, value) == ("--svg", "-"):
        pytest.skip("--svg - is standard output, the text then on stderr: test_cli_svg's")
    monkeypatch.chdir(tmp_path)  # a FILE option's file, made here
    for name, (argv, takes) in MODES.items():
        if option not in takes or option in NEEDS_A_CLUSTER:
            continue
        status, _, err = _run([*argv, f"{option}={value}"])
        assert status in (0, exit_status.EXIT_USAGE), f"{name} {option}={value}: {err}"
        assert err.count("\n") <= 1 and "Traceback" not in err, err
