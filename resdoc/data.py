"""Data for the experiments: scikit-learn's ``load_digits`` (ships inside the wheel, no
download) and small synthetic sequence tasks. Every function is deterministic."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import torch


@dataclass
class Split:
    """Features ``x`` (n, 64), standardised, and integer labels ``y`` (n,)."""

    x: torch.Tensor
    y: torch.Tensor


@cache
def _digits() -> tuple[torch.Tensor, torch.Tensor]:
    from sklearn.datasets import load_digits

    bunch = load_digits()
    x = torch.tensor(bunch.data, dtype=torch.float32)
    y = torch.tensor(bunch.target, dtype=torch.long)
    return x, y


def digits(test_fraction: float = 0.3, seed: int = 0) -> tuple[Split, Split]:
    """The 1,797 8×8 digit images as (train, test), each pixel standardised with the
    training set's mean and standard deviation.

    >>> train, test = digits()
    >>> tuple(train.x.shape), tuple(test.x.shape), int(train.y.max()) + 1
    ((1258, 64), (539, 64), 10)
    """
    x, y = _digits()
    order = torch.randperm(len(y), generator=torch.Generator().manual_seed(seed))
    n_test = round(len(y) * test_fraction)
    test_idx, train_idx = order[:n_test], order[n_test:]
    mean, std = x[train_idx].mean(0), x[train_idx].std(0) + 1e-3  # some corner pixels are always 0
    x = (x - mean) / std
    return Split(x[train_idx], y[train_idx]), Split(x[test_idx], y[test_idx])


def reversal_batch(batch: int, length: int, vocab: int, generator: torch.Generator):
    """A batch of the sequence-reversal task: random tokens in, the same tokens reversed out.

    >>> x, y = reversal_batch(2, 5, 10, torch.Generator().manual_seed(0))
    >>> torch.equal(y, x.flip(1))
    True
    """
    x = torch.randint(vocab, (batch, length), generator=generator)
    return x, x.flip(1)
