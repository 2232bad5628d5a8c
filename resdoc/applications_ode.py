r"""Chapter 10's ODE view of a residual stack (E 2017; Haber and Ruthotto 2017; Chen et al.
2018): a block with its branch scaled by $h = 1/L$,

$$x_{l+1} = x_l + \tfrac{1}{L}\,f_{\theta_l}(x_l),$$

is one explicit Euler step of $\mathrm{d}x/\mathrm{d}t = f_{\theta(t)}(x)$ from $t = l/L$, and $L$
blocks go from $t = 0$ to $1$. Whether the stack tends to that ODE as $L$ grows depends on how the
weights $\theta_l$ depend on $l$ (Sander et al. 2022; Marion et al. 2022): here the three cases
measured in the chapter, one weight for every block, weights that vary smoothly with depth, and
weights drawn independently for every block, all at initialization, on random inputs."""

from __future__ import annotations

import math

import torch

WIDTH, HIDDEN, BATCH = 16, 32, 64  # the stream, the branch's hidden layer, random inputs
WEIGHTS = ("shared", "smooth")  # weights as a function of depth; independent draws: iid_stack


def _rms(t: torch.Tensor) -> float:
    return t.square().mean().sqrt().item()


def _draw(gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """One branch's weights, (W_1, W_2), scaled so that f(x) is about as large as x."""
    w_1 = torch.randn(HIDDEN, WIDTH, generator=gen, dtype=torch.float64) / WIDTH**0.5
    w_2 = torch.randn(WIDTH, HIDDEN, generator=gen, dtype=torch.float64) * (2 / HIDDEN) ** 0.5
    return w_1, w_2


class Path:
    r"""The weights $\theta(t)$ of a branch $f_\theta(x) = W_2 \tanh(W_1 x)$ along depth $t \in [0, 1]$.

    - ``shared``: one $\theta$ for every $t$ (weight tying: an ODE $\dot{x} = f_\theta(x)$);
    - ``smooth``: $\theta(t) = \theta_a \cos(\pi t/2) + \theta_b \sin(\pi t/2)$, a quarter turn from
      one draw to another (every $\theta(t)$ has the variance of one draw).
    """

    def __init__(self, kind: str, seed: int):
        gen = torch.Generator().manual_seed(seed)
        self.kind, self.a, self.b = kind, _draw(gen), _draw(gen)

    def at(self, t: float) -> tuple[torch.Tensor, torch.Tensor]:
        if self.kind == "shared":
            return self.a
        c, s = math.cos(math.pi * t / 2), math.sin(math.pi * t / 2)
        return tuple(c * a + s * b for a, b in zip(self.a, self.b, strict=True))


def f(x: torch.Tensor, theta: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
    w_1, w_2 = theta
    return torch.tanh(x @ w_1.T) @ w_2.T  # (batch, width)


def inputs(seed: int) -> torch.Tensor:
    """The random inputs $x_0$ of one seed, (batch, width)."""
    return torch.randn(
        BATCH, WIDTH, generator=torch.Generator().manual_seed(10_000 + seed), dtype=torch.float64
    )


# --8<-- [start:ode-stack]
def stack(x: torch.Tensor, thetas: list, scale: float) -> torch.Tensor:
    r"""$L$ = ``len(thetas)`` residual blocks $x_{l+1} = x_l + s\,f_{\theta_l}(x_l)$, $s$ = ``scale``:
    with $s = 1/L$, $L$ Euler steps of size $h = 1/L$."""
    for theta in thetas:
        x = x + scale * f(x, theta)
    return x


def euler(path: Path, x_0: torch.Tensor, depth: int) -> torch.Tensor:
    """``depth`` blocks scaled by 1/L, block k reading the path at t = k/L."""
    return stack(x_0, [path.at(k / depth) for k in range(depth)], 1 / depth)


# --8<-- [end:ode-stack]


def rk4(path: Path, x_0: torch.Tensor, steps: int = 64) -> torch.Tensor:
    """The ODE's solution at t = 1 by classical Runge–Kutta (error ~ steps⁻⁴): the reference."""
    x, h = x_0, 1 / steps
    for k in range(steps):
        t = k * h
        k_1 = f(x, path.at(t))
        k_2 = f(x + h / 2 * k_1, path.at(t + h / 2))
        k_3 = f(x + h / 2 * k_2, path.at(t + h / 2))
        k_4 = f(x + h * k_3, path.at(t + h))
        x = x + h / 6 * (k_1 + 2 * k_2 + 2 * k_3 + k_4)
    return x


def euler_error(kind: str, depths: list[int], seed: int) -> list[float]:
    r"""$\mathrm{RMS}(x_L - x(1))/\mathrm{RMS}(x(1) - x_0)$ for each $L$ in ``depths``: how far the
    $L$-block output is from the ODE's solution, relative to how far the ODE moves $x_0$."""
    path, x_0 = Path(kind, seed), inputs(seed)
    exact = rk4(path, x_0)
    return [_rms(euler(path, x_0, depth) - exact) / _rms(exact - x_0) for depth in depths]


def iid_stack(depth: int, scale: str, seed: int) -> dict[str, float]:
    r"""``depth`` blocks with independently drawn weights, branch scaled by $1/L$ (``scale="linear"``)
    or $1/\sqrt{L}$ (``"sqrt"``). ``move``: $\mathrm{RMS}(x_L - x_0)/\mathrm{RMS}(x_0)$; ``redraw``:
    how far $x_L$ moves, in the same units, when every odd-numbered block is drawn again and the
    even-numbered ones are kept."""
    s = 1 / depth if scale == "linear" else depth**-0.5
    gen = torch.Generator().manual_seed(seed)
    thetas = [_draw(gen) for _ in range(depth)]
    redrawn = [theta if k % 2 == 0 else _draw(gen) for k, theta in enumerate(thetas)]
    x_0 = inputs(seed)
    x_l, y_l = stack(x_0, thetas, s), stack(x_0, redrawn, s)
    return {"move": _rms(x_l - x_0) / _rms(x_0), "redraw": _rms(y_l - x_l) / _rms(x_0)}


def shared_move(depth: int, seed: int) -> float:
    r"""$\mathrm{RMS}(x_L - x_0)/\mathrm{RMS}(x_0)$ for ``depth`` blocks sharing one weight, scaled by $1/L$."""
    x_0 = inputs(seed)
    return _rms(euler(Path("shared", seed), x_0, depth) - x_0) / _rms(x_0)


def loglog_slope(depths, values) -> float:
    """The slope of log(values) against log(depths), by least squares."""
    x, y = torch.tensor(depths, dtype=torch.float64).log(), torch.tensor(values).log()
    x, y = x - x.mean(), y - y.mean()
    return ((x * y).sum() / x.square().sum()).item()
