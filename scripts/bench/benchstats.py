# SPDX-License-Identifier: GPL-2.0
"""The bench's one estimator: boots as the replicate (bench v4).

Imported by bench-report.py (every ratio, interval and mark of make
bench's report) and by the PRESSURE=1 report; tests in
scripts/bench/tests/test_benchstats.py.

Why boots: a boot adds its own offset to every run in it, and each order
its own boot x order term, so runs within one boot are not independent
replicates of an order's figure.  Every boot runs every order (shuffled),
so a boot's offset cancels in a within-boot ratio, and what remains (the
boot x order term plus the runs' noise in a boot's median) is independent
from boot to boot.  Each boot is summarised by one value per cell (the
median of its runs, or a count); the inference is a t-test on the logs of
those values, with B - 1 degrees of freedom for B boots.

The API (all ratios new / ref, on per-boot values > 0):

  paired_ratio(new, ref, conf)  one kernel, cells that ran in the same
        boots: d_b = log new_b - log ref_b; estimate exp(mean d), interval
        exp(mean d +- t(1-(1-conf)/2, B-1) * sd(d)/sqrt(B)), p two-sided
        from the same t.  new and ref may be 2-D (boots x k): each boot's
        logs are averaged over k first (a geometric mean over thread
        counts), then the same t.
  welch_ratio(a, b, conf)  two kernels whose boots differ (an A/B, an
        A/A): Welch's t on the boots' logs, the interval from the same t
        with the Welch-Satterthwaite degrees of freedom.
  level(values, conf)  one cell's level: the geometric mean of its boots'
        values with its t interval (no test).
  tost(r, margin, alpha)  equivalence within 1 +- margin from the same
        t as r: the (1 - 2 alpha) interval inside [1 - margin, 1 + margin].
  mean_diff(x, conf)  the mean of per-boot values on the linear scale
        (counts, or boot-paired differences), its t interval and p.
  holm(ps)  Holm's step-down adjustment (nan stays nan, not counted).
  power_paired(effect, sd, n, m, alpha)  the paired t's power at Holm's
        first step in a family of m.
  clopper_pearson(k, n, conf)  the exact binomial interval of k / n.
  tost_boots(sd, margin, alpha, power)  the fewest boots (a side) for
        tost() to show equivalence with that power when nothing changed:
        the sample size fixed before the run, from an A/A's variance.
  pick_orders(per_order, margin, conf)  the best and recommended order.
  stable_pick(per_order, margin, conf)  the same, with the share of
        simulated reruns that would pick another order (stable: at most
        FLIP_MAX).

Zero spread (exact counts, or a deterministic clock): when the d_b, or
both kernels' logs, do not vary at all, there is no t.  As exact_p did
before: equal means give p = 1, different ones p = 0, but only with at
least 3 boots (a side), since fewer could agree by chance (p = nan then);
the interval is the point [est, est].  Fewer than 2 boots: no interval
and no p (nan), unless exact as above.
"""
import math
from dataclasses import dataclass, replace

import numpy as np
from scipy import integrate, stats

NAN = float("nan")
EXACT_MIN = 3	# boots (a side) before an exact difference is sure
TINY = 1e-12	# a spread of logs below this is none


@dataclass(frozen=True)
class Ratio:
    """A ratio with its interval and test.  logest and se are on the log
    scale; df the t's degrees of freedom (inf when exact, nan when there
    is none); n the boots (paired) or (na, nb) (Welch)."""
    est: float
    lo: float
    hi: float
    p: float
    conf: float
    logest: float = NAN
    se: float = NAN
    df: float = NAN
    n: object = 0
    method: str = "none"

    @property
    def exact(self):
        return self.method.endswith("exact")

    def at(self, conf):
        """The same estimate's interval at another confidence (same t)."""
        if self.exact or not (self.se == self.se and self.df == self.df):
            return replace(self, conf=conf)
        h = float(stats.t.ppf(1 - (1 - conf) / 2, self.df)) * self.se
        return replace(self, conf=conf, lo=math.exp(self.logest - h),
                       hi=math.exp(self.logest + h))

    def chg(self):
        """%chg = (new - ref) / ref, in %."""
        return (self.est - 1) * 100


