"""Chapter 4: the Jacobian of layer normalization, and what the LayerNorms of an encoder at
initialization do to a gradient passing back through them (Pre-LN and Post-LN)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import torch
from torch import nn

from resdoc.add_norm import Encoder, TransformerConfig
from resdoc.data import reversal_batch


# --8<-- [start:layer-norm-jacobian]
def layer_norm_jacobian(x: torch.Tensor, gamma: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    r"""$\partial \mathrm{LN}(x)/\partial x$ for one token $x \in \mathbb{R}^d$:
    $\mathrm{diag}(\gamma)\,\tfrac{1}{\sigma}\,(I - \mathbf{1}\mathbf{1}^\top/d - x_\text{hat} x_\text{hat}^\top/d)$,
    with $\sigma = \sqrt{\mathrm{var}(x) + \epsilon}$ and $x_\text{hat} = (x - \mu)/\sigma$.

    >>> x = torch.tensor([1.0, 2.0, 3.0, 6.0])
    >>> J = layer_norm_jacobian(x, torch.ones(4))
    >>> theirs = torch.autograd.functional.jacobian(nn.LayerNorm(4), x)
    >>> torch.allclose(J, theirs, atol=1e-6)
    True
    >>> [round(v, 3) for v in torch.linalg.svdvals(J).tolist()]  # 1/sigma twice, then zeros
    [0.535, 0.535, 0.0, 0.0]
    """
    d = x.numel()
    sigma = torch.sqrt(x.var(unbiased=False) + eps)
    x_hat = (x - x.mean()) / sigma
    ones = torch.ones(d, dtype=x.dtype)
    projection = (
        torch.eye(d, dtype=x.dtype) - torch.outer(ones, ones) / d - torch.outer(x_hat, x_hat) / d
    )
    return gamma[:, None] * projection / sigma


# --8<-- [end:layer-norm-jacobian]


def layer_norm_jacobian_check(seed: int, d: int = 32, tolerance: float = 1e-4) -> dict[str, float]:
    r"""One random token and a random $\gamma, \beta$: the largest entry of the formula's
    Jacobian minus autograd's for ``nn.LayerNorm``; and, at $\gamma = 1$, autograd's singular
    values times $\sigma$: how many are 1 and how many are 0, to within ``tolerance``.

    >>> check = layer_norm_jacobian_check(seed=0)
    >>> check["max_difference"] < 1e-6, check["at_one"], check["at_zero"]
    (True, 30, 2)
    """
    generator = torch.Generator().manual_seed(seed)
    x = 2 + 3 * torch.randn(d, generator=generator)  # a token with mean about 2, sigma about 3
    norm = nn.LayerNorm(d)
    with torch.no_grad():
        norm.weight.copy_(0.5 + torch.rand(d, generator=generator))
        norm.bias.copy_(torch.randn(d, generator=generator))
    theirs = torch.autograd.functional.jacobian(norm, x)
    ours = layer_norm_jacobian(x, norm.weight.detach())
    plain = nn.LayerNorm(d).double()  # gamma = 1; float64 for the singular values
    singular = torch.linalg.svdvals(torch.autograd.functional.jacobian(plain, x.double()))
    scaled = singular * torch.sqrt(x.double().var(unbiased=False) + plain.eps)  # sigma * s_i
    return {
        "max_difference": (ours - theirs).abs().max().item(),
        "at_one": int(((scaled - 1).abs() < tolerance).sum()),
        "at_zero": int((scaled < tolerance).sum()),
    }


def ln_gradient_profile(
    n_layer: int,
    seed: int,
    pre_ln: bool = True,
    probe_blocks: tuple[int, ...] = (1,),
    probe_tokens: int = 4,
    batch: int = 16,
    cfg: TransformerConfig | None = None,
) -> dict[str, np.ndarray]:
    r"""What the LayerNorms of one encoder at initialization do to a gradient, on a batch of
    the reversal task. Per block $l = 1..L$: ``sigma_1`` and ``sigma_2``, the mean over tokens
    of the $\sigma$ its two LayerNorms divide by (Pre-LN: of the stream the branch reads;
    Post-LN: of $x + \mathcal{F}(x)$). Pre-LN also has ``sigma_final`` (the final LayerNorm's,
    $\sigma(x_L)$) and ``branch``: for a random gradient $u$ at a block's output, the share
    $\lVert u^\top J_l \rVert / \lVert u \rVert$ that the branch passes back,
    $J_l = \partial \mathcal{F}_l / \partial x_l$. At the first LayerNorm of each block in
    ``probe_blocks`` (and at the final one): ``jacobian``, the spectral norm of its autograd
    Jacobian, averaged over ``probe_tokens`` tokens, and ``off``, the largest
    $\lvert \sigma \lVert J \rVert_2 - 1 \rvert$ over them."""
    cfg = replace(cfg or TransformerConfig(), n_layer=n_layer, pre_ln=pre_ln)
    torch.manual_seed(seed)
    model = Encoder(cfg)
    tokens, _ = reversal_batch(batch, cfg.length, cfg.vocab, torch.Generator().manual_seed(seed))
    seen = {}  # LayerNorm -> its input
    hooks = [
        norm.register_forward_pre_hook(lambda norm, args: seen.__setitem__(norm, args[0]))
        for norm in model.modules()
        if isinstance(norm, nn.LayerNorm)
    ]
    with torch.no_grad():
        streams = [model.tok(tokens) + model.pos]  # x_0, then x_l after each block
        for block in model.blocks:
            streams.append(block(streams[-1]))
        model.ln_f(streams[-1])
    for hook in hooks:
        hook.remove()

    def sigma(norm: nn.LayerNorm) -> torch.Tensor:  # per token: what the LayerNorm divides by
        return torch.sqrt(seen[norm].var(-1, unbiased=False) + norm.eps).flatten()

    def spectral(norm: nn.LayerNorm) -> tuple[float, float]:  # autograd's ||J||_2, per token
        inputs = seen[norm].reshape(-1, cfg.d_model)[:probe_tokens]
        jacobians = torch.stack([torch.autograd.functional.jacobian(norm, x) for x in inputs])
        norms = torch.linalg.matrix_norm(jacobians, ord=2)
        return norms.mean().item(), (norms * sigma(norm)[:probe_tokens] - 1).abs().max().item()

    probed = [model.blocks[number - 1].ln_1 for number in probe_blocks]
    result = {
        "sigma_1": np.array([sigma(block.ln_1).mean().item() for block in model.blocks]),
        "sigma_2": np.array([sigma(block.ln_2).mean().item() for block in model.blocks]),
    }
    if pre_ln:
        result["sigma_final"] = sigma(model.ln_f).mean().item()
        probed.append(model.ln_f)
        generator = torch.Generator().manual_seed(seed)
        shares = []
        for block, x in zip(model.blocks, streams, strict=False):
            x = x.clone().requires_grad_(True)
            write = block(x) - x  # F_l(x_l)
            u = torch.randn(write.shape, generator=generator)
            (passed,) = torch.autograd.grad(write, x, u)  # u^T J_l
            shares.append((passed.norm() / u.norm()).item())
        result["branch"] = np.array(shares)
    measured = [spectral(norm) for norm in probed]
    result["jacobian"] = np.array([norm for norm, _ in measured])
    result["off"] = max(off for _, off in measured)
    return result
