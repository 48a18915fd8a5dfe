"""The pages of the local docs host: ledgerkit's own Markdown documentation.

A :class:`PageStore` holds pages by name (``client`` for ``client.md``; ``index`` is the
home page) and gives each in the forms the docs host serves: the Markdown as written, a
small complete HTML5 document rendered with markdown-it-py (no external style sheet,
script or font), and the two site-wide texts ``llms.txt`` (the index, in the llms.txt
format) and ``llms-full.txt`` (every page, one after another).

:meth:`PageStore.bundled` reads the pages that ship inside ledgerkit: the package data
``ledgerkit._docs``, which the build lays out from the repository's ``docs/`` directory.
Only pages the store holds are ever served: a request names a page, never a file.
"""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Iterator, Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Final, NamedTuple

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ledgerkit._markdown import prose_lines

__all__ = ["INDEX_PAGE", "MAX_PAGE_BYTES", "MAX_PAGE_PATH", "Page", "PageStore", "bundled_pages"]

#: Name of the home page (``/`` and ``/index.md``).
INDEX_PAGE: Final = "index"
#: Longest request path (characters) looked up as a page; a longer one is not a page.
MAX_PAGE_PATH: Final = 256
#: Largest page file loaded (bytes of UTF-8 Markdown).
MAX_PAGE_BYTES: Final = 1 << 20
#: Most pages a store loads from a directory.
_MAX_PAGES: Final = 500
#: Longest description kept for ``llms.txt`` (characters).
_MAX_DESCRIPTION: Final = 200

#: A page name: a file stem without dots, so that ``<name>.md`` is unambiguous.
_NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}")
_LINK: Final = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
#: The end of a sentence: a stop before a new sentence (a capital, code, a link) or the end.
_SENTENCE_END: Final = re.compile(r"[.!?](?=\s+[A-Z`\[(]|$)")
_SCHEME: Final = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
#: A paragraph's first line is none of these: heading, fence, quote, list, table, HTML.
_NOT_PROSE: Final = re.compile(r"^\s*(#|```|~~~|>|[-*+]\s|\d+[.)]\s|\||<)")

_SUMMARY: Final = "A research toolkit for Move-based ledger nodes."
_OTHER_SECTION: Final = "Other pages"

_STYLE: Final = """
body { margin: 0; font: 16px/1.55 system-ui, sans-serif; color: #1b1f24; display: flex; }
nav { flex: 0 0 14rem; padding: 1.5rem 1rem; background: #f4f5f7; min-height: 100vh; }
nav ul { list-style: none; margin: 0; padding: 0; }
nav li { margin: 0.3rem 0; }
nav a[aria-current] { font-weight: 600; }
main { flex: 1; max-width: 52rem; padding: 1.5rem 2rem; }
pre { background: #f4f5f7; padding: 0.8rem; overflow-x: auto; }
code { font: 0.9em ui-monospace, monospace; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d0d4da; padding: 0.25rem 0.5rem; }
""".strip()


class Page(NamedTuple):
    """One page of the docs host.

    Attributes
    ----------
    name : str
        Its name: the file stem, and the path it is served at (``/client``).
    title : str
        The text of its first level-one (``#``) heading (the name when it has none).
    description : str
        The first sentence of its first paragraph of prose, links reduced to their text.
    markdown : str
        The Markdown as written.
    """

    name: str
    title: str
    description: str
    markdown: str

    @property
    def path(self) -> str:
        """The path of its HTML (``/`` for the home page)."""
        return "/" if self.name == INDEX_PAGE else f"/{self.name}"


