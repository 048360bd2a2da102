"""The browser game: a static page (HTML, CSS, JS modules) served by ``spades serve`` at ``/``.

Nothing here is imported by the rest of the package; the server mounts :data:`STATIC_DIR`.
"""

from __future__ import annotations

from pathlib import Path

#: The folder to mount at ``/`` (``index.html`` is the page).
STATIC_DIR = Path(__file__).resolve().parent / "static"

__all__ = ["STATIC_DIR"]
