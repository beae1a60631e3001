"""gm, a play-by-email game master.

``__version__`` is gm's version, written here once: pyproject.toml reads it from this line
(``[tool.setuptools.dynamic]``) for the package metadata, and ``gm --version`` and every report
gm renders take it from here without reading the installed metadata.
"""

__version__ = "0.2.0"
