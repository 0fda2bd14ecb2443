"""Where the Jinja templates and the static assets live, and where the data lives.

The repository keeps ``templates/`` and ``static/`` at its top level; the wheel ships them
inside this package (``force-include`` in pyproject.toml). This is the one place that
knows both.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import platformdirs

from app.settings import Settings

_PACKAGE_DIR = Path(__file__).resolve().parent


def _data_dir(name: str) -> Path:  # app/<name> in an installed wheel, else <checkout>/<name>
    bundled = _PACKAGE_DIR / name
    return bundled if bundled.is_dir() else _PACKAGE_DIR.parent / name


TEMPLATES_DIR: Final = _data_dir("templates")
"""The Jinja templates (pages, ``partials/`` fragments, the error page)."""

STATIC_DIR: Final = _data_dir("static")
"""Stylesheets, scripts, images and the vendored htmx, served under ``/static``."""


def data_folder(settings: Settings) -> Path:
    """Where the race file and the results' SQLite file live: ``ZZV_DATA_DIR``, else
    ``zoom-zoom-vroom`` in the user's data folder."""
    return settings.data_dir or Path(platformdirs.user_data_dir("zoom-zoom-vroom", appauthor=False))
