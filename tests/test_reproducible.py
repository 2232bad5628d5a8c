"""Two clean builds of the same commit give the same site, byte for byte.

Nothing is left out of the comparison. (Only a published build, given RESDOC_SITE_URL,
writes sitemap.xml, whose ``<lastmod>`` is the build date: search engines read it.)
"""

import pytest

from tests.sites import build, copy_project

pytestmark = pytest.mark.slow


def contents(site):
    return {
        path.relative_to(site).as_posix(): path.read_bytes()
        for path in sorted(p for p in site.rglob("*") if p.is_file())
    }


def test_two_clean_builds_are_identical(site, tmp_path):
    second = copy_project(tmp_path / "second")
    result = build(second, cache=tmp_path / "second-cache")  # cold: every example runs again
    assert result.returncode == 0, result.stderr[-5000:]
    first, again = contents(site), contents(second / "site")
    assert sorted(first) == sorted(again)
    different = [name for name in first if first[name] != again[name]]
    assert different == []
    assert any(name.endswith(".svg") for name in first)  # figures are part of the comparison
