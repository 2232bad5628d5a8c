"""The example cache: nothing runs twice, and a change to what an example imports re-runs it."""

import re
import shutil

import pytest

from resdoc.sitegen.examples import ExampleError, ExampleRunner
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


def run(root):
    _, executed = ExampleRunner(root, root / ".cache" / "examples").run_all()
    return sorted(e.name for e in executed)


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    """A project with two examples, run once from an empty cache: (project, what ran)."""
    root = copy_project(tmp_path_factory.mktemp("cache") / "project", with_content=False)
    (root / "examples").mkdir()
    (root / "examples" / "models_user.py").write_text(USES_MODELS, "utf-8")
    (root / "examples" / "publish_user.py").write_text(USES_PUBLISH_ONLY, "utf-8")
    return root, run(root)


@pytest.fixture
def project(first_run, tmp_path):
    """A copy of that project and its cache after the first run, for one test to change."""
    return shutil.copytree(first_run[0], tmp_path / "project", symlinks=True)


def test_second_run_executes_nothing(first_run, project):
    assert first_run[1] == ["models_user", "publish_user"]
    assert run(project) == []


def test_editing_a_resdoc_function_reruns_exactly_the_examples_that_import_it(project):
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
    script = project / "examples" / "publish_user.py"
    script.write_text(USES_PUBLISH_ONLY.replace('"hello"', '"bonjour"'), "utf-8")
    assert run(project) == ["publish_user"]
    results = ExampleRunner(project, project / ".cache" / "examples").discover()[1].results()
    assert results["greeting"]["text"] == "bonjour"


def test_a_script_edited_while_its_example_runs_is_run_again(project):
    """The manifest holds the hashes taken when the run started: outputs made from the old
    text are never recorded as those of the new one."""
    script = project / "examples" / "publish_user.py"
    edits_itself = USES_PUBLISH_ONLY.replace('"hello"', '"hi"') + (
        "\nfrom pathlib import Path\n"
        "_me = Path('examples/publish_user.py')\n"
        "_me.write_text(_me.read_text('utf-8').replace('\"hi\"', '\"edited\"'), 'utf-8')\n"
    )
    script.write_text(edits_itself, "utf-8")
    assert run(project) == ["publish_user"]
    assert '"edited"' in script.read_text("utf-8")
    assert run(project) == ["publish_user"]  # the edit made during the first run counts
    results = ExampleRunner(project, project / ".cache" / "examples").discover()[1].results()
    assert results["greeting"]["text"] == "edited"


def test_a_changed_dependency_pin_reruns_everything_and_says_which(project, monkeypatch):
    from resdoc.sitegen import examples

    real = examples.environment
    monkeypatch.setattr(examples, "environment", lambda root: {**real(root), "torch": "9.9"})
    runner = ExampleRunner(project, project / ".cache" / "examples")
    assert [runner.why_stale(e) for e in runner.discover()] == [["torch changed"]] * 2
    assert run(project) == ["models_user", "publish_user"]


def test_the_build_says_why_each_example_runs_and_reports_progress(project):
    (project / "resdoc" / "models.py").write_text(
        (project / "resdoc" / "models.py").read_text("utf-8") + "\n# edited\n", "utf-8"
    )
    lines = []
    ExampleRunner(
        project, project / ".cache" / "examples", workers=1, report=lines.append
    ).run_all()
    assert lines[0] == "running 1 of 2 examples on 1 worker(s)"
    assert lines[1] == "examples/models_user.py: runs because resdoc/models.py changed"
    assert re.fullmatch(r"\[1/1\] examples/models_user\.py \d+\.\d s", lines[2])


def test_an_example_that_computes_past_its_time_limit_is_stopped_naming_the_line(project):
    script = project / "examples" / "publish_user.py"
    script.write_text(
        USES_PUBLISH_ONLY + "# resdoc: time-limit = 2\nx = 0\nwhile True:\n    x += 1\n", "utf-8"
    )
    loop = range(len(USES_PUBLISH_ONLY.splitlines()) + 2, len(USES_PUBLISH_ONLY.splitlines()) + 5)
    with pytest.raises(ExampleError) as failure:
        run(project)
    found = re.search(
        r"examples/publish_user\.py:(\d+): TimeLimitExceeded: used 2 s of CPU time, its time "
        r"limit, and was stopped",
        str(failure.value),
    )
    assert found and int(found[1]) in loop, str(failure.value)
    assert not (project / ".cache" / "examples" / "publish_user").exists()  # nothing stale


def test_an_example_that_waits_is_stopped_after_three_times_its_limit_of_wall_time(project):
    script = project / "examples" / "publish_user.py"
    script.write_text(
        USES_PUBLISH_ONLY + "# resdoc: time-limit = 2\nimport time\ntime.sleep(60)\n", "utf-8"
    )
    with pytest.raises(ExampleError) as failure:
        run(project)
    assert (
        "examples/publish_user.py ran for 6 s of wall-clock time, 3 times its time limit of 2 s "
        "of CPU time, and was stopped" in str(failure.value)
    )
    assert not (project / ".cache" / "examples" / "publish_user").exists()


def test_the_longest_examples_start_first(project, monkeypatch):
    """Before a first run by their time limit; afterwards by their last run time. (One worker,
    so they finish in the order they start; the runs themselves are not what is tested.)"""
    monkeypatch.setattr(ExampleRunner, "_execute", lambda self, example: 0.0)

    def order(root):
        lines = []
        ExampleRunner(root, root / ".cache" / "examples", workers=1, report=lines.append).run_all()
        return [line.split()[1] for line in lines if line.startswith("[")]

    fresh = copy_project(project.parent / "fresh", with_content=False)
    shutil.copytree(project / "examples", fresh / "examples")
    assert order(fresh) == ["examples/models_user.py", "examples/publish_user.py"]  # a tie
    script = fresh / "examples" / "publish_user.py"
    script.write_text(script.read_text("utf-8") + "# resdoc: time-limit = 700\n", "utf-8")
    assert order(fresh) == ["examples/publish_user.py", "examples/models_user.py"]

    (project / "resdoc" / "models.py").write_text(
        (project / "resdoc" / "models.py").read_text("utf-8") + "\n# edited\n", "utf-8"
    )
    (project / "examples" / "publish_user.py").write_text(USES_PUBLISH_ONLY + "# edited\n")
    log = project / ".cache" / "examples" / "runs.log"
    log.write_text("models_user\t1.0\npublish_user\t9.0\nmodels_user\t30.0\n", "utf-8")
    assert order(project) == ["examples/models_user.py", "examples/publish_user.py"]
    log.write_text("models_user\t30.0\npublish_user\t9.0\nmodels_user\t1.0\n", "utf-8")
    assert order(project) == ["examples/publish_user.py", "examples/models_user.py"]
