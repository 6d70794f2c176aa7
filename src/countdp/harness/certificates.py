"""Ball-arithmetic certificates of a claim, declared beside its check.

A check script declares, next to the check of a claim, one or more functions::

    @certificate("eq3")
    def sigma_bracket(cert):
        with cert.precision(53):
            s = formulas.sigma.ball(fmpq(1, 4), 1)
            cert.record("sigma(r0=1/4, c=1) > 0", "sigma is positive (balls separate)",
                        s, decide_gt(s, 0))

Each :meth:`CertificateBuilder.record` is one certified item: what was shown, the enclosing
ball, and a tri-state verdict (:class:`countdp.arb.verdicts.Verdict`).  The runner runs the
certificates of exactly the claims it runs, after the claim's check, and attaches their
summary to the result:

* every record ``proved_true``: the claim is marked certified (``PROOF`` in the report);
* a record ``undecided`` (or a certificate raising :class:`Undecided`): the claim is not
  certified, and the reason is kept -- an undecided ball is a note, never a pass or a crash;
* a record ``proved_false``: the certified layer disproves a statement of the claim, so the
  claim **fails**, whatever its numerical routes said.

A certificate that raises anything else makes the claim an ``error``.
"""

from __future__ import annotations

import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable

from flint import ctx as flint_ctx

from ..arb.verdicts import Undecided, Verdict, ball_str, radius_str


@dataclass
class CertRecord:
    """One certified item: what was shown, its enclosure, its verdict."""

    name: str
    statement: str
    enclosure: str
    radius: str
    verdict: Verdict
    seconds: float
    boxes: int | None = None
    detail: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        d = dict(self.__dict__)
        d["verdict"] = self.verdict.value
        return d


class CertificateBuilder:
    """What a certificate function is handed: the run mode and :meth:`record`."""

    def __init__(self, claim_id: str, quick: bool):
        self.claim_id = claim_id
        self.quick = quick
        self.records: list[CertRecord] = []
        self._mark = time.perf_counter()

    @contextmanager
    def precision(self, bits: int):
        """Run the enclosed code at ``bits`` bits of Arb precision."""
        with flint_ctx.workprec(int(bits)):
            yield

    def record(self, name: str, statement: str, ball: Any, verdict: Verdict,
               boxes: int | None = None, **detail: Any) -> CertRecord:
        """Record one certified item; ``ball`` (or None) is the enclosure shown in the report."""
        if not isinstance(verdict, Verdict):
            raise TypeError(f"verdict must be a Verdict, got {verdict!r}")
        now = time.perf_counter()
        enc = ball_str(ball) if ball is not None else ""
        rad = radius_str(ball) if ball is not None else ""
        rec = CertRecord(name, statement, enc, rad, verdict, now - self._mark, boxes,
                         {k: _plain(v) for k, v in detail.items()})
        self._mark = now
        self.records.append(rec)
        return rec

    def undecided(self, name: str, reason: str) -> CertRecord:
        """Record an item that could not be decided (the reason is reported)."""
        return self.record(name, reason, None, Verdict.UNDECIDED)


def _plain(v: Any) -> Any:
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if isinstance(v, Verdict):
        return v.value
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    try:
        return ball_str(v)
    except (TypeError, ValueError):
        return str(v)


#: what a certificate's records establish: ``claim`` -- the certified statement is the claim
#: itself (at the stated parameters or over the stated range); ``instance`` -- a particular
#: mechanism or case satisfies the claim (e.g. one mechanism lies above a lower bound), which is
#: evidence for the claim, not a proof of it
SCOPES = ("claim", "instance")


@dataclass
class CertificateSpec:
    id: str
    func: Callable[[CertificateBuilder], None]
    scope: str | None = None


def certificate(id: str, scope: str | None = None) -> Callable:
    """Declare ``func(cert: CertificateBuilder)`` as a certificate of claim ``id``; ``scope``
    says whether its records prove the claim itself or certify an instance of it (see
    :data:`SCOPES`; not stated counts as an instance)."""
    from .catalogue import CATALOGUE

    if id not in CATALOGUE:
        raise ValueError(f"unknown claim id {id!r}")
    if scope is not None and scope not in SCOPES:
        raise ValueError(f"scope must be one of {SCOPES}, got {scope!r}")

    def deco(func: Callable) -> Callable:
        func.__countdp_certificate__ = CertificateSpec(id, func, scope)
        return func

    return deco


@dataclass
class Certification:
    """The outcome of a claim's certificates, as attached to its result."""

    records: list[CertRecord]
    errors: list[str]
    seconds: float
    scopes: tuple = ()

    @property
    def disproved(self) -> list[CertRecord]:
        return [r for r in self.records if r.verdict is Verdict.PROVED_FALSE]

    @property
    def undecided(self) -> list[CertRecord]:
        return [r for r in self.records if r.verdict is Verdict.UNDECIDED]

    @property
    def certified(self) -> bool:
        return bool(self.records) and all(r.verdict is Verdict.PROVED_TRUE for r in self.records)

    @property
    def proof(self) -> bool:
        """Certified, and every certificate's statement is the claim itself."""
        return self.certified and bool(self.scopes) and all(sc == "claim" for sc in self.scopes)

    def summary(self) -> dict:
        radii = []
        for r in self.records:
            try:
                radii.append(float(r.radius))
            except ValueError:
                pass
        proved = sum(r.verdict is Verdict.PROVED_TRUE for r in self.records)
        out = {
            "certified": self.certified,
            "proof": self.proof,
            "records": len(self.records),
            "proved": proved,
            "enclosure_radius": f"{max(radii):.3g}" if radii else "",
            "seconds": round(self.seconds, 4),
            "what": [f"{r.name}: {r.verdict.value} {r.enclosure}".rstrip() for r in self.records],
        }
        if self.undecided:
            out["undecided"] = [f"{r.name}: {r.statement}" for r in self.undecided]
        if self.disproved:
            out["disproved"] = [r.name for r in self.disproved]
        return out


def run_certificates(claim_id: str, funcs: list[Callable], quick: bool) -> Certification:
    """Run the certificate functions of one claim.  :class:`Undecided` raised inside one becomes
    an undecided record; any other exception is collected in ``errors`` (the claim errors)."""
    t0 = time.perf_counter()
    builder = CertificateBuilder(claim_id, quick)
    errors: list[str] = []
    for func in funcs:
        try:
            func(builder)
        except Undecided as exc:
            builder.undecided(func.__name__, f"not decided: {exc}")
        except Exception:  # noqa: BLE001 -- reported with the claim as an error
            errors.append(f"certificate {func.__name__} raised:\n" + traceback.format_exc(limit=6))
    scopes = tuple(getattr(f, "__countdp_certificate__", CertificateSpec("", f)).scope for f in funcs)
    return Certification(builder.records, errors, time.perf_counter() - t0, scopes)
