"""Headless Chromium: the DOM, a PNG, or the layout at a given width of an archive page.

    python -m gm.runtime.browser screenshot DIR out.png [PAGE]
                                         (Debian: apt-get install -y chromium)
"""

from __future__ import annotations

import html
import json
import os
import re
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


# Measured in the page once it loaded, and handed to the frame round it (a file page may not
# read another's DOM, but may post it a message).
MEASURE = """<script>
addEventListener("load", () => {
  const box = e => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, width: r.width}; };
  parent.postMessage(JSON.stringify({
    width: innerWidth, scroll_width: document.documentElement.scrollWidth,
    images: [...document.images].map(i => ({src: i.getAttribute("src"), alt: i.alt,
                                           natural_width: i.naturalWidth, ...box(i)})),
    boxes: [...document.querySelectorAll("div.scroll")].map(d => ({client_width: d.clientWidth,
                                                                   scroll_width: d.scrollWidth, ...box(d)})),
  }), "*");
});
</script>"""
FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe src="page.html" style="width:{width}px;height:{height}px;border:0"></iframe>
<script>addEventListener("message", e => document.body.setAttribute("data-layout", e.data))</script>
</body></html>"""
LAYOUT = re.compile(r'data-layout="([^"]*)"')


def layout(page: str | Path, width: int, height: int = 900) -> dict:
    """How a page lays out in a viewport ``width`` pixels wide: the viewport's width and the
    document's (``scroll_width``: wider means the page scrolls sideways), each image (src,
    alt, natural_width: 0 if it did not load, left/right/width as drawn) and each scrolling
    box (div.scroll: client_width, scroll_width, left/right/width).  The page is shown in a
    frame of that width (a headless window is never narrower than 500 pixels), a copy with
    a <base> at its folder (its style sheet and pictures) and a script that measures it."""
    page = existing_page(page).resolve()
    text = page.read_text(encoding="utf-8")
    base = f'<base href="{html.escape(page.parent.as_uri())}/">'
    text = text.replace("<head>", "<head>" + base, 1) if "<head>" in text else base + text
    text = text.replace("</body>", MEASURE + "</body>", 1) if "</body>" in text else text + MEASURE
    with tempfile.TemporaryDirectory(prefix="gm-layout-") as folder:
        (Path(folder) / "page.html").write_text(text, encoding="utf-8")
        (Path(folder) / "frame.html").write_text(FRAME.format(width=width, height=height), encoding="utf-8")
        result = _chromium([f"--window-size={max(width, 500) + 20},{height}", "--virtual-time-budget=10000",
                            "--dump-dom", (Path(folder) / "frame.html").as_uri()])
    found = LAYOUT.search(result.stdout.decode("utf-8", errors="replace"))
    if result.returncode != 0 or found is None:
        raise RuntimeError(f"chromium gave no layout: {result.stderr.decode(errors='replace')[-500:]}")
    return json.loads(html.unescape(found.group(1)))


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
