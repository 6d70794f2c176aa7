"""Certified (Arb ball) algorithms: tri-state verdicts, enclosed integrals with proven tail
bounds, statements over ranges.  The closed forms themselves live in :mod:`countdp.formulas`
and are evaluated in balls there (``f.ball``)."""
