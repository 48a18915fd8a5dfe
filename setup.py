"""The one thing pyproject.toml cannot say: the pages of ``docs/`` ship inside the
package, as ``ledgerkit._docs``, so that an installed ledgerkit (a wheel as well as an
editable install) serves them from its local docs host.

setuptools finds packages by their directories, and this one's directory is ``docs/``,
not ``ledgerkit/_docs/``: it is named here beside the packages found under
``ledgerkit/``. Its ``package-dir`` and ``package-data``, and the rest of the build, are
in pyproject.toml.
"""

from setuptools import find_namespace_packages, setup

setup(packages=[*find_namespace_packages(include=["ledgerkit*"]), "ledgerkit._docs"])
