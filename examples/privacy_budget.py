"""Your privacy budget: the guarantee of the shifted log-Gaussian mechanism for a histogram,
as a table over the counts, and the r0 that meets a target.

Run: python examples/privacy_budget.py   (the same as `countdp budget --r0 0.05 --c 1
--n 1:1e6:log --delta 1e-6` and `countdp budget --c 1 --n 100 --target-eps 1 --delta 1e-6`)
"""

import mpmath

from countdp.calculator import budget_text, guarantee, solve_r0

mpmath.mp.dps = 30
b = guarantee(r0=0.05, c=1, n="1:1e6:log", delta=1e-6)
print(budget_text(b, 6, False))

print("count      v(n)  eps at delta = 1e-6 (tightest conversion)")
for row in b.rows:
    best = row.conversions[0]
    print(f"{row.n:>7}  {float(row.v):8.4g}  {float(best.eps):8.4g}  ({best.method})")

s = solve_r0(n=100, c=1, target_eps=1, delta=1e-6)
print(f"eps = 1 at n = 100 (delta = 1e-6) needs r0 = {float(s.r0):.6g}")
