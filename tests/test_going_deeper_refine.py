"""Chapter 05-going-deeper, iterative refinement: a block's write is its step along the stream,
a zero branch writes nothing, and the head read at x_L is the net's own accuracy."""

import torch

from resdoc.data import Split, digits
from resdoc.going_deeper import accuracy_without, calibrate
from resdoc.going_deeper_refine import readout_accuracy, write_sizes
from resdoc.models import MLP, MLPConfig


def _net(depth: int = 4, seed: int = 0) -> tuple[MLP, Split]:
    torch.manual_seed(seed)
    data = Split(*(t[:200] for t in (digits()[0].x, digits()[0].y)))
    return calibrate(MLP(MLPConfig(depth=depth, width=16)), data), data


@torch.no_grad()
def test_a_write_is_the_step_between_consecutive_streams_and_a_zero_branch_writes_nothing():
    net, data = _net()
    xs = net.stream(data.x)
    steps = [
        ((b - a).norm(dim=1) / a.norm(dim=1)).mean().item()
        for a, b in zip(xs, xs[1:], strict=False)
    ]
    assert torch.allclose(torch.tensor(write_sizes(net, data)), torch.tensor(steps), atol=1e-6)
    torch.nn.init.zeros_(net.blocks[2].linear2.weight)
    sizes = write_sizes(net, data)
    assert len(sizes) == 4 and sizes[2] == 0 and min(sizes[:2] + sizes[3:]) > 0.05


@torch.no_grad()
def test_the_head_read_at_the_last_stream_is_the_nets_accuracy_and_earlier_reads_differ():
    net, data = _net()
    accuracy = readout_accuracy(net, data)
    assert len(accuracy) == 5
    assert accuracy[-1] == accuracy_without(net, data, None)
    assert len(set(accuracy)) > 1  # each x_l is read on its own, not x_L five times
    for block in net.blocks:  # with every branch zero, every x_l is x_0: all reads agree
        torch.nn.init.zeros_(block.linear2.weight)
    assert len(set(readout_accuracy(net, data))) == 1
