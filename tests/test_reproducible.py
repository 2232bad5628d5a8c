"""The same commit gives the same site, byte for byte, with nothing left out of the comparison.
(Only a published build, given RESDOC_SITE_URL, writes sitemap.xml, whose ``<lastmod>`` is the
build date: search engines read it.)

The session builds the site once, cold (tests/conftest.py). A second build (the ``rebuilt``
fixture) reuses that build's example cache except for one example, which runs again from
scratch. So:

- the second site equals the first: everything the build does from the examples' outputs
  (pages, notebooks, typeset math, search indexes, figures) is deterministic;
- the example that ran twice wrote identical outputs (notebook, results, figures, manifest);
- every example whose outputs in the project's own cache (``.cache/`` of a working copy)
  were made from the same inputs wrote identical outputs in this session's cold build.

A second cold run of *every* example is not repeated here (it would double the test time):
``nox -s crossmachine`` builds the site cold at every CPU-kernel level, checking every claim.
"""

import json
import os
from pathlib import Path

import pytest

from tests.sites import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.upstream]


# what a run records about itself: how long each cell took (the resdoc files it imported are
# in manifest.json, which is compared)
TIMINGS = "modules.json"


def contents(folder):
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.name != TIMINGS)
    }


def test_a_second_build_gives_the_same_site(rebuilt):
    assert rebuilt.result.returncode == 0, rebuilt.result.stderr[-5000:]
    first, again = contents(rebuilt.project / "site"), contents(rebuilt.site)
    assert sorted(first) == sorted(again)
    different = [name for name in first if first[name] != again[name]]
    assert different == [], f"{rebuilt.rerun} ran again"
    assert any(name.endswith(".svg") for name in first)  # figures are part of the comparison


def test_an_example_run_twice_writes_the_same_outputs(rebuilt):
    assert rebuilt.result.returncode == 0, rebuilt.result.stderr[-5000:]
    outputs = f"examples/{rebuilt.rerun}"
    first = contents(rebuilt.project / ".cache" / "resdoc" / outputs)
    again = contents(rebuilt.cache / outputs)
    assert "results.json" in first and any(name.endswith(".svg") for name in first)
    assert sorted(first) == sorted(again)
    different = [name for name in first if first[name] != again[name]]
    assert different == [], f"{rebuilt.rerun} wrote different outputs"


def test_examples_agree_with_the_projects_own_cache_where_their_inputs_do(built_project):
    """Free on a working copy that has built before; a clean clone has no cache to compare."""
    cache = os.environ.get("RESDOC_CACHE_DIR") or ROOT / ".cache" / "resdoc"
    own = Path(cache) / "examples"
    fresh = built_project / ".cache" / "resdoc" / "examples"
    compared, different = [], []
    for folder in sorted(p for p in fresh.iterdir() if p.is_dir()):
        mine = own / folder.name
        if not (mine / "manifest.json").is_file():
            continue
        manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
        if json.loads((mine / "manifest.json").read_text("utf-8")) != manifest:
            continue  # made from other inputs: nothing to compare
        compared.append(folder.name)
        new, old = contents(folder), contents(mine)
        shared = sorted(set(new) & set(old))  # the pages' conversions may be missing in either
        assert "results.json" in shared and "notebook.ipynb" in shared, folder.name
        different += [f"{folder.name}/{name}" for name in shared if new[name] != old[name]]
    if not compared:
        pytest.skip("no example in the project's own cache was made from the same inputs")
    assert different == [], f"compared {compared}"
