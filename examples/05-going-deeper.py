"""网络加深 · Going deeper.

A residual net unrolled is a sum over $2^n$ paths. Delete one block at test time, and
measure which path lengths carry the gradient (Veit et al. 2016), on scikit-learn's digits,
with chapter 6's pre-activation nets trained by the paper's recipe over 5 seeds.
Run it by hand with ``python examples/05-going-deeper.py``; the docs build runs it for you.
"""

# resdoc: time-limit = 210

# %% [markdown] lang="zh"
# # 网络加深
#
# 用第 6 章的网络和训练设置，每个种子训练两个各有 10 个块的网络（一个无残差，一个有残差），
# 在测试时每次删掉其中一个块，看测试准确率还剩多少。

# %% [markdown] lang="en"
# # Going deeper
#
# With chapter 6's nets and training recipe we train, for every seed, two nets of 10 blocks each,
# one plain and one residual, and at test time delete one block at a time to see how much test
# accuracy is left.

# %%
import numpy as np
import torch

from resdoc import publish
from resdoc.bilingual import say
from resdoc.data import Split, digits
from resdoc.going_deeper import (
    calibrate,
    covering_length,
    expected_depth,
    gradient_by_path_length,
    gradient_share,
    lesion_drops,
    lesion_study,
    path_counts,
    stream_growth,
    train_pair,
    train_stochastic,
)
from resdoc.going_deeper_plots import lesion_figure, path_figure, stochastic_lesion_figure
from resdoc.models import MLP, MLPConfig
from resdoc.training import PAPER_RECIPE, evaluate, train_net

SEEDS = (0, 1, 2, 3, 4)
LESION_DEPTH = 10
train_set, test_set = digits()
runs = [lesion_study(train_pair(LESION_DEPTH, seed), test_set) for seed in SEEDS]
accuracy = {kind: np.array([run[kind] for run in runs]) for kind in ("plain", "residual")}
publish.setting("lesion_depth", LESION_DEPTH, "{:d}")
publish.setting("n_seeds", len(SEEDS), "{:d}")
publish.setting("epochs", PAPER_RECIPE.epochs, "{:d}")
drop = {}
for kind, values in accuracy.items():
    intact = publish.spread(f"intact_{kind}", 100 * values[:, 0], seeds=SEEDS, fmt="{:.1f}%")
    mean = publish.spread(
        f"lesion_mean_{kind}", 100 * values[:, 1:].mean(1), seeds=SEEDS, fmt="{:.1f}%"
    )
    publish.spread(f"lesion_worst_{kind}", 100 * values[:, 1:].min(1), seeds=SEEDS, fmt="{:.1f}%")
    drop[kind] = 100 * (values[:, 0] - values[:, 1:].mean(1))  # per seed, in points
    say(
        f"{kind:8s} 完整 {intact.values}  删掉一个块后平均 {mean.values}",
        f"{kind:8s} intact {intact.values}  one block deleted, mean {mean.values}",
    )
