r"""Chapter 7: convolutional residual networks. The basic and the bottleneck block, the
stride-2 projection shortcut, and ResNet-18/34/50 built as in "Deep Residual Learning for
Image Recognition" (He et al. 2016a), with torchvision's module names so that parameter counts
and state-dict keys can be compared with the published models (no torchvision needed).

Parameters are counted from the modules; multiply-adds (MACs) by forward hooks on one image.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

# torchvision's parameter counts (ImageNet, 1000 classes) and the paper's Table 1 ("FLOPs")
PUBLISHED_PARAMS = {"resnet18": 11_689_512, "resnet34": 21_797_672, "resnet50": 25_557_032}
PAPER_FLOPS = {"resnet18": 1.8e9, "resnet34": 3.6e9, "resnet50": 3.8e9}
STAGES = {"conv1": "conv1", "layer1": "conv2_x", "layer2": "conv3_x", "layer3": "conv4_x",
          "layer4": "conv5_x", "fc": "fc"}  # fmt: skip  # torchvision's name → the paper's


def conv3x3(c_in: int, c_out: int, stride: int = 1) -> nn.Conv2d:
    return nn.Conv2d(c_in, c_out, 3, stride, padding=1, bias=False)  # BN follows: no bias


def conv1x1(c_in: int, c_out: int, stride: int = 1) -> nn.Conv2d:
    return nn.Conv2d(c_in, c_out, 1, stride, bias=False)


# --8<-- [start:projection]
def projection(c_in: int, c_out: int, stride: int) -> nn.Sequential:
    """Option B of the paper: a 1×1 convolution (stride 2 where the map halves) and BN,
    used only where the shape changes; everywhere else the shortcut is the identity."""
    return nn.Sequential(conv1x1(c_in, c_out, stride), nn.BatchNorm2d(c_out))


# --8<-- [end:projection]


class ResidualBlock(nn.Module):
    r"""What every block of the original ResNet shares: $y = \mathrm{ReLU}(x + F(x))$."""

    expansion = 1  # output channels = expansion × width

    def shortcut(self, x: torch.Tensor) -> torch.Tensor:
        return x if self.downsample is None else self.downsample(x)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, c_in, h, w)
        return torch.relu(self.shortcut(x) + self.branch(x))


# --8<-- [start:basic]
class BasicBlock(ResidualBlock):
    r"""Two 3×3 convolutions: $F(x) = \mathrm{BN}(W_2 * \mathrm{ReLU}(\mathrm{BN}(W_1 * x)))$.

    >>> block = BasicBlock(64, 64).eval()
    >>> x = torch.randn(1, 64, 56, 56)
    >>> block(x).shape, block.downsample is None
    (torch.Size([1, 64, 56, 56]), True)
    >>> BasicBlock(64, 128, stride=2)(x).shape   # the map halves, the channels double
    torch.Size([1, 128, 28, 28])
    """

    def __init__(self, c_in: int, width: int, stride: int = 1):
        super().__init__()
        self.conv1, self.bn1 = conv3x3(c_in, width, stride), nn.BatchNorm2d(width)
        self.conv2, self.bn2 = conv3x3(width, width), nn.BatchNorm2d(width)
        same = stride == 1 and c_in == width
        self.downsample = None if same else projection(c_in, width, stride)

    def branch(self, x: torch.Tensor) -> torch.Tensor:
        return self.bn2(self.conv2(torch.relu(self.bn1(self.conv1(x)))))


# --8<-- [end:basic]


# --8<-- [start:bottleneck]
class Bottleneck(ResidualBlock):
    r"""1×1 reduce to ``width``, 3×3 at ``width``, 1×1 expand to ``4 * width``.

    ``stride_on_3x3``: torchvision (and "ResNet v1.5") strides in the 3×3 convolution; the
    paper's models stride in the first 1×1. Same parameters, different multiply-adds.

    >>> block = Bottleneck(256, 64).eval()
    >>> block(torch.randn(1, 256, 56, 56)).shape
    torch.Size([1, 256, 56, 56])
    """

    expansion = 4

    def __init__(self, c_in: int, width: int, stride: int = 1, stride_on_3x3: bool = True):
        super().__init__()
        c_out = width * self.expansion
        s1, s3 = (1, stride) if stride_on_3x3 else (stride, 1)
        self.conv1, self.bn1 = conv1x1(c_in, width, s1), nn.BatchNorm2d(width)  # reduce
        self.conv2, self.bn2 = conv3x3(width, width, s3), nn.BatchNorm2d(width)
        self.conv3, self.bn3 = conv1x1(width, c_out), nn.BatchNorm2d(c_out)  # expand
        same = stride == 1 and c_in == c_out
        self.downsample = None if same else projection(c_in, c_out, stride)

    def branch(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.bn1(self.conv1(x)))  # (batch, width, h, w): contract
        x = torch.relu(self.bn2(self.conv2(x)))
        return self.bn3(self.conv3(x))  # (batch, 4 · width, h, w): expand


# --8<-- [end:bottleneck]


@dataclass(frozen=True)
class ResNetConfig:
    block: str  # "basic" or "bottleneck"
    layers: tuple[int, int, int, int]  # blocks per stage (conv2_x … conv5_x)
    classes: int = 1000
    stride_on_3x3: bool = True  # bottleneck only: torchvision's placement, or the paper's


CONFIGS = {
    "resnet18": ResNetConfig("basic", (2, 2, 2, 2)),
    "resnet34": ResNetConfig("basic", (3, 4, 6, 3)),
    "resnet50": ResNetConfig("bottleneck", (3, 4, 6, 3)),
}
WIDTHS = (64, 128, 256, 512)  # per stage; a bottleneck's output is 4× wider


class ResNet(nn.Module):
    """7×7 stem, max-pool, four stages (the first block of stages 2–4 halves the map), global
    average pool, classifier. Module names follow torchvision's ``resnet18/34/50``."""

    def __init__(self, cfg: ResNetConfig):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        c_in = 64
        for i, (n_blocks, width) in enumerate(zip(cfg.layers, WIDTHS, strict=True)):
            blocks = []
            for j in range(n_blocks):
                stride = 2 if i > 0 and j == 0 else 1
                if cfg.block == "basic":
                    blocks.append(BasicBlock(c_in, width, stride))
                else:
                    blocks.append(Bottleneck(c_in, width, stride, cfg.stride_on_3x3))
                c_in = width * blocks[-1].expansion
            setattr(self, f"layer{i + 1}", nn.Sequential(*blocks))
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(c_in, cfg.classes)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):  # He et al. (2015), as the paper
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, 3, 224, 224) → (batch, 1000)
        x = self.maxpool(torch.relu(self.bn1(self.conv1(x))))
        for i in range(1, 5):
            x = getattr(self, f"layer{i}")(x)
        return self.fc(torch.flatten(self.avgpool(x), 1))


