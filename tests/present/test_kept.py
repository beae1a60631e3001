"""Fixed texts kept once rendered (gm.present.kept): the same text as rendering it, read back
while nothing it depends on changed, and rendered again when something did."""

from __future__ import annotations

import os
import stat
import time

from gm.present import kept
from gm.present.reports import render_text

HELP = dict(address="gm@example.org", game=None, kinds=["neighbors"], commands=["HELP  this text"],
            press=None, empty=False)


def test_a_kept_text_is_the_rendered_text_and_is_read_back(tmp_path):
    folder = tmp_path / "kept"
    first = kept.kept_text(folder, "help", **HELP)
    assert first == render_text("help", **HELP)
    (path,) = folder.glob("help-*.txt")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(folder.stat().st_mode) == 0o700
    path.write_text("kept\n")  # read back, not rendered again
    assert kept.kept_text(folder, "help", **HELP) == "kept\n"


def test_other_values_or_another_template_file_make_another_key(tmp_path, monkeypatch):
    key = kept.key_of("help", HELP)
    assert kept.key_of("help", {**HELP, "empty": True}) != key
    assert kept.key_of("help", {**HELP, "address": "other@example.org"}) != key
    real = kept.templates_fingerprint
    monkeypatch.setattr(kept, "templates_fingerprint", lambda: real() + [("templates/mail/new.txt.j2", 1, 2)])
    assert kept.key_of("help", HELP) != key


def test_the_fingerprint_follows_each_template_file():
    names = {os.path.basename(path) for path, _, _ in kept.templates_fingerprint()}
    assert {"help.txt.j2", "refusals.txt.j2", "reports.py"} <= names


def test_a_folder_that_cannot_be_written_is_no_fault(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert kept.kept_text(blocked / "kept", "help", **HELP) == render_text("help", **HELP)


def test_a_text_written_again_forgets_the_templates_texts_a_week_old(tmp_path):
    old = tmp_path / "help-old.txt"
    old.write_text("old")
    week = time.time() - 8 * 86400
    os.utime(old, (week, week))
    other = tmp_path / "welcome-old.txt"
    other.write_text("another template's")
    os.utime(other, (week, week))
    kept.kept_text(tmp_path, "help", **HELP)
    assert not old.exists() and other.exists()
