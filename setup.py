"""The one thing pyproject.toml cannot say: the pages of ``docs/`` ship inside the
package, as ``ledgerkit._docs``, so that an installed ledgerkit (a wheel as well as an
editable install) serves them from its local docs host.

setuptools finds packages by their directories, and this one's directory is ``docs/``,
not ``ledgerkit/_docs/``: it is named here beside the packages found under
``ledgerkit/``. Its ``package-dir`` and ``package-data``, and the rest of the build, are
in pyproject.toml. Of its Python files only ``__init__.py`` ships: ``docs/conf.py``
configures the Sphinx site and is no part of the package.
"""

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

DOCS_PACKAGE = "ledgerkit._docs"


class BuildPy(build_py):
    """``build_py`` that leaves the docs site's ``conf.py`` out of ``ledgerkit._docs``."""

    def find_package_modules(self, package: str, package_dir: str) -> list[tuple[str, str, str]]:
        modules = super().find_package_modules(package, package_dir)
        if package != DOCS_PACKAGE:
            return modules
        return [module for module in modules if module[1] == "__init__"]


setup(
    packages=[*find_namespace_packages(include=["ledgerkit*"]), DOCS_PACKAGE],
    cmdclass={"build_py": BuildPy},
)
