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

The Mersenne-Twister itself is numpy's :class:`numpy.random.MT19937` (the reference MT19937
algorithm, identical to R's ``MT_genrand``), whose full 624-word state is set to R's.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["RMersenneTwister", "r_initial_mt_key"]

_MT_N = 624
_LCG_MULT = 69069
_MASK32 = 0xFFFFFFFF
_TWO_POW_M32 = 2.0**-32  # R's 2.3283064365386963e-10
_I2_32M1 = 2.328306437080797e-10  # 1 / (2**32 - 1), R's fixup constant


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

    def raw32(self, size: int) -> NDArray[np.uint64]:
        """The next ``size`` tempered 32-bit words (``MT_genrand`` before scaling)."""
        return self._bitgen.random_raw(size)  # type: ignore[no-any-return]

    def unif_rand(self, size: int) -> NDArray[np.float64]:
        """The next ``size`` values of R's ``unif_rand()`` (``runif(size)``), in [0, 1)."""
        u = self.raw32(size).astype(np.float64) * _TWO_POW_M32
        u[u <= 0.0] = 0.5 * _I2_32M1  # fixup(); 1 - u <= 0 cannot happen for 32-bit words
        return u

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
