r"""Chapter 5's reversible residual blocks (RevNet, Gomez et al. 2017; the Reformer, Kitaev et
al. 2020). The features are split in two halves and each half is updated by a residual branch
of the other,

$$y_1 = x_1 + \mathcal{F}(x_2), \qquad y_2 = x_2 + \mathcal{G}(y_1),$$

which can be undone exactly, $x_2 = y_2 - \mathcal{G}(y_1)$, $x_1 = y_1 - \mathcal{F}(x_2)$: the
backward pass recomputes each block's input from its output instead of keeping it. Here: the
block, a stack whose backward pass reconstructs (so autograd keeps only the stack's output), and
the two measurements of the chapter, how exactly a stack inverts in floating point and how many
bytes autograd keeps for the backward pass."""

from __future__ import annotations

import torch
from torch import nn


def branch(width: int) -> nn.Sequential:
    """A residual branch: Linear, ReLU, Linear, the same width in and out (PyTorch's init)."""
    return nn.Sequential(nn.Linear(width, width), nn.ReLU(), nn.Linear(width, width))


# --8<-- [start:reversible-block]
class ReversibleBlock(nn.Module):
    r"""Two residual branches coupled across the halves: $\mathcal{F}$ reads $x_2$ and writes
    into $x_1$, $\mathcal{G}$ reads the new $y_1$ and writes into $x_2$ (``width``: one half)."""

    def __init__(self, width: int):
        super().__init__()
        self.f, self.g = branch(width), branch(width)

    def forward(self, x1: torch.Tensor, x2: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        y1 = x1 + self.f(x2)
        y2 = x2 + self.g(y1)
        return y1, y2

    def inverse(self, y1: torch.Tensor, y2: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x2 = y2 - self.g(y1)  # G's input, y1, is an output: known
        x1 = y1 - self.f(x2)  # F's input, x2, was just recovered
        return x1, x2


# --8<-- [end:reversible-block]


class _Reconstructing(torch.autograd.Function):
    """Runs the blocks without building a graph and saves only their last output; the backward
    pass walks back block by block, recovering each input from its output as the RevNet paper
    does: every branch is evaluated once more, as under checkpointing."""

    @staticmethod
    def forward(ctx, x1, x2, blocks, *params):  # params: so autograd knows they need gradients
        with torch.no_grad():
            for block in blocks:
                x1, x2 = block(x1, x2)
        ctx.blocks = blocks
        ctx.save_for_backward(x1, x2)  # all autograd keeps: the output, whatever the depth
        return x1, x2

    @staticmethod
    def backward(ctx, dy1, dy2):
        y1, y2 = ctx.saved_tensors
        for block in reversed(ctx.blocks):
            with torch.enable_grad():
                z1 = y1.detach().requires_grad_()
                g = block.g(z1)
            x2 = (y2 - g).detach().requires_grad_()
            with torch.enable_grad():
                f = block.f(x2)
            x1 = y1 - f.detach()
            torch.autograd.backward(g, dy2)  # G's parameters; z1.grad = dy2 ∂G/∂y1
            dy1 = dy1 + z1.grad  # y1 reaches the loss directly and through G
            torch.autograd.backward(f, dy1)  # F's parameters; x2.grad = dy1 ∂F/∂x2
            dy2 = dy2 + x2.grad  # x2 reaches y2 directly and through F
            y1, y2 = x1, x2.detach()
        return dy1, dy2, None, *(None for _ in ctx.needs_input_grad[3:])


class ReversibleStack(nn.Module):
    """``depth`` reversible blocks. ``reconstruct=True``: the backward pass recomputes the
    activations from the output; ``False``: ordinary autograd, which keeps them."""

    def __init__(self, width: int, depth: int, reconstruct: bool = True):
        super().__init__()
        self.blocks = nn.ModuleList(ReversibleBlock(width) for _ in range(depth))
        self.reconstruct = reconstruct

    def forward(self, x1: torch.Tensor, x2: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        if self.reconstruct and torch.is_grad_enabled():
            return _Reconstructing.apply(x1, x2, self.blocks, *self.parameters())
        for block in self.blocks:
            x1, x2 = block(x1, x2)
        return x1, x2

    def inverse(self, y1: torch.Tensor, y2: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        for block in reversed(self.blocks):
            y1, y2 = block.inverse(y1, y2)
        return y1, y2


class _Checkpoint(torch.autograd.Function):
    """One residual block $v + f(v)$ that keeps only its input and recomputes its branch in the
    backward pass: what ``torch.utils.checkpoint`` does, written out because importing that
    pulls in ``torch._dynamo``, a second of start-up on this site's build machine."""

    @staticmethod
    def forward(ctx, v, f, *params):
        ctx.f = f
        ctx.save_for_backward(v)  # the block's input, and nothing inside the block
        with torch.no_grad():
            return v + f(v)

    @staticmethod
    def backward(ctx, dy):
        (v,) = ctx.saved_tensors
        with torch.enable_grad():
            v = v.detach().requires_grad_()
            y = v + ctx.f(v)  # the forward pass once more, this time with its graph
        torch.autograd.backward(y, dy)
        return v.grad, None, *(None for _ in ctx.needs_input_grad[2:])


class ResidualStack(nn.Module):
    r"""The ordinary stack, $x_{i+1} = x_i + \mathcal{F}_i(x_i)$, at the full width ``2 * width``;
    ``checkpointed``: each block keeps only its input and recomputes its branch in the backward
    pass (Chen et al. 2016)."""

    def __init__(self, width: int, depth: int, checkpointed: bool = False):
        super().__init__()
        self.branches = nn.ModuleList(branch(2 * width) for _ in range(depth))
        self.checkpointed = checkpointed

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for f in self.branches:
            if self.checkpointed:  # the same x + f(x), its inside recomputed in the backward pass
                x = _Checkpoint.apply(x, f, *f.parameters())
                continue
            x = x + f(x)
        return x


@torch.no_grad()
def reconstruction(depth: int, seed: int, dtype: torch.dtype, width: int = 16) -> dict[str, float]:
    r"""A stack of ``depth`` reversible blocks at initialization, run forward on 32 standard
    normal inputs $x$ and inverted back to $\hat{x}$, in ``dtype``. ``error``:
    $\lVert \hat{x} - x \rVert / \lVert x \rVert$; ``growth``: $\lVert y \rVert / \lVert x \rVert$,
    how much larger the output is (rounding errors scale with the numbers rounded). The same
    ``seed`` draws the same weights and inputs in every dtype (drawn in float32, then cast).

    >>> reconstruction(4, seed=0, dtype=torch.float64)["error"] < 1e-14
    True
    """
    torch.manual_seed(seed)
    stack = ReversibleStack(width, depth, reconstruct=False).to(dtype)
    x1, x2 = (torch.randn(32, width).to(dtype) for _ in range(2))  # (batch, width) each
    y1, y2 = stack(x1, x2)
    r1, r2 = stack.inverse(y1, y2)
    x = torch.cat([x1, x2], 1)
    error = torch.cat([r1, r2], 1).sub(x).norm() / x.norm()
    return {"error": error.item(), "growth": (torch.cat([y1, y2], 1).norm() / x.norm()).item()}


def gradient_gap(depth: int, seed: int, width: int = 16) -> float:
    """Relative difference between the gradients (inputs and every parameter) that the
    reconstructing stack computes and those of ordinary autograd, same weights, same input,
    float32: what the rounding in the reconstruction costs the gradient at initialization."""
    torch.manual_seed(seed)
    stack = ReversibleStack(width, depth)
    inputs = [torch.randn(32, width) for _ in range(2)]  # (batch, width) each
    grads = []
    for reconstruct in (True, False):
        stack.reconstruct = reconstruct
        stack.zero_grad(set_to_none=True)
        x1, x2 = (x.clone().requires_grad_() for x in inputs)
        y1, y2 = stack(x1, x2)
        (y1.sin().sum() + y2.pow(2).sum() / 2).backward()  # any loss that reads both halves
        tensors = [x1, x2, *stack.parameters()]
        grads.append(torch.cat([t.grad.flatten() for t in tensors]))
    return ((grads[0] - grads[1]).norm() / grads[1].norm()).item()


def saved_bytes(run, parameters) -> int:
    """Bytes of the tensors autograd keeps for the backward pass while ``run()`` builds its
    graph, parameters left out, each storage counted once (the ReLU's output is saved by the
    ReLU and by the next Linear, one tensor). A count, not a timing: the same on every machine.

    >>> x = torch.randn(4, 8, requires_grad=True)
    >>> lin = nn.Linear(8, 8)
    >>> saved_bytes(lambda: lin(x), lin.parameters())  # x: 4 × 8 floats of 4 bytes
    128
    """
    skip = {p.untyped_storage().data_ptr() for p in parameters}
    kept: dict[int, int] = {}

    def pack(t: torch.Tensor) -> torch.Tensor:
        storage = t.untyped_storage()
        if storage.data_ptr() not in skip:
            kept[storage.data_ptr()] = storage.nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = run()  # kept alive until counted, so no storage is freed and reused meanwhile
    del out
    return sum(kept.values())


def activation_memory(depth: int, kind: str, width: int = 16, batch: int = 64) -> int:
    """:func:`saved_bytes` for one stack of ``depth`` blocks on a ``batch`` of inputs of width
    ``2 * width``, ``kind``: "residual", "checkpointed" (both :class:`ResidualStack`) or
    "reversible" (:class:`ReversibleStack`, reconstructing)."""
    torch.manual_seed(0)  # the weights do not change what is saved, only its values
    if kind == "reversible":
        stack = ReversibleStack(width, depth)
        x1, x2 = (torch.randn(batch, width, requires_grad=True) for _ in range(2))
        return saved_bytes(lambda: stack(x1, x2), stack.parameters())
    stack = ResidualStack(width, depth, checkpointed=kind == "checkpointed")
    x = torch.randn(batch, 2 * width, requires_grad=True)
    return saved_bytes(lambda: stack(x), stack.parameters())
