"""Examples forked from a fork server (resdoc/sitegen/forkserver.py) run as they would in a
process of their own: the same outputs, the same failures, the same time limits."""

import json
import os

import pytest

from resdoc.sitegen.examples import ExampleRunner
from resdoc.sitegen.forkserver import ForkServer
from tests.sites import copy_project

LIGHT = ("resdoc.sitegen.cellrun",)  # what these tests' examples need preloaded

TRAINS = '''"""Trains a little and draws."""
# %%
import matplotlib.pyplot as plt
import torch

from resdoc import publish
from resdoc.models import MLP, MLPConfig

torch.manual_seed(0)
net = MLP(MLPConfig(depth=2, width=8))
x = torch.randn(16, 64)
loss = net(x).square().mean()
loss.backward()
print("gradient", net.inp.weight.grad.norm().item())
publish.number("loss", loss.item(), "{:.6f}")


def draw(tr):
    fig, ax = plt.subplots(figsize=(3, 2), layout="constrained")
    ax.plot(net.inp.weight.grad.norm(dim=1).numpy())
    ax.set_title(tr("梯度", "gradient"))
    return fig


publish.figure("gradient", draw, alt=("梯度", "gradient"))
'''

FAILS = '''"""Fails on its fifth line."""
# %%
from resdoc import publish

raise ValueError("planted")
'''

WAITS = '''"""Waits for nothing."""
# %%
import time

time.sleep(60)
'''

USES_PUBLISH_ONLY = '''"""Says hello."""
# %%
from resdoc import publish

publish.text("greeting", "hello")
'''


def project_with(folder, examples: dict[str, str]):
    root = copy_project(folder, with_content=False)
    (root / "examples").mkdir()
    for name, source in examples.items():
        (root / "examples" / f"{name}.py").write_text(source, "utf-8")
    return root


def outputs(cache):
    """Every output file of every example, but the run's own timing."""
    found = {}
    for path in sorted(cache.rglob("*")):
        if path.is_file() and path.name not in ("runs.log", "manifest.json"):
            data = path.read_bytes()
            if path.name == "modules.json":
                data = json.dumps({k: v for k, v in json.loads(data).items() if k != "seconds"})
            found[path.relative_to(cache).as_posix()] = data
    return found


@pytest.mark.slow
def test_examples_forked_from_the_server_write_what_processes_of_their_own_write(
    tmp_path, monkeypatch
):
    examples = {"trains": TRAINS, "greets": USES_PUBLISH_ONLY}
    root = project_with(tmp_path / "project", examples)
    forked = []
    run = ForkServer.run
    monkeypatch.setattr(ForkServer, "run", lambda self, *a: forked.append(a) or run(self, *a))
    # one worker for two examples: it has a fork server (the real preload), which runs the one
    # that imports torch; the other, which would carry the server's torch, runs on its own
    ExampleRunner(root, tmp_path / "forked", workers=1).run_all()
    assert [args[0] for args, *_ in forked] == ["examples/trains.py"]
    # as many workers as examples: no server, each a process of its own
    ExampleRunner(root, tmp_path / "alone", workers=len(examples)).run_all()
    assert len(forked) == 1
    alone, from_server = outputs(tmp_path / "alone"), outputs(tmp_path / "forked")
    assert sorted(alone) == sorted(from_server)
    assert [name for name in alone if alone[name] != from_server[name]] == []
    assert any(name.endswith(".svg") for name in alone)
    sources = json.loads(alone["trains/modules.json"])["sources"]
    assert "resdoc/models.py" in sources and "resdoc/sitegen/forkserver.py" not in sources


@pytest.fixture
def server(tmp_path):
    root = project_with(tmp_path / "project", {"fails": FAILS, "waits": WAITS})
    env = dict(os.environ, PYTHONPATH=str(root), RESDOC_EXAMPLE="")
    started = ForkServer(env, root, preload=LIGHT)
    yield started, root, env
    started.close()


def test_a_failing_example_names_its_line_as_a_process_of_its_own_does(server, tmp_path):
    started, root, env = server
    out, err = tmp_path / "out", tmp_path / "err"
    (tmp_path / "fails").mkdir()
    args = ["examples/fails.py", str(tmp_path / "fails")]
    assert started.run(args, env, root, out, err, timeout=60) == 1
    assert err.read_text().startswith("examples/fails.py:5: ValueError: planted")


def test_an_example_still_running_at_its_timeout_is_killed_and_the_server_goes_on(server, tmp_path):
    started, root, env = server
    out, err = tmp_path / "out", tmp_path / "err"
    for name in ("waits", "fails"):
        (tmp_path / name).mkdir()
    assert (
        started.run(["examples/waits.py", str(tmp_path / "waits")], env, root, out, err, 1) is None
    )
    assert started.run(["examples/fails.py", str(tmp_path / "fails")], env, root, out, err, 60) == 1


def test_an_example_in_another_environment_is_not_forked_from_the_server(server):
    started, _, env = server
    assert started.accepts({**env, "RESDOC_EXAMPLE": "other", "RESDOC_TIME_LIMIT": "5"})
    assert not started.accepts({**env, "OMP_NUM_THREADS": "7"})
