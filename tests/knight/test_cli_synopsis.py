"""The command-line synopsis of docs/cli.md against the parser it
describes: an option added, removed or renamed in knight/cli/ fails here
until docs/cli.md says so too."""

import pathlib
import re

import pytest

from knight import cli

# the command line's reference page (the README links it)
README = (pathlib.Path(__file__).parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
# the shared bullet: "- `--svg FILE` on `solve` and `count` ..."
SHARED = {"solve": {"--svg"}, "count": {"--svg"}}


def _parser_options(mode):
    commands = next(action for action in cli.build_parser()._actions if action.choices)
    parser = commands.choices[mode]
    return {name for action in parser._actions for name in action.option_strings if name.startswith("--")} - {"--help"}


def _readme_synopsis(mode):
    """The text of the README's bullet for ``mode``, up to its description."""
    found = re.search(rf"^- `knight {mode} (.*?)`:(.*?)(?=^- |\Z)", README, re.S | re.M)
    assert found, f"README has no synopsis bullet for 'knight {mode}'"
    head, rest = found.groups()
    # count's second form, `--total [...]`, is quoted in its description
    extra = re.findall(r"`(--total [^`]*)`", rest)
    return " ".join([head, *extra])


@pytest.mark.parametrize("mode", ["solve", "count", "estimate", "exists"])
def test_the_readme_names_every_option_of_each_mode_and_no_other(mode):
    named = set(re.findall(r"--[a-z][a-z-]*", _readme_synopsis(mode))) | SHARED.get(mode, set())
    assert named == _parser_options(mode)


def test_the_scheduler_address_reads_the_same_in_the_readme_and_the_help():
    commands = next(action for action in cli.build_parser()._actions if action.choices)
    scheduler = next(action for action in commands.choices["count"]._actions if "--scheduler" in action.option_strings)
    form = re.search(r"\[--scheduler ([^\]\s]*\][^\]\s]*)\]", _readme_synopsis("count")).group(1)
    assert form == "[tcp|tls|ws|wss://]HOST:PORT" and form in scheduler.help
