r"""Chapter 7, around the identity shortcut: where BN and ReLU sit in a block ("Identity
Mappings in Deep Residual Networks", He et al. 2016b), the gated shortcut of highway networks
(Srivastava et al. 2015) and the concatenation of DenseNet (Huang et al. 2017).

Every block's ``forward(x, shortcut_only=True)`` detaches what is not the shortcut (or carry)
path, so autograd gives the gradient that reaches the input along the shortcuts alone.
"""

from __future__ import annotations

import torch
from torch import nn

ORDERINGS = ("original", "bn_after_add", "relu_before_add", "relu_only_preact", "full_preact")


# --8<-- [start:orderings]
class OrderedBlock(nn.Module):
    """The five blocks of the paper's Fig. 4 (a)–(e), two 3×3 convolutions each."""

    def __init__(self, ordering: str, channels: int = 16):
        super().__init__()
        self.ordering = ordering
        self.conv1, self.conv2 = (nn.Conv2d(channels, channels, 3, padding=1) for _ in "12")
        self.bn1, self.bn2 = nn.BatchNorm2d(channels), nn.BatchNorm2d(channels)

    def branch(self, x: torch.Tensor) -> torch.Tensor:
        conv1, conv2, bn1, bn2, relu = self.conv1, self.conv2, self.bn1, self.bn2, torch.relu
        return {
            "original": lambda: bn2(conv2(relu(bn1(conv1(x))))),
            "bn_after_add": lambda: conv2(relu(bn1(conv1(x)))),  # bn2 comes after the sum
            "relu_before_add": lambda: relu(bn2(conv2(relu(bn1(conv1(x)))))),
            "relu_only_preact": lambda: bn2(conv2(relu(bn1(conv1(relu(x)))))),
            "full_preact": lambda: conv2(relu(bn2(conv1(relu(bn1(x)))))),
        }[self.ordering]()

    def forward(self, x: torch.Tensor, shortcut_only: bool = False) -> torch.Tensor:
        f = self.branch(x)
        s = x + (f.detach() if shortcut_only else f)
        if self.ordering == "original":
            return torch.relu(s)  # the shortcut's signal goes through a ReLU every block
        if self.ordering == "bn_after_add":
            return torch.relu(self.bn2(s))  # ... and here through BN as well
        return s  # nothing after the addition: x_{l+1} = x_l + F(x_l)


# --8<-- [end:orderings]


def stack_output(blocks: list[nn.Module], x: torch.Tensor, shortcut_only=False) -> torch.Tensor:
    for block in blocks:
        x = block(x, shortcut_only)
    return x


def gradient_profile(blocks: list[nn.Module], x: torch.Tensor, shortcut_only=True) -> list[float]:
    r"""$\lVert \partial\ell/\partial x_{L-i} \rVert / \lVert \partial\ell/\partial x_L \rVert$
    for $i = 0, 1, \dots, L$ blocks crossed, with $\ell = \langle x_L, r \rangle$ for a random
    $r$; ``shortcut_only``: along the shortcuts alone (every branch detached)."""
    xs = [x.clone().requires_grad_()]
    for block in blocks:
        xs.append(block(xs[-1], shortcut_only))
        xs[-1].retain_grad()
    r = torch.randn_like(xs[-1])
    (xs[-1] * r).sum().backward()
    return [float(xs[-1 - i].grad.norm() / r.norm()) for i in range(len(blocks) + 1)]


# --8<-- [start:highway]
class HighwayLayer(nn.Module):
    r"""$y = T(x) \odot H(x) + (1 - T(x)) \odot x$, $T(x) = \sigma(W_T x + b_T)$."""

    def __init__(self, width: int, gate_bias: float = -1.0):
        super().__init__()
        self.transform = nn.Linear(width, width)  # H
        self.gate = nn.Linear(width, width)  # T: twice the parameters of a plain layer
        nn.init.constant_(self.gate.bias, gate_bias)  # negative: start close to carrying x

    def forward(self, x: torch.Tensor, shortcut_only: bool = False) -> torch.Tensor:
        h, t = torch.relu(self.transform(x)), torch.sigmoid(self.gate(x))
        if shortcut_only:  # the carry path: ∂y/∂x = diag(1 - T(x))
            h, t = h.detach(), t.detach()
        return t * h + (1 - t) * x


# --8<-- [end:highway]


class ResidualLayer(nn.Module):
    """The same transform with an identity shortcut: $y = x + H(x)$, for comparison."""

    def __init__(self, width: int):
        super().__init__()
        self.transform = nn.Linear(width, width)

    def forward(self, x: torch.Tensor, shortcut_only: bool = False) -> torch.Tensor:
        h = torch.relu(self.transform(x))
        return x + (h.detach() if shortcut_only else h)


# --8<-- [start:dense]
class DenseLayer(nn.Module):
    r"""DenseNet-BC's layer: BN-ReLU-1×1 conv ($4k$ channels)-BN-ReLU-3×3 conv ($k$ channels);
    its $k$ new channels are concatenated to its input, $x_{l+1} = [x_l,\, H_l(x_l)]$.

    >>> layer = DenseLayer(64, growth=32).eval()
    >>> x = torch.randn(1, 64, 8, 8)
    >>> y = layer(x)
    >>> y.shape, torch.equal(y[:, :64], x)   # the input is passed on untouched
    (torch.Size([1, 96, 8, 8]), True)
    """

    def __init__(self, c_in: int, growth: int, bottleneck: int = 4):
        super().__init__()
        self.norm1, self.norm2 = nn.BatchNorm2d(c_in), nn.BatchNorm2d(bottleneck * growth)
        self.conv1 = nn.Conv2d(c_in, bottleneck * growth, 1, bias=False)
        self.conv2 = nn.Conv2d(bottleneck * growth, growth, 3, padding=1, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, c_in, h, w)
        h = self.conv2(torch.relu(self.norm2(self.conv1(torch.relu(self.norm1(x))))))
        return torch.cat([x, h], dim=1)  # (batch, c_in + growth, h, w)