def resnet(name: str, **changes) -> ResNet:
    """``resnet("resnet50")``; ``changes`` override the config (e.g. ``stride_on_3x3=False``)."""
    return ResNet(ResNetConfig(**{**CONFIGS[name].__dict__, **changes}))


def n_params(module: nn.Module) -> int:
    return sum(p.numel() for p in module.parameters())


# --8<-- [start:count]
def count(model: nn.Module, size: int = 224) -> dict[str, dict]:
    """Per stage (``conv1``, ``layer1`` … ``fc``): parameters, multiply-adds of the
    convolutions and the classifier on one image, and the output's shape."""
    stats: dict[str, dict] = {}

    def stage(name: str) -> dict:
        key = "conv1" if name in ("bn1", "maxpool") else name.split(".")[0]
        return stats.setdefault(key, {"params": 0, "macs": 0, "shape": None})

    def hook(name):
        def record(module, inputs, out):
            if isinstance(module, nn.Conv2d):  # every output value: c_in/groups · k_h · k_w
                k_h, k_w = module.kernel_size
                per_value = module.in_channels // module.groups * k_h * k_w
                stage(name)["macs"] += out[0].numel() * per_value
            elif isinstance(module, nn.Linear):
                stage(name)["macs"] += module.in_features * module.out_features
            if name != "maxpool":  # the paper lists the max-pool under conv2_x
                stage(name)["shape"] = tuple(out.shape[1:])

        return record

    handles = []
    for name, module in model.named_modules():
        if name and not any(True for _ in module.children()):  # leaves only
            stage(name)["params"] += n_params(module)
            handles.append(module.register_forward_hook(hook(name)))
    with torch.no_grad():
        model.eval()(torch.zeros(1, 3, size, size))
    for handle in handles:
        handle.remove()
    stats.pop("avgpool", None)  # no parameters, no multiply-adds
    return stats


# --8<-- [end:count]


def other_ops(model: nn.Module, size: int = 224) -> int:
    """An upper bound on the operations :func:`count` leaves out, on one image: one each for BN,
    ReLU and the addition per BN output value (ReLUs and additions touch no more values than
    the BNs before them), one per value a pooling window reads."""
    ops = []

    def record(module, inputs, out):
        if isinstance(module, nn.BatchNorm2d):
            ops.append(3 * out.numel())
        elif isinstance(module, nn.MaxPool2d):  # a k×k window per output value
            ops.append(module.kernel_size**2 * out.numel())
        elif isinstance(module, nn.AdaptiveAvgPool2d):
            ops.append(inputs[0].numel())

    handles = [m.register_forward_hook(record) for m in model.modules()]
    with torch.no_grad():
        model.eval()(torch.zeros(1, 3, size, size))
    for handle in handles:
        handle.remove()
    return sum(ops)


def block_cost(block: nn.Module, channels: int, size: int = 56) -> tuple[int, int]:
    """(parameters, multiply-adds) of one block on a ``channels``×``size``×``size`` input."""
    macs = 0

    def record(module, inputs, out):
        nonlocal macs
        k_h, k_w = module.kernel_size
        macs += out[0].numel() * module.in_channels // module.groups * k_h * k_w

    handles = [m.register_forward_hook(record) for m in block.modules() if isinstance(m, nn.Conv2d)]
    with torch.no_grad():
        block.eval()(torch.zeros(1, channels, size, size))
    for handle in handles:
        handle.remove()
    return n_params(block), macs
