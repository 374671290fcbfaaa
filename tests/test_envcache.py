"""Release environments belong to one sdkprobe: a run from another checkout on the machine
never reinstalls (and so never breaks) the environment a run of this one is using."""

from __future__ import annotations

from sdkprobe.releases.envcache import EnvCache


def test_two_checkouts_get_environments_of_their_own(tmp_path):
    one = EnvCache(root=tmp_path, project=tmp_path / "checkout-one", uv="/bin/false")
    other = EnvCache(root=tmp_path, project=tmp_path / "checkout-two", uv="/bin/false")
    assert one.path("0.2.82") != other.path("0.2.82")
    assert one.path("0.2.82").parent == other.path("0.2.82").parent == tmp_path
    assert one.path("0.2.82").name.startswith("0.2.82-")


def test_the_same_checkout_finds_its_environment_again(tmp_path):
    first = EnvCache(root=tmp_path, project=tmp_path / "checkout", uv="/bin/false")
    again = EnvCache(root=tmp_path, project=tmp_path / "checkout", uv="/bin/false")
    assert first.path("0.2.82") == again.path("0.2.82") != first.path("0.2.139")


def test_one_checkouts_ready_environment_is_not_anothers(tmp_path):
    """A marker written for one checkout's environment leaves the other's not ready, so the
    other installs beside it instead of over it."""
    import json

    one = EnvCache(root=tmp_path, project=tmp_path / "checkout-one", uv="/bin/false")
    other = EnvCache(root=tmp_path, project=tmp_path / "checkout-two", uv="/bin/false")
    one.path("0.2.82").mkdir()
    (one.path("0.2.82") / "sdkprobe-env.json").write_text(json.dumps(one.wanted("0.2.82")))
    assert one.is_ready("0.2.82") and not other.is_ready("0.2.82")
