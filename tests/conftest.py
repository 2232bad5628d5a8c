"""Shared fixtures: one full build of the real site per test session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.sites import build, copy_project


@pytest.fixture(scope="session")
def built_project(tmp_path_factory):
    """A copy of the project, built once (every example run, cold cache)."""
    root = copy_project(tmp_path_factory.mktemp("built") / "project")
    result = build(root)
    assert result.returncode == 0, result.stderr[-5000:]
    return root


@pytest.fixture(scope="session")
def site(request):
    """The built site; RESDOC_TEST_SITE=path/to/site reuses one built earlier (for quick iteration)."""
    if os.environ.get("RESDOC_TEST_SITE"):
        return Path(os.environ["RESDOC_TEST_SITE"])
    return request.getfixturevalue("built_project") / "site"
