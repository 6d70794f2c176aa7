"""Re-run one claim of the paper at 50 significant digits: eq (3), sigma from (r0, c), checked
against its independent routes, and print the verdict, the evidence kind and the cases.

Run: python examples/claim_at_50_digits.py [CLAIM_ID]   (the same as `countdp check eq3 --dps 50`)
"""

import sys

from countdp.harness.results import Settings
from countdp.harness.runner import check

claim = sys.argv[1] if len(sys.argv) > 1 else "eq3"
result = check(claim, Settings(dps=50))
print(f"{result.id}: {result.status.upper()} at 50 digits ({len(result.cases)} cases)")
print(f"evidence: {result.evidence['kind']}")
for case in result.cases[:3]:
    print(f"  {case.params}: {case.lhs} {case.relation} {case.rhs} (tolerance {case.tol}, {case.route})")
