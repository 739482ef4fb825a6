"""One random stream for both engines: numpy's PCG64 state, carried into and out of the core.

The Python engine draws from ``numpy.random.default_rng(seed)``. The core's ``Pcg64``
(cpp/riven/rules/pcg64.hpp) reproduces PCG64 and ``Generator.integers`` bit for bit, so a game
started from the same seed rolls the same dice on either engine. The state crosses the boundary
through numpy's own ``bit_generator.state`` dictionary, with each 128-bit word split in two
64-bit halves.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from riven_env.errors import RivenError
from riven_env.native import load

_WORD = (1 << 64) - 1


def native_stream(rng: np.random.Generator) -> Any:
    """A core ``Pcg64`` at exactly the state of ``rng`` (which is left untouched).

    Raises:
        RivenError: ``rng`` is not driven by numpy's PCG64 (the only bit generator the core has).
    """
    state = rng.bit_generator.state
    if state.get("bit_generator") != "PCG64":
        raise RivenError(
            f"the native core draws from PCG64 only; got bit generator {state.get('bit_generator')!r} "
            "(use numpy.random.default_rng(seed))"
        )
    inner = state["state"]
    return load().Pcg64(
        inner["state"] >> 64,
        inner["state"] & _WORD,
        inner["inc"] >> 64,
        inner["inc"] & _WORD,
        bool(state["has_uint32"]),
        int(state["uinteger"]),
    )


def numpy_state(stream: Any) -> dict[str, Any]:
    """numpy's ``bit_generator.state`` dictionary for the core stream ``stream``."""
    state_high, state_low, inc_high, inc_low, has_uint32, uinteger = stream.state_words()
    return {
        "bit_generator": "PCG64",
        "state": {"state": (state_high << 64) | state_low, "inc": (inc_high << 64) | inc_low},
        "has_uint32": int(has_uint32),
        "uinteger": int(uinteger),
    }


def to_generator(stream: Any) -> np.random.Generator:
    """A numpy Generator at exactly the state of the core stream ``stream``."""
    bit_generator = np.random.PCG64()
    bit_generator.state = numpy_state(stream)
    return np.random.Generator(bit_generator)
