"""Debian's chromium, headless, for the tests that look at a page in a real browser: the HTML
matrix's and the site's. Without chromium those tests skip and say so (apt-get install -y
chromium fonts-noto-color-emoji; .ci/run installs both). Chromium's headless window is never
narrower than 500 px, so phone-width checks load the page in an iframe of that width and read
the layout from there when it has loaded (no sleeps).
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium not installed (apt-get install -y chromium fonts-noto-color-emoji)"
)


def browser(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp_path / "profile"
    profile.mkdir(exist_ok=True)
    return subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={profile}",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def in_frame(tmp_path: Path, page: Path, width: int, height: int, script: str) -> dict:
    """Load the page in a width x height iframe and return what `script` put in `out`
    (run with `w`, `d` the frame's window and document, once the frame has loaded)."""
    harness = page.with_name(f"harness-{width}-{len(list(page.parent.glob('harness-*')))}.html")
    harness.write_text(
        f"""<!DOCTYPE html><meta charset="utf-8"><body style="margin:0">
<iframe id="f" src="{page.name}" style="width:{width}px;height:{height}px;border:0"></iframe>
<pre id="out">not loaded</pre>
<script>
document.getElementById('f').addEventListener('load', function () {{
  var w = this.contentWindow, d = w.document, out = {{}};
  try {{ {script} }} catch (e) {{ out = {{error: String(e)}}; }}
  document.getElementById('out').textContent = JSON.stringify(out);
}});
</script>""",
        encoding="utf-8",
    )
    dom = browser(tmp_path, "--allow-file-access-from-files", "--dump-dom", harness.resolve().as_uri()).stdout
    found = re.search(r'<pre id="out">(.*?)</pre>', dom, re.DOTALL)
    assert found, "chromium did not dump the harness"
    out = json.loads(html.unescape(found.group(1)))
    assert "error" not in out, out
    return out
