r"""The gradient-flow explorer's reference: the same blocks in PyTorch, in float64.

The explorer page (``docs/explorer.*.md``) computes in the reader's browser with
``docs/assets/javascripts/explorer/model.js``. This module builds the same stacks with
``torch.nn`` and PyTorch's own initializers, runs one forward and backward pass with the
MSE loss of :mod:`resdoc.python_demo`, and exports weights, inputs, targets and the per-layer norms
as JSON-ready dicts, so a test can feed PyTorch's weights to the JavaScript model and demand
the same numbers.

Blocks (``LN`` is ``nn.LayerNorm`` without learnable parameters):

==============  =========================  ==============================
``plain``       $y = Wx$                   ``plainrelu``: $y = \mathrm{relu}(Wx)$
``residual``    $y = x + Wx$               ``scaled``: $y = \lambda x + Wx$
``mlp``         $y = x + W_2\,\mathrm{relu}(W_1 x)$
``postln``      $y = \mathrm{LN}(x + Wx)$  ``preln``: $y = x + W\,\mathrm{LN}(x)$
==============  =========================  ==============================
"""

from __future__ import annotations

import math

import torch
from torch import nn

from resdoc.gradients import total_grad_norm

BATCH = 4  # like resdoc.python_demo
BLOCKS = ("plain", "plainrelu", "residual", "mlp", "postln", "preln", "scaled")
INITS = ("default", "he", "xavier", "custom")


# --8<-- [start:blocks]
class ExplorerBlock(nn.Module):
    """One block of the explorer; ``kind`` is one of :data:`BLOCKS`.

    >>> block = ExplorerBlock("residual", dim=4)
    >>> with torch.no_grad():
    ...     _ = block.linears[0].weight.zero_()
    >>> x = torch.randn(2, 4, dtype=torch.float64)   # the explorer computes in float64
    >>> torch.equal(block(x), x)
    True
    """

    def __init__(self, kind: str, dim: int, scale: float = 1.0):
        super().__init__()
        if kind not in BLOCKS:
            raise ValueError(f"unknown block {kind!r}; expected one of {BLOCKS}")
        self.kind, self.scale = kind, scale
        count = 2 if kind == "mlp" else 1
        self.linears = nn.ModuleList(
            nn.Linear(dim, dim, bias=False, dtype=torch.float64) for _ in range(count)
        )
        self.norm = nn.LayerNorm(dim, elementwise_affine=False, dtype=torch.float64)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        w = self.linears[0]
        match self.kind:
            case "plain":
                return w(x)
            case "plainrelu":
                return torch.relu(w(x))
            case "residual":
                return x + w(x)
            case "scaled":
                return self.scale * x + w(x)
            case "mlp":
                return x + self.linears[1](torch.relu(w(x)))
            case "postln":
                return self.norm(x + w(x))
            case "preln":
                return x + w(self.norm(x))
        raise AssertionError(self.kind)


# --8<-- [end:blocks]


def initialize(linear: nn.Linear, init: str, variance: float = 1.0) -> None:
    r"""Re-draw ``linear.weight`` with PyTorch's initializers; ``default`` keeps nn.Linear's own
    $U(-1/\sqrt{n}, 1/\sqrt{n})$."""
    n = linear.in_features
    with torch.no_grad():
        if init == "he":
            nn.init.kaiming_normal_(linear.weight, nonlinearity="relu")  # N(0, 2/n)
        elif init == "xavier":
            nn.init.xavier_normal_(linear.weight)  # N(0, 2/(n + n)) = N(0, 1/n)
        elif init == "custom":
            nn.init.normal_(linear.weight, std=math.sqrt(variance / n))  # N(0, c/n)
        elif init != "default":
            raise ValueError(f"unknown init {init!r}; expected one of {INITS}")


def build_stack(config: dict) -> tuple[nn.ModuleList, nn.Module]:
    """The blocks of ``config`` (keys as in model.js) after ``torch.manual_seed(config["seed"])``,
    and the head: a final LayerNorm for Pre-LN with ``finalLN``, else the identity."""
    torch.manual_seed(config["seed"])
    blocks = nn.ModuleList(
        ExplorerBlock(config["block"], config["width"], config.get("lambda", 1.0))
        for _ in range(config["depth"])
    )
    for block in blocks:
        for linear in block.linears:
            initialize(linear, config["init"], config.get("variance", 1.0))
    final = config["block"] == "preln" and config.get("finalLN", False)
    head = (
        nn.LayerNorm(config["width"], elementwise_affine=False, dtype=torch.float64)
        if final
        else nn.Identity()
    )
    return blocks, head