def none(conf, n=0, logest=NAN):
    """No estimate, or one without an interval."""
    est = math.exp(logest) if logest == logest else NAN
    return Ratio(est, NAN, NAN, NAN, conf, logest, n=n)


def _exact(logest, n, sure, conf, method):
    p = 1.0 if abs(logest) < TINY else 0.0 if sure else NAN
    est = math.exp(logest)
    return Ratio(est, est, est, p, conf, logest, 0.0, math.inf, n,
                 method + ", exact")


def _t(logest, se, df, n, conf, method):
    h = float(stats.t.ppf(1 - (1 - conf) / 2, df)) * se
    p = float(2 * stats.t.sf(abs(logest) / se, df))
    return Ratio(math.exp(logest), math.exp(logest - h), math.exp(logest + h),
                 p, conf, logest, se, df, n, method)


def _logs(x):
    """Logs of per-boot values, each boot's averaged over a second axis
    (a geometric mean); None if a value is not > 0."""
    x = np.asarray(x, float)
    if x.size == 0 or not np.all(x > 0):
        return None
    lx = np.log(x)
    return lx.mean(axis=1) if lx.ndim == 2 else lx


def logdiff_ratio(d, conf=0.95, method="paired t"):
    """The one-sample t on per-boot log differences d (paired_ratio's)."""
    d = np.asarray(d, float)
    n = len(d)
    if n == 0 or not np.all(np.isfinite(d)):
        return none(conf, n)
    m = float(d.mean())
    if n == 1 or np.ptp(d) < TINY:
        if np.ptp(d) < TINY and (n >= 2 or abs(m) < TINY):
            return _exact(m, n, n >= EXACT_MIN, conf, method)
        return none(conf, n, m)
    se = float(d.std(ddof=1)) / math.sqrt(n)
    return _t(m, se, n - 1, n, conf, method)


def paired_ratio(new, ref, conf=0.95):
    """new / ref where both ran in the same boots: new[b] and ref[b] are
    boot b's values (medians of its runs, or counts), 1-D, or 2-D boots x
    k for the geometric mean over k (thread counts).  Returns a Ratio."""
    ln, lr = _logs(new), _logs(ref)
    if ln is None or lr is None or len(ln) != len(lr):
        return none(conf, len(np.asarray(new)))
    return logdiff_ratio(ln - lr, conf)


def level(values, conf=0.95):
    """One cell: the geometric mean of its boots' values, its t interval
    (p is nan: nothing is tested)."""
    lv = _logs(values)
    if lv is None:
        return none(conf)
    r = logdiff_ratio(lv, conf, "level t")
    return replace(r, p=NAN)


def welch_ratio(a, b, conf=0.95):
    """a / b for two kernels whose boots differ: Welch's t on the logs of
    the boots' values, its interval from the same t and the
    Welch-Satterthwaite df.  Returns a Ratio."""
    la, lb = _logs(a), _logs(b)
    if la is None or lb is None:
        return none(conf)
    na, nb = len(la), len(lb)
    if na < 1 or nb < 1:
        return none(conf, (na, nb))
    diff = float(la.mean() - lb.mean())
    if na < 2 or nb < 2:
        return none(conf, (na, nb), diff)
    va, vb = la.var(ddof=1) / na, lb.var(ddof=1) / nb
    if va + vb < TINY ** 2:
        return _exact(diff, (na, nb), min(na, nb) >= EXACT_MIN, conf, "Welch t")
    df = (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1))
    return _t(diff, math.sqrt(va + vb), df, (na, nb), conf, "Welch t")


@dataclass(frozen=True)
class Tost:
    """Two one-sided tests at alpha each against 1 +- margin: side is
    "inside" (equivalent: the (1 - 2 alpha) interval lies in [1 - m,
    1 + m]), "outside" (wholly beyond an edge: a change of at least m),
    or None (neither: inconclusive); p the larger one-sided p of the
    equivalence test."""
    side: object
    lo: float
    hi: float
    p: float
    margin: float
    alpha: float

    @property
    def equivalent(self):
        return self.side == "inside"

    def verdict(self):
        return {"inside": f"equivalent within +-{self.margin:.0%}",
                "outside": f"differs by more than {self.margin:.0%}",
                None: "inconclusive"}[self.side]