class PageStore:
    """Pages by name, and the documents built from them.

    Parameters
    ----------
    pages : mapping of str to str
        Page name (``[A-Za-z0-9][A-Za-z0-9_-]*``) to its Markdown. ``index`` is the home
        page; its ``## `` sections, and the pages each links to, are the sections of
        ``llms.txt``.
    site_name : str
        The level-one (``#``) heading of ``llms.txt`` and the tail of every HTML title.

    Raises
    ------
    ValueError
        A page name that cannot be served, or no pages at all.
    """

    def __init__(self, pages: Mapping[str, str], *, site_name: str = "ledgerkit") -> None:
        if not pages:
            raise ValueError("a page store needs at least one page")
        bad = sorted(name for name in pages if not _NAME.fullmatch(name))
        if bad:
            raise ValueError(f"page names must match {_NAME.pattern}: {bad}")
        ordered = sorted(pages, key=lambda name: (name != INDEX_PAGE, name))
        self._pages = {name: _page(name, pages[name]) for name in ordered}
        self.site_name = site_name
        self._html: dict[str, str] = {}

    @classmethod
    def from_directory(cls, root: Traversable | Path, *, site_name: str = "ledgerkit") -> PageStore:
        """The ``*.md`` files directly in ``root`` (a directory or a package's resources).

        Files whose stem is not a page name are left out; a file larger than
        :data:`MAX_PAGE_BYTES` is refused.
        """
        pages: dict[str, str] = {}
        for entry in sorted(root.iterdir(), key=lambda e: e.name):
            name, dot, suffix = entry.name.rpartition(".")
            if dot != "." or suffix != "md" or not _NAME.fullmatch(name) or not entry.is_file():
                continue
            data = entry.read_bytes()
            if len(data) > MAX_PAGE_BYTES:
                raise ValueError(f"page {entry.name} is larger than {MAX_PAGE_BYTES} bytes")
            pages[name] = data.decode("utf-8")
            if len(pages) > _MAX_PAGES:
                raise ValueError(f"more than {_MAX_PAGES} pages in {root}")
        return cls(pages, site_name=site_name)

    @classmethod
    def bundled(cls) -> PageStore:
        """ledgerkit's own pages, from the package's resources (:func:`bundled_pages`)."""
        return cls.from_directory(bundled_pages())

    # -- pages ---------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._pages)

    def __iter__(self) -> Iterator[Page]:
        """The pages: the home page first, then by name."""
        return iter(self._pages.values())

    def __contains__(self, name: object) -> bool:
        return name in self._pages

    def get(self, name: str) -> Page | None:
        """The page called ``name``, or None."""
        return self._pages.get(name)

    def __repr__(self) -> str:
        return f"PageStore({len(self)} pages: {', '.join(self._pages)})"

    # -- documents -----------------------------------------------------------------------

    def html(self, name: str) -> str:
        """The page as a complete HTML5 document (``KeyError`` for an unknown page).

        Links to other pages' ``.md`` files lead to their HTML paths; headings carry
        ids (GitHub's slugs), so ``#section`` links land.
        """
        done = self._html.get(name)
        if done is None:
            done = self._html[name] = self._render(self._pages[name])
        return done

    def llms_txt(self, origin: str) -> str:
        """The index in the llms.txt format, its links under ``origin``.

        ``# <site name>``, a ``> `` summary (the home page's first paragraph), then one
        ``## `` section per section of the home page, each a list of
        ``- [Title](<origin>/<name>.md): description`` lines; pages the home page does
        not link come last, under ``## Other pages``.
        """
        home = self._pages.get(INDEX_PAGE)
        summary = home.description if home else _SUMMARY
        lines = [f"# {self.site_name}", "", f"> {summary}"]
        for section, names in self._sections():
            lines += ["", f"## {section}", ""]
            for name in names:
                page = self._pages[name]
                link = f"- [{_bracket_safe(page.title)}]({origin}/{name}.md)"
                lines.append(f"{link}: {page.description}" if page.description else link)
        return "\n".join(lines) + "\n"

    def llms_full_txt(self) -> str:
        """Every page's Markdown, the home page first, each from its level-one (``#``) title."""
        return "\n\n".join(page.markdown.strip("\n") for page in self) + "\n"

    # -- helpers -------------------------------------------------------------------------

    def _sections(self) -> list[tuple[str, list[str]]]:
        """The home page's ``## `` sections and the pages each links to, in order."""
        sections: list[tuple[str, list[str]]] = []
        listed: set[str] = set()
        home = self._pages.get(INDEX_PAGE)
        for line in prose_lines(home.markdown if home else ""):
            if line.startswith("## "):
                sections.append((line[3:].strip(), []))
                continue
            for target in re.findall(r"\]\(([^)\s]+)\)", line):
                name = _page_of_link(target)
                if sections and name in self._pages and name not in listed and name != INDEX_PAGE:
                    sections[-1][1].append(name)
                    listed.add(name)
        rest = [name for name in self._pages if name not in listed and name != INDEX_PAGE]
        if rest:
            sections.append((_OTHER_SECTION, rest))
        return [(title, names) for title, names in sections if names]

    def _render(self, page: Page) -> str:
        parser = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
        tokens = parser.parse(page.markdown)
        _rewrite_links(tokens)
        _add_heading_ids(tokens)
        body = parser.renderer.render(tokens, parser.options, {})
        current = ' aria-current="page"'
        nav = "\n".join(
            f'<li><a href="{other.path}"{current if other is page else ""}>'
            f"{html.escape(other.title)}</a></li>"
            for other in self
        )
        title = html.escape(page.title if page.name != INDEX_PAGE else self.site_name)
        if page.name != INDEX_PAGE:
            title += f" · {html.escape(self.site_name)}"
        return (
            "<!DOCTYPE html>\n"
            '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{title}</title>\n"
            f'<link rel="alternate" type="text/markdown" href="/{page.name}.md">\n'
            f"<style>\n{_STYLE}\n</style>\n</head>\n<body>\n"
            f'<nav aria-label="Pages">\n<ul>\n{nav}\n</ul>\n</nav>\n'
            f"<main>\n{body}</main>\n</body>\n</html>\n"
        )


