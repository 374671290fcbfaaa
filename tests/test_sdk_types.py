"""What the harness reads off the installed SDK for probes: a TypedDict's keys, and the
config dir its disk-reading functions look in."""

from __future__ import annotations

import os

import pytest

from sdkprobe.harness import config_dir_env, typed_keys


def test_typed_keys_are_a_typeddicts_declared_keys_or_none_when_the_sdk_lacks_it():
    keys = typed_keys("SyncHookJSONOutput")
    assert keys is not None and "continue_" in keys and "decision" in keys
    assert typed_keys("SdkprobeNoSuchOutput") is None


@pytest.mark.parametrize("before", [None, "/caller/config"])
def test_the_config_dir_is_set_while_inside_and_the_callers_value_comes_back(monkeypatch, tmp_path, before):
    if before is None:
        monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    else:
        monkeypatch.setenv("CLAUDE_CONFIG_DIR", before)
    with pytest.raises(RuntimeError), config_dir_env(tmp_path):
        assert os.environ["CLAUDE_CONFIG_DIR"] == str(tmp_path)
        raise RuntimeError("a probe's call failed")
    assert os.environ.get("CLAUDE_CONFIG_DIR") == before
