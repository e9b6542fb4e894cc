"""The web table: static files (HTML, ES modules, CSS, SVG, a Persian font) served by ``hokm serve`` at ``/``.

Nothing here runs on the server beyond locating the files: the client is plain ES modules with
no build step, so the package ships exactly what the browser loads.
"""

from __future__ import annotations

from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parent / "static"


def static_dir() -> Path:
    """The folder to serve at ``/`` (holds ``index.html``)."""
    return STATIC_DIR