def bundled_pages() -> Traversable:
    """Where ledgerkit's own pages are: the package data ``ledgerkit._docs``.

    An installed ledgerkit has it: a wheel beside the package (``ledgerkit/_docs``), an
    editable install as the checkout's ``docs/`` directory, which is what the package data
    is built from. A source checkout imported in place, with nothing installed, has the
    same ``docs/`` beside the package, and so does one imported in place while another
    ledgerkit is installed (whose ``ledgerkit._docs`` are not this ledgerkit's pages).

    Raises
    ------
    FileNotFoundError
        Neither is there.
    """
    package = Path(__file__).resolve().parents[2]
    checkout = package.parent / "docs"
    try:
        found: Traversable | None = resources.files("ledgerkit._docs")
    except ModuleNotFoundError:
        found = None
    mine = (package / "_docs", checkout)
    if found is not None and (not isinstance(found, Path) or found.resolve() in mine):
        return found  # this ledgerkit's own (or inside an archive: trusted)
    if (checkout / "__init__.py").is_file():
        return checkout
    if found is not None:
        return found
    raise FileNotFoundError("ledgerkit's pages (ledgerkit._docs) are not installed")


# -- reading Markdown ------------------------------------------------------------------------


def _page(name: str, markdown: str) -> Page:
    title = ""
    paragraph: list[str] = []
    for line in prose_lines(markdown):
        if not title:
            if line.startswith("# "):
                title = line[2:].strip()
            continue
        if paragraph:
            if not line.strip():
                break
            paragraph.append(line.strip())
        elif line.strip() and not _NOT_PROSE.match(line):
            paragraph.append(line.strip())
    return Page(name, title or name, _one_line(" ".join(paragraph)), markdown)


def _one_line(text: str) -> str:
    """The first sentence of a paragraph, on one line, links reduced to their text."""
    text = " ".join(_LINK.sub(r"\1", text).split())
    end = _SENTENCE_END.search(text)
    if end:
        text = text[: end.end()]
    if len(text) <= _MAX_DESCRIPTION:
        return text
    return text[: _MAX_DESCRIPTION - 1].rsplit(" ", 1)[0] + "…"


def _bracket_safe(title: str) -> str:
    return title.replace("[", "(").replace("]", ")")


def _page_of_link(target: str) -> str:
    """The page a relative link ``client.md#part`` names (``""`` for any other link)."""
    if _SCHEME.match(target) or target.startswith(("/", "#")):
        return ""
    file = target.partition("#")[0].removeprefix("./")
    return file[:-3] if file.endswith(".md") and _NAME.fullmatch(file[:-3]) else ""


# -- rendering ---------------------------------------------------------------------------------


def _rewrite_links(tokens: list[Token]) -> None:
    """Point links to sibling ``.md`` pages at their HTML paths: ``client.md#x`` to
    ``/client#x``."""
    for token in _walk(tokens):
        if token.type != "link_open":
            continue
        href = str(token.attrGet("href") or "")
        name = _page_of_link(href)
        if name:
            anchor = href.partition("#")[2]
            path = "/" if name == INDEX_PAGE else f"/{name}"
            token.attrSet("href", f"{path}#{anchor}" if anchor else path)


def _add_heading_ids(tokens: list[Token]) -> None:
    """Give each heading an id, GitHub's way: lower case, punctuation dropped, spaces to
    ``-``, and ``-1``, ``-2``... on repeats."""
    seen: dict[str, int] = {}
    for opening, inline in itertools.pairwise(tokens):
        if opening.type != "heading_open":
            continue
        text = "".join(child.content for child in inline.children or ())
        slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        opening.attrSet("id", f"{slug}-{count}" if count else slug)


def _walk(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        if token.children:
            yield from _walk(token.children)
