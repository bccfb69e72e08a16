"""The uncertainty model and its per-gamma moment tables."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.special import betainc, betaln

from threshold_choice.errors import UserError
from threshold_choice.moment_tables import CMeasure, MomentTable, moment_table
from threshold_choice.uncertainty import Uncertainty, format_gamma, parse_gamma

POINTS = np.array([1e-9, 1e-4, 0.01, 0.2, 0.5, 0.77, 0.999, 1 - 1e-6])


def direct_moment(gamma, x, a, b):
    """G_ab(x) by adaptive quadrature over c of the Beta CDF (or partial first moment)."""

    def integrand(c):
        al, be = gamma * c + 1, gamma * (1 - c) + 1
        inner = betainc(al, be, x) if b == 0 else al / (al + be) * betainc(al + 1, be, x)
        return c**a * inner

    return quad(integrand, 0, 1, epsabs=1e-14, epsrel=1e-13, limit=500, points=[x])[0]


@pytest.mark.parametrize("gamma", [0.5, 4.0, 16.0, 200.0])
def test_moment_table_matches_adaptive_quadrature(gamma):
    table = moment_table(gamma)
    values = table(POINTS)
    for i, x in enumerate(POINTS):
        for k, (a, b) in enumerate([(0, 0), (1, 0), (0, 1), (1, 1)]):
            assert values[k, i] == pytest.approx(direct_moment(gamma, x, a, b), abs=1e-10)


def test_moment_table_ends_are_exact():
    table = moment_table(4.0)
    np.testing.assert_allclose(table(np.array([0.0])), 0.0, atol=1e-15)
    np.testing.assert_allclose(table(np.array([1.0]))[:, 0], table.total, atol=1e-15)
    # E[c_hat] = E[c] = 1/2 under a uniform c
    assert table.total[2] == pytest.approx(0.5)


def test_grid_measure_table_matches_the_grid_average():
    gamma, n = 3.0, 50
    table = MomentTable(gamma, measure=CMeasure(n))
    grid = np.arange(1, n + 1) / n
    x = 0.37
    expected = np.mean(betainc(gamma * grid + 1, gamma * (1 - grid) + 1, x))
    assert table(np.array([x]))[0, 0] == pytest.approx(expected, abs=1e-10)


@pytest.mark.parametrize("gamma", [1.0, 8.0])
def test_posterior_mean_matches_its_definition(gamma):
    table = moment_table(gamma)
    unc = Uncertainty(gamma)
    for x in (0.01, 0.3, 0.5, 0.9):
        # E[c | c_hat = x] with a uniform prior: integral of c v(x|c) over integral of v(x|c)

        def dens(c, x=x):
            log_pdf = gamma * c * math.log(x) + gamma * (1 - c) * math.log1p(-x)
            return math.exp(log_pdf - betaln(*unc.alpha_beta(c)))

        num = quad(lambda c: c * dens(c), 0, 1, epsabs=1e-13)[0]
        den = quad(dens, 0, 1, epsabs=1e-13)[0]
        assert table.posterior_mean(np.array([x]))[0] == pytest.approx(num / den, abs=1e-9)


def test_posterior_mean_inverse_round_trips():
    table = moment_table(4.0)
    x = np.array([0.05, 0.3, 0.5, 0.8, 0.97])
    m = table.posterior_mean(x)
    assert np.all(np.diff(m) > 0)
    np.testing.assert_allclose(table.posterior_mean_inverse(m, closed="left"), x, atol=1e-9)


@pytest.mark.parametrize("gamma", [1000.0, 1e4])
def test_posterior_mean_inverse_holds_beyond_a_bounded_support(gamma):
    # beyond a bounded support the posterior mean flattens at its end, from densities of
    # 1e-100 and less (not quite monotone there: 3.5e-6 at 1e4); the inverse keeps to the
    # cell its means bracket, and the mean to the support (the former plain Newton steps
    # sent m = 0.4496 at gamma = 1000 to c_hat = 1e-13, whose mean is 0.1, and the former
    # mean overshot the support's end by 4e-5)
    from threshold_choice.cost_distributions import parse_cost_distribution

    table = moment_table(gamma, None, parse_cost_distribution("uniform:0.1,0.45"))
    m = table.posterior_mean(np.linspace(0.0, 1.0, 4001))
    back = table.posterior_mean_inverse(m, closed="right")
    np.testing.assert_allclose(table.posterior_mean(back), m, rtol=0, atol=1e-5)


def posterior_offset(gamma, x):
    """``E[c | c_hat = x] - x`` under the uniform prior, by mpmath (to ~25 digits: the
    kernel's terms of size gamma cancel in 30 + log10(gamma) digits; the integrals over c are
    cut around the posterior's bulk)."""
    import mpmath  # a test dependency: high-precision references

    with mpmath.workdps(30 + int(math.log10(gamma))):
        g, xm = mpmath.mpf(gamma), mpmath.mpf(x)
        log_x, log_1mx, log_norm = mpmath.log(xm), mpmath.log1p(-xm), mpmath.loggamma(g + 2)

        def kernel(c):  # the Beta density of c_hat = x given c
            a, b = g * c + 1, g * (1 - c) + 1
            return mpmath.exp((a - 1) * log_x + (b - 1) * log_1mx + log_norm
                              - mpmath.loggamma(a) - mpmath.loggamma(b))

        sd = mpmath.sqrt(xm * (1 - xm) / g) + 1 / g
        cuts = sorted({mpmath.mpf(0), mpmath.mpf(1)}
                      | {min(max(xm + k * sd, mpmath.mpf(0)), mpmath.mpf(1))
                         for k in (-40, -6, 0, 6, 40)})
        return (mpmath.quad(lambda c: (c - xm) * kernel(c), cuts)
                / mpmath.quad(kernel, cuts))


@pytest.mark.parametrize(("gamma", "points"), [
    (4.0, (0.01, 0.309, 0.5, 0.73, 0.9)),
    (100.0, (0.01, 0.25, 0.5, 0.73, 0.9)),
    (1e4, (1e-5, 0.01, 0.25, 0.73, 0.999)),
    (1e12, (1e-12, 1e-5, 0.25, 0.73, 0.9)),
    (1e20, (1e-12, 0.01, 0.25, 0.73, 1 - 1e-9)),
])
def test_posterior_mean_is_accurate_relative_to_the_spread_at_any_gamma(gamma, points):
    # E[c | c_hat] - c_hat shrinks with the kernel's spread (for the uniform, exponentially in
    # the bulk: 2e-14 at gamma = 100 and 0.25, 0 to 30 digits at 1e4), so the posterior
    # mean must be right to a fraction of the spread, not to an absolute 1e-12: the mean
    # itself interpolated was off by 1.5e-12 at 0.25 and 4.6e-12 at 0.309 whatever gamma
    # (0.04 of the spread at 1e20); near c_hat ~ 1 / gamma the correction is of the size
    # of the spread (1e-12 at gamma = 1e12), and checked there too
    import mpmath

    x = np.array(points)
    got = moment_table(gamma).posterior_mean(x)
    floor = 1e-13 if gamma <= 1000 else 0.0  # the global quadrature's accuracy
    for xv, m in zip(x, got, strict=True):
        sd = math.sqrt(xv * (1 - xv) / gamma) + 1 / gamma
        with mpmath.workdps(60):
            error = abs(float(mpmath.mpf(float(m)) - mpmath.mpf(float(xv))
                              - posterior_offset(gamma, float(xv))))
        assert error <= 1e-12 * sd + np.spacing(xv) + floor, (xv, error, error / sd)


def test_posterior_mean_without_information_is_one_half():
    table = moment_table(0.0)
    np.testing.assert_allclose(table.posterior_mean(np.array([0.1, 0.9])), 0.5)
    breaks = np.array([0.2, 0.5, 0.7])
    np.testing.assert_array_equal(table.posterior_mean_inverse(breaks, closed="right"), [0, 1, 1])
    np.testing.assert_array_equal(table.posterior_mean_inverse(breaks, closed="left"), [0, 0, 1])


def test_sampling_has_mode_c_and_respects_extremes():
    rng = np.random.default_rng(0)
    c = np.full(200_000, 0.3)
    draws = Uncertainty(16.0).sample(c, rng)
    # mean of Beta(5.8, 12.2) = 5.8 / 18
    assert draws.mean() == pytest.approx(5.8 / 18, abs=2e-3)
    np.testing.assert_array_equal(Uncertainty(math.inf).sample(c, rng), c)
    uniform = Uncertainty(0.0).sample(c, rng)
    assert uniform.mean() == pytest.approx(0.5, abs=3e-3)


@pytest.mark.parametrize("gamma", [0.0, 0.5, 10.0, 100.0, 1e4])
def test_the_density_of_c_hat_is_the_beta_pdf_and_the_derivative_of_the_cdf(gamma):
    from scipy.stats import beta as beta_dist  # the oracle

    model = Uncertainty(gamma)
    x = np.array([0.0, 1e-6, 0.05, 0.2, 0.2003, 0.5, 0.9, 1.0])
    for c in (0.0, 0.2, 0.75, 1.0):
        a, b = gamma * c + 1, gamma * (1 - c) + 1
        np.testing.assert_allclose(model.pdf(x, c), beta_dist.pdf(x, a, b), rtol=1e-9,
                                   atol=1e-300)
        h = 1e-6
        inner = x[(x > h) & (x < 1 - h)]
        slope = (model.cdf(inner + h, c) - model.cdf(inner - h, c)) / (2 * h)
        np.testing.assert_allclose(model.pdf(inner, c), slope, rtol=1e-4, atol=1e-7)
    # outside [0, 1] there is no mass; the arguments broadcast
    np.testing.assert_array_equal(model.pdf([-0.1, 1.1], 0.3), [0.0, 0.0])
    assert model.pdf(np.full((2, 1), 0.4), np.array([0.1, 0.5, 0.9])).shape == (2, 3)


@pytest.mark.parametrize("gamma", [1e6, 1e12, 1e16, 1e20])
def test_the_density_of_c_hat_is_right_at_any_finite_gamma(gamma):
    import mpmath  # a test dependency: 50-digit references
    mpmath.mp.dps = 50
    c = 0.3
    x = c + np.array([0.0, 1.0, -2.0, 4.0]) / math.sqrt(gamma)  # within the kernel's width
    got = Uncertainty(gamma).pdf(x, c)
    for xv, value in zip(x, got, strict=True):
        a, b = mpmath.mpf(gamma) * c + 1, mpmath.mpf(gamma) * (1 - mpmath.mpf(c)) + 1
        X = mpmath.mpf(float(xv))
        reference = mpmath.exp((a - 1) * mpmath.log(X) + (b - 1) * mpmath.log(1 - X)
                               - mpmath.log(mpmath.beta(a, b)))
        assert value == pytest.approx(float(reference), rel=1e-12)


def test_the_density_at_gamma_inf_is_refused():
    with pytest.raises(UserError, match="point mass"):
        Uncertainty(math.inf).pdf(0.5, 0.5)


@pytest.mark.parametrize("bad", ["-1", "nan", "abc", -0.5])
def test_invalid_gamma_is_rejected(bad):
    with pytest.raises(UserError, match="gamma"):
        parse_gamma(bad)


def test_gamma_names():
    assert parse_gamma("inf") == math.inf and parse_gamma("Inf") == math.inf
    assert format_gamma(math.inf) == "inf"
    assert format_gamma(16.0) == "16"
    assert format_gamma(0.5) == "0.5"


def test_disk_cache_gives_the_same_table(tmp_path, monkeypatch):
    monkeypatch.setenv("THRESHOLD_CHOICE_CACHE", str(tmp_path))
    built = MomentTable(3.0)
    first = built(POINTS)
    assert list(tmp_path.glob("moments_*.npz"))
    loaded = MomentTable(3.0)
    np.testing.assert_array_equal(first, loaded(POINTS))
    # and the posterior mean (its corrections are kept with the table)
    np.testing.assert_array_equal(built.posterior_mean(POINTS), loaded.posterior_mean(POINTS))


# -- the on-disk cache is verified and optional -------------------------------------------------


def _cached_file(tmp_path):
    (path,) = tmp_path.glob("moments_*.npz")
    return path


def test_a_truncated_cache_file_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("THRESHOLD_CHOICE_CACHE", str(tmp_path))
    first = MomentTable(3.0)(POINTS)
    path = _cached_file(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])  # an interrupted copy, a full disk
    np.testing.assert_array_equal(MomentTable(3.0)(POINTS), first)
    assert path.read_bytes() == data  # rewritten whole


