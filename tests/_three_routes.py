"""D_alpha(P || Q) by the library's three routes -- ``renyi``, the sup-over-alpha engine's mpmath
route and its float64 route -- held against a reference value computed by the caller."""

from __future__ import annotations

import math

from countdp.divergence.renyi import renyi
from countdp.divergence.tail_growth import Unresolved
from countdp.divergence.tight_rho import mp_renyi, renyi_curve


def assert_routes_cover(P, Q, alpha, exact, rounding=0, unresolved_if_infinite=True) -> None:
    """Each route covers ``exact`` within its error bar (plus ``rounding`` |exact|), gives inf
    where ``exact`` is inf, or -- the engine's two routes only -- raises Unresolved (where
    ``exact`` is finite only, with ``unresolved_if_infinite`` False: a divergence that grows like
    a power is shown, one at the log boundary, exponent -1, may not be)."""
    routes = {"renyi": lambda: renyi(P, Q, alpha), "engine, mpmath": lambda: mp_renyi(P, Q, alpha),
              "engine, float64": lambda: renyi_curve(P, Q, [alpha])}
    for route, run in routes.items():
        try:
            est = run()
        except Unresolved:
            assert route != "renyi" and (unresolved_if_infinite or exact != math.inf), (route, alpha, "Unresolved")
            continue
        value = float(est.value[0]) if route == "engine, float64" else est.value
        error = float(est.error[0]) if route == "engine, float64" else est.error
        if exact == math.inf:
            assert value == math.inf, (route, alpha, value)
        else:
            assert abs(value - exact) <= error + rounding * abs(exact), (route, alpha, value, error, exact)


__all__ = ["assert_routes_cover"]
