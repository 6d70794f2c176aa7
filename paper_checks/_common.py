"""What the check scripts share: the precision of their certificates, Section 6's running example,
the texts of the routes several scripts name (one wording, so that the reports say the same thing
the same way) and the tolerances of the rules read off sequences."""

from fractions import Fraction

#: Section 6's running example r, exactly
R = Fraction(1, 10)

#: Arb precision (bits) of the certificates
PREC = 53
#: closed forms are enclosed 64 bits more precisely than the integrals and enclosures they are put in
CLOSED_PREC = PREC + 64

#: the route of a closed form checked against a certified enclosure
ENCLOSED = "closed form inside the certified enclosure (that is what PROVED_TRUE means here)"

#: the two Arb algorithms of ``renyi(..., method="ball" / "ball-closed")`` and the mpmath one, as route names
BALL_ROUTE = "Arb ball by acb.integral of the densities as written plus proven tails (renyi method='ball')"
BALL_CLOSED_ROUTE = "Arb ball by the closed form in Phi, a second Arb algorithm (renyi method='ball-closed')"
QUAD_ROUTE = "mpmath tanh-sinh quadrature, an integrator outside Arb (renyi method='quadrature')"

#: "bounded over decades": a scaled sequence stays within a factor SPREAD_MAX
SPREAD_MAX = 2
#: a rate over decades: its fitted exponent within a twentieth of a power
RATE_EXPONENT_TOL = "0.05"

#: |y - n| is smooth between its break at n: Gauss-Legendre quadrature (tanh-sinh where its estimate is smaller)
SMOOTH = "gauss-legendre"