@pytest.mark.parametrize("damage", ["garbage", "flipped", "other-grid"])
def test_a_damaged_cache_file_is_never_trusted(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("THRESHOLD_CHOICE_CACHE", str(tmp_path))
    first = MomentTable(3.0)(POINTS)
    path = _cached_file(tmp_path)
    if damage == "garbage":
        path.write_bytes(b"not a zip file at all")
    else:
        with np.load(path) as stored:
            arrays = {k: stored[k] for k in stored.files}
        if damage == "flipped":  # a valid archive whose numbers changed: the checksum says so
            arrays["cells"] = arrays["cells"] * (1 + 1e-9)
        else:  # a table for other cells
            arrays["edges"] = arrays["edges"][:-1]
        np.savez(path, **arrays)
    np.testing.assert_array_equal(MomentTable(3.0)(POINTS), first)


def test_an_unwritable_cache_folder_warns_and_carries_on(tmp_path, monkeypatch):
    import os

    folder = tmp_path / "cache"
    folder.mkdir()
    folder.chmod(0o500)
    if os.access(folder, os.W_OK):  # root ignores permissions: use a file in the way
        folder.chmod(0o700)
        folder.rmdir()
        folder.write_text("a file where the folder should be")
    monkeypatch.setenv("THRESHOLD_CHOICE_CACHE", str(folder))
    with pytest.warns(RuntimeWarning, match="carrying on without caching"):
        table = MomentTable(2.5)
    monkeypatch.delenv("THRESHOLD_CHOICE_CACHE")
    np.testing.assert_array_equal(table(POINTS), MomentTable(2.5)(POINTS))


def test_the_cache_key_includes_the_distribution(tmp_path, monkeypatch):
    from threshold_choice.cost_distributions import parse_cost_distribution

    monkeypatch.setenv("THRESHOLD_CHOICE_CACHE", str(tmp_path))
    uniform = MomentTable(3.0)(POINTS)
    beta = MomentTable(3.0, CMeasure(None, parse_cost_distribution("beta:2,2")))(POINTS)
    names = sorted(p.name for p in tmp_path.glob("moments_*.npz"))
    assert len(names) == 2 and any("beta-2_2" in n for n in names)
    assert np.max(np.abs(uniform - beta)) > 1e-3
    np.testing.assert_array_equal(
        MomentTable(3.0, CMeasure(None, parse_cost_distribution("beta:2,2")))(POINTS), beta
    )


@pytest.mark.parametrize("gamma", [16.0, 0.5])
def test_moment_table_bits_do_not_depend_on_the_blas_threads(gamma, monkeypatch):
    # a matrix product groups its sums by thread: the table is built with one BLAS thread,
    # so a library user with many cores gets the workflow's (one-thread) numbers bit for bit
    from threadpoolctl import threadpool_limits

    from threshold_choice.moment_tables import CMeasure, MomentTable

    monkeypatch.delenv("THRESHOLD_CHOICE_CACHE", raising=False)
    built = []
    for threads in (1, 2, 4):
        with threadpool_limits(limits=threads):
            table = MomentTable(gamma, CMeasure(None))
        built.append((table._edge_values, table._coefficients))
    for values, coefficients in built[1:]:
        np.testing.assert_array_equal(values, built[0][0])
        np.testing.assert_array_equal(coefficients, built[0][1])


@pytest.mark.parametrize("forgery", ["everywhere", "half the cells", "posterior mean"])
def test_a_table_altered_with_its_digest_recomputed_is_rebuilt(tmp_path, monkeypatch, forgery):
    from threshold_choice.moment_tables import _digest

    monkeypatch.setenv("THRESHOLD_CHOICE_CACHE", str(tmp_path))
    # the posterior mean's corrections at gamma = 1e20: 1e-15 is 3e-5 of the kernel's
    # width there, more than enough to move the aware methods' breaks
    gamma = 1e20 if forgery == "posterior mean" else 3.0
    first = MomentTable(gamma)(POINTS)
    first_mean = MomentTable(gamma).posterior_mean(POINTS)
    path = _cached_file(tmp_path)
    with np.load(path) as stored:
        arrays = {k: stored[k] for k in stored.files}
    cells, inner = arrays["cells"].copy(), arrays["inner"].copy()
    if forgery == "everywhere":  # the doctored table (a negative expected loss)
        cells *= 1.05
    elif forgery == "half the cells":
        cells[:, cells.shape[1] // 2:] *= 1.001
    else:
        inner += 1e-15
    arrays["cells"], arrays["inner"] = cells, inner
    arrays["digest"] = np.array(_digest(arrays["edges"], cells, arrays["slopes"], inner))
    np.savez(path, **arrays)
    with pytest.warns(RuntimeWarning, match="holds values the code does not compute"):
        again = MomentTable(gamma)
    np.testing.assert_array_equal(again(POINTS), first)
    np.testing.assert_array_equal(again.posterior_mean(POINTS), first_mean)


def test_an_intact_cached_table_passes_its_spot_check_without_a_word(tmp_path, monkeypatch):
    import warnings

    monkeypatch.setenv("THRESHOLD_CHOICE_CACHE", str(tmp_path))
    first = MomentTable(2.0)(POINTS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(MomentTable(2.0)(POINTS), first)


def test_tables_are_kept_in_the_users_cache_folder_by_default(tmp_path):
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "THRESHOLD_CHOICE_CACHE"}
    env["XDG_CACHE_HOME"] = str(tmp_path)  # where platformdirs puts the user's cache
    code = "from threshold_choice.moment_tables import MomentTable; MomentTable(3.5)"
    subprocess.run([sys.executable, "-c", code], env=env, check=True, cwd=tmp_path)
    assert list((tmp_path / "threshold-choice" / "moments").glob("moments_*.npz"))
