"""The example cache: nothing runs twice, and a change to what an example imports re-runs it."""

import pytest

from resdoc.build.examples import ExampleRunner
from tests.sites import copy_project

pytestmark = pytest.mark.slow

USES_MODELS = '''"""Uses resdoc.models."""
# %%
from resdoc import publish
from resdoc.models import LinearBlock

publish.number("dim", LinearBlock(3, residual=True).linear.in_features, "{:d}")
'''

USES_PUBLISH_ONLY = '''"""Uses resdoc.publish only."""
# %%
from resdoc import publish

publish.text("greeting", "hello")
'''


@pytest.fixture
def project(tmp_path):
    root = copy_project(tmp_path / "project", with_content=False)
    (root / "examples").mkdir()
    (root / "examples" / "models_user.py").write_text(USES_MODELS, "utf-8")
    (root / "examples" / "publish_user.py").write_text(USES_PUBLISH_ONLY, "utf-8")
    return root


def run(root):
    _, executed = ExampleRunner(root, root / ".cache" / "examples").run_all()
    return sorted(e.name for e in executed)


def test_second_run_executes_nothing(project):
    assert run(project) == ["models_user", "publish_user"]
    assert run(project) == []


def test_editing_a_resdoc_function_reruns_exactly_the_examples_that_import_it(project):
    run(project)
    models = project / "resdoc" / "models.py"
    source = models.read_text("utf-8")
    edited = source.replace(
        "return x + branch if self.residual else branch",
        "return (x + branch) if self.residual else branch",
    )
    assert edited != source
    models.write_text(edited, "utf-8")
    assert run(project) == ["models_user"]
    assert run(project) == []


def test_editing_the_script_reruns_it_and_results_follow(project):
    run(project)
    script = project / "examples" / "publish_user.py"
    script.write_text(USES_PUBLISH_ONLY.replace('"hello"', '"bonjour"'), "utf-8")
    assert run(project) == ["publish_user"]
    results = ExampleRunner(project, project / ".cache" / "examples").discover()[1].results()
    assert results["greeting"]["text"] == "bonjour"


def test_a_changed_dependency_pin_reruns_everything(project, monkeypatch):
    run(project)
    from resdoc.build import examples

    monkeypatch.setattr(examples, "environment_key", lambda root: "another environment")
    assert run(project) == ["models_user", "publish_user"]