def tost(r, margin=0.01, alpha=0.05):
    """Equivalence of a Ratio (from any of the above) to 1 within +-margin,
    from its own t: the same estimate, se and df."""
    lo_m, hi_m = math.log(1 - margin), math.log(1 + margin)
    if r.exact:
        # No spread: sure where the boots suffice (as r.p's rule).
        lo = hi = r.est
        p = (0.0 if lo_m < r.logest < hi_m else 1.0) if r.p == r.p else NAN
    elif r.se == r.se and r.df == r.df:
        w = r.at(1 - 2 * alpha)
        lo, hi = w.lo, w.hi
        p = max(float(stats.t.sf((r.logest - lo_m) / r.se, r.df)),
                float(stats.t.sf((hi_m - r.logest) / r.se, r.df)))
    else:
        return Tost(None, NAN, NAN, NAN, margin, alpha)
    if r.exact and r.p != r.p:
        side = None
    elif lo >= 1 - margin and hi <= 1 + margin:
        side = "inside"
    elif lo > 1 + margin or hi < 1 - margin:
        side = "outside"
    else:
        side = None
    return Tost(side, lo, hi, p, margin, alpha)


@dataclass(frozen=True)
class Mean:
    """A mean of per-boot values on the linear scale (counts, or paired
    differences of figures), its t interval and the p of mean = 0."""
    est: float
    lo: float
    hi: float
    p: float
    conf: float


def mean_diff(x, conf=0.95):
    """The mean of per-boot values x (a count's level, or boot-paired
    differences new_b - ref_b), with its t interval on B - 1 df: for what
    adds up (instructions saved, pages) rather than multiplies, and for
    counts that may be 0.  No spread: exact, as for the ratios."""
    x = np.asarray(x, float)
    n = len(x)
    if n == 0 or not np.all(np.isfinite(x)):
        return Mean(NAN, NAN, NAN, NAN, conf)
    m = float(x.mean())
    if n == 1 or np.ptp(x) < TINY * max(1.0, abs(m)):
        if n == 1:
            return Mean(m, NAN, NAN, NAN, conf)
        p = 1.0 if abs(m) < TINY else 0.0 if n >= EXACT_MIN else NAN
        return Mean(m, m, m, p, conf)
    se = float(x.std(ddof=1)) / math.sqrt(n)
    h = float(stats.t.ppf(1 - (1 - conf) / 2, n - 1)) * se
    return Mean(m, m - h, m + h, float(2 * stats.t.sf(abs(m) / se, n - 1)), conf)


def holm(ps):
    """Holm's step-down adjusted p-values, in the order given; nan (no
    test) stays nan and does not count in m.  (scipy has no Holm.)"""
    ps = [float(p) for p in ps]
    ok = sorted((i for i, p in enumerate(ps) if p == p), key=lambda i: ps[i])
    out, run, m = [NAN] * len(ps), 0.0, len(ok)
    for j, i in enumerate(ok):
        run = max(run, min(1.0, (m - j) * ps[i]))
        out[i] = run
    return out


def clopper_pearson(k, n, conf=0.95):
    """The exact (Clopper-Pearson) interval of a rate k / n: (lo, hi)."""
    if n <= 0:
        return NAN, NAN
    ci = stats.binomtest(int(k), int(n)).proportion_ci(conf, "exact")
    return float(ci.low), float(ci.high)


def fewest_boots(enough, most):
    """The fewest n >= 2 with enough(n), a power reached, which grows
    with n: doubled, then the gap halved.  None if more than most."""
    lo, hi = 1, 2
    while not enough(hi):
        if hi >= most:
            return None
        lo, hi = hi, min(2 * hi, most)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if enough(mid) else (mid, hi)
    return hi


