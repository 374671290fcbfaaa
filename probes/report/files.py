"""Report, matrix and history files: destinations checked before any work, files written
whole or not at all.

A run takes minutes, so a destination it cannot write is found before the first probe. A
file is written to a temporary file beside it and renamed over the old one, so an error or
a Ctrl-C while writing never leaves half a report where a good one was. Every failure is
one line (ReportError).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path

from sdkprobe.report.errors import ReportError


def check_writable(path: Path) -> None:
    """ReportError unless `path` can be written: not a folder, and its folder exists (or can
    be made) and takes a new file."""
    path = Path(path)
    if path.is_dir():
        raise ReportError(f"cannot write {path}: it is a folder")
    missing = [f for f in (path.parent, *path.parent.parents) if not f.exists()]
    _make_folder(path.parent)
    try:
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", suffix=".check"):
            pass
    except OSError as exc:
        raise ReportError(f"cannot write into {path.parent}: {exc.strerror or exc}") from None
    finally:
        for folder in missing:  # the check leaves nothing behind; the write makes them again
            with contextlib.suppress(OSError):
                folder.rmdir()


def write_atomic(path: Path, data: bytes) -> None:
    """`data` at `path`, whole: written beside it, synced, then renamed over it (the mode of
    the file it replaces is kept; a new one gets the usual mode under the umask)."""
    path = Path(path)
    if path.is_dir():
        raise ReportError(f"cannot write {path}: it is a folder")
    _make_folder(path.parent)
    try:
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise ReportError(f"cannot write into {path.parent}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, _mode_for(path))
        os.replace(temp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise ReportError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise


def _make_folder(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise ReportError(f"cannot write into {folder}: it is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportError(f"cannot make the folder {folder}: {exc.strerror or exc}") from None


def _mode_for(path: Path, new: int = 0o666) -> int:
    """The mode `path` has, so replacing it keeps it; for a path not there yet, `new` as the
    umask leaves it (0o666 for a file, 0o777 for a folder)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return new & ~umask


def check_folder_writable(folder: Path) -> None:
    """ReportError unless `folder` can be replaced as a whole: not a file, and its parent takes
    a new folder beside it (what replace_folder makes first)."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ReportError(f"cannot write {folder}: it is not a folder")
    check_writable(folder.parent / f".{folder.name}.check")


def replace_folder(folder: Path, files: Mapping[str, bytes]) -> None:
    """`folder` holding exactly `files` (path in it -> data), whole: they are written into a new
    folder beside it, which then takes its place, so a reader sees the old pages or the new,
    never a mix, and no page of a behaviour gone stays behind."""
    folder = Path(folder)
    _make_folder(folder.parent)
    try:
        new = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.", suffix=".tmp"))
    except OSError as exc:
        raise ReportError(f"cannot write into {folder.parent}: {exc.strerror or exc}") from None
    old = new.with_suffix(".old")
    try:
        for name, data in files.items():
            (new / name).parent.mkdir(parents=True, exist_ok=True)
            (new / name).write_bytes(data)  # a new folder: no reader sees it before it is whole
        os.chmod(new, _mode_for(folder, 0o777))
        if folder.is_dir():
            os.replace(folder, old)
        os.replace(new, folder)
    except BaseException as exc:
        shutil.rmtree(new, ignore_errors=True)
        if old.exists() and not folder.exists():
            os.replace(old, folder)  # put the old pages back
        if isinstance(exc, OSError):
            raise ReportError(f"cannot write {folder}: {exc.strerror or exc}") from None
        raise
    shutil.rmtree(old, ignore_errors=True)
