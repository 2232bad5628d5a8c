import pytest
import torch

from resdoc.applications_ode import (
    Path,
    euler,
    euler_error,
    f,
    iid_stack,
    inputs,
    loglog_slope,
    rk4,
    stack,
)


def test_one_block_scaled_by_one_is_x_plus_f_of_x():
    path, x = Path("shared", 0), inputs(0)
    assert torch.equal(stack(x, [path.a], 1.0), x + f(x, path.a))
    assert torch.equal(euler(path, x, 1), x + f(x, path.a))


def test_the_smooth_path_turns_from_one_draw_to_the_other():
    path = Path("smooth", 1)
    for got, want in zip(path.at(0.0) + path.at(1.0), path.a + path.b, strict=True):
        assert torch.allclose(got, want, atol=1e-12)


def test_the_reference_solution_has_converged():
    path, x = Path("smooth", 2), inputs(2)
    fine, coarse = rk4(path, x, 128), rk4(path, x, 64)
    assert (fine - coarse).abs().max().item() < 1e-8 * (fine - x).abs().max().item()


@pytest.mark.parametrize("kind", ["shared", "smooth"])
def test_euler_error_halves_when_the_blocks_double(kind):
    errors = euler_error(kind, [16, 32, 64], seed=3)
    assert [a / b for a, b in zip(errors, errors[1:], strict=False)] == pytest.approx(
        [2, 2], rel=0.1
    )


def test_independent_weights_scaled_by_one_over_l_move_the_output_like_one_over_sqrt_l():
    moves = [iid_stack(depth, "linear", seed=4)["move"] for depth in (16, 64, 256)]
    assert loglog_slope([16, 64, 256], moves) == pytest.approx(-0.5, abs=0.1)
    sqrt_moves = [iid_stack(depth, "sqrt", seed=4)["move"] for depth in (16, 64, 256)]
    assert loglog_slope([16, 64, 256], sqrt_moves) == pytest.approx(0, abs=0.1)


def test_loglog_slope_of_a_power_law():
    assert loglog_slope([1, 2, 4], [1, 0.5, 0.25]) == pytest.approx(-1)
