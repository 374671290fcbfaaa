"""The normaliser removes what would make reports differ between runs or leak secrets."""

from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from sdkprobe.harness.normalise import normalise


def test_paths_ids_keys_and_timings_are_replaced():
    value = {
        "cwd": "/tmp/sdkprobe-abc/work/sub",
        "session_id": "0f8fad5b-d9cb-469f-a165-70867728950e",
        "key": "sk-ant-" + "api03-abcdefghijklmnop",
        "request": "req_1_ab12cd34",
        "duration_ms": 123,
        "other": "/tmp/pytest-7/file",
        "error": "Connection to http://127.0.0.1:40123/v1 failed",
    }
    out = normalise(value, paths=[("/tmp/sdkprobe-abc/work", "<CWD>")])
    assert out == {
        "cwd": "<CWD>/sub",
        "session_id": "<UUID>",
        "key": "<API-KEY>",
        "request": "req_<N>",
        "duration_ms": "<T>",
        "other": "<TMP>/file",
        "error": "Connection to http://127.0.0.1:<PORT>/v1 failed",
    }


def test_named_secret_is_removed_anywhere():
    assert normalise(["x-canary-secret-y"], secrets=["canary-secret"]) == ["x-<SECRET>-y"]


def test_dataclasses_become_typed_dicts():
    @dataclass
    class Msg:
        text: str

    assert normalise(Msg("hi")) == {"_type": "Msg", "text": "hi"}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_normalising_twice_changes_nothing(value):
    once = normalise(value)
    assert normalise(once) == once


def test_the_folder_sdkprobe_was_started_from_is_named(tmp_path, monkeypatch):
    """An SDK that hands its own environment on (the TypeScript one passes PWD) must
    not write where the checkout lies into a report."""
    started = tmp_path / "checkout"
    started.mkdir()
    monkeypatch.chdir(started)
    monkeypatch.setenv("PWD", "/srv/elsewhere/link")
    out = normalise({"PWD": str(started), "shell": "/srv/elsewhere/link/x", "other": "/srv/elsewhere"})
    assert out == {"PWD": "<INVOKING-DIR>", "shell": "<INVOKING-DIR>/x", "other": "/srv/elsewhere"}


def test_started_from_the_temporary_folder_its_paths_stay_temporary(monkeypatch):
    """Run from /tmp itself, naming the start folder would turn every temporary path into a
    random one under it: a report would differ from run to run."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", "/tmp")
    monkeypatch.chdir("/tmp")
    monkeypatch.setenv("PWD", "/tmp")
    assert normalise("/tmp/pytest-9/x") == "<TMP>/x"