def tost_boots(sd, margin=0.01, alpha=0.05, power=0.8, two_sample=True,
               most=1000):
    """The fewest boots (a side; two_sample False: paired, in all) for
    TOST within +-margin at alpha to reach power when the true ratio is
    1, given sd, the boot-to-boot standard deviation of the log values
    (of d_b when paired).  Power from the t approximation at the true
    ratio 1: 2 * T_df(delta / se - t(1 - alpha, df)) - 1, delta the
    narrower side, log(1 + margin).  None if more than most."""
    delta = math.log(1 + margin)

    def enough(n):
        se = sd * math.sqrt(2 / n) if two_sample else sd / math.sqrt(n)
        df = 2 * n - 2 if two_sample else n - 1
        crit = float(stats.t.ppf(1 - alpha, df))
        return 2 * float(stats.t.cdf(delta / se - crit, df)) - 1 >= power

    return fewest_boots(enough, most) if sd > 0 else 2


def below_boots(sd, limit, conf=0.95, power=0.8, most=100000):
    """The fewest boots for the two-sided conf interval of a mean of
    per-boot differences (sd their standard deviation) to end below
    +limit with the chance power when the true mean is 0: the 'no more'
    test of pressure-report.py.  Power T_df(limit / se - t(1 - (1 -
    conf) / 2, df)), df = n - 1.  None if more than most."""
    def enough(n):
        crit = float(stats.t.ppf(1 - (1 - conf) / 2, n - 1))
        return float(stats.t.cdf(limit * math.sqrt(n) / sd - crit, n - 1)) >= power

    return fewest_boots(enough, most) if sd > 0 else 2


def power_paired(effect, sd, n, m=1, alpha=0.05, min_effect=0.0):
    """The chance that the paired t (n boots, sd of the per-boot log
    differences) marks a true ratio of 1 + effect at Holm's first step in
    a family of m (alpha / m two-sided) with an estimate at least
    min_effect from 1, as a '*' needs: over the sample sd's chi-square,
    the normal estimate beyond both thresholds (the noncentral t when
    min_effect is 0, without its numerical limits).  What a reader needs
    to read a '~': how large a change the run could have marked."""
    if n < 2 or not sd > 0:
        return NAN
    df, se, delta = n - 1, sd / math.sqrt(n), math.log1p(effect)
    crit = float(stats.t.ppf(1 - alpha / m / 2, df))
    up, down = math.log1p(min_effect), math.log1p(-min_effect)

    def at(u):	# u: the chi-square of the sample variance
        h = crit * se * math.sqrt(u / df)
        return stats.chi2.pdf(u, df) * (stats.norm.sf((max(up, h) - delta) / se)
                                         + stats.norm.cdf((min(down, -h) - delta) / se))
    lo, hi = stats.chi2.ppf(1e-10, df), stats.chi2.isf(1e-10, df)
    return float(min(1.0, integrate.quad(at, lo, hi, points=[df], limit=200)[0]))


def _picks(L, margin, conf):
    """pick_orders()'s rule on logs L (..., boots, orders), nan where an
    order cannot be picked: (best, recommended) column indices, arrays
    over the leading axes (stable_pick() runs it on simulated reruns)."""
    L = np.asarray(L, float)
    n = L.shape[-2]
    ok = np.isfinite(L).all(-2)
    best = np.where(ok, L.mean(-2), np.inf).argmin(-1)
    d = L - np.take_along_axis(L, np.repeat(best[..., None, None], n, -2), -1)
    near = np.zeros(ok.shape, bool)
    if n >= 2:
        with np.errstate(invalid="ignore"):
            flat = np.ptp(d, -2) < TINY		# exact: the interval is a point
            se = np.where(flat, 0.0, d.std(-2, ddof=1) / math.sqrt(n))
            hi = d.mean(-2) + float(stats.t.ppf(1 - (1 - conf) / 2, n - 1)) * se
            near = ok & (hi < math.log1p(margin))
    np.put_along_axis(near, best[..., None], True, -1)
    return best, near.argmax(-1)


