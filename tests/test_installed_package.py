"""What is installed is what is tested: every file gm reads at run time is in the package.

scripts/test-installed builds the wheel (``python -m build``), installs it into a fresh venv
outside the repository and runs this file and the mail tests of passwords, codes and the archive
there, with GM_SOURCE_TREE naming the repository and GM_WHEEL the wheel: gm must then come from
that venv's site-packages, never from the tree, and the wheel must hold every file of the
package folders.  In the ordinary run (the editable install) the same files must be there."""

from __future__ import annotations

import os
import zipfile
from importlib.resources import files
from pathlib import Path

import pytest

import gm
from games.registry import available
from gm.core import passwords
from gm.present import archive


def test_gm_is_the_installed_package_when_the_installed_run_says_so():
    tree = os.environ.get("GM_SOURCE_TREE")
    if not tree:
        pytest.skip("the ordinary run: gm is the tree itself (an editable install)")
    here = Path(gm.__file__).resolve()
    assert not here.is_relative_to(Path(tree).resolve()), here
    assert "site-packages" in here.parts, here


def test_the_wheel_holds_every_file_of_the_package_folders():
    """Each file under gm/, games/ and templates/ (the rules pages through the link
    gm/present/rulepages) is in the wheel: a module, template or data file left out of
    pyproject.toml's packages or package-data fails here, by name, before a command needs it."""
    tree, wheel = os.environ.get("GM_SOURCE_TREE"), os.environ.get("GM_WHEEL")
    if not (tree and wheel):
        pytest.skip("the ordinary run: no wheel was built")
    root = Path(tree)
    wanted = {path.relative_to(root).as_posix()
              for top in ("gm", "games", "templates")
              for folder, _, names in os.walk(root / top, followlinks=True) if "__pycache__" not in folder
              for path in (Path(folder) / name for name in names) if path.suffix != ".pyc"}
    assert {"gm/core/common_passwords.txt", "gm/present/rulepages/neighbors.md", "templates/mail/help.txt.j2"} <= wanted
    with zipfile.ZipFile(wheel) as archive_file:
        held = set(archive_file.namelist())
    assert sorted(wanted - held) == []


def test_the_deny_list_of_common_passwords_is_package_data():
    assert passwords.common_file().is_file()
    assert "password123" in passwords.common_passwords()
    assert passwords.chosen_problem("password123") is not None


def test_every_game_s_rules_page_is_package_data(tmp_path):
    for kind in available():
        name, written = archive.write_rules(tmp_path, kind)
        assert name == archive.rules_name(kind) and written, kind
        assert (tmp_path / name).read_bytes() == archive.rules_dir().joinpath(f"{kind}.md").read_bytes()


def test_the_templates_are_package_data():
    root = files("templates")
    for name in ("report.txt.j2", "archive/game.html.j2", "archive/index.html.j2", "archive/archive.css.j2",
                 "mail/help.txt.j2"):
        assert root.joinpath(name).is_file(), name