# a mean over the blocks hides the one block whose deletion costs most: name it, seed by seed
typical, worst, where = (np.array(v) for v in lesion_drops(accuracy["residual"].tolist()))
typical = publish.spread("lesion_drop_residual", 100 * typical, seeds=SEEDS, fmt="{:.1f}")
worst = publish.spread("lesion_worst_drop_residual", 100 * worst, seeds=SEEDS, fmt="{:.1f}")
costliest = int(np.bincount(where).argmax())  # the block that is worst in most seeds
seeds_costliest = int((where == costliest).sum())
publish.number("costliest_block", costliest, "{:d}", seeds=SEEDS)
publish.number("costliest_block_seeds", seeds_costliest, "{:d}", seeds=SEEDS)
say(
    f"residual 每个种子最差的块 {where}，下降 {worst.values} 个百分点",
    f"residual worst block per seed {where}, drop {worst.values} points",
)
robust = publish.claim(
    "lesion_residual_robust",
    bool(drop["residual"].max() < 5),
    zh="有残差网络删掉一个典型的块，测试准确率几乎不变：完整时 {{ intact_residual_spread }}，"
    "删掉一个块后平均 {{ lesion_mean_residual_spread }}，平均下降 {{ lesion_drop_residual_spread }} 个百分点",
    en="Deleting a typical block of the residual net barely changes its test accuracy: "
    "{{ intact_residual_spread }} intact, {{ lesion_mean_residual_spread }} on average with one block deleted, "
    "a mean drop of {{ lesion_drop_residual_spread }} points",
    evidence=f"largest mean drop over seeds {drop['residual'].max():.1f} points",
)
# the first block is the costliest in a majority of seeds, and in the median seed deleting it
# costs several times what deleting a typical block does
first_block_costliest = (
    costliest == 0 and seeds_costliest > len(SEEDS) / 2 and worst.median > 3 * typical.median
)
worst_block = publish.claim(
    "lesion_worst_block",
    first_block_costliest,
    zh="但块与块并不相同：删掉代价最大的那个块，准确率下降 {{ lesion_worst_drop_residual_spread }} 个百分点"
    "（按种子的中位数），是典型块的数倍；{{ n_seeds }} 个种子里有 {{ costliest_block_seeds }} 个，"
    "代价最大的是紧接输入层的第一个块（图中的块 {{ costliest_block }}）",
    en="The blocks are not alike, though: deleting the costliest one loses "
    "{{ lesion_worst_drop_residual_spread }} points (median over seeds), several times a typical block's; in "
    "{{ costliest_block_seeds }} of {{ n_seeds }} seeds the costliest is the first block, right after the input "
    "layer (block {{ costliest_block }} in the figure)",
    evidence=f"worst block per seed {where.tolist()}, worst drops {worst.values}, mean drops {typical.values}",
)
collapse = publish.claim(
    "lesion_plain_collapses",
    bool(accuracy["plain"][:, 0].min() > 0.85 and accuracy["plain"][:, 1:].mean(1).max() < 0.25),
    zh="无残差网络完整时有 {{ intact_plain_spread }}，删掉一个块后平均只剩 {{ lesion_mean_plain_spread }}"
    "（最差的块 {{ lesion_worst_plain_spread }}），接近随机猜测的 10%",
    en="The plain net, {{ intact_plain_spread }} intact, keeps only {{ lesion_mean_plain_spread }} on average "
    "with one block deleted (worst block {{ lesion_worst_plain_spread }}), close to the 10% of guessing",
    evidence=f"plain intact min {accuracy['plain'][:, 0].min():.3f}, "
    f"lesion mean max {accuracy['plain'][:, 1:].mean(1).max():.3f}",
)
publish.figure(
    "lesion",
    lambda tr: lesion_figure(accuracy, tr),
    alt=(
        f"测试时删除第 i 个块后的测试准确率（{len(SEEDS)} 个种子的中位数与范围）。"
        f"{robust[0]}。{worst_block[0]}。{collapse[0]}。",
        f"Test accuracy after deleting block i at test time (median and range over {len(SEEDS)} seeds). "
        f"{robust[1]}. {worst_block[1]}. {collapse[1]}.",
    ),
)

# %% [markdown] lang="zh"
# ## 随机深度
#
# 同样的残差网络、同样的种子（初始化和小批量顺序都相同），训练时按随机深度（Huang 等，2016）
# 随机丢掉分支，线性衰减规则，最后一个块的丢弃概率为 $p_L$；再做一遍上面的删块实验。

# %% [markdown] lang="en"
# ## Stochastic depth
#
# The same residual nets with the same seeds (same initialization and mini-batch order), trained
# with stochastic depth (Huang et al., 2016): branches dropped at random by the linear decay rule,
# the last block with probability $p_L$. Then the lesion study above once more.

