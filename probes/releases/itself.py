"""What a release's environment installs as sdkprobe: this very sdkprobe, from wherever it came.

Each release's environment runs its own `sdkprobe` (two SDK versions cannot share one
interpreter), and it must be the same sdkprobe as the one asking. From a checkout that is
the checkout, editable. From a plain install (`pip install sdkprobe`, or of a checkout that
is gone since), it is the installed distribution itself, packed again into a wheel from the
files its RECORD lists: nothing has to be fetched, and no other copy can slip in.
"""

from __future__ import annotations

import base64
import hashlib
import json
import zipfile
from dataclasses import dataclass
from importlib.metadata import Distribution, PackageNotFoundError, distribution
from pathlib import Path

from sdkprobe.errors import UsageError

DIST = "sdkprobe"
_CHECKOUT = Path(__file__).resolve().parents[2]  # probes/releases/itself.py in a checkout
# dist-info files that say how this copy was installed, not what it is
_INSTALL_ONLY = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}


class NotInstalled(UsageError):
    """sdkprobe runs from neither a checkout nor an installed distribution."""


@dataclass(frozen=True)
class Source:
    """The pip/uv arguments that install this sdkprobe, and what identifies its content."""

    args: tuple[str, ...]
    identity: str


def source(cache: Path) -> Source:
    """How to install this sdkprobe into another environment (a wheel is built under `cache`)."""
    pyproject = _CHECKOUT / "pyproject.toml"
    if pyproject.is_file():
        return Source(("-e", str(_CHECKOUT)), f"checkout {_CHECKOUT} {_digest(pyproject.read_bytes())}")
    try:
        dist = distribution(DIST)
    except PackageNotFoundError:
        raise NotInstalled(f"sdkprobe at {_CHECKOUT.parent} is neither a checkout nor an installed package") from None
    wheel = repack(dist, cache)
    return Source((str(wheel),), f"wheel {wheel.name} {_digest(wheel.read_bytes())}")


def repack(dist: Distribution, cache: Path) -> Path:
    """The installed distribution as a wheel again: its package and metadata files, a new RECORD."""
    files = [f for f in dist.files or [] if _belongs(str(f))]
    if not any(str(f).endswith(".dist-info/WHEEL") for f in files):
        raise NotInstalled(f"the installed {DIST} {dist.version} has no WHEEL metadata to pack it from")
    contents = {str(f): Path(str(dist.locate_file(f))).read_bytes() for f in files}
    identity = _digest(json.dumps(sorted((k, _digest(v)) for k, v in contents.items())).encode())[:16]
    folder = cache / "itself" / identity
    wheel = folder / f"{DIST}-{dist.version}-py3-none-any.whl"
    if wheel.is_file():
        return wheel
    folder.mkdir(parents=True, exist_ok=True)
    info = next(k.split("/")[0] for k in contents if k.endswith(".dist-info/WHEEL"))
    record = [f"{k},sha256={_urlsafe(v)},{len(v)}" for k, v in sorted(contents.items())] + [f"{info}/RECORD,,"]
    partial = wheel.with_suffix(".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in sorted(contents.items()):
            z.writestr(name, data)
        z.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    partial.rename(wheel)
    return wheel


def _belongs(name: str) -> bool:
    """A file of the package or its metadata, not a script, a byte-code cache or an install record."""
    if name.startswith("..") or "__pycache__" in name or name.endswith(".pyc"):
        return False
    if ".dist-info/" in name:
        return name.split("/", 1)[1] not in _INSTALL_ONLY
    return name.startswith(("sdkprobe/", "sdkprobe-"))


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _urlsafe(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
