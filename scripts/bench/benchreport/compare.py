# SPDX-License-Identifier: GPL-2.0
"""The comparisons: Cmp (one ratio from benchstats, with its
Holm-adjusted p and mark), Family (Holm over the report), Stats (the
runs by cell, each boot summarised by its median) and the verdict of an
A/B or module-cost line."""
import math
import statistics
import zlib
from collections import defaultdict

import numpy as np

import benchstats as bs	# scripts/bench/benchstats.py: the one estimator

from .data import AB_CONF, AB_MARGIN, ALPHA, CONF, MIN_EFFECT, SEED
from .fmt import fmt_ratio


class Cmp:
    """One ratio new/ref: benchstats' Ratio (estimate, unadjusted conf
    interval, p from the same t) and its Holm-adjusted p, set by
    Family.holm().  No p (nan): never marked."""
    flag = ""	# FLAG once the control moved: on every mark

    def __init__(self, r):
        self.r = r
        self.est, self.lo, self.hi = r.est, r.lo, r.hi
        self.p, self.conf = r.p, r.conf
        self.padj = None

    def chg(self):
        return self.r.chg()

    def sig(self):
        """The mark's test: Holm-adjusted p < ALPHA and at least 1%."""
        return (self.padj is not None and self.padj < ALPHA
                and abs(self.est - 1) >= MIN_EFFECT)

    def mark(self):
        return ("*" if self.sig() else "~") + Cmp.flag

    def ci(self):
        return f"[{fmt_ratio(self.lo)}, {fmt_ratio(self.hi)}]"

    def ratio_text(self):
        return f"{fmt_ratio(self.est)} {self.ci()}"

    def pct_text(self):
        """%chg [lo,hi] mark, the interval in % too (the summary's)."""
        lo, hi = (self.lo - 1) * 100, (self.hi - 1) * 100
        ci = f" [{lo:+.2f},{hi:+.2f}]" if lo == lo and hi == hi else ""
        return f"{self.chg():+.2f}%{ci} {self.mark()}"

    def text(self):
        """ratio [lo, hi] (%chg mark)"""
        return f"{fmt_ratio(self.est)} {self.ci()} ({self.chg():+.2f}% {self.mark()})"

    def tost(self, margin=AB_MARGIN):
        """Equivalence within +-margin from the same t (90% interval)."""
        return bs.tost(self.r, margin, (1 - AB_CONF) / 2)

    def json(self):
        d = {"ratio": self.est, "lo": self.lo, "hi": self.hi,
             "conf": self.conf, "p": self.p, "p_holm": self.padj,
             "df": self.r.df, "method": self.r.method,
             "chg_pct": self.chg(), "mark": self.mark()}
        # JSON has no NaN or inf: an undefined number is null.
        return {k: None if isinstance(v, float) and not math.isfinite(v)
                else v for k, v in d.items()}


class Family:
    """Every marked comparison of the report, each in the family of the
    question it answers (a workload's orders against the baseline, its
    recommendation, the A/B...), for Holm's adjustment within it: a reader
    asks one question at a time, and one family over the whole report (163
    to 751 comparisons) asked t > 64.8 of 3 boots for the first step."""

    def __init__(self):
        self.cmps = []	# (question, Cmp)
        self.m = 0	# those with a p, set by holm()
        self.sizes = {}	# question: its comparisons with a p

    def add(self, c, question):
        self.cmps.append((question, c))
        return c

    def holm(self):
        for q in dict.fromkeys(q for q, _ in self.cmps):
            cs = [c for qq, c in self.cmps if qq == q]
            for c, p in zip(cs, bs.holm([c.p for c in cs])):
                c.padj = p if p == p else None
            self.sizes[q] = sum(c.p == c.p for c in cs)
        self.m = sum(self.sizes.values())
        return self.m


