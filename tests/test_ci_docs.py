"""The CI examples are true: every `sdkprobe` command the workflows and docs/ci.md show is
one the parser accepts (shell variables stand for a value), so the examples cannot drift
from the commands."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from sdkprobe.commands import build_parser

ROOT = Path(__file__).resolve().parent.parent
SHOWN = [*sorted((ROOT / ".github" / "workflows").glob("*.yml")), ROOT / "docs" / "ci.md"]
# From `sdkprobe ` to the end of its shell command (a pipe, a closing `)` of $(...), `;`, `||`, `>`).
COMMAND = re.compile(r"(?<![\w/.$-])sdkprobe (?:<[^>\n]*>|[^|;)>`\n]|\$\{\{[^}]*\}\}|\$\{[^}]*\})+")


def commands(path: Path) -> list[str]:
    """The sdkprobe commands shown as code: in a workflow every line but comments, in
    Markdown the code blocks and `inline code`."""
    text = re.sub(r"\\\n\s*", " ", path.read_text())  # continued lines are one command
    if path.suffix == ".md":
        blocks = re.findall(r"```[^\n]*\n(.*?)```", text, re.S)
        spans = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
        code = "\n".join(blocks + spans)
    else:
        code = "\n".join(re.sub(r"(^|\s)#(\s.*)?$", "", line) for line in text.splitlines())
    return [m.group(0).strip() for m in COMMAND.finditer(code)]


def as_argv(command: str) -> list[str]:
    """The command's arguments, each shell or Actions expansion replaced by a sample value."""
    text = re.sub(r"\$\{TO:\+--to \"\$TO\"\}", "--to 0.2.189", command)
    text = text.replace('"$WHICH_SDK"', "all")  # update's --sdk python|ts|all
    text = re.sub(r"\$\{\{[^}]*\}\}|\"?\$\{?[A-Za-z_]+\}?\"?|<[^>]*>", "0.2.140", text)
    text = re.sub(r"@[A-Z]\b", "@0.2.140", text)  # python@X: a release named by a letter
    text = text.replace("parts/*.json", "parts/a.json")
    return shlex.split(text)[1:]


@pytest.mark.parametrize("path", SHOWN, ids=lambda p: p.name)
def test_every_sdkprobe_command_shown_parses(path):
    parser = build_parser()
    for command in commands(path):
        argv = as_argv(command)
        try:
            parser.parse_args(argv)
        except SystemExit:
            pytest.fail(f"{path.name}: `{command}` is not a command sdkprobe accepts (as {argv})")


def test_the_examples_are_found():
    found = {path.name: commands(path) for path in SHOWN}
    assert len(found["sdkprobe-every-release.yml"]) >= 6 and len(found["ci.md"]) >= 8
    assert any(c.startswith("sdkprobe gate --baseline") and "--relied-on" in c for c in found["ci.md"])


def test_a_wrong_option_in_an_example_is_noticed():
    with pytest.raises(SystemExit):
        build_parser().parse_args(as_argv('sdkprobe run --sdk-release "$SDK" --out every-release'))
