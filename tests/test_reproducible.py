"""Two clean builds of the same commit give the same site, byte for byte.

The one inherently time-stamped thing is the build date: ``<lastmod>`` in ``sitemap.xml``
(and the same file gzipped, whose header also holds a time). Search engines read it to
know when pages changed, so it stays; the comparison drops those lines and no more.
"""

import gzip
import re

import pytest

from tests.sites import build, copy_project

pytestmark = pytest.mark.slow
LASTMOD = re.compile(rb"\s*<lastmod>[^<]*</lastmod>")


def contents(site):
    files = {}
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if path.name == "sitemap.xml.gz":
            data = gzip.decompress(data)
        if path.name.startswith("sitemap.xml"):
            data = LASTMOD.sub(b"", data)
        files[path.relative_to(site).as_posix()] = data
    return files


def test_two_clean_builds_are_identical(site, tmp_path):
    second = copy_project(tmp_path / "second")
    result = build(second, cache=tmp_path / "second-cache")  # cold: every example runs again
    assert result.returncode == 0, result.stderr[-5000:]
    first, again = contents(site), contents(second / "site")
    assert sorted(first) == sorted(again)
    different = [name for name in first if first[name] != again[name]]
    assert different == []
    assert any(name.endswith(".svg") for name in first)  # figures are part of the comparison
