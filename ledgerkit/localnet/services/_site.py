"""A built docs site for the local docs host: the HTML that ``make docs`` writes.

When the docs host has a :class:`BuiltSite`, a browser asking for a page gets the site's
HTML of that page instead of the small page rendered from its Markdown, and the site's
other files (its style sheets, scripts, images, the API reference and the notebooks) are
served at their paths. Markdown, ``llms.txt`` and everything else stay as they are.

:meth:`BuiltSite.found` says which site the local node serves: the directory named by
``$LEDGERKIT_DOCS_SITE`` (empty: none), else, for a ledgerkit imported from a source
checkout, the checkout's ``build/docs/html`` when it has been built.

A request never reaches a file the site does not hold: a path is looked up only when each
of its segments is a plain name (no ``..``, no hidden files), its extension is one of
:data:`SITE_MEDIA_TYPES`, and the file it names is inside the site's directory.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path
from typing import Final, NamedTuple

__all__ = ["SITE_ENV", "SITE_MEDIA_TYPES", "BuiltSite", "SiteFile"]

_log = logging.getLogger("ledgerkit.localnet")

#: The environment variable naming the site's directory (set but empty: no site).
SITE_ENV: Final = "LEDGERKIT_DOCS_SITE"
#: The files of a site that are served, by extension, and their media types (text in UTF-8).
SITE_MEDIA_TYPES: Final = {
    ".html": "text/html",
    ".css": "text/css",
    ".js": "text/javascript",
    ".json": "application/json",
    ".map": "application/json",
    ".txt": "text/plain",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
}
#: One segment of a served path: a plain file or directory name, never hidden.
_SEGMENT: Final = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,127}")
#: Most segments in a served path.
_MAX_DEPTH: Final = 8


class SiteFile(NamedTuple):
    """A file of the site: where it is and the media type it is served with."""

    path: Path
    media_type: str


class BuiltSite:
    """A directory of static HTML built from ledgerkit's docs (``build/docs/html``).

    Parameters
    ----------
    root : Path
        The directory; it must hold ``index.html``.

    Raises
    ------
    ValueError
        ``root`` holds no ``index.html``.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root).resolve()
        if not (self.root / "index.html").is_file():
            raise ValueError(f"{self.root} holds no index.html: not a built docs site")

    def __repr__(self) -> str:
        return f"BuiltSite({str(self.root)!r})"

    @classmethod
    def found(cls) -> BuiltSite | None:
        """The site the local node serves, or None (see the module's docstring).

        A ``$LEDGERKIT_DOCS_SITE`` that names no built site is logged and ignored.
        """
        configured = os.environ.get(SITE_ENV)
        if configured is not None:
            if not configured.strip():
                return None
            try:
                return cls(Path(configured).expanduser())
            except ValueError as exc:
                _log.warning("%s: %s; the docs host serves the Markdown pages", SITE_ENV, exc)
                return None
        checkout = Path(__file__).resolve().parents[3]
        built = checkout / "build" / "docs" / "html"
        if (checkout / "docs" / "__init__.py").is_file() and (built / "index.html").is_file():
            return cls(built)
        return None

    def page(self, name: str) -> SiteFile | None:
        """The site's HTML of the page called ``name`` (``index`` is the home page)."""
        return self.file(f"{name}.html")

    def file(self, path: str) -> SiteFile | None:
        """The file at ``path`` (relative, ``/``-separated, as in a URL), or None when the
        site holds no such file or the path is not one that is served."""
        segments = path.split("/")
        if len(segments) > _MAX_DEPTH or not all(_SEGMENT.fullmatch(s) for s in segments):
            return None
        media_type = SITE_MEDIA_TYPES.get(os.path.splitext(segments[-1])[1].lower())
        if media_type is None:
            return None
        try:
            found = self.root.joinpath(*segments).resolve(strict=True)
        except OSError:
            return None
        if not found.is_relative_to(self.root) or not found.is_file():
            return None
        return SiteFile(found, media_type)