def pick_orders(per_order, margin=0.01, conf=0.95):
    """per_order: {order: per-boot values, 1-D or boots x k}, the boots
    the same for all (one kernel).  best = the smallest boot-level
    geometric mean (over boots, and k); recommended = the smallest order
    whose ratio to the best has its conf interval's top below 1 + margin:
    shown to be at most margin worse (the best itself is, [1, 1]).  With
    no interval (too few boots) no other order qualifies: the best.
    Returns {"best", "recommended", "to_best": {order: Ratio},
    "near_best"}."""
    orders = sorted(per_order)
    L = _columns(per_order, orders)
    b, r = _picks(L, margin, conf)
    best = orders[int(b)]
    to_best = {o: paired_ratio(per_order[o], per_order[best], conf)
               for o in orders}
    near = [o for o in orders if o == best or to_best[o].hi < 1 + margin]
    return {"best": best, "recommended": orders[int(r)], "to_best": to_best,
            "near_best": near}


def _columns(per_order, orders):
    """The boots x orders matrix of logs (nan: an order with a value not
    > 0, which is never picked)."""
    n = min(len(np.asarray(v)) for v in per_order.values())
    cols = []
    for o in orders:
        lv = _logs(np.asarray(per_order[o], float)[:n])
        cols.append(lv if lv is not None else np.full(n, NAN))
    return np.column_stack(cols)


FLIP_MAX = 0.3	# a rerun gives another order more often than this: UNSTABLE
DRAWS = 4000


def stable_pick(per_order, margin=0.01, conf=0.95, draws=DRAWS, seed=0):
    """pick_orders() and how often a rerun of the same design (as many
    boots) would pick another order, from the posterior predictive of a
    normal model of the boots' log rows: each simulated rerun draws a
    scale for the boot-to-boot covariance from its chi-square ((B - 1) /
    chi2(B - 1): the sd of 3 boots is itself uncertain), a mean from the
    observed one with that uncertainty over sqrt(B), and B boots, every
    draw a combination of the observed residual rows, so that the orders
    keep their joint spread (they share the best's noise); each rerun is
    picked by the same rule.  Adds
    "best_flip" and "rec_flip" (the share of reruns that pick another
    order), "best_stable" and "rec_stable" (that share at most FLIP_MAX;
    None below 3 boots, whose one degree of freedom says nothing of the
    sd) and "best_moves", "rec_moves": the other orders that at least 2%
    of the reruns pick.  Why not leaving a boot out: the subsets' t
    quantile (12.7 with 2 boots against 4.3 with 3) moves an interval's
    top by itself, so that rule cried wolf on ratios that every subset
    agreed on; this one is checked against reruns in
    scripts/bench/tests/test_benchstats.py and against the A/A's halves."""
    res = pick_orders(per_order, margin, conf)
    orders = sorted(per_order)
    L = _columns(per_order, orders)
    n = L.shape[0]
    res["boots"] = n
    none_ = dict(best_stable=None, rec_stable=None, best_moves=[],
                 rec_moves=[], best_flip=NAN, rec_flip=NAN)
    if n < 3:
        res.update(none_)
        return res
    ok = np.isfinite(L).all(0)
    R = np.where(ok, L - np.where(ok, L, 0).mean(0), 0.0)	# residual rows
    rng = np.random.default_rng(seed)
    scale = np.sqrt((n - 1) / rng.chisquare(n - 1, draws))[:, None, None]

    def rows(k):	# k rows of N(0, scale^2 * the rows' covariance) a draw
        return rng.standard_normal((draws, k, n)) @ R / math.sqrt(n - 1) * scale
    mean = np.where(ok, L, NAN).mean(0) + rows(1)[:, 0, :] / math.sqrt(n)
    reruns = mean[:, None, :] + rows(n)
    b, r = _picks(reruns, margin, conf)
    for what, got, k in (("best", b, "best"), ("rec", r, "recommended")):
        share = np.bincount(got, minlength=len(orders)) / draws
        flip = 1.0 - float(share[orders.index(res[k])])
        res[f"{what}_flip"] = flip
        res[f"{what}_stable"] = flip <= FLIP_MAX
        res[f"{what}_moves"] = [o for i, o in enumerate(orders)
                                if o != res[k] and share[i] >= 0.02]
    return res
