"""The --tools entry is read from the option's own line, not from another option's text naming it."""

from sdkprobe.catalogue.tools.offered import _help_entry

HELP = """Options:
  --strict-settings                     Only what the command line names:
                                        --tools names them, and ignores user
                                        settings files
  --tools <tools...>                    Specify the list of available tools. Use "" to disable all
                                        tools, "default" to use all tools
  -v, --version                         Output the version number
"""


def test_an_option_is_found_by_its_own_line_and_ends_at_the_next_option():
    assert _help_entry(HELP, "--tools") == (
        '--tools <tools...> Specify the list of available tools. Use "" to disable all tools, '
        '"default" to use all tools'
    )
    assert _help_entry(HELP, "--strict-settings").endswith("ignores user settings files")
    assert _help_entry(HELP, "--nothing") is None
