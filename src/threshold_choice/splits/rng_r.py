"""R's default uniform generator and pre-3.6 ``sample()``, re-implemented with numpy.

What is reproduced (R 3.5, ``RNGkind("Mersenne-Twister", sample.kind = "Rounding")``):

* ``set.seed(seed)`` (``do_setseed`` -> ``RNG_Init`` in R's ``src/main/RNG.c``): the seed, as
  R's unsigned 32-bit ``Int32``, is scrambled by 50 steps of the LCG
  ``seed = 69069 * seed + 1 (mod 2**32)``; the next 625 LCG values fill ``dummy[0..624]``;
  ``FixupSeeds(initial=1)`` then overwrites ``dummy[0]`` (which holds ``mti``) with 624, so the
  first of the 625 values is discarded and the Mersenne-Twister key is the other 624 with
  ``mti = 624`` (the whole block is regenerated before the first output).
* ``unif_rand()`` = ``fixup(MT_genrand())``: the next tempered 32-bit word ``y`` times
  ``2**-32`` (a value in [0, 1) with 2**-32 resolution); ``fixup`` only changes an exact 0 into
  ``0.5 / (2**32 - 1)``.
* ``R_unif_index(dn)`` before R 3.6 ("Rounding"): ``floor(dn * unif_rand())`` (computed here in
  float64 exactly as R does).
* ``sample.int(n, k)`` without replacement (``do_sample``): a partial Fisher-Yates draw,
  ``j = R_unif_index(n); out[i] = x[j] + 1; x[j] = x[--n]``, with the pool ``x = 0..n-1``.
* ``rbeta(1, aa, bb)`` (``src/nmath/rbeta.c``, unchanged from R 3.3 to 4.2): Cheng's (1978)
  rejection algorithms BB (``min(aa, bb) > 1``) and BC, two ``unif_rand()`` per attempt. R
  caches the constants of the last ``(aa, bb)`` in statics; they are functions of ``(aa, bb)``
  alone, so the cache changes no value and is not needed here.

The Mersenne-Twister itself is numpy's :class:`numpy.random.MT19937` (the reference MT19937
algorithm, identical to R's ``MT_genrand``), whose full 624-word state is set to R's.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["RMersenneTwister", "r_initial_mt_key", "rbeta_from_uniforms"]

_MT_N = 624
_LCG_MULT = 69069
_MASK32 = 0xFFFFFFFF
_TWO_POW_M32 = 2.0**-32  # R's 2.3283064365386963e-10
_I2_32M1 = 2.328306437080797e-10  # 1 / (2**32 - 1), R's fixup constant
_EXPMAX = 1024 * math.log(2.0)  # rbeta.c's expmax = DBL_MAX_EXP * M_LN2 = log(DBL_MAX)
_DBL_MAX = float(np.finfo(np.float64).max)


def r_initial_mt_key(seed: int) -> NDArray[np.uint32]:
    """The 624-word Mersenne-Twister key that R's ``set.seed(seed)`` leaves (``mti = 624``).

    ``seed`` is taken modulo 2**32, as R's C cast of the integer seed to ``Int32``
    (``unsigned int``) does (so ``-1`` is ``2**32 - 1``).
    """
    s = int(seed) & _MASK32
    for _ in range(50):  # initial scrambling
        s = (_LCG_MULT * s + 1) & _MASK32
    words = np.empty(_MT_N + 1, dtype=np.uint32)
    for j in range(_MT_N + 1):  # dummy[0..624]; dummy[0] is mti and is overwritten
        s = (_LCG_MULT * s + 1) & _MASK32
        words[j] = s
    return words[1:].copy()


class RMersenneTwister:
    """R's Mersenne-Twister stream after ``set.seed(seed)``, with pre-3.6 ``sample``.

    Every method consumes the stream in the same order as the R call it names, so a
    sequence of calls here reproduces the same sequence of calls in R.
    """

    def __init__(self, seed: int) -> None:
        self._bitgen = np.random.MT19937()
        self._bitgen.state = {
            "bit_generator": "MT19937",
            "state": {"key": r_initial_mt_key(seed), "pos": _MT_N},
        }
        # words generated but not yet consumed (peek_unif), served first by raw32
        self._ahead: NDArray[np.uint64] = np.empty(0, dtype=np.uint64)

    def raw32(self, size: int) -> NDArray[np.uint64]:
        """The next ``size`` tempered 32-bit words (``MT_genrand`` before scaling)."""
        if not self._ahead.size:
            return self._bitgen.random_raw(size)  # type: ignore[no-any-return]
        head, self._ahead = self._ahead[:size], self._ahead[size:]
        if head.size == size:
            return head
        return np.concatenate([head, self._bitgen.random_raw(size - head.size)])

    def unif_rand(self, size: int) -> NDArray[np.float64]:
        """The next ``size`` values of R's ``unif_rand()`` (``runif(size)``), in [0, 1)."""
        return _uniforms(self.raw32(size))

    def peek_unif(self, size: int) -> NDArray[np.float64]:
        """The next ``size`` values of ``unif_rand()`` without consuming them (a later call
        of any method starts from the same place); :meth:`skip` then consumes some."""
        if self._ahead.size < size:
            more = self._bitgen.random_raw(size - self._ahead.size)
            self._ahead = np.concatenate([self._ahead, more])
        return _uniforms(self._ahead[:size])

    def skip(self, size: int) -> None:
        """Consume the next ``size`` values of ``unif_rand()``."""
        if size < 0:
            raise ValueError(f"cannot skip {size} values")
        self.raw32(size)

    def rbeta(self, size: int, aa: float, bb: float) -> NDArray[np.float64]:
        """R's ``rbeta(size, aa, bb)`` for finite ``aa, bb > 0``, consuming the stream as R
        does (:func:`rbeta_from_uniforms`)."""
        n = int(size)
        return self.rbeta_each(np.full(n, float(aa)), np.full(n, float(bb)))[0]

    def rbeta_each(self, aa: ArrayLike, bb: ArrayLike, then: int = 0
                   ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """R's loop ``for (i in seq_along(aa)) { x[i] <- rbeta(1, aa[i], bb[i]);
        u[i, ] <- runif(then) }``: the draws and the ``then`` uniforms after each.

        R's arithmetic exactly: the constants of algorithm BB are computed for all draws at
        once (IEEE operations, the same in numpy as in C), the rejection loop in Python on
        the C library's ``log`` and ``exp``; BC (``min(aa, bb) <= 1``) by
        :func:`rbeta_from_uniforms`.
        """
        aa = np.asarray(aa, dtype=np.float64)
        bb = np.asarray(bb, dtype=np.float64)
        if not (np.all((aa > 0) & (aa < math.inf)) and np.all((bb > 0) & (bb < math.inf))):
            raise ValueError("rbeta needs finite shapes > 0")
        a, b = np.minimum(aa, bb), np.maximum(aa, bb)
        alpha = a + b
        with np.errstate(invalid="ignore", divide="ignore"):  # BC's rows: not used
            beta = np.sqrt((alpha - 2.0) / (2.0 * a * b - alpha))
            gamma = a + 1.0 / beta
        rows = zip(aa.tolist(), bb.tolist(), a.tolist(), b.tolist(), alpha.tolist(),
                   beta.tolist(), gamma.tolist(), (aa != a).tolist(), strict=True)
        out: list[float] = []
        after: list[float] = []
        block = max(64, (6 + then) * aa.size)
        u = self.peek_unif(block).tolist()
        pos = 0
        log, exp = math.log, math.exp
        for aa_i, bb_i, a_i, b_i, al, be, ga, swapped in rows:
            if pos + 64 + then > len(u):  # many rejections: peek further
                block *= 2
                u = self.peek_unif(block).tolist()
            if a_i <= 1.0:  # algorithm BC
                while True:
                    try:
                        x, pos = rbeta_from_uniforms(u, pos, aa_i, bb_i)
                        break
                    except IndexError:
                        block *= 2
                        u = self.peek_unif(block).tolist()
                out.append(x)
            else:  # algorithm BB, as rbeta_from_uniforms
                while True:
                    if pos + 2 > len(u):
                        block *= 2
                        u = self.peek_unif(block).tolist()
                    u1 = u[pos]
                    z = u1 * u1 * u[pos + 1]
                    pos += 2
                    v = be * log(u1 / (1.0 - u1))
                    w = a_i * exp(v) if v < 709.0 else _w_from(v, a_i)
                    r = ga * v - 1.3862944
                    s = a_i + r - w
                    if s + 2.609438 >= 5.0 * z:
                        break
                    t = log(z)
                    if s > t or r + al * log(al / (b_i + w)) >= t:
                        break
                out.append(b_i / (b_i + w) if swapped else w / (b_i + w))
            if then:
                if pos + then > len(u):
                    block *= 2
                    u = self.peek_unif(block).tolist()
                after += u[pos : pos + then]
                pos += then
        self.skip(pos)
        return np.array(out), np.array(after).reshape(aa.size, then)

    def sample_int(self, n: int, size: int | None = None) -> NDArray[np.int64]:
        """R 3.5 ``sample.int(n, size)`` without replacement; **1-based** values, in R's order.

        ``size`` defaults to ``n`` (``sample(n)``: a random permutation of ``1..n``). Uses
        ``size`` uniforms: draw ``i`` picks ``j = floor((n - i) * u_i)`` from the shrinking pool.
        """
        k = n if size is None else int(size)
        if n < 0 or k < 0 or k > n:
            raise ValueError(f"cannot take a sample of size {k} from {n} items without replacement")
        if k == 0:
            return np.empty(0, dtype=np.int64)
        remaining = np.arange(n, n - k, -1, dtype=np.float64)  # the pool size at each draw
        picks = np.floor(remaining * self.unif_rand(k)).astype(np.int64)  # R_unif_index
        pool = list(range(n))
        out = np.empty(k, dtype=np.int64)
        last = n
        for i, j in enumerate(picks.tolist()):
            out[i] = pool[j] + 1
            last -= 1
            pool[j] = pool[last]
        return out

    def sample(self, x: NDArray[np.int64]) -> NDArray[np.int64]:
        """R's ``sample(x)`` for a vector ``x`` of length >= 2: ``x[sample.int(length(x))]``."""
        return self.sample_subset(x, len(x))

    def sample_subset(self, x: NDArray[np.int64], size: int) -> NDArray[np.int64]:
        """R's ``sample(x, size)`` for a vector ``x`` of length >= 2 (without replacement).

        R treats a length-1 numeric ``x`` as ``sample.int(x)``; that case is refused here.
        """
        x = np.asarray(x)
        if len(x) < 2:
            raise ValueError("sample() on a vector of length < 2 is R's sample.int() trap")
        return x[self.sample_int(len(x), size) - 1]


def _uniforms(words: NDArray[np.uint64]) -> NDArray[np.float64]:
    u = words.astype(np.float64) * _TWO_POW_M32
    u[u <= 0.0] = 0.5 * _I2_32M1  # fixup(); 1 - u <= 0 cannot happen for 32-bit words
    return u


def rbeta_from_uniforms(u: list[float], pos: int, aa: float, bb: float) -> tuple[float, int]:
    """One draw of R's ``rbeta(1, aa, bb)`` from the uniforms ``u[pos], u[pos + 1], ...``.

    Returns the draw and the position after the last uniform it used (two per attempt of
    the rejection loop). R's arithmetic step by step (``math`` is the C library's ``log``,
    ``exp`` and ``sqrt``, as R's); finite ``aa, bb > 0`` only (R's special cases of 0 and
    ``Inf`` are not needed here and refused). Raises ``IndexError`` when ``u`` ends before
    an attempt is accepted: the caller gives more uniforms and calls again.
    """
    if not (0.0 < aa < math.inf and 0.0 < bb < math.inf):
        raise ValueError(f"rbeta needs finite shapes > 0, got {aa!r}, {bb!r}")
    a, b = min(aa, bb), max(aa, bb)
    alpha = a + b
    log = math.log
    if a <= 1.0:  # algorithm BC
        beta = 1.0 / a
        delta = 1.0 + b - a
        k1 = delta * (0.0138889 + 0.0416667 * a) / (b * beta - 0.777778)
        k2 = 0.25 + (0.5 + 0.25 / delta) * a
        while True:
            u1, u2 = u[pos], u[pos + 1]
            pos += 2
            if u1 < 0.5:
                y = u1 * u2
                z = u1 * y
                if 0.25 * u2 + z - y >= k1:
                    continue
            else:
                z = u1 * u1 * u2
                if z <= 0.25:
                    w = _w_from(beta * log(u1 / (1.0 - u1)), b)
                    break
                if z >= k2:
                    continue
            v = beta * log(u1 / (1.0 - u1))
            w = _w_from(v, b)
            if alpha * (log(alpha / (a + w)) + v) - 1.3862944 >= log(z):
                break
        return (a / (a + w) if aa == a else w / (a + w)), pos
    # algorithm BB
    beta = math.sqrt((alpha - 2.0) / (2.0 * a * b - alpha))
    gamma = a + 1.0 / beta
    while True:
        u1, u2 = u[pos], u[pos + 1]
        pos += 2
        v = beta * log(u1 / (1.0 - u1))
        w = _w_from(v, a)
        z = u1 * u1 * u2
        r = gamma * v - 1.3862944
        s = a + r - w
        if s + 2.609438 >= 5.0 * z:
            break
        t = log(z)
        if s > t:
            break
        if r + alpha * log(alpha / (b + w)) >= t:
            break
    return (b / (b + w) if aa != a else w / (b + w)), pos


def _w_from(v: float, scale: float) -> float:
    # rbeta.c's v_w_from__u1_bet: w = scale * exp(v), DBL_MAX on overflow
    if v <= _EXPMAX:
        w = scale * math.exp(v) if v < 709.0 else scale * _safe_exp(v)
        return w if math.isfinite(w) else _DBL_MAX
    return _DBL_MAX


def _safe_exp(v: float) -> float:
    try:
        return math.exp(v)
    except OverflowError:  # C's exp gives inf, which rbeta.c turns into DBL_MAX
        return math.inf