# %%
P_LAST = 0.5  # the paper's choice for its CIFAR ResNets
stochastic = np.array(
    [
        lesion_study({"sd": train_stochastic(LESION_DEPTH, seed, P_LAST)}, test_set)["sd"]
        for seed in SEEDS
    ]
)
accuracy_sd = {"residual": accuracy["residual"], "stochastic": stochastic}
publish.setting("p_last", P_LAST, "{:g}")
publish.number("expected_depth", expected_depth(LESION_DEPTH, P_LAST), "{:g}")
publish.number(
    "compute_share", 100 * expected_depth(LESION_DEPTH, P_LAST) / LESION_DEPTH, "{:.1f}%"
)
sd = {}
for kind, values in accuracy_sd.items():
    sd[kind, "intact"] = publish.spread(
        f"sd_intact_{kind}", 100 * values[:, 0], seeds=SEEDS, fmt="{:.1f}%"
    )
    sd[kind, "drop"] = publish.spread(
        f"sd_drop_{kind}", 100 * (values[:, 0] - values[:, 1:].mean(1)), seeds=SEEDS, fmt="{:.2f}"
    )
    sd[kind, "worst"] = publish.spread(
        f"sd_worst_drop_{kind}",
        100 * (values[:, 0] - values[:, 1:].min(1)),
        seeds=SEEDS,
        fmt="{:.1f}",
    )
    kept, lost = sd[kind, "intact"].values, sd[kind, "drop"].values
    say(
        f"{kind:10s} 完整 {kept}  平均下降 {lost}",
        f"{kind:10s} intact {kept}  mean drop {lost}",
    )
gentler = publish.claim(
    "sd_lesion_gentler",
    sd["stochastic", "drop"].median < 0.6 * sd["residual", "drop"].median
    and sd["stochastic", "drop"].high < sd["residual", "drop"].median,
    zh="用随机深度训练的网络，删掉一个块时受的影响更小：测试准确率平均下降 {{ sd_drop_stochastic_spread }} 个百分点，"
    "普通训练的残差网络下降 {{ sd_drop_residual_spread }} 个百分点",
    en="Deleting a block hurts the net trained with stochastic depth less: its test accuracy falls by "
    "{{ sd_drop_stochastic_spread }} points on average, that of the residual net trained normally by "
    "{{ sd_drop_residual_spread }} points",
    evidence=f"median drops {sd['stochastic', 'drop'].median:.2f} vs {sd['residual', 'drop'].median:.2f}, "
    f"largest stochastic-depth drop {sd['stochastic', 'drop'].high:.2f}",
)
publish.claim(
    "sd_intact_same",
    abs(sd["stochastic", "intact"].median - sd["residual", "intact"].median) < 2,
    zh="完整网络的测试准确率几乎相同：用随机深度训练的 {{ sd_intact_stochastic_spread }}，"
    "普通训练的 {{ sd_intact_residual_spread }}",
    en="The intact nets' test accuracies are nearly the same: {{ sd_intact_stochastic_spread }} with stochastic "
    "depth, {{ sd_intact_residual_spread }} without",
    evidence=f"medians {sd['stochastic', 'intact'].median:.2f} vs {sd['residual', 'intact'].median:.2f}",
)
publish.figure(
    "stochastic-depth-lesion",
    lambda tr: stochastic_lesion_figure(accuracy_sd, tr),
    alt=(
        f"删掉第 i 个块后的测试准确率（左）和每个种子平均下降的百分点（右），普通训练与随机深度训练的残差网络，"
        f"{len(SEEDS)} 个种子的中位数与范围。{gentler[0]}。",
        f"Test accuracy after deleting block i (left) and each seed's mean drop in points (right), for residual "
        f"nets trained normally and with stochastic depth, median and range over {len(SEEDS)} seeds. {gentler[1]}.",
    ),
)

# %% [markdown] lang="zh"
# ## 哪些路径在传梯度
#
# 用 30 个块的残差网络，按 Veit 等人的方法估计：长度为 $k$ 的一条路径送回输入端多大的梯度，
# 再乘以这样的路径条数 $\binom{n}{k}$。同一个网络在初始化时和训练后各算一次，每个种子一个网络。

# %% [markdown] lang="en"
# ## Which paths carry the gradient
#
# With a residual net of 30 blocks we estimate, following Veit et al., how much gradient one path
# of length $k$ sends back to the input, and multiply by the number of such paths
# $\binom{n}{k}$ — for the same net at initialization and after training, one net per seed.