def dense_block(k0: int, growth: int, n_layers: int) -> nn.Sequential:
    """Layer $l$ reads $k_0 + l k$ channels; the block outputs $k_0 + L k$."""
    return nn.Sequential(*(DenseLayer(k0 + i * growth, growth) for i in range(n_layers)))


# --8<-- [end:dense]


def densenet121(classes: int = 1000) -> nn.Sequential:
    """DenseNet-121 (k = 32, blocks of 6, 12, 24, 16 layers, transitions halving the width)."""
    layers: list[nn.Module] = [
        nn.Conv2d(3, 64, 7, stride=2, padding=3, bias=False),
        nn.BatchNorm2d(64),
        nn.ReLU(),
        nn.MaxPool2d(3, stride=2, padding=1),
    ]
    width = 64
    for i, n in enumerate((6, 12, 24, 16)):
        layers.append(dense_block(width, 32, n))
        width += 32 * n
        if i < 3:  # transition: BN-ReLU-1×1 conv to half the width, 2×2 average pool
            layers += [
                nn.BatchNorm2d(width),
                nn.ReLU(),
                nn.Conv2d(width, width // 2, 1, bias=False),
            ]
            layers.append(nn.AvgPool2d(2))
            width //= 2
    layers += [nn.BatchNorm2d(width), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten()]
    return nn.Sequential(*layers, nn.Linear(width, classes))


def after_add_relu_share(blocks: list[OrderedBlock], x: torch.Tensor) -> float:
    r"""The share of the entries of $x_l + \mathcal{F}(x_l)$ that are $\le 0$, over the blocks of
    an ``"original"`` stack: where the ReLU after the addition zeroes them, $D_l$ cuts their
    gradient, the shortcut's copy included."""
    cut, total = 0, 0
    with torch.no_grad():
        for block in blocks:
            s = x + block.branch(x)
            cut, total = cut + int((s <= 0).sum()), total + s.numel()
            x = block(x)
    return cut / total


def ordering_runs(depth: int, seeds, channels: int = 16, size: int = 8, batch: int = 16) -> dict:
    r"""Per ordering, (seeds, depth + 1) shortcut-path gradient profiles at initialization
    (train-mode BN), per seed how far a stack with zero branches moves its input,
    $\lVert x_L - x_0 \rVert / \lVert x_0 \rVert$, and for ``"original"`` the
    :func:`after_add_relu_share`.

    The inputs are non-negative, $\mathrm{ReLU}(z)$ with Gaussian $z$: in a ResNet the stem
    ends in a ReLU, as does every original block, so that is what a block receives. With signed
    inputs a zero-branch original block would seem to move its input, by
    $\sqrt{1/2} \approx 0.71$: the ReLU removing the negative half once, an artifact.
    """
    out = {}
    for ordering in ORDERINGS:
        profiles, moved, masked = [], [], []
        for seed in seeds:
            torch.manual_seed(seed)
            blocks = [OrderedBlock(ordering, channels) for _ in range(depth)]
            x = torch.relu(torch.randn(batch, channels, size, size))  # post-ReLU, as in a ResNet
            profiles.append(gradient_profile(blocks, x))
            if ordering == "original":
                masked.append(after_add_relu_share(blocks, x))
            for block in blocks:  # F = 0: the last weight layer of every branch is zero
                nn.init.zeros_(block.conv2.weight), nn.init.zeros_(block.conv2.bias)
            with torch.no_grad():
                moved.append(float((stack_output(blocks, x) - x).norm() / x.norm()))
        out[ordering] = {"profile": profiles, "moved": moved}
        if masked:
            out[ordering]["masked"] = masked
    return out


def highway_runs(depth: int, seeds, biases, width: int = 64, batch: int = 64) -> dict:
    """Gradient profiles at initialization of a highway stack per gate bias and of a residual
    stack (key ``"residual"``): along the carry/shortcut path alone and in total."""
    out = {}
    for name in [*biases, "residual"]:
        carry, total = [], []
        for seed in seeds:
            torch.manual_seed(seed)
            layers = [
                ResidualLayer(width) if name == "residual" else HighwayLayer(width, name)
                for _ in range(depth)
            ]
            x = torch.randn(batch, width)
            carry.append(gradient_profile(layers, x, shortcut_only=True))
            total.append(gradient_profile(layers, x, shortcut_only=False))
        out[name] = {"carry": carry, "total": total}
    return out


PUBLISHED_DENSENET121 = 7_978_856  # torchvision's parameter count

# The paper's Table 2: ResNet-110 on CIFAR-10, test error (%) of each ordering
PAPER_TABLE2 = {
    "original": 6.61,
    "bn_after_add": 8.17,
    "relu_before_add": 7.84,
    "relu_only_preact": 6.71,
    "full_preact": 6.37,
}