class Stats:
    """The runs indexed by cell (label, setup, workload, threads, order)
    and boot, and each cell's value per block: the median of its runs in
    a boot (benchstats' replicate).  A label with one boot only has its
    repetitions as the blocks (each rep ran every order once, shuffled):
    within-boot precision, which the report states."""

    def __init__(self, rows):
        self.cells = defaultdict(lambda: defaultdict(list))
        self.boots = defaultdict(set)
        for r in rows:
            key = (r["label"], r["setup"], r["workload"], r["threads"], r["order"])
            self.cells[key][r["boot"]].append(r)
            self.boots[r["label"]].add(r["boot"])
        self.boots = {k: sorted(v) for k, v in self.boots.items()}
        # The replicate: "boot", or "rep" where a label has one boot.
        self.unit = {k: "boot" if len(v) > 1 else "rep"
                     for k, v in self.boots.items()}

    def rng(self, *what):
        # One stream per purpose (the cost model's bootstrap), so that
        # adding a workload changes no other cell's numbers.
        return np.random.default_rng([SEED, zlib.crc32(repr(what).encode())])

    def has(self, key):
        return key in self.cells

    def runs(self, key):
        return [r for rs in self.cells.get(key, {}).values() for r in rs]

    def values(self, key, field="ns"):
        return [r[field] for r in self.runs(key)]

    def median(self, key, field="ns"):
        xs = self.values(key, field)
        return statistics.median(xs) if xs else float("nan")

    def shape(self, key):
        """(boots with runs, runs, runs per boot) of a cell."""
        per = [len(v) for v in self.cells.get(key, {}).values()]
        return len(per), sum(per), per

    def blocks(self, key, field="ns"):
        """{block: the median of the cell's runs in it}; a value that is
        not a number (perf's word) leaves its run out.  field: a column,
        or a function of a run."""
        by = defaultdict(list)
        one = self.unit.get(key[0]) == "rep"
        for b, rs in self.cells.get(key, {}).items():
            for r in rs:
                v = field(r) if callable(field) else r[field]
                if isinstance(v, (int, float)):
                    by[(b, r["rep"]) if one else b].append(v)
        return {b: statistics.median(v) for b, v in sorted(by.items()) if v}

    def matrix(self, keys, field="ns"):
        """The blocks that every cell of keys has, and a blocks x cells
        array of their values (None if there is no common block)."""
        got = [self.blocks(k, field) for k in keys]
        common = sorted(set.intersection(*(set(g) for g in got))) if got else []
        if not common:
            return [], None
        return common, np.array([[g[b] for g in got] for b in common], float)

    def paired(self, nums, dens, conf=CONF, field="ns"):
        """nums / dens, cells of one label that ran in the same boots, a
        pair per thread count: benchstats.paired_ratio on the blocks that
        all of them have (a geometric mean over the pairs)."""
        _, m = self.matrix(list(nums) + list(dens), field)
        if m is None:
            return bs.none(conf)
        k = len(nums)
        return bs.paired_ratio(m[:, :k], m[:, k:], conf)

    def welch(self, ka, kb, conf=CONF, field="ns"):
        """ka / kb, cells of two labels (their boots differ): Welch on the
        boots' median logs."""
        return bs.welch_ratio(list(self.blocks(ka, field).values()),
                              list(self.blocks(kb, field).values()), conf)

    def level(self, key, field="ns", conf=CONF):
        """A cell's level: the geometric mean of its blocks' medians and
        its t interval, (lo, hi) (nan where a value is not > 0)."""
        r = bs.level(list(self.blocks(key, field).values()), conf)
        return r.lo, r.hi

    def ratio(self, num, den, conf=CONF, field="ns"):
        """num / den, two cells: paired by boot within a label, Welch
        between two."""
        if num[0] == den[0]:
            return Cmp(self.paired([num], [den], conf, field))
        return Cmp(self.welch(num, den, conf, field))


def varies(x, ref):
    # Counts are exact: a spread under 0.1% of their size is no lever.
    return np.ptp(x) > 1e-3 * max(1.0, float(np.abs(ref).max()))


def own(x, others):
    """Whether x (centered) moves apart from the others (centered): at
    least 0.2% of its variation is not a linear combination of theirs,
    as |corr| < 0.999 for one."""
    if not others:
        return True
    a = np.column_stack(others)
    r = x - a @ np.linalg.lstsq(a, x, rcond=None)[0]
    return float(r @ r) > 2e-3 * float(x @ x)


def verdict(x):
    """An A/B or module-cost line's verdict, after Holm: 'equivalent
    within +-1%' (TOST from the ratio's own t, 90%), 'differs' when
    marked '*' (its Holm-adjusted p < ALPHA and at least 1%: the two
    exclude each other), 'inconclusive' when neither; a module setup
    neither equivalent nor marked 'costs at most +1%' when its 90%
    interval's top is inside."""
    c, e = x["boot"], x["tost"]
    if e.equivalent:
        said = f"equivalent within +-{AB_MARGIN:.0%}"
    elif c.sig():
        said = "differs"
    elif x.get("setup", "").startswith("mod-") and e.hi <= 1 + AB_MARGIN:
        said = f"inconclusive, costs at most +{AB_MARGIN:.0%}"
    else:
        said = "inconclusive"
    return said + Cmp.flag