# %%
PATH_DEPTH = 30
SAMPLES = 40  # random paths per length: one path's gradient varies a lot, so the mean needs many
probe = Split(test_set.x[:128], test_set.y[:128])  # 128 test images are enough for a mean
counts = path_counts(PATH_DEPTH)
per_path = {"init": [], "trained": []}
growth = {"init": [], "trained": []}
fit = []
for seed in SEEDS:
    torch.manual_seed(seed)  # the same initialization train_net starts from
    net = calibrate(MLP(MLPConfig(depth=PATH_DEPTH)), train_set)
    per_path["init"].append(gradient_by_path_length(net, probe, samples=SAMPLES, seed=seed))
    growth["init"].append(stream_growth(net, probe))
    net, _ = train_net("residual", PATH_DEPTH, seed)
    fit.append(evaluate(net, train_set))
    per_path["trained"].append(gradient_by_path_length(net, probe, samples=SAMPLES, seed=seed))
    growth["trained"].append(stream_growth(net, probe))
per_path = {key: np.array(values) for key, values in per_path.items()}
share = {key: np.array([gradient_share(counts, row) for row in v]) for key, v in per_path.items()}

publish.setting("path_depth", PATH_DEPTH, "{:d}")
publish.setting("n_paths", 2**PATH_DEPTH, "{:,d}")
publish.setting("mean_path_length", PATH_DEPTH / 2, "{:g}")
publish.setting("probe_size", len(probe.y), "{:d}")
publish.setting("samples", SAMPLES, "{:d}")
loss = publish.spread("train_loss", [f[0] for f in fit], seeds=SEEDS, fmt="{:.2g}")
error = publish.spread("train_error", [100 * f[1] for f in fit], seeds=SEEDS, fmt="{:.1f}%")
cover, factor, straight = {}, {}, {}
for key in per_path:
    publish.spread(f"stream_growth_{key}", growth[key], seeds=SEEDS, fmt="{:.1f}")
    peaks = share[key].argmax(1)
    publish.spread(f"peak_{key}", peaks, seeds=SEEDS, fmt="{:.0f}")
    cover[key] = publish.spread(
        f"cover90_{key}",
        [covering_length(row, 0.9) for row in share[key]],
        seeds=SEEDS,
        fmt="{:.0f}",
    )
    # on average over lengths, how much one more branch shrinks a path's gradient
    rate = (per_path[key][:, -1] / per_path[key][:, 0]) ** (1 / PATH_DEPTH)
    factor[key] = publish.spread(f"branch_factor_{key}", rate, seeds=SEEDS, fmt="{:.2f}")
    # how straight log(gradient) is against k: R² of a line fit, per seed (1 = exactly exponential)
    straight[key] = min(
        np.corrcoef(np.arange(PATH_DEPTH + 1), np.log(row))[0, 1] ** 2 for row in per_path[key]
    )
    say(
        f"{key:8s} 峰值 {peaks}，90% 来自 k <= {cover[key].values}，每条分支 {rate}",
        f"{key:8s} peak {peaks}, 90% from k <= {cover[key].values}, per-branch {rate}",
    )