def profile(blocks: nn.ModuleList, head: nn.Module, x: torch.Tensor, target: torch.Tensor) -> dict:
    r"""Per-layer norms of one pass, as model.js reports them: $\lVert x_l \rVert$ and
    $\lVert \partial L/\partial x_l \rVert$ for $l = 0..L$ ($x_L$ before the head),
    $\lVert \partial L/\partial W_l \rVert$ per block, the loss and the original notes' total norm."""
    xs = [x.detach().clone().requires_grad_(True)]
    for block in blocks:
        xs.append(block(xs[-1]))
        xs[-1].retain_grad()
    blocks.zero_grad()
    loss = (head(xs[-1]) - target).pow(2).mean()
    loss.backward()
    weight_grads = [
        math.sqrt(sum(p.grad.norm().item() ** 2 for p in block.parameters())) for block in blocks
    ]
    total = total_grad_norm(nn.Sequential(*blocks, head), x, target)  # the original notes' number
    return {
        "loss": loss.item(),
        "activations": [t.norm().item() for t in xs],
        "activation_grads": [t.grad.norm().item() for t in xs],
        "weight_grads": weight_grads,
        "total_grad_norm": total,
    }


# (name, config) of every case the browser test checks; depth <= 12, width <= 16.
CASES = [
    ("plain-default", {"block": "plain", "depth": 6, "width": 8, "init": "default"}),
    ("plainrelu-he", {"block": "plainrelu", "depth": 8, "width": 16, "init": "he"}),
    ("residual-default", {"block": "residual", "depth": 12, "width": 16, "init": "default"}),
    ("residual-xavier", {"block": "residual", "depth": 5, "width": 10, "init": "xavier"}),
    ("mlp-he", {"block": "mlp", "depth": 6, "width": 12, "init": "he"}),
    ("mlp-default", {"block": "mlp", "depth": 4, "width": 16, "init": "default"}),
    ("postln-default", {"block": "postln", "depth": 10, "width": 16, "init": "default"}),
    (
        "postln-custom",
        {"block": "postln", "depth": 6, "width": 7, "init": "custom", "variance": 3.0},
    ),
    ("preln-default", {"block": "preln", "depth": 8, "width": 16, "init": "default"}),
    (
        "preln-he-final-ln",
        {"block": "preln", "depth": 8, "width": 16, "init": "he", "finalLN": True},
    ),
    (
        "scaled-half",
        {"block": "scaled", "depth": 12, "width": 16, "init": "default", "lambda": 0.5},
    ),
    ("scaled-xavier", {"block": "scaled", "depth": 6, "width": 9, "init": "xavier", "lambda": 1.7}),
]


def verification_case(name: str, config: dict, seed: int = 0) -> dict:
    """One case: the config (model.js's keys), PyTorch's weights, input, target and norms."""
    config = {"batch": BATCH, "seed": seed, **config}
    blocks, head = build_stack(config)
    x = torch.randn(config["batch"], config["width"], dtype=torch.float64)
    target = torch.randn(config["batch"], config["width"], dtype=torch.float64)
    return {
        "name": name,
        "config": config,
        "x": x.tolist(),
        "target": target.tolist(),
        "weights": [
            [linear.weight.detach().tolist() for linear in block.linears] for block in blocks
        ],
        "expected": profile(blocks, head, x, target),
    }


def verification_cases() -> list[dict]:
    """Every case of :data:`CASES`, JSON-ready (``json.dumps`` takes it as is).

    >>> cases = verification_cases()
    >>> sorted({case["config"]["block"] for case in cases}) == sorted(BLOCKS)
    True
    >>> all(len(c["expected"]["activations"]) == c["config"]["depth"] + 1 for c in cases)
    True
    """
    return [verification_case(name, config, seed) for seed, (name, config) in enumerate(CASES)]
