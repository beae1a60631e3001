"""Headless Chromium: the DOM or a PNG of an archive page.

    python -m gm.runtime.browser screenshot DIR out.png [PAGE]
                                         (Debian: apt-get install -y chromium)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars"]


class BrowserMissing(RuntimeError):
    pass


class PageMissing(FileNotFoundError):
    """The page to load is not there (Chromium would show its own error page, and exit 0)."""


def existing_page(page: str | Path) -> Path:
    """The page, if it is a file; PageMissing (one line naming it) if not."""
    page = Path(page)
    if not page.is_file():
        raise PageMissing(f"no page {page}: nothing to photograph (is the archive built there? gm archive build DIR)")
    return page


# --- the browser --------------------------------------------------------------------
def find_browser() -> str:
    for name in (os.environ.get("GM_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    raise BrowserMissing("no headless Chromium found: apt-get install -y chromium "
                         "(or set GM_CHROMIUM to a Chrome/Chromium binary)")


def _chromium(args: list[str], timeout: float = 60) -> subprocess.CompletedProcess:
    browser = find_browser()
    with tempfile.TemporaryDirectory(prefix="gm-chromium-") as profile:
        return subprocess.run([browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, timeout=timeout, check=False)


def dump_dom(page: str | Path) -> str:
    """The DOM of a page after Chromium loaded and laid it out."""
    result = _chromium(["--dump-dom", existing_page(page).resolve().as_uri()])
    if result.returncode != 0:
        raise RuntimeError(f"chromium failed: {result.stderr.decode(errors='replace')[-500:]}")
    return result.stdout.decode("utf-8", errors="replace")


def screenshot(page: str | Path, out: str | Path, size: str = "1000,1400") -> Path:
    """A PNG of a page, for a person to look at; PageMissing if there is no such page."""
    page = existing_page(page)
    out = Path(out).resolve()
    result = _chromium([f"--screenshot={out}", f"--window-size={size}", page.resolve().as_uri()])
    if result.returncode != 0 or not out.exists():
        raise RuntimeError(f"chromium failed: {result.stderr.decode(errors='replace')[-500:]}")
    return out


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[0] != "screenshot":
        print("usage: python -m gm.runtime.browser screenshot DIR out.png [PAGE]", file=sys.stderr)
        return 2
    directory, out = Path(argv[1]), Path(argv[2])
    page = directory / (argv[3] if len(argv) > 3 else "index.html")
    if directory.is_file():
        page = directory
    try:
        print(screenshot(page, out))
    except (BrowserMissing, PageMissing, RuntimeError) as exc:
        print(f"gm: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