say(
    f"训练后：损失 {loss.values} 误差 {error.values} 残差流增长 {growth['trained']}",
    f"trained: loss {loss.values} error {error.values} stream growth {growth['trained']}",
)
publish.claim(
    "well_trained",
    loss.high < 0.01 and error.high < 0.5,
    zh="训练后的网络把训练集拟合得很好：训练损失 {{ train_loss_spread }}，训练误差 {{ train_error_spread }}",
    en="The trained nets fit their training set: training loss {{ train_loss_spread }}, training error "
    "{{ train_error_spread }}",
    evidence=f"worst loss {loss.high:.4f}, worst error {error.high:.2f}%",
)
decay = publish.claim(
    "per_path_decays",
    factor["init"].high < 0.7 and factor["trained"].high < 0.7 and min(straight.values()) > 0.95,
    zh="单条路径的梯度随长度指数衰减：平均每多经过一个分支，初始化时乘以 {{ branch_factor_init_spread }}，"
    "训练后乘以 {{ branch_factor_trained_spread }}",
    en="The gradient along one path decays exponentially with its length: on average one more branch "
    "multiplies it by {{ branch_factor_init_spread }} at initialization and by {{ branch_factor_trained_spread }} "
    "after training",
    evidence=f"largest per-branch factor {max(factor['init'].high, factor['trained'].high):.3f}, "
    f"smallest R² of log-gradient against length {min(straight.values()):.3f}",
)
short = publish.claim(
    "short_paths",
    cover["init"].high < PATH_DEPTH / 2 and cover["trained"].high < PATH_DEPTH / 2,
    zh="与 Veit 等人的结论一致，总梯度主要来自比平均长度 {{ mean_path_length }} 短的路径："
    "90% 的梯度来自长度不超过 {{ cover90_init_spread }}（初始化时）和 {{ cover90_trained_spread }}（训练后）的路径",
    en="As Veit et al. found, the total gradient comes mostly from paths shorter than the mean length "
    "{{ mean_path_length }}: 90% of it comes from paths of length at most {{ cover90_init_spread }} at "
    "initialization and {{ cover90_trained_spread }} after training",
    evidence=f"largest 90% length {max(cover['init'].high, cover['trained'].high)} vs mean {PATH_DEPTH / 2}",
)
publish.claim(
    "trained_steeper",
    factor["trained"].high < factor["init"].low - 0.03,
    zh="训练后，每多经过一个分支，单条路径的梯度缩小得比初始化时更多",
    en="After training, one more branch shrinks a path's gradient more than at initialization",
    evidence=f"trained factor max {factor['trained'].high:.3f} vs init min {factor['init'].low:.3f}",
)
publish.figure(
    "path-lengths",
    lambda tr: path_figure(counts, per_path, share, tr),
    alt=(
        f"三幅图（{len(SEEDS)} 个种子的中位数与范围）：(a) 各长度路径的占比呈二项分布；(b) 单条路径的梯度；"
        f"(c) 二者相乘后各长度的总贡献。{decay[0]}。{short[0]}。",
        f"Three panels (median and range over {len(SEEDS)} seeds): (a) the share of paths per length is "
        f"binomial; (b) the gradient along one path; (c) their product, the total per length. "
        f"{decay[1]}. {short[1]}.",
    ),
)

# %% [markdown] lang="zh"
# ## 小结

# %% [markdown] lang="en"
# ## Summary

# %%
publish.claim(
    "summary_lesion",
    bool(drop["residual"].max() < 5 and accuracy["plain"][:, 1:].mean(1).max() < 0.25)
    and first_block_costliest,
    zh="测试时删掉一个典型的块，残差网络几乎不受影响（代价最大的通常是第一个块，其代价是典型块的数倍），"
    "无残差网络平均跌到随机猜测附近",
    en="Deleting a typical block at test time barely affects the residual net (the costliest, in most seeds the "
    "first block, costs several times as much) and drops the plain net to near chance",
)
publish.claim(
    "summary_paths",
    factor["init"].high < 0.7
    and factor["trained"].high < 0.7
    and min(straight.values()) > 0.95
    and cover["init"].high < PATH_DEPTH / 2
    and cover["trained"].high < PATH_DEPTH / 2,
    zh="单条路径的梯度随长度指数衰减，总梯度主要由比平均长度短的路径承载，初始化时和训练后都是如此",
    en="The gradient along one path decays exponentially with its length, so paths shorter than the mean "
    "length carry most of the total, at initialization and after training alike",
)
publish.claim(
    "summary_stochastic",
    sd["stochastic", "drop"].median < 0.6 * sd["residual", "drop"].median
    and sd["stochastic", "drop"].high < sd["residual", "drop"].median,
    zh="用随机深度训练的残差网络，删掉一个块时准确率平均下降得比普通训练的更少",
    en="A residual net trained with stochastic depth loses less accuracy on average when one block is "
    "deleted than one trained normally",
)
