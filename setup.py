"""Packaging shim; metadata lives in setup.cfg.

The sdist carries docs/ as well (the README links to it): the top level holds no
MANIFEST.in, so the sdist command adds the folder itself.
"""
import os

from setuptools import setup
from setuptools.command.sdist import sdist

HERE = os.path.dirname(os.path.abspath(__file__))


class SdistWithDocs(sdist):
    """``sdist`` that also copies every file under docs/ into the archive."""

    def make_release_tree(self, base_dir, files):
        docs = []
        for folder, _dirs, names in os.walk(os.path.join(HERE, "docs")):
            docs += [os.path.relpath(os.path.join(folder, n), HERE) for n in names]
        super().make_release_tree(base_dir, sorted(set(files) | set(docs)))


setup(cmdclass={"sdist": SdistWithDocs})
