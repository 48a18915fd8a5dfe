"""The pages of the local docs host: how a page is read, and that ledgerkit's own pages
ship inside the package (a wheel and an editable install find them through the package's
resources, ``ledgerkit._docs``, not through a path into a source checkout)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from ledgerkit.localnet.services import Page, PageStore, _pages, bundled_pages

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs"
#: What a build reads from the checkout.
BUILD_INPUTS = ("pyproject.toml", "setup.py", "README.md")


def test_a_page_is_its_title_and_first_sentence() -> None:
    store = PageStore(
        {
            "guide": "Intro before the title.\n\n# The guide\n\n```sh\n# a comment\n```\n\n"
            "- a list first\n\nThe [first](other.md) sentence.  Then a second one.\n",
            "bare": "No heading at all.\n",
        }
    )
    assert store.get("guide") == Page(
        "guide",
        "The guide",
        "The first sentence.",
        store.get("guide").markdown,  # type: ignore[union-attr]
    )
    assert store.get("bare") == Page("bare", "bare", "", "No heading at all.\n")
    assert store.get("nope") is None
    assert [page.name for page in store] == ["bare", "guide"]
    assert repr(store) == "PageStore(2 pages: bare, guide)"


def test_the_home_page_comes_first_and_is_served_at_the_root() -> None:
    store = PageStore({"zeta": "# Z\n", "index": "# Home\n", "alpha": "# A\n"})
    assert [page.name for page in store] == ["index", "alpha", "zeta"]
    assert [page.path for page in store] == ["/", "/alpha", "/zeta"]


@pytest.mark.parametrize("name", ["../etc", "a/b", "a.b", "", "_private", "x" * 101, "é"])
def test_a_name_that_cannot_be_served_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match="page names must match"):
        PageStore({name: "# X\n"})


def test_an_empty_store_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one page"):
        PageStore({})


def test_a_directory_gives_its_markdown_files_only(tmp_path: Path) -> None:
    (tmp_path / "guide.md").write_text("# Guide\n\nHello.\n", "utf-8")
    (tmp_path / "notes.txt").write_text("# Not a page\n", "utf-8")
    (tmp_path / "__init__.py").write_text('"""Not a page."""\n', "utf-8")
    (tmp_path / "odd.name.md").write_text("# Odd\n", "utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "deep.md").write_text("# Deep\n", "utf-8")
    store = PageStore.from_directory(tmp_path)
    assert [page.name for page in store] == ["guide"]


def test_a_page_too_large_is_refused(tmp_path: Path) -> None:
    (tmp_path / "huge.md").write_bytes(b"# Huge\n" + b"x" * (1 << 20))
    with pytest.raises(ValueError, match="larger than 1048576 bytes"):
        PageStore.from_directory(tmp_path)


# -- ledgerkit's own pages -----------------------------------------------------------------


def _page_files() -> list[str]:
    return sorted(path.name for path in DOCS.glob("*.md"))


def test_the_bundled_pages_are_the_docs_directory() -> None:
    store = PageStore.bundled()
    assert sorted(f"{page.name}.md" for page in store) == _page_files()
    assert "docsite.md" in _page_files()
    for page in store:  # this checkout's pages, not those of another ledgerkit installed
        assert page.markdown == (DOCS / f"{page.name}.md").read_text("utf-8"), page.name


def test_another_ledgerkits_pages_are_not_this_checkouts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Imported in place from this checkout while another ledgerkit is installed, whose
    # ``ledgerkit._docs`` is some other directory: this checkout's pages win.
    monkeypatch.setattr(_pages.resources, "files", lambda name: tmp_path)
    assert bundled_pages() == DOCS

    def missing(name: str) -> Path:
        raise ModuleNotFoundError(name)

    monkeypatch.setattr(_pages.resources, "files", missing)
    assert bundled_pages() == DOCS


def _checkout_copy(into: Path) -> Path:
    """The build inputs of this checkout, copied (a build writes beside its sources)."""
    source = into / "source"
    source.mkdir()
    for name in BUILD_INPUTS:
        shutil.copy2(ROOT / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "ledgerkit", source / "ledgerkit", ignore=ignore)
    shutil.copytree(ROOT / "docs", source / "docs", ignore=ignore)
    return source


def _pip(*args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pip", *args, "--no-deps", "--no-build-isolation", "-q"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def _pages_seen_by(path_entries: list[str], site_dir: str = "") -> dict[str, object]:
    """What a fresh interpreter that sees only ``path_entries`` (and the installed
    dependencies, but no ``.pth`` file of an install of ledgerkit) finds as the pages."""
    script = (
        "import json, site, sys\n"
        # The install's own finder module first: the suite's venv holds one of the same name.
        f"if {site_dir!r}: sys.path.insert(0, {site_dir!r}); site.addsitedir({site_dir!r})\n"
        "import ledgerkit\n"
        "from ledgerkit.localnet.services import PageStore, bundled_pages\n"
        "root = bundled_pages()\n"
        "pages = sorted(f'{p.name}.md' for p in PageStore.from_directory(root))\n"
        "print(json.dumps({'package': ledgerkit.__file__, 'root': str(root), 'pages': pages}))\n"
    )
    dependencies = sysconfig.get_paths()["purelib"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*path_entries, dependencies])}
    done = subprocess.run(
        [sys.executable, "-S", "-c", script],
        capture_output=True,
        text=True,
        env=env,
        cwd=path_entries[0],
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_a_wheel_ships_the_pages_and_serves_them_from_its_resources(tmp_path: Path) -> None:
    source = _checkout_copy(tmp_path)
    _pip("wheel", "-w", str(tmp_path / "wheels"), str(source))
    (wheel,) = (tmp_path / "wheels").glob("ledgerkit-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path / "installed")
    assert sorted(n.removeprefix("ledgerkit/_docs/") for n in names if "/_docs/" in n) == sorted(
        ["__init__.py", *_page_files()]
    )
    assert not [name for name in names if name.startswith("docs/")]
    installed = str(tmp_path / "installed")
    found = _pages_seen_by([installed])
    assert found["package"] == os.path.join(installed, "ledgerkit", "__init__.py")
    assert found["root"] == os.path.join(installed, "ledgerkit", "_docs")
    assert found["pages"] == _page_files()


def test_an_editable_install_finds_the_pages_through_its_resources(tmp_path: Path) -> None:
    source = _checkout_copy(tmp_path)
    prefix = tmp_path / "prefix"
    # --ignore-installed: pip would otherwise uninstall the ledgerkit this suite runs from
    # before installing the copy under the prefix.
    _pip("install", "--ignore-installed", "--prefix", str(prefix), "-e", str(source))
    (site_dir,) = prefix.glob("lib/python*/site-packages")
    empty = tmp_path / "elsewhere"  # run from a directory without ledgerkit in it
    empty.mkdir()
    found = _pages_seen_by([str(empty)], site_dir=str(site_dir))
    assert found["package"] == str(source / "ledgerkit" / "__init__.py")
    assert found["root"] == str(source / "docs")
    assert found["pages"] == _page_files()
