"""Sphinx configuration of the docs site (``make docs``: ``build/docs/html``).

The site is built offline and loads nothing from another host: no intersphinx (it would
download inventories), no icon links, analytics or fonts from a CDN. Its pages are the
Markdown guides of this directory (which the local docs host also serves, so they stay
plain Markdown), the site-only pages of ``guide/``, ``examples/`` and ``api/``, and the
notebooks of the repository's ``notebooks/`` (through the ``notebooks`` link), shown with
the outputs they were committed with. What Sphinx adds beyond its own extensions is in
``_ext/ledgerkit_site.py``; ``_ext/ledgerkit_markdown.py`` writes every page's Markdown
beside its HTML, and ``llms.txt`` and ``llms-full.txt`` at the root.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# This checkout's ledgerkit, whatever else is installed; and the site's own extension.
sys.path[:0] = [str(HERE.parent), str(HERE / "_ext")]

import ledgerkit  # noqa: E402

project = "ledgerkit"
author = "The ledgerkit developers"
copyright = "the ledgerkit developers"
release = ledgerkit.__version__
version = release

extensions = [
    "myst_nb",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx_copybutton",
    "sphinx_design",
    "ledgerkit_site",
    "ledgerkit_markdown",
]

root_doc = "index"
exclude_patterns = ["_ext", "**/.ipynb_checkpoints"]
#: The top of the navigation (the home page's hidden toctree, added by ledgerkit_site).
ledgerkit_navigation = [
    "getting-started",
    "guide/index",
    "examples/index",
    "api/index",
    "contributing",
]

# -- MyST and notebooks ----------------------------------------------------------------------

# Anchors as GitHub (and the local docs host) make them, so ``localnet.md#the-docs-host``
# lands on the site too.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
# The notebooks are committed executed (nbval checks their outputs): shown as they are.
nb_execution_mode = "off"
# A live widget in a static page needs ipywidgets' JavaScript from a CDN: none is loaded,
# and a widget output shows the static HTML its bundle carries beside the widget view (a
# table of what it showed; the widgets guide shows them live, as screenshots).
nb_ipywidgets_js: dict[str, dict[str, str]] = {}
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]

# -- API reference -------------------------------------------------------------------------

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
autosummary_generate = False
python_use_unqualified_type_names = True
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# Without intersphinx, names of other projects (str, pandas.DataFrame, httpx.Client...)
# have nowhere to point: only ledgerkit's own references must resolve.
nitpicky = True
nitpick_ignore_regex = [(r"py:.*", r"(?!ledgerkit\.).*")]

# -- HTML ------------------------------------------------------------------------------------

html_theme = "pydata_sphinx_theme"
html_title = "ledgerkit"
html_static_path = ["_static"]
html_favicon = "_static/favicon.svg"  # else browsers ask for /favicon.ico
html_copy_source = False
html_show_sourcelink = False
# The theme's colour mode before the reader picks one ("" makes its script complain).
html_context = {"default_mode": "auto"}
html_theme_options = {
    "navbar_end": ["theme-switcher"],
    "icon_links": [],
    "analytics": {},
    "footer_start": ["copyright"],
    "footer_end": [],
    "secondary_sidebar_items": ["page-toc"],
    "show_prev_next": True,
    "header_links_before_dropdown": 6,
}
