#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn fault-around sweep runs into the report of make bench (bench v3).

usage: bench-report.py --out DIR [--meta KEY=VALUE]... [--aa] LABEL=RUNS.csv[,RUNS.csv]...

The first LABEL is the kernel under test ("patched"); a second one
("base") adds the A/B table.  Several CSVs for one label are its boots,
numbered in the order given.  --aa: the two labels are the same kernel
(make bench AA=1, labels A and B): the header then gives the
false-positive rate of every verdict type, a true null throughout.  Runs
of setup "sweep" make the order tables; those of setups mod-off, mod-idle,
mod-256 and mod-adaptive (sweep.sh -k) the module-cost lines; those of setup
"adaptive" (sweep.sh -a: mod_faultaround's adaptive policy, their order
column the default order it starts from, not an order) a column
"adaptive" after the largest order, and the Adaptive section that opens
the summary.  --meta keys: kernel, base, config, qemu (the accelerator
qemu-run.sh used, kvm or tcg, then QEMU_OPTS), clock (icount, wall or
native; native if absent), sweep, default_order (4 if absent), commit,
perf (why perf stat is not available, or a note on its counts); all are
printed in the header.

The figure is the runs' ns column, named by the clock: guest
instructions (icount), wall time under the accelerator of --meta qemu
(wall) or native time.  The tables print each order's median over all
runs of all boots (descriptive).  Every ratio, interval and mark comes
from one estimator, scripts/benchstats.py, with the boot as the
replicate: each boot is summarised by the median of its runs of a cell.
One kernel's orders and setups ran interleaved in the same boots, so a
comparison new/ref is paired by boot: d_b = log(new's median in boot b)
- log(ref's), ratio exp(mean d), a t interval on B - 1 degrees of
freedom and p from the same t (benchstats.paired_ratio); over several
thread counts each boot's logs are averaged first (a geometric mean).
Two kernels' boots differ (the A/B): Welch's t on the boots' median logs
(benchstats.welch_ratio).  With one boot only, its repetitions take the
boots' place (within-boot precision; the report says so).  A mark: '*'
when the Holm-adjusted p over all marked comparisons of the report is
below 0.05 and the change is at least 1%, '~' otherwise; the printed 95%
intervals are unadjusted, so a '*' always has an interval that excludes
1, and a '~' may too (not shown after Holm).  Equivalence within +-1%
(the A/B, the module cost, the anon control, the adaptive policy where
no order applies): two one-sided tests from the same t (the 90%
interval inside [0.99, 1.01], benchstats.tost).

The report has a table per workload and thread count (with major faults
where there are any), a least-squares cost model (figure = a + b *
minflt + c * fa_mapped, + d * majflt where that varies; its intervals
from its own case bootstrap, not a verdict), the equivalence margin per
fault (+-1% of the figure over the minor faults, beside the fitted cost
of a fault), a best and recommended order per workload (best = the
smallest boot-level geometric mean; recommended = the smallest order
whose ratio to the best has its 95% interval's top below 1.01), each
marked stable or unstable by leave-one-boot-out, the anon control (every
order against order 0: it moves on a Holm-adjusted rejection or a ratio
outside +-1%, and then every verdict of the report is flagged '!'), the
cross-check of the counters (against Rss; for exec, dynexec and mixed,
which have no Rss, that every run at an order above 0 mapped pages
ahead), the module cost and the A/B, and a one-screen summary, which
opens with the adaptive policy against the best fixed order and the
default one where it ran.  The recommendations, the cost model and the
cross-check are of the fixed orders (setup sweep) only.

Runs with perf stat counts (sweep.sh -p: columns perf:<event>, of the
whole fa-bench process, not the timed region alone) add a perf stat
section: per workload, thread count and order, each counted event's
median with the boot-level interval, per run or per page touched; events
that perf printed as <not supported> are named.  Runs with the columns
distinct and unread (the distinct pages read; the pages mapped at the
end of a pass but never read, -1 where not measured) add them as rows,
and pages mapped per distinct page read.

Prints the report on stdout and writes DIR/results.csv,
DIR/results.json, DIR/<workload>.png and, for an A/B, DIR/ab.png.
Exits 1 if the counters disagree with Rss, or exec, dynexec or mixed
mapped nothing ahead at an order above 0.
"""
import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import textwrap
import zlib
from collections import defaultdict

import numpy as np

import benchstats as bs	# beside this script: the one estimator

SEED = 20140227		# the cost model's bootstrap: the same runs, the same report
CONF = 0.95
ALPHA = 0.05
MIN_EFFECT = 0.01	# a change below 1% is never marked '*'
COST_B = 2000		# the cost model's case bootstrap
DEFAULT_ORDER = 4	# unless --meta default_order= says otherwise
# The A/B and module cost: a 90% interval, so that "inside the margin" is
# a TOST at 5% per side, and the margin the series must stay within.
AB_CONF = 0.90
AB_MARGIN = 0.01
CONTROL = "anon"	# no order touches anonymous faults
# Where the counters and the mapping's Rss both apply: not anon (no
# fault-around) and not exec/dynexec (the children's mappings are gone).
CHECKED = ("seq", "rand", "sparse")
# Where there is no Rss, and only fa_mapped > 0 at orders above 0 can be
# checked: exec and dynexec (the children's mappings are gone), mixed
# (fa-bench does not measure its two threads' mappings), vmas (each of
# its two-page mappings is gone before the next).  EXECS: those whose
# pages touched are program starts.
EXECS = ("exec", "dynexec")
NO_RSS = EXECS + ("mixed", "vmas")
# mod_faultaround's adaptive policy: the setup of its runs, and its column.
ADAPTIVE = "adaptive"
# The module-cost setups compared with mod-off (sweep.sh -k).
MOD_SETUPS = (("mod-idle", "no override"), ("mod-256", "256 overrides"),
              ("mod-adaptive", "adaptive"))
ADAPT_BEST = 0.05	# "within 5% of the best" fixed order
ADAPT_MARGIN = 0.02	# where no order applies: equivalent to off within +-2%
SPARSE_GOAL = 1.25	# sparse's pages mapped per page touched, at most
INT_FIELDS = ("threads", "order", "rep", "minflt", "majflt", "ns", "pages",
              "mapped")
# Since bench v3 (sweep.sh): the distinct pages read, and the pages of
# the measured mappings mapped but never read; -1 where not measured or
# in older CSVs.
OPT_FIELDS = ("distinct", "unread")
FLAG = "!"	# after every verdict when the control moved
TIME_FIELDS = ("ns", "fixed_ns", "teardown_ns")
# sweep.sh -p: a column perf:<event> per event perf stat counted around
# each run, of the whole fa-bench process and its children; a clock's in
# ns (perf prints msec, to 10 us), else perf's word for it.
PERF = "perf:"
NOT_SUPPORTED = "<not supported>"
PERF_CLOCKS = ("task-clock", "cpu-clock")
PERF_COVERS = ("the whole fa-bench process and its children (program "
               "start, setup, the timed work, teardown and exit), not only "
               "the figure's timed region")


def accel_name(qemu):
    """The accelerator of --meta qemu ("kvm -icount ...": what
    qemu-run.sh used), as the report names it."""
    word = (qemu or "").split()[0].lower() if (qemu or "").split() else ""
    return {"kvm": "KVM", "tcg": "TCG"}.get(word)


def units(clock, qemu=None):
    """The one place that names the figure (the runs' ns columns) for a
    clock: what it is, how tables and plots print it, its unit in the
    cost model, and its field names in results.csv and results.json.
    qemu: --meta qemu, whose first word names the accelerator (wall)."""
    if clock == "icount":
        u = dict(name="guest instructions", unit="M insn", raw="insn",
                 field="icount_insn", raw_name="guest instructions "
                 "(virtual ns of QEMU -icount shift=0)",
                 axis="guest instructions (millions, QEMU -icount)",
                 note="QEMU -icount shift=0: the guest clock advances one "
                 "virtual ns per guest instruction executed, and an idle "
                 "guest is skipped ahead to its next timer (sleep=off), so "
                 "a wait counts as that jump; cache and TLB misses cost "
                 "nothing.  A count of work, not a time: it does not "
                 "predict time on hardware.")
    elif clock == "wall":
        # The accelerator is chosen at boot (lib.sh's qemu_accel): KVM
        # where the probe passes, else TCG.  Name the one that ran.
        acc = accel_name(qemu)
        under = f"under {acc}" if acc else "under QEMU (accelerator not recorded)"
        what = ("TCG's emulation" if acc == "TCG" else "virtualization"
                if acc == "KVM" else "the emulation or virtualization")
        u = dict(name=f"wall time {under} (not hardware time)",
                 unit="wall ms", raw="wall ns", field="wall_ns",
                 raw_name=f"ns of wall time {under} (not hardware time)",
                 axis=f"wall ms {under} (not hardware time)",
                 note=f"the guest's CLOCK_MONOTONIC, which follows the "
                 f"host's: {what} and the host's load are in it.")
    elif clock == "native":
        u = dict(name="ms (native, CLOCK_MONOTONIC)", unit="ms", raw="ns",
                 field="native_ns", raw_name="ns (native, CLOCK_MONOTONIC)",
                 axis="ms (native, CLOCK_MONOTONIC)",
                 note="time on the machine that ran the sweep.")
    else:
        sys.exit(f"bench-report: clock must be icount, wall or native, "
                 f"not '{clock}'")
    u["clock"] = clock
    u["scale"] = 1e-6	# ns or insn to ms or M insn
    u["fields"] = {"ns": u["field"], "fixed_ns": "fixed_" + u["field"],
                   "teardown_ns": "teardown_" + u["field"]}
    return u


def load(label, paths):
    """The runs of one label, each CSV one boot.  Returns (rows, whether
    every CSV had fixed_ns and teardown_ns)."""
    rows, timed = [], True
    for boot, path in enumerate(paths.split(","), 1):
        with open(path) as f:
            reader = csv.DictReader(f)
            these = list(reader)
        missing = set(INT_FIELDS) | {"workload", "setup"}
        missing -= set(reader.fieldnames or ())
        if not these or missing:
            sys.exit(f"bench-report: no runs in {path}" if not these else
                     f"bench-report: {path} lacks {', '.join(sorted(missing))}")
        # Sweeps before bench v2 did not time the fixed part and teardown.
        timed &= {"fixed_ns", "teardown_ns"} <= set(reader.fieldnames)
        for r in these:
            r["label"], r["boot"] = label, boot
        rows += these
    for r in rows:
        for k in INT_FIELDS:
            r[k] = int(r[k])
        # /proc/vmstat's fault-around counters: -1 on a kernel without them.
        for k in ("fa_calls", "fa_mapped"):
            r[k] = int(r.get(k) or -1)
        for k in ("fixed_ns", "teardown_ns"):
            r[k] = int(r.get(k) or 0)
        for k in OPT_FIELDS:
            r[k] = int(r.get(k) or -1)
        for k in r:
            if k.startswith(PERF):	# a count, or perf's word instead
                try:
                    x = float(r[k])
                    r[k] = int(x) if x.is_integer() else x
                except (TypeError, ValueError):
                    pass
    return rows, timed


def para(text, indent="", width=100):
    """Prose of the report, wrapped; data lines stay one per item."""
    return textwrap.wrap(text, width, initial_indent=indent,
                         subsequent_indent=indent + "  ",
                         break_on_hyphens=False)


def who(workload, n):
    """mmap-pread's workers are processes, the others' threads."""
    word = "task" if workload.startswith("mmap-pread") else "thread"
    return f"{n} {word}{'s' if n != 1 else ''}"


def cross_title(workloads):
    """The cross-check's name: exec and dynexec are always named (the
    report's text before mixed), another workload without Rss where it
    ran."""
    ran = {base_name(w) for w in workloads}
    names = ", ".join(w for w in NO_RSS if w in EXECS or w in ran)
    return (f"Cross-check of the counters (against Rss; {names}: "
            "fa-mapped > 0 at every order above 0)")


def base_name(workload):
    """The workload without its page-cache state: mixed@ext4 is mixed."""
    return workload.partition("@")[0]


def no_order(workload):
    """Where the order makes no difference: anon (no fault-around) and a
    @huge file (a fault maps its whole PMD-sized folio)."""
    return base_name(workload) == CONTROL or workload.endswith("@huge")


def checked(workload):
    """In the page-cache states but @huge: there a fault maps its whole
    PMD-sized folio (do_set_pmd() from filemap_map_pages()), which the
    counters, of PTEs, do not count."""
    name, _, state = workload.partition("@")
    return state != "huge" and (name in CHECKED or name.startswith("mmap-pread"))


def fmt_int(x):
    return "-" if x is None or x != x else f"{x:,.0f}"


def fmt_fig(x):
    if x is None or x != x:
        return "-"
    return f"{x:,.3f}" if abs(x) >= 1 else f"{x:.4g}"


def fmt_ratio(x):
    if x is None or x != x:
        return "-"
    return f"{x:.4f}" if x < 10 else f"{x:.2f}" if x < 1000 else f"{x:.0f}"


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
    """Every marked comparison of the report, for Holm's adjustment."""

    def __init__(self):
        self.cmps = []
        self.m = 0	# those with a p, set by holm()

    def add(self, c):
        self.cmps.append(c)
        return c

    def holm(self):
        for c, q in zip(self.cmps, bs.holm([c.p for c in self.cmps])):
            c.padj = q if q == q else None
        self.m = sum(c.p == c.p for c in self.cmps)
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
        not a number (perf's word) leaves its run out."""
        by = defaultdict(list)
        one = self.unit.get(key[0]) == "rep"
        for b, rs in self.cells.get(key, {}).items():
            for r in rs:
                v = r[field]
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


# --- the cost model -------------------------------------------------------

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


def cost_model(st, label, rows, what):
    """figure = a_w + b * minflt + c * fa_mapped (+ d * majflt where it
    varies: a cold file's reads) by least squares over rows, with an
    intercept per workload; 95% percentile intervals from a hierarchical
    case bootstrap (boots, then runs within each boot, workload and
    order).  When the data cannot separate b and c, fits what they can:
    only c if minflt does not vary, only b if fa_mapped does not, their
    combination if they move together; d only where majflt moves apart
    from them.  c_from: the workloads whose fa_mapped moves apart from
    their minflt (and majflt), which are what tell c from b."""
    res = {"what": what, "runs": len(rows)}
    wls = sorted({r["workload"] for r in rows})
    y = np.array([r["ns"] for r in rows], float)
    m = np.array([r["minflt"] for r in rows], float)
    f = np.array([r["fa_mapped"] for r in rows], float)
    wi = np.array([wls.index(r["workload"]) for r in rows])
    dummies = (wi[:, None] == np.arange(len(wls))[None, :]).astype(float)

    def within(x):	# x less its workload's mean
        means = np.bincount(wi, x) / np.bincount(wi)
        return x - means[wi]

    mj = np.array([r["majflt"] for r in rows], float)
    mc, fc, jc = within(m), within(f), within(mj)
    vm, vf = varies(mc, m), varies(fc, f)
    if len({r["order"] for r in rows}) < 2:
        # The levers are the orders; a rep's wiggle is no experiment.
        res["note"] = "skipped: one order only"
        return res
    if not vm and not vf:
        res["note"] = "skipped: neither minflt nor fa_mapped varies"
        return res
    cols, names = [], []
    if vm and vf and abs(np.corrcoef(mc, fc)[0, 1]) > 0.999:
        # fa_mapped = alpha + beta * minflt: only b + beta * c shows.
        beta = float(np.polyfit(mc, fc, 1)[0])
        combo = "b - c" if abs(beta + 1) < 0.02 else f"b {beta:+.3g}*c"
        res["note"] = (f"b and c not separable: fa_mapped = const "
                       f"{beta:+.3g} * minflt")
        cols, names = [m], [combo]
    else:
        if vm:
            cols.append(m)
            names.append("b")
        if vf:
            cols.append(f)
            names.append("c")
        if not vm:
            res["note"] = "minflt does not vary: b not identifiable"
        if not vf:
            res["note"] = "fa_mapped does not vary: c not identifiable"
    if "c" in names:
        res["c_from"] = []
        for wl in dict.fromkeys(r["workload"] for r in rows):
            i = wls.index(wl)
            on = wi == i
            lev = [v[on] for v, ok in ((mc, vm), (jc, varies(jc, mj))) if ok]
            if varies(fc[on], f[on]) and own(fc[on], lev):
                res["c_from"].append(wl)
    if varies(jc, mj):
        # A major fault's read costs far more than a minor fault, but
        # majflt that only follows minflt or fa_mapped adds no lever.
        if own(jc, [within(c) for c in cols]):
            cols.append(mj)
            names.append("d")
        else:
            res["note"] = ((res.get("note") + "; ") if res.get("note") else "") + \
                "majflt moves with minflt or fa_mapped: d not identifiable"
    x = np.column_stack([dummies] + cols)
    # Scale the columns: counts and instructions differ by 1e4.
    xs = np.abs(x).max(axis=0)
    xs[xs == 0] = 1
    ys = max(float(np.abs(y).max()), 1.0)
    xn, yn = x / xs, y / ys
    point = np.linalg.lstsq(xn, yn, rcond=None)[0] * ys / xs

    # The bootstrap: how often each resample draws each run.  The runs in
    # blocks of one boot and stratum (workload, order), as medians() does.
    boots = st.boots[label]
    k, nrun = len(boots), len(rows)
    strata = {s: i for i, s in enumerate(sorted({(r["workload"], r["order"])
                                                 for r in rows}))}
    cell = [(boots.index(r["boot"]), strata[(r["workload"], r["order"])])
            for r in rows]
    perm = np.array(sorted(range(nrun), key=cell.__getitem__), np.intp)
    n = np.zeros((k, len(strata)), np.intp)
    for b, s in cell:
        n[b, s] += 1
    first = (np.cumsum(n.ravel()) - n.ravel()).reshape(n.shape)
    big = int(n.max())
    rng = st.rng("cost", label, what)
    bi = rng.integers(0, k, (COST_B, k))
    nb = n[bi]	# (COST_B, k, strata)
    u = rng.random(nb.shape + (big,), np.float32)
    pos = (u * nb[..., None].astype(np.float32)).astype(np.intp)
    np.minimum(pos, np.maximum(nb[..., None] - 1, 0), out=pos)
    pos += first[bi][..., None]
    run = perm[np.minimum(pos, nrun - 1)]
    run += (np.arange(COST_B) * nrun)[:, None, None, None]
    if not (n == big).all():
        run = run[np.arange(big) < nb[..., None]]
    w = np.bincount(run.ravel(), minlength=COST_B * nrun)
    w = w.reshape(COST_B, nrun).astype(float)
    p = xn.shape[1]
    xtx = (w @ (xn[:, :, None] * xn[:, None, :]).reshape(nrun, p * p)).reshape(-1, p, p)
    xty = w @ (xn * yn[:, None])
    try:
        beta_b = np.linalg.solve(xtx, xty[..., None])[..., 0]
    except np.linalg.LinAlgError:	# a resample lost a workload's lever
        beta_b = (np.linalg.pinv(xtx) @ xty[..., None])[..., 0]
    beta_b = beta_b * ys / xs
    nd = len(wls)
    for j, name in enumerate(names):
        lo, hi = np.percentile(beta_b[:, nd + j], [2.5, 97.5])
        res[name] = (float(point[nd + j]), float(lo), float(hi))
    if any(res[n][2] < 0 for n in names):
        # A cost below zero: what drives the figure is not in the model
        # (I/O for a cold file; for exec, not its own faults).
        res["note"] = ((res.get("note") + "; ") if res.get("note") else "") + \
            "DOES NOT FIT: a negative cost, the figure is not made of these faults and pages"
    return res


def cost_text(res, u):
    # b, c, d, or their combination (b - c, ...), which is per fault.
    per = {"c": "page", "d": "major fault"}
    names = [n for n in res if n in ("b", "c", "d") or n.startswith("b ")]
    parts = [f"{n} = {res[n][0]:,.0f} [{res[n][1]:,.0f}, {res[n][2]:,.0f}] "
             f"{u['raw']} per {per.get(n, 'fault')}" for n in names]
    body = "; ".join(parts)
    note = res.get("note")
    if not parts:
        return note
    return body + (f" ({note})" if note else "")


# --- the cross-check ------------------------------------------------------

def crosscheck(runs):
    """Where the counters and the mappings' Rss both apply (seq, rand,
    sparse, mmap-pread-*), they must agree: at order 0 nothing is counted;
    with one thread every fault in the mapping faults around and maps its
    own page, so Rss = fa_calls + fa_mapped (sparse sums Rss over its
    passes, which the counters span too); with more, a thread can fault on
    a page that another's window just mapped, and with N mmap-pread tasks
    Rss is summed over their mappings, so fa_mapped <= Rss <= fa_calls +
    fa_mapped.  The same bounds hold cold (@ext4-cold): a fault on a page
    that readahead is still reading waits and is retried, and faults
    around again.  exec and dynexec have no Rss, but a program start
    faults on cached text and libraries, so at every order above 0 some
    pages must have been mapped ahead: fa_mapped 0 there is fault-around
    not running (as a kernel state bug once had it at every order).
    mixed has no Rss either, and its reader faults in order on a cached
    file: the same holds.  Fixed orders only: under the adaptive policy
    a fault need not fault around at all, and neither identity holds.
    Returns the runs checked and the disagreements."""
    done, bad = [], []
    for r in runs:
        if r["fa_calls"] < 0:
            continue
        calls, fa, rss = r["fa_calls"], r["fa_mapped"], r["mapped"]
        if base_name(r["workload"]) in NO_RSS:
            done.append(r)
            if r["order"] > 0 and fa <= 0:
                bad.append(f"{r['label']} boot {r['boot']} {r['workload']} "
                           f"{who(r['workload'], r['threads'])} "
                           f"order={r['order']} rep={r['rep']}: fa_mapped "
                           f"{fa} (fa_calls {calls}): nothing mapped ahead")
            continue
        if not checked(r["workload"]):
            continue
        done.append(r)
        if r["order"] == 0:
            ok = calls == 0 and fa == 0
        elif r["threads"] == 1 and not r["workload"].endswith("@ext4-cold"):
            ok = rss == calls + fa
        else:
            ok = fa <= rss <= calls + fa
        if not ok:
            bad.append(f"{r['label']} boot {r['boot']} {r['workload']} "
                       f"{who(r['workload'], r['threads'])} order={r['order']} "
                       f"rep={r['rep']}: Rss {rss}, fa_calls {calls}, fa_mapped {fa}")
    return done, bad


# --- verdicts ---------------------------------------------------------------

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


def per_page(a, c):
    """Pages mapped per page read into a: Rss where the runs have it,
    else each fault's page and those mapped around it (faults +
    fa-mapped); per distinct page read where the runs count those, else
    per page touched (which counts repeats); and the pages mapped but
    never read, where measured."""
    read = c["distinct"] if c["distinct"] > 0 else c["pages"]
    a["per"] = "read" if c["distinct"] > 0 else "touched"
    if c["mapped"] and read:
        a["pages_kind"], a["per_page"] = "Rss", c["mapped"] / read
    elif c["counters"] and read:
        a["pages_kind"] = "faults + fa-mapped"
        a["per_page"] = c["maps"] / read
    if c["unread"] >= 0:
        a["unread"] = c["unread"]


# --- perf stat -------------------------------------------------------------

def perf_status(rows):
    """The events of the runs' perf stat columns (sweep.sh -p): those
    counted in every run, those <not supported> in every run (the PMU does
    not expose them), and those counted in some runs only, with how many
    of how many."""
    events = [k[len(PERF):] for k in dict.fromkeys(k for r in rows for k in r)
              if k.startswith(PERF)]
    res = {"events": events, "counted": [], "not_supported": [], "partly": {}}
    for e in events:
        vals = [r.get(PERF + e) for r in rows]
        n = sum(isinstance(v, (int, float)) for v in vals)
        if n == len(vals):
            res["counted"].append(e)
        elif all(v == NOT_SUPPORTED for v in vals):
            res["not_supported"].append(e)
        else:
            res["partly"][e] = (n, len(vals))
    return res


def table_row(out, name, vals, lw=26, cw=17):
    """A line of a table: its name, then a column per order."""
    out.append(name.ljust(lw) + "".join(v.rjust(cw) for v in vals))


# --- the report -----------------------------------------------------------

class Report:
    def __init__(self, sets, meta, u):
        self.sets, self.meta, self.u = sets, meta, u
        self.label = sets[0][0]
        rows = [r for _, rs, _ in sets for r in rs]
        self.sweep = [r for r in sets[0][1] if r["setup"] == "sweep"]
        self.modruns = [r for r in sets[0][1] if r["setup"].startswith("mod-")]
        self.base = ([r for r in sets[1][1] if r["setup"] == "sweep"]
                     if len(sets) > 1 else [])
        self.orders = sorted({r["order"] for r in self.sweep})
        self.workloads = list(dict.fromkeys(r["workload"] for r in self.sweep))
        self.threads = {w: sorted({r["threads"] for r in self.sweep
                                   if r["workload"] == w}) for w in self.workloads}
        # An empty or odd value (bench.sh could not read it) is no reason
        # to lose the report of a long sweep: fall back, and say so.
        given = meta.get("default_order", "")
        self.default = int(given) if given.isdigit() else DEFAULT_ORDER
        self.default_given = given.isdigit()
        self.family = Family()
        self.st = Stats(rows)
        self.aa = False	# set by main(): --aa
        self.cross = cross_title(self.workloads)
        # The adaptive policy's runs: their order column is the order the
        # policy starts from (the kernel's default; one per sweep).
        self.policy_from = {}
        for r in sets[0][1]:
            if r["setup"] == ADAPTIVE:
                self.policy_from.setdefault((r["workload"], r["threads"]),
                                            r["order"])
        self.perf = perf_status(sets[0][1])

    def key(self, w, t, o, setup="sweep", label=None):
        """A cell's key; order ADAPTIVE is the adaptive policy's runs."""
        if o == ADAPTIVE:
            return (label or self.label, ADAPTIVE, w, t,
                    self.policy_from.get((w, t)))
        return (label or self.label, setup, w, t, o)

    @staticmethod
    def touched(w):
        """What a workload's pages column counts."""
        return "program starts" if w in EXECS else "pages touched"

    def ab_cells(self):
        """(workload, threads, order) that both kernels ran."""
        have = {(r["workload"], r["threads"], r["order"]) for r in self.base}
        return [(w, t, o) for w in self.workloads for t in self.threads[w]
                for o in self.orders if (w, t, o) in have
                and self.st.has(self.key(w, t, o))]

    def mod_cells(self):
        """(workload, threads, order) of the module-cost runs."""
        return list(dict.fromkeys((r["workload"], r["threads"], r["order"])
                                  for r in self.modruns))

    # -- computing --

    def table(self, w, t):
        st, base = self.st, self.orders[0]
        cols = [o for o in self.orders if st.has(self.key(w, t, o))]
        # orders: the fixed ones; cols: the table's, the adaptive policy's
        # after the largest order, with the same statistics.
        tb = {"workload": w, "threads": t, "orders": cols, "cells": {},
              "cols": cols + [ADAPTIVE] * st.has(self.key(w, t, ADAPTIVE))}
        for o in tb["cols"]:
            k = self.key(w, t, o)
            c = {f: st.median(k, f) for f in
                 ("minflt", "majflt", "fa_mapped", "mapped", "ns", "fixed_ns",
                  "teardown_ns", "pages", "distinct", "unread")}
            # The median of the sums, not the sum of the medians.
            c["faults"] = statistics.median(r["minflt"] + r["majflt"]
                                            for r in st.runs(k))
            # The pages mapped where there is no Rss: each fault's own
            # page and those mapped around it.
            c["maps"] = statistics.median(r["minflt"] + r["majflt"]
                                          + r["fa_mapped"] for r in st.runs(k))
            c["major"] = any(r["majflt"] > 0 for r in st.runs(k))
            c["shape"] = st.shape(k)
            c["counters"] = all(r["fa_mapped"] >= 0 for r in st.runs(k))
            c["ns_ci"] = st.level(k)
            if o != base and base in cols:
                c["ratio"] = self.family.add(st.ratio(k, self.key(w, t, base)))
            tb["cells"][o] = c
        return tb

    def perf_table(self, tb):
        """The perf stat counts of a table's cells: each counted event's
        boot-level geometric mean and t interval, a clock's in ms per run, faults per
        run (beside the timed work's, minor + major), any other count per
        page touched (exec, dynexec: per program start) where every run
        touched as many, else per run."""
        st, w, t = self.st, tb["workload"], tb["threads"]
        cells = {}
        for o in tb["cols"]:
            k = self.key(w, t, o)
            pages = {r["pages"] for r in st.runs(k)}
            n = pages.pop() if len(pages) == 1 else 0
            cell = {"faults": tb["cells"][o]["faults"]}
            for e in self.perf["counted"]:
                if e in PERF_CLOCKS:
                    div, per, unit = 1e6, "run", "ms"
                elif e.endswith("faults") or n <= 0:
                    div, per, unit = 1, "run", "count"
                else:
                    div, unit = n, "count"
                    per = "program start" if base_name(w) in EXECS else "page touched"
                lo, hi = st.level(k, PERF + e)
                cell[e] = {"per": per, "unit": unit, "conf": CONF,
                           "median": st.median(k, PERF + e) / div,
                           "lo": lo / div, "hi": hi / div}
            cells[o] = cell
        return {"workload": w, "threads": t, "cols": tb["cols"], "cells": cells}

    def per_order(self, w, ts, cols, label=None):
        """{order: blocks x thread counts array of the blocks' medians},
        on the blocks that every order and thread count has."""
        keys = [self.key(w, t, o, label=label) for o in cols for t in ts]
        _, m = self.st.matrix(keys)
        if m is None:
            return {}
        k = len(ts)
        return {o: m[:, i * k:(i + 1) * k] for i, o in enumerate(cols)}

    def best_of(self, w, ts, cols, label=None):
        """The best of the fixed orders cols: the smallest boot-level
        geometric mean over the thread counts ts (benchstats.pick_orders)."""
        per = self.per_order(w, ts, cols, label)
        return bs.pick_orders(per, MIN_EFFECT, CONF)["best"] if per else None

    def recommend(self, w, label=None):
        """best and recommended (benchstats.stable_pick): the smallest
        order whose ratio to the best has its 95% interval's top below
        1 + MIN_EFFECT, shown to be at most 1% worse.  Not the point
        estimate's 1%: that flips between identical runs wherever an order
        sits near it; an order must be shown near, and the best itself
        is.  Each is marked stable when every leave-one-boot-out
        recomputation gives the same order.  The comparisons of the
        tables' kernel join the Holm family; another label's (the A/A's
        B) do not."""
        st, ts = self.st, self.threads[w]
        label = label or self.label
        cols = [o for o in self.orders
                if all(st.has(self.key(w, t, o, label=label)) for t in ts)]
        if len(cols) < 2:
            return {"workload": w, "note": f"only order {cols[0] if cols else '-'} was run"}
        per = self.per_order(w, ts, cols, label)
        if not per:
            return {"workload": w, "note": "no boot ran every order"}
        pick = bs.stable_pick(per, MIN_EFFECT, CONF)
        best, rec = pick["best"], pick["recommended"]

        def vs(o, ref):
            c = Cmp(bs.paired_ratio(per[o], per[ref], CONF))
            return self.family.add(c) if label == self.label else c

        res = {"workload": w, "threads": ts, "best": best, "recommended": rec,
               "to_best": Cmp(pick["to_best"][rec]), "near_best": pick["near_best"],
               "boots": pick["boots"], "unit": st.unit[label],
               "best_stable": pick["best_stable"], "rec_stable": pick["rec_stable"],
               "best_moves": pick["best_moves"], "rec_moves": pick["rec_moves"]}
        if rec != cols[0]:
            res["to_base"] = vs(rec, cols[0])
        res["base"] = cols[0]
        if self.default in cols and rec != self.default:
            res["to_default"] = vs(rec, self.default)
        pages = {}
        for t in ts:
            pages[t] = {o: tuple(st.median(self.key(w, t, o, label=label), f)
                                 for f in ("mapped", "fa_mapped", "distinct",
                                           "unread"))
                        for o in sorted({rec, best, self.default}) if o in cols}
        res["pages"] = pages
        return res

    def control(self):
        """anon: every order against the baseline, with the estimator of
        the tables (in the Holm family); the verdict waits for Holm
        (control_verdict())."""
        w, st, base = CONTROL, self.st, self.orders[0]
        if w not in self.workloads:
            return None
        cmps = []
        for t in self.threads[w]:
            for o in self.orders[1:]:
                k, kb = self.key(w, t, o), self.key(w, t, base)
                if st.has(k) and st.has(kb):
                    c = self.family.add(st.ratio(k, kb))
                    cmps.append((t, o, c, c.tost()))
        if not cmps:
            return {"holds": None, "verdict": None, "cmps": []}
        return {"cmps": cmps}

    def control_verdict(self, ctl):
        """After Holm: the control moves on any Holm-adjusted rejection
        (p < ALPHA, whatever the size) or any ratio shown outside
        +-AB_MARGIN (its TOST interval wholly outside); it holds when every
        order is equivalent within +-AB_MARGIN (TOST); inconclusive
        otherwise.  A point estimate outside the margin with an interval
        across it shows nothing: with 3 boots one of 9 noisy ratios
        usually is, and flagging it would flag nearly every run.  A moving control flags every verdict of
        the report (Cmp.flag): the report is kept, and said suspect,
        rather than lost with the run."""
        if not ctl or not ctl["cmps"]:
            return
        cmps = ctl["cmps"]
        rejected = [x for x in cmps if x[2].padj is not None and x[2].padj < ALPHA]
        outside = [x for x in cmps if x[3].side == "outside"]
        inside = [x for x in cmps if x[3].equivalent]
        said = ("moves" if rejected or outside else
                "holds" if len(inside) == len(cmps) else "inconclusive")
        worst = max(cmps, key=lambda x: abs(math.log(x[2].est))
                    if x[2].est == x[2].est else -1)
        ctl.update(holds=said == "holds", verdict=said, inside=len(inside),
                   rejected=len(rejected), outside=len(outside), worst=worst,
                   moved=len({id(x) for x in rejected + outside}))
        if said == "moves":
            Cmp.flag = FLAG

    def flag(self, text):
        """A verdict's text, flagged once the control moved."""
        return text + Cmp.flag

    def adaptive(self, tables):
        """The adaptive policy per workload and thread count: against the
        best fixed order there (best_of() at that thread count), a verdict
        from the interval against 1 + ADAPT_BEST and no mark (the best was
        picked from these runs); against the default order it starts from,
        marked like the orders; its pages mapped per page read (Rss, or
        where there is none its faults and fa-mapped pages; per distinct
        page read where the runs count them); for mixed, against every
        fixed order; where no order applies (no_order()), equivalent to
        the default order within +-ADAPT_MARGIN or not, by TOST from the
        same t (90%), as for the anon control."""
        st, lines = self.st, []
        for (w, t), tb in tables.items():
            if ADAPTIVE not in tb["cells"]:
                continue
            ka, c = self.key(w, t, ADAPTIVE), tb["cells"][ADAPTIVE]
            best = self.best_of(w, [t], tb["orders"])
            if best is None:
                continue
            a = {"workload": w, "threads": t, "from": ka[4], "best": best,
                 "to_best": st.ratio(ka, self.key(w, t, best))}
            b = a["to_best"]
            a["best_verdict"] = (
                f"within {ADAPT_BEST:.0%} of the best" if b.hi <= 1 + ADAPT_BEST
                else f"NOT within {ADAPT_BEST:.0%}" if b.lo > 1 + ADAPT_BEST
                else f"inconclusive at {ADAPT_BEST:.0%}")
            if a["from"] in tb["orders"]:
                kd = self.key(w, t, a["from"])
                a["to_default"] = self.family.add(st.ratio(ka, kd))
                if no_order(w):
                    e = a["equiv"] = a["to_default"].tost(ADAPT_MARGIN)
                    a["equiv_verdict"] = {
                        "inside": f"equivalent to off within +-{ADAPT_MARGIN:.0%}",
                        "outside": "different", None: "inconclusive"}[e.side]
            per_page(a, c)
            if base_name(w) == "sparse" and "per_page" in a:
                a["goal"] = a["per_page"] <= SPARSE_GOAL
            if base_name(w) == "mixed":
                # Beating every order takes every interval below 1.
                a["to_each"] = {o: st.ratio(ka, self.key(w, t, o))
                                for o in tb["orders"]}
                a["beats_all"] = all(x.hi < 1 for x in a["to_each"].values())
            lines.append(a)
        return lines

    def modcost(self):
        """Each module setup against mod-off, paired by boot (they ran
        interleaved): the ratio, marked, and its verdict (verdict())."""
        st, lines = self.st, []
        for w, t, o in self.mod_cells():
            off = self.key(w, t, o, "mod-off")
            if not st.has(off):
                continue
            for setup, name in MOD_SETUPS:
                k = self.key(w, t, o, setup)
                if not st.has(k):
                    continue
                c = self.family.add(st.ratio(k, off))
                lines.append({"workload": w, "threads": t, "order": o,
                              "setup": setup, "name": name, "boot": c,
                              "tost": c.tost(), "n": (len(st.values(k)),
                                                      len(st.values(off))),
                              "minflt": (st.median(k, "minflt"),
                                         st.median(off, "minflt"))})
        return lines

    def ab(self):
        """patched/base per workload, thread count and order both ran:
        Welch on the boots' median logs (the kernels ran in different
        boots), marked, with TOST from the same t; per boot, the ratio of
        the alternating boots' medians (descriptive)."""
        st, other, lines = self.st, self.sets[1][0], []
        for w, t, o in self.ab_cells():
            ka, kb = self.key(w, t, o), self.key(w, t, o, label=other)
            ma, mb = (list(st.blocks(k).values()) for k in (ka, kb))
            c = self.family.add(st.ratio(ka, kb))
            lines.append({"workload": w, "threads": t, "order": o,
                          "boot": c, "tost": c.tost(),
                          "nboots": (len(ma), len(mb)),
                          "n": (len(st.values(ka)), len(st.values(kb))),
                          "per_boot": [x / y for x, y in zip(ma, mb)]})
        return lines

    def margins(self, tables, fits, pooled):
        """The equivalence margin per fault where faults are the lever
        (the minor faults vary with the order): +-MIN_EFFECT of the figure
        at the default order (else the baseline) over its minor faults,
        in the cost model's unit per fault, beside the fitted cost of a
        fault (b: the workload's own fit, and the pooled one)."""
        lines = []
        for (w, t), tb in tables.items():
            cols = tb["orders"]
            mins = np.array([tb["cells"][o]["minflt"] for o in cols], float)
            if len(cols) < 2 or not varies(mins, mins):
                continue
            o = self.default if self.default in cols else cols[0]
            c = tb["cells"][o]
            if not c["minflt"] > 0:
                continue
            own_fit = next((f["b"] for f in fits if f.get("workload") == w
                            and f.get("threads") == t and "b" in f), None)
            pool = next((f["b"] for f in pooled if f.get("threads") == t
                         and "b" in f and w in f.get("workloads", ())), None)
            lines.append({"workload": w, "threads": t, "order": o,
                          "figure": c["ns"], "minflt": c["minflt"],
                          "per_fault": c["ns"] * MIN_EFFECT / c["minflt"],
                          "b": own_fit, "b_pooled": pool})
        return lines

    def calibrate(self, abl, tables):
        """The A/A (--aa: both labels one kernel, so every difference is
        noise): each verdict type's false-positive count, rate and
        Clopper-Pearson 95% interval.  Rows share boots, so they are not
        independent: the intervals are a guide, not exact."""
        other, res = self.sets[1][0], {}

        def rate(k, n, nominal):
            lo, hi = bs.clopper_pearson(k, n) if n else (float("nan"),) * 2
            status = ("EXCEEDS" if n and lo > nominal else
                      "above, not significantly" if n and k / n > nominal
                      else "at or below")
            return {"k": k, "n": n, "rate": k / n if n else float("nan"),
                    "lo": lo, "hi": hi, "nominal": nominal, "status": status}

        tested = [a for a in abl if a["boot"].p == a["boot"].p]
        res["ab_unadjusted"] = rate(sum(a["boot"].p < ALPHA for a in tested),
                                    len(tested), ALPHA)
        res["ab_marked"] = {"k": sum(a["boot"].sig() for a in abl), "n": len(abl)}
        res["ab_equivalent"] = sum(a["tost"].equivalent for a in abl)
        res["ab_outside"] = sum(a["tost"].side == "outside" for a in abl)
        res["ab_inconclusive"] = sum(a["tost"].side is None for a in abl)
        res["ab_rows"] = len(abl)
        # The sample size to fix before an A/B (no reruns until it
        # passes): boots a side for its TOST at +-1% to reach 80% power,
        # from each row's pooled boot-to-boot sd of the median logs.
        need = []
        for a in abl:
            ka = self.key(a["workload"], a["threads"], a["order"])
            kb = self.key(a["workload"], a["threads"], a["order"], label=other)
            la, lb = (np.log(list(self.st.blocks(k).values())) for k in (ka, kb))
            if len(la) > 1 and len(lb) > 1:
                sd = math.sqrt((la.var(ddof=1) + lb.var(ddof=1)) / 2)
                need.append((bs.tost_boots(sd, AB_MARGIN, (1 - AB_CONF) / 2),
                             sd, f"{a['workload']}/{a['threads']}@{a['order']}"))
        res["boots_needed"] = need
        # Within a kernel, where no order applies (anon, @huge): every
        # order against the baseline is a null too, in both labels.
        nulls = []
        for label in (self.label, other):
            for w in self.workloads:
                if not no_order(w):
                    continue
                for t in self.threads[w]:
                    kb = self.key(w, t, self.orders[0], label=label)
                    for o in self.orders[1:]:
                        k = self.key(w, t, o, label=label)
                        if self.st.has(k) and self.st.has(kb):
                            nulls.append(self.st.ratio(k, kb))
        tested = [c for c in nulls if c.p == c.p]
        res["paired_unadjusted"] = rate(sum(c.p < ALPHA for c in tested),
                                        len(tested), ALPHA)
        res["paired_equivalent"] = sum(c.tost().equivalent for c in nulls)
        res["paired_rows"] = len(nulls)
        # Split halves: each label's own best and recommended order.
        split = {"best": [], "recommended": []}
        for w in self.workloads:
            if w == CONTROL:
                continue
            ra, rb = self.recommend(w), self.recommend(w, other)
            if "note" in ra or "note" in rb:
                continue
            for what, st_key in (("best", "best_stable"),
                                 ("recommended", "rec_stable")):
                split[what].append({"workload": w, "A": ra[what], "B": rb[what],
                                    "stable": (ra[st_key], rb[st_key])})
        res["split"] = split
        return res

    def costs(self):
        """Per workload and thread count, and pooled over the checked
        workloads (an intercept each) per thread count."""
        fits, pooled = [], []
        for w in self.workloads:
            for t in self.threads[w]:
                rows = [r for r in self.sweep if r["workload"] == w
                        and r["threads"] == t]
                if any(r["fa_mapped"] < 0 for r in rows):
                    fits.append({"what": f"{w:26} {who(w, t):9}", "workload": w,
                                 "threads": t, "note": "no counters"})
                    continue
                res = cost_model(self.st, self.label, rows, (w, t))
                res.update(workload=w, threads=t, what=f"{w:26} {who(w, t):9}")
                fits.append(res)
        for t in sorted({t for ts in self.threads.values() for t in ts}):
            # Warm files only: a cold run's figure is mostly its I/O.
            rows = [r for r in self.sweep if checked(r["workload"])
                    and not r["workload"].endswith("@ext4-cold")
                    and r["threads"] == t and r["fa_mapped"] >= 0]
            wls = list(dict.fromkeys(r["workload"] for r in rows))
            if len(wls) < 2:
                continue
            res = cost_model(self.st, self.label, rows, ("pooled", t))
            res.update(workloads=wls, threads=t,
                       what=f"pooled, {t} thread(s)/task(s)")
            pooled.append(res)
        return fits, pooled

    # -- rendering --

    def header(self, ncmp, ctl=None, calib=None):
        u, st = self.u, self.st
        out = ["Fault-around sweep (bench v3)"]
        out += [f"  {k}: {v}" for k, v in self.meta.items()
                if v and k not in ("default_order", "perf")]
        out.append(f"  default_order: {self.default}" + (
            "" if self.default_given else " (not given; assumed)"))
        perf = self.perf_line()
        if perf:
            out += para(perf, "  ")
        if "clock" not in self.meta:
            out.append("  clock: not given; assumed native")
        if ctl and ctl.get("verdict") == "moves":
            out += para(self.moved_line(ctl))
        if calib:
            out += self.render_calib(calib)
        out += para(f"Figure: {u['name']}, printed as '{u['unit']}': {u['note']}")
        for label, rows, _ in self.sets:
            sweep = [r for r in rows if r["setup"] == "sweep"]
            policy = sum(r["setup"] == ADAPTIVE for r in rows)
            nb = len(st.boots.get(label, []))
            out.append(f"Kernel '{label}': {nb} boot{'s' if nb != 1 else ''}, "
                       f"{len(rows):,} runs ({len(sweep):,} of the order sweep"
                       + (f", {policy:,} of the adaptive policy" if policy else "")
                       + ")" + (", the tables' kernel" if label == self.label else ""))
        out.append("Statistics (scripts/benchstats.py):")
        text = [
            "Each order's figure in the tables is the median over all runs "
            "of all boots (descriptive).",
            "Every ratio, interval and mark comes from one estimator with "
            "the boot as the replicate: each boot is summarised by the "
            "median of its runs of a cell.  A kernel's orders and setups ran "
            "interleaved in the same boots, so new/baseline is paired by "
            "boot: d_b = log(new's median in boot b) - log(baseline's), "
            "ratio = exp(mean d), its interval exp(mean d +- t(B - 1) * "
            "sd(d) / sqrt(B)) for B boots, and p, two-sided, from the same t "
            "(over several thread counts, each boot's logs are averaged "
            "first: a geometric mean).  The A/B's kernels ran in different "
            "boots: Welch's t on the boots' median logs, its interval from "
            "the same t (Welch-Satterthwaite df).  With no spread at all "
            "(counts), p = 1 for equal figures and 0 for different ones "
            "given 3 boots (a side), the interval the point; with fewer than "
            "2 boots, no interval and no p.",
            f"The printed {CONF:.0%} intervals are unadjusted.  %chg = (new "
            f"- baseline) / baseline; baseline = order {self.orders[0]} "
            "unless stated: negative means fewer faults, fewer pages or a "
            "smaller figure.",
            f"'*' marks a change whose Holm-adjusted p over all {ncmp} "
            f"marked comparisons of this report is < {ALPHA} AND whose size "
            f"is at least {MIN_EFFECT:.0%} (the minimum effect that counts); "
            "'~' any other: a '*' always has an interval that excludes 1, "
            "and a '~' may too (not shown after Holm's adjustment).  Fault "
            "and page rows are medians of counts and their %chg is not "
            "tested.",
            f"Equivalence within +-{AB_MARGIN:.0%} (the A/B, the module "
            "cost, the anon control): two one-sided tests at "
            f"{(1 - AB_CONF) / 2:.0%} from the same t, i.e. the "
            f"{AB_CONF:.0%} interval inside [{1 - AB_MARGIN:g}, "
            f"{1 + AB_MARGIN:g}].",
        ]
        one = [label for label, v in st.unit.items() if v == "rep"]
        if one:
            text.append(f"Only one boot of {', '.join(one)}: its repetitions "
                        "take the boots' place, so its intervals and p-values "
                        "are within-boot only (no boot-to-boot variation).")
        for t in text:
            out += para(t, "  ")
        out += para(
            "Rows: minor faults = the measured work's faults (with major "
            "faults, where any run has one: the faults that had to read, "
            "and their sum with the minor ones, whose %chg is the one to "
            "read); fa-mapped = "
            "/proc/vmstat fault_around_mapped over the run (pages mapped "
            "ahead besides the faulting ones); pages mapped (Rss) = the "
            "measured mappings' Rss (mmap-pread: summed over its tasks' "
            "mappings; sparse: over its passes); teardown = the munmap "
            "after the work, included in the figure; fixed = creating and "
            "joining the threads or tasks, excluded from it; distinct read "
            "(where counted) = the distinct pages the work read, summed "
            "over its passes; unread = pages of the measured mappings "
            "mapped at the end of a pass but never read, summed over the "
            "passes.")
        if self.policy_from:
            starts = ", ".join(map(str, sorted(set(self.policy_from.values()))))
            out += para(
                f"Column {ADAPTIVE}: the runs with mod_faultaround's adaptive "
                f"policy on (setup {ADAPTIVE}), which starts from order "
                f"{starts}, the kernel's default (their order column holds "
                "it); one a repetition, shuffled among the orders' runs in "
                "the same boots.  Its ratio, interval, %chg and mark are "
                f"against order {self.orders[0]}, as an order's.  The "
                "recommendations, the cost model and the cross-check are of "
                "the fixed orders only; the summary opens with the policy "
                "against them.")
        if not all(t for _, _, t in self.sets):
            old = [label for label, _, t in self.sets if not t]
            out += para(f"The CSVs of {', '.join(old)} predate fixed_ns and "
                        "teardown_ns: not recorded (taken as 0).", "  ")
        out.append("")
        return out

    def title(self, tb):
        """A table's first line: its workload, workers, pages and runs."""
        w, t, cols, cells = tb["workload"], tb["threads"], tb["cols"], tb["cells"]
        shapes = {cells[o]["shape"][:2] for o in cols}
        per = {tuple(cells[o]["shape"][2]) for o in cols}
        if len(shapes) == 1:
            nb, nr = shapes.pop()
            boots = (f"{nb} boot{'s' if nb != 1 else ''} x {nr // nb} runs = "
                     f"{nr} runs per order" if len(per) == 1 else
                     f"{nb} boots, {nr} runs per order")
            if nb == 1:
                boots += " (CI within-boot only: reps as the replicate)"
        else:
            boots = "runs (boots) per order: " + ", ".join(
                f"{o}: {cells[o]['shape'][1]} ({cells[o]['shape'][0]})"
                for o in cols)
        what = self.touched(w)
        pages = cells[cols[0]]["pages"]
        return f"{w}, {who(w, t)} ({fmt_int(pages)} {what}; {boots})"

    def render_table(self, tb, out):
        u = self.u
        cols, cells, base = tb["cols"], tb["cells"], self.orders[0]
        out.append(self.title(tb))

        def row(name, vals):
            table_row(out, name, vals)

        row("order", [f"{o} (baseline)" if o == base else str(o) for o in cols])
        get = {o: cells[o] for o in cols}
        many = len(cols) > 1

        def chg(field):
            b0 = get[cols[0]][field]
            return ["" if o == cols[0] or not b0 else
                    f"{(get[o][field] - b0) / b0 * 100:+.2f}%" for o in cols]

        row("minor faults", [fmt_int(get[o]["minflt"]) for o in cols])
        # A cold file's faults are part major: a fault that reads is not
        # a minor one, so the minor faults alone can fall as reads move
        # into major faults, and the sum is what fault-around saves.
        major = any(get[o]["major"] for o in cols)
        if many:
            row("  %chg minor faults only" if major else "  %chg minor faults",
                chg("minflt"))
        if major:
            row("major faults", [fmt_int(get[o]["majflt"]) for o in cols])
            row("faults (minor+major)", [fmt_int(get[o]["faults"]) for o in cols])
            if many:
                row("  %chg faults", chg("faults"))
        if all(get[o]["counters"] for o in cols):
            row("fa-mapped pages", [fmt_int(get[o]["fa_mapped"]) for o in cols])
        if any(get[o]["mapped"] for o in cols):
            row("pages mapped (Rss)", [fmt_int(get[o]["mapped"]) for o in cols])
        if any(get[o]["distinct"] > 0 for o in cols):
            row("distinct pages read", [fmt_int(get[o]["distinct"]) for o in cols])
        if any(get[o]["unread"] >= 0 for o in cols):
            row("unread (mapped, not read)", [
                fmt_int(get[o]["unread"]) if get[o]["unread"] >= 0 else "-"
                for o in cols])
        sc = u["scale"]
        row(f"{u['unit']} (median)", [fmt_fig(get[o]["ns"] * sc) for o in cols])
        if base in cols and many:
            row(f"  ratio to order {base}", [  # boot-level (benchstats)
                "1" if o == base else fmt_ratio(get[o]["ratio"].est) for o in cols])
            row(f"  {CONF:.0%} CI", [
                "" if o == base else get[o]["ratio"].ci() for o in cols])
            row(f"  %chg {u['unit']}", [
                "" if o == base else
                f"{get[o]['ratio'].chg():+.2f}% {get[o]['ratio'].mark()}"
                for o in cols])
        if any(get[o]["teardown_ns"] for o in cols):
            row(f"  incl. teardown {u['unit']}", [fmt_fig(get[o]["teardown_ns"] * sc)
                                         for o in cols])
        if any(get[o]["fixed_ns"] for o in cols):
            row(f"fixed {u['unit']} (excluded)", [
                fmt_fig(get[o]["fixed_ns"] * sc) for o in cols])
        out.append("")

    def perf_line(self):
        """The header's perf stat line: what was counted and what not, or
        why not; None where there is nothing to say (runs under QEMU)."""
        p, note = self.perf, self.meta.get("perf", "")
        if note.startswith("not available") or not p["events"]:
            if not note and self.u["clock"] != "native":
                return None
            return "perf stat: " + (note or "not available (the runs have "
                                    "no perf columns: sweep.sh without -p)")
        said = []
        if p["counted"]:
            said.append(f"counted {', '.join(p['counted'])} (each run's "
                        "whole fa-bench process, setup included)")
        if p["not_supported"]:
            said.append(f"not supported here: {', '.join(p['not_supported'])}"
                        " (this machine's PMU does not expose them)")
        if p["partly"]:
            said.append("counted in some runs only (left out): " + ", ".join(
                f"{e} ({n} of {m})" for e, (n, m) in p["partly"].items()))
        return "perf stat: " + "; ".join(said + [note] * bool(note))

    def render_perf(self, tables, ptabs, out):
        """The perf stat section: its line, and a table per workload and
        thread count of each counted event's median and interval."""
        line = self.perf_line()
        if line is None:
            return
        if not self.perf["counted"]:
            out += para(line + ".") + [""]
            return
        out += para(
            f"perf stat, each run under perf stat -e "
            f"{','.join(self.perf['events'])}: a count covers {PERF_COVERS}.  "
            "The median over the runs, with the "
            f"{CONF:.0%} t interval of the geometric mean of the boots' "
            "medians (descriptive: no ratios, no marks).  task-clock: the "
            "CPU time of the process, its threads and children, in ms per "
            "run (perf prints msec to 10 us); page-faults per run, beside "
            "the tables' faults of the timed work (minor + major): the rest "
            "are the setup's and the exit's; any other count per page "
            "touched (exec, dynexec: per program start).  The counting runs "
            "in the timed region too (page-faults at every fault, the clock "
            "at every context switch): the figure includes its cost.")
        if self.perf["not_supported"]:
            out += para(f"Not supported here: "
                        f"{', '.join(self.perf['not_supported'])}: perf stat "
                        "printed <not supported> in every run: this "
                        "machine's PMU does not expose them.", "  ")

        def row(name, vals):
            table_row(out, name, vals, 38, 22)

        for pt in ptabs:
            cols, cells = pt["cols"], pt["cells"]
            out.append(self.title(tables[(pt["workload"], pt["threads"])]))
            row("order", [str(o) for o in cols])
            for e in self.perf["counted"]:
                c0 = cells[cols[0]][e]
                fmt = fmt_int if c0["per"] == "run" and c0["unit"] == "count" \
                    else fmt_fig
                unit = "ms " if c0["unit"] == "ms" else ""
                row(f"{e} ({unit}per {c0['per']})",
                    [fmt(cells[o][e]["median"]) for o in cols])
                row(f"  {CONF:.0%} CI", [f"[{fmt(cells[o][e]['lo'])}, "
                                         f"{fmt(cells[o][e]['hi'])}]"
                                         for o in cols])
                if e.endswith("faults") and c0["per"] == "run":
                    row("  the timed work's faults",
                        [fmt_int(cells[o]["faults"]) for o in cols])
            out.append("")

    def render_costs(self, fits, pooled, out):
        u = self.u
        out += para(f"Cost model: figure = a + b * minflt + c * fa_mapped "
                    f"(+ d * majflt where the major faults vary apart from "
                    f"them), least squares over all runs of all orders of a "
                    f"workload and thread count (b: {u['raw']} per minor "
                    f"fault, c: {u['raw']} per page mapped ahead, d: "
                    f"{u['raw']} per major fault), 95% intervals from a "
                    f"hierarchical case bootstrap ({COST_B:,} resamples: "
                    "boots, then runs within each boot and order; not OLS "
                    "standard errors).  Where the data cannot separate b and "
                    "c, the line says so and gives what they do show; the "
                    "pooled fits share b and c over the workloads, with an "
                    "intercept each; c comes from the workloads whose "
                    "fa_mapped moves apart from their minflt (c from ...), "
                    "and a workload whose own c has an interval that "
                    "excludes the pooled c is named.")
        for res in fits:
            out.append(f"  {res['what']}: {cost_text(res, u)}")
        for res in pooled:
            extra = self.pooled_notes(res, fits)
            out.append(f"  {res['what']} ({', '.join(res['workloads'])}): "
                       f"{cost_text(res, u)}"
                       + "".join(f"; {e}" for e in extra))
        out.append("")

    @staticmethod
    def differ(res, fits):
        """The workloads of a pooled fit whose own c (same thread count)
        has an interval that excludes the pooled c: one c does not fit
        them all."""
        if "c" not in res:
            return []
        return [f["workload"] for f in fits
                if f.get("threads") == res["threads"] and "c" in f
                and f["workload"] in res["workloads"]
                and not f["c"][1] <= res["c"][0] <= f["c"][2]]

    def pooled_notes(self, res, fits, short=False):
        """Where a pooled fit's c comes from, and whether the workloads'
        own fits agree with it."""
        said = []
        if "c_from" in res:
            said.append(f"c from {', '.join(res['c_from'])}" if res["c_from"]
                        else "c from no workload alone (only the workloads' "
                        "different slopes of fa_mapped on minflt)")
        bad = self.differ(res, fits)
        if bad:
            said.append("per-workload fits differ: see above" if short else
                        f"own c excludes the pooled c: {', '.join(bad)}")
        return said

    def render_recs(self, recs, out):
        out += para(f"Recommendations: best = the smallest figure (the "
                    f"boot-level geometric mean of the boots' medians, over "
                    f"the thread counts too); recommended = the smallest order"
                    f" shown near the best: the {CONF:.0%} interval of its "
                    f"ratio to the best lies below {1 + MIN_EFFECT:g} (at most "
                    f"the {MIN_EFFECT:.0%} minimum effect worse; the best "
                    f"itself is, so with intervals too wide for any other it "
                    f"is the best).  Each is 'stable' when recomputing it "
                    f"with each boot left out in turn gives the same order, "
                    f"'UNSTABLE' with the orders it moves to otherwise: then "
                    f"a rerun may well give another (not assessed below 3 "
                    f"boots).  Then the pages that the recommended order maps "
                    "against the best and the default order (Rss, or "
                    "fa-mapped where there is no Rss), the memory that a "
                    "larger order costs.")
        for rec in recs:
            out.append("  " + self.rec_line(rec))
        out.append("")

    @staticmethod
    def stab(rec, what, short=False):
        """A verdict's stability ("best" or "rec"), in words."""
        ok = rec.get(f"{what}_stable")
        if ok is None:
            return "?" if short else (f"stability not assessed "
                                      f"({rec.get('boots', 0)} {rec.get('unit', 'boot')}s)")
        if ok:
            return "" if short else "stable"
        moves = ",".join(map(str, rec[f"{what}_moves"]))
        return (f"?{moves}" if short else
                f"UNSTABLE: leaving one {rec.get('unit', 'boot')} out gives "
                f"{'order' if len(rec[f'{what}_moves']) == 1 else 'orders'} {moves}")

    def rec_line(self, rec):
        """The recommendations section's line for a workload."""
        w = rec["workload"]
        if "note" in rec:
            return f"{w}: no recommendation ({rec['note']})"
        best, o = rec["best"], rec["recommended"]
        s = (f"{w}: best order {best}{Cmp.flag} ({self.stab(rec, 'best')}), "
             f"recommend {o}{Cmp.flag} ({self.stab(rec, 'rec')})")
        same = ", ".join(map(str, rec["near_best"]))
        if len(rec["near_best"]) == 1:
            s += "; no other order is shown near the best"
        c = rec["to_best"]
        if o != best:
            s += f"; to the best {c.ratio_text()} {c.chg():+.2f}%"
        if len(rec["near_best"]) > 1:
            s += f"; shown near the best: {same}"
        if "to_base" in rec:
            s += f"; vs order {rec['base']} {rec['to_base'].text()}"
        else:
            s += f"; it is the baseline, order {rec['base']}"
        if "to_default" in rec:
            s += f"; vs default order {self.default} {rec['to_default'].text()}"
        elif o == self.default:
            s += "; it is the default order"
        else:
            s += f"; default order {self.default} not swept"
        pages = self.rec_pages(rec)
        if pages:
            s += f"; pages mapped: {pages}"
        return s

    def render_margins(self, margins, out):
        u = self.u
        out += para(f"Margins per fault: where the faults are the lever (the "
                    f"minor faults vary with the order), what +-"
                    f"{MIN_EFFECT:.0%} of the figure is per minor fault "
                    f"(figure x {MIN_EFFECT:.0%} / minor faults, at the "
                    f"default order {self.default}, else the baseline), beside"
                    f" the cost model's fitted cost of a fault (b, {u['raw']} "
                    "per fault; the workload's own fit and the pooled one): "
                    f"an equivalence within +-{MIN_EFFECT:.0%} is one within "
                    "that many per fault.")
        for m in margins:
            b = "; ".join(f"{name} b = {v[0]:,.0f} [{v[1]:,.0f}, {v[2]:,.0f}]"
                          f" ({m['per_fault'] / v[0]:.0%} of it)"
                          for name, v in (("own", m["b"]), ("pooled", m["b_pooled"]))
                          if v and v[0] > 0)
            out.append(f"  {m['workload']:26} {who(m['workload'], m['threads']):9}:"
                       f" +-{MIN_EFFECT:.0%} = {m['per_fault']:,.0f} {u['raw']} "
                       f"per fault at order {m['order']} ({fmt_fig(m['figure'] * u['scale'])}"
                       f" {u['unit']} x {MIN_EFFECT:.0%} / {fmt_int(m['minflt'])} "
                       f"minor faults)" + (f"; {b}" if b else "; no fitted b"))
        out.append("")

    def rec_pages(self, rec, short=False):
        """Pages mapped at the recommended order vs the best and the
        default one, per thread count: Rss, or where there is none (exec),
        fa-mapped; once if every thread count has the same.  short: the
        numbers only, rec/best/default, for the summary."""
        w, bits = rec["workload"], {}
        # The orders in the order rec, best, default; one that is two of
        # them is named once.
        named = {}
        for name, o in (("rec", rec["recommended"]), ("best", rec["best"]),
                        ("default", self.default)):
            named.setdefault(o, []).append(name)
        if len(named) < 2:
            return ""
        for t, by in rec["pages"].items():
            if any(o not in by for o in named):
                continue	# the default order was not swept
            vals = [by[o] for o in named]
            if any(v[0] for v in vals):
                kind, i = "Rss", 0
            elif all(v[1] >= 0 for v in vals):
                kind, i = "fa-mapped", 1
            else:
                continue
            if short:
                bits[t] = f"{kind} " + "/".join(
                    fmt_int(by[o][i]) for o in (rec["recommended"],
                                                rec["best"], self.default))
            else:
                bits[t] = f"{kind} " + " vs ".join(
                    f"{fmt_int(by[o][i])} at {o} ({'/'.join(n)})"
                    for o, n in named.items())
        if len(set(bits.values())) == 1:
            return bits.popitem()[1]
        return ", ".join(f"{b} ({who(w, t)})" for t, b in bits.items())

    def control_line(self, ctl):
        if ctl is None:
            return f"no {CONTROL} runs: no control"
        if ctl.get("verdict") is None:
            return f"{CONTROL}: only one order: no control"
        t, o, c, e = ctl["worst"]
        worst = (f"{c.ratio_text()} ({c.chg():+.2f}%; {AB_CONF:.0%} "
                 f"[{fmt_ratio(e.lo)}, {fmt_ratio(e.hi)}]) at order {o}, "
                 f"{who(CONTROL, t)}")
        n, m = len(ctl["cmps"]), f"+-{AB_MARGIN:.0%}"
        what = (f"{n} orders tested against order {self.orders[0]} (per thread "
                f"count, in the Holm family), {ctl['inside']} equivalent within {m}")
        if ctl["verdict"] == "holds":
            return f"{CONTROL}: control holds: {what}, all of them (largest: {worst})"
        if ctl["verdict"] == "moves":
            return (f"{CONTROL}: control MOVES: {what}; {ctl['rejected']} "
                    f"Holm-adjusted rejection(s), {ctl['outside']} ratio(s) "
                    f"shown outside {m} (largest: {worst}); every verdict is flagged "
                    f"'{FLAG}'")
        # Neither: intervals too wide to show it holds, none clear of it.
        return (f"{CONTROL}: control inconclusive: {what}, no rejection and no "
                f"ratio shown outside {m} (too few boots to show it holds; largest: "
                f"{worst})")

    def moved_line(self, ctl):
        """The header's line when the control moved."""
        t, o, c, _ = ctl["worst"]
        return (f"CONTROL MOVED: {CONTROL}, which no order touches, moves by "
                f"{c.chg():+.2f}% {c.ci()} at order {o} ({who(CONTROL, t)}) "
                f"against order {self.orders[0]}: {ctl['rejected']} "
                f"Holm-adjusted rejection(s) and {ctl['outside']} ratio(s) "
                f"shown outside +-{AB_MARGIN:.0%} of {len(ctl['cmps'])}.  Something "
                f"besides the order moves the figure (the boot, the host, the "
                f"order of runs), so every verdict below (marks, best, "
                f"recommended, A/B, module cost) is flagged '{FLAG}'.  The run "
                "is not failed: its data stay for a reader to judge, and a "
                "rerun is the remedy.")

    def render_mod(self, mods, out):
        boots = sorted({r["boot"] for r in self.modruns})
        out += para(f"Module cost at order {mods[0]['order']}: "
                    f"{self.u['name']} with mod_faultaround loaded / not "
                    f"loaded, paired by boot over {len(boots)} boot(s) (the "
                    "setups ran interleaved in them): the ratio with its "
                    f"{CONF:.0%} interval and %chg, marked as the orders; its "
                    f"{AB_CONF:.0%} interval from the same t, and the "
                    f"verdict: 'equivalent within +-{AB_MARGIN:.0%}' when "
                    f"that lies in [{1 - AB_MARGIN:.2f}, {1 + AB_MARGIN:.2f}], "
                    "'differs' when marked '*' (after Holm), "
                    f"'inconclusive, costs at most +{AB_MARGIN:.0%}' when "
                    "only its top is inside, 'inconclusive' otherwise.")
        if any(m["setup"] == "mod-adaptive" for m in mods):
            out += para("mod-adaptive is the module's adaptive policy on, "
                        "no override: it keeps state per mapping and picks "
                        "each one's window (seq and rand: one mapping, "
                        "each thread reading its share; vmas: a new "
                        "mapping per pair of pages), so "
                        "its ratio is the policy's bookkeeping and its "
                        "windows together, and its minor faults (median, "
                        "against not loaded's) show the windows."
                        + ("  Under -icount the vCPUs run in turn: "
                           "atomics count as instructions, cache-line "
                           "transfers do not, so N threads show the "
                           "decisions, not contention"
                           if self.u["field"] == "icount_insn" else
                           "  N threads run on the guest's vCPUs")
                        + " (make bench NATIVE=1 cannot load the module; "
                        "hardware is untested).")
        for m in mods:
            e = m["tost"]
            flt = (f"; minor faults {m['minflt'][0]:,.0f} (not loaded "
                   f"{m['minflt'][1]:,.0f})"
                   if m["setup"] == "mod-adaptive" else "")
            out.append(f"  {m['workload']:15} {who(m['workload'], m['threads']):9}, "
                       f"{m['name']:13}: {m['boot'].text()}; {AB_CONF:.0%} "
                       f"[{fmt_ratio(e.lo)}, {fmt_ratio(e.hi)}]: {m['verdict']}"
                       + flt)
        out.append("")

    def render_ab(self, abl, out):
        other = self.sets[1][0]
        out += para(f"A/B: {self.label}/{other} of the figure "
                    f"({self.u['name']}), per workload, thread count and "
                    "order both ran.")
        out += para(f"Welch's t on the logs of the boots' medians (the boot "
                    f"is the unit: the kernels ran in different boots): the "
                    f"ratio with its {CONF:.0%} interval and %chg, marked as "
                    f"the orders; its {AB_CONF:.0%} interval from the same t, "
                    f"and the verdict: 'equivalent within +-{AB_MARGIN:.0%}' "
                    f"when that lies in [{1 - AB_MARGIN:.2f}, "
                    f"{1 + AB_MARGIN:.2f}] (two one-sided tests at "
                    f"{(1 - AB_CONF) / 2:.0%}), 'differs' when marked '*', "
                    "'inconclusive' when neither.  per boot: the ratio of "
                    "each pair of alternating boots' medians (descriptive).",
                    "  ")
        for a in abl:
            e = a["tost"]
            out.append(f"  {a['workload']:15} {who(a['workload'], a['threads']):9}"
                       f" order {a['order']}: {a['boot'].text()}; "
                       f"{AB_CONF:.0%} [{fmt_ratio(e.lo)}, {fmt_ratio(e.hi)}]: "
                       f"{a['verdict']}; boots {a['nboots'][0]}/{a['nboots'][1]}, "
                       f"runs {a['n'][0]}/{a['n'][1]}; per boot "
                       f"{' '.join(f'{x:.4f}' for x in a['per_boot'])}")
        out.append("")

    def render_calib(self, cal):
        """The A/A's header lines: each verdict type's false positives."""
        def r(x):
            if not x["n"]:
                return "none tested"
            said = (f"{x['k']} of {x['n']}, {x['rate']:.1%} [{x['lo']:.1%}, "
                    f"{x['hi']:.1%}] (Clopper-Pearson 95%) against nominal "
                    f"{x['nominal']:.0%}: {x['status']}")
            if x["status"] == "EXCEEDS":
                said += (" nominal: this method must be fixed before any of "
                         "its verdicts is quoted")
            elif x["status"] != "at or below":
                said += (": not to be quoted until a larger A/A shows it at "
                         "or below nominal")
            return said

        other = self.sets[1][0]
        out = para(f"A/A calibration: '{self.label}' and '{other}' are the "
                   "same kernel, booted alternately, so every difference "
                   "between them is noise and every verdict of a difference "
                   "a false positive.  Rows share boots (not independent): the "
                   "intervals are a guide.")
        out += para(f"A/B rows, Welch p < {ALPHA} unadjusted (the test "
                    f"itself): {r(cal['ab_unadjusted'])}", "  ")
        k, n = cal["ab_marked"]["k"], cal["ab_marked"]["n"]
        out += para(f"A/B rows marked '*' / 'differs' (Holm over the report,"
                    f" at least {MIN_EFFECT:.0%}): {k} of {n}"
                    + ("" if not k else "; any is a family-wise false "
                       f"positive, which Holm keeps below {ALPHA:.0%} a "
                       "report"), "  ")
        out += para(f"A/B rows equivalent within +-{AB_MARGIN:.0%} (TOST, "
                    f"correct here): {cal['ab_equivalent']} of "
                    f"{cal['ab_rows']}; inconclusive {cal['ab_inconclusive']};"
                    f" wholly outside +-{AB_MARGIN:.0%} (false) "
                    f"{cal['ab_outside']}", "  ")
        out += para(f"Within a kernel, where no order applies (anon, @huge), "
                    f"every order against order {self.orders[0]}, both "
                    f"labels, paired p < {ALPHA} unadjusted: "
                    f"{r(cal['paired_unadjusted'])}; equivalent within "
                    f"+-{AB_MARGIN:.0%}: {cal['paired_equivalent']} of "
                    f"{cal['paired_rows']}", "  ")
        need = [x for x in cal.get("boots_needed", ()) if x[0]]
        if need:
            ns = sorted(x[0] for x in need)
            worst = max(need, key=lambda x: x[0])
            nb = len(self.st.boots.get(self.label, []))
            out += para(f"Sample size from this A/A (fixed before an A/B, no "
                        f"reruns until it passes): boots a side for an A/B's "
                        f"TOST within +-{AB_MARGIN:.0%} to reach 80% power, "
                        f"from each row's boot-to-boot sd: median "
                        f"{ns[len(ns) // 2]}, at most {worst[0]} "
                        f"({worst[2]}, sd {worst[1]:.2%}); this run had {nb}"
                        + ("; rows needing more than 1000: "
                           + str(len(cal["boots_needed"]) - len(need))
                           if len(need) < len(cal["boots_needed"]) else ""),
                        "  ")
        for what, rows in cal["split"].items():
            if not rows:
                out += para(f"Split halves, {what} order: none (fewer than 2 "
                            "orders)", "  ")
                continue
            same = sum(x["A"] == x["B"] for x in rows)
            both = [x for x in rows if x["stable"] == (True, True)]
            bad = [x for x in both if x["A"] != x["B"]]
            differ = ", ".join(f"{x['workload']} {x['A']}/{x['B']}"
                               + ("" if x["stable"] == (True, True) else
                                  " (marked unstable)" if False in x["stable"]
                                  else " (not assessed)")
                               for x in rows if x["A"] != x["B"])
            out += para(f"Split halves, {what} order ({self.label}'s own "
                        f"against {other}'s): the same for {same} of "
                        f"{len(rows)} workloads"
                        + (f" (differ: {differ})" if differ else "")
                        + f"; of the {len(both)} marked stable in both, "
                        f"{len(bad)} differ"
                        + (": the stability mark FAILED there" if bad else ""),
                        "  ")
        return out

    def render_adaptive(self, adapt, out):
        """The summary's first section: the adaptive policy, a line per
        workload and thread count (mixed: and one of its ratios to every
        fixed order)."""
        u, names = self.u, {base_name(a["workload"]) for a in adapt}
        starts = ", ".join(map(str, sorted({a["from"] for a in adapt})))
        text = (
            f"Adaptive: mod_faultaround's adaptive policy against the fixed "
            f"orders, per workload and thread count.  ratio = adaptive / "
            f"other of {u['name']} ('{u['unit']}'), paired by boot as in the "
            f"header, below 1 when adaptive is better, with its {CONF:.0%} "
            f"interval; %chg = "
            f"(new - baseline) / baseline, adaptive the new.  best = the fixed "
            f"order with the smallest boot-level figure at that thread count: 'within "
            f"{ADAPT_BEST:.0%} of the best' when the interval's top is <= "
            f"{1 + ADAPT_BEST:g}, 'NOT within {ADAPT_BEST:.0%}' when its bottom "
            f"is above, 'inconclusive at {ADAPT_BEST:.0%}' otherwise (no mark: "
            f"the best is picked from the same runs).  default = order "
            f"{starts}, where the policy starts (the kernel's default), marked "
            f"as in the header.  pages/read = pages mapped per distinct page "
            f"read where the runs count those, else pages/touched, per page "
            f"touched (repeats count; exec, dynexec: per program start): Rss,"
            f" or where there is none, faults + fa-mapped (the median over "
            f"the runs of minor and major faults and fa-mapped pages: each "
            f"fault's page and those mapped around it); unread = pages mapped"
            f" but never read, where measured")
        text += (f"; sparse's goal is at most {SPARSE_GOAL:g}." if "sparse" in names
                 else ".")
        if "mixed" in names:
            text += ("  mixed beats every fixed order only if every ratio's "
                     "interval lies below 1; margin = adaptive / best - 1, "
                     "in %, with its interval.")
        if any("equiv" in a for a in adapt):
            m = ADAPT_MARGIN
            text += (f"  Where no order applies (anon, @huge): equivalent to "
                     f"off within +-{m:.0%} when the {AB_CONF:.0%} interval "
                     f"of adaptive / default, from the same t, as for the "
                     f"anon control (two one-sided tests at "
                     f"{(1 - AB_CONF) / 2:.0%}), lies in [{1 - m:g}, {1 + m:g}],"
                     f" different when wholly outside it, inconclusive "
                     f"otherwise.")
        out += para(text)
        for a in adapt:
            w, b = a["workload"], a["to_best"]
            s = (f"  {w:26} {who(w, a['threads']):9}: vs best order {a['best']} "
                 f"{b.ratio_text()} {b.chg():+.2f}%, {self.flag(a['best_verdict'])}; ")
            s += (f"vs default {a['from']} {a['to_default'].text()}"
                  if "to_default" in a else f"default {a['from']} not swept")
            if "per_page" in a:
                s += (f"; pages/{a['per']} {fmt_ratio(a['per_page'])} "
                      f"({a['pages_kind']})")
            if "unread" in a:
                s += f", unread {fmt_int(a['unread'])}"
            if "goal" in a:
                s += (f", <= {SPARSE_GOAL:g}: meets the goal" if a["goal"] else
                      f", above {SPARSE_GOAL:g}: MISSES the goal")
            if "beats_all" in a:
                lost = [o for o, c in a["to_each"].items() if not c.hi < 1]
                s += ("; beats every fixed order" if a["beats_all"] else
                      "; does NOT beat every fixed order (interval not below 1"
                      f" against order{'s' * (len(lost) > 1)} "
                      f"{', '.join(map(str, lost))})")
                s += (f", margin vs best order {a['best']} {b.chg():+.2f}% "
                      f"[{(b.lo - 1) * 100:+.2f}%, {(b.hi - 1) * 100:+.2f}%]")
            if "equiv" in a:
                e = a["equiv"]
                s += (f"; vs default {a['from']} at {AB_CONF:.0%} "
                      f"[{fmt_ratio(e.lo)}, {fmt_ratio(e.hi)}]: "
                      f"{self.flag(a['equiv_verdict'])}")
            out.append(s)
            if "to_each" in a:
                out.append("    adaptive / order: " + ", ".join(
                    f"{o}: {c.ratio_text()}" for o, c in a["to_each"].items()))

    def render_summary(self, recs, fits, pooled, ctl, cross, mods, abl,
                       adapt, margins=()):
        u, out = self.u, ["Summary", "======="]
        if adapt:
            self.render_adaptive(adapt, out)
        if ctl and ctl.get("verdict") == "moves":
            out += para(self.moved_line(ctl))
        out += para(f"Figure: {u['name']}, printed as '{u['unit']}'; ratios "
                    f"with unadjusted {CONF:.0%} t intervals, boots as the "
                    "replicate (paired by boot; A/B: Welch's on the boots' "
                    "medians); marks from the same t, Holm-adjusted, as in "
                    "the header.")
        if len(self.orders) < 2:
            out.append(f"Orders: only order {self.orders[0]} was run: no "
                       "recommendation.")
        if recs:
            out += para(f"Orders: best = the smallest figure (boot-level "
                        f"geometric mean over the thread counts); rec = the "
                        f"smallest order whose ratio to the best has its "
                        f"{CONF:.0%} interval below {1 + MIN_EFFECT:g}; 'N "
                        f"(or M)': UNSTABLE, leaving one boot out gives M; "
                        f"'N (?)': stability not assessed (fewer than 3 "
                        f"boots); pages mapped at rec/best/default.  No "
                        f"memory limit here: what a window costs under "
                        f"reclaim is make bench PRESSURE=1's.")
            d = self.default

            def pick(rec, what, key):
                s = self.stab(rec, what, short=True)
                return (f"{rec[key]}{Cmp.flag}" + (" (?)" if s == "?" else
                                                   f" (or {s[1:]})" if s else ""))
            out.append(f"  {'workload':26}{'best':>12}{'rec':>12}  "
                       f"{'rec / order ' + str(self.orders[0]):36}"
                       f"{'rec / default ' + str(d):36}"
                       f"pages mapped, rec/best/default {d}")
            for rec in recs:
                w = rec["workload"]
                if "note" in rec:
                    out.append(f"  {w:26}{rec['note']}")
                    continue

                def cell(key):
                    c = rec.get(key)
                    return (f"{c.ratio_text()} {c.chg():+.2f}% {c.mark()}"
                            if c else "1 (same order)" if key == "to_base" or
                            rec["recommended"] == d else "not swept")
                out.append(f"  {w:26}{pick(rec, 'best', 'best'):>12}"
                           f"{pick(rec, 'rec', 'recommended'):>12}  "
                           f"{cell('to_base'):36}{cell('to_default'):36}"
                           f"{self.rec_pages(rec, short=True) or '-'}")
        out.append("Control: " + self.control_line(ctl))
        shown = [r for r in pooled if "b" in r or "c" in r]
        if not shown:
            shown = [r for r in fits if "b" in r and "c" in r]
        fitted = any(k in r for r in fits + pooled for k in r
                     if k in ("b", "c") or k.startswith("b "))
        out.append("Cost model:" if shown else
                   "Cost model: no fit separates b and c (see above)" if fitted
                   else "Cost model: no fit (see above)")
        for res in shown:
            extra = (self.pooled_notes(res, fits, True)
                     if any(res is p for p in pooled) else [])
            out.append(f"  {res['what']}: {cost_text(res, u)}"
                       + "".join(f"; {e}" for e in extra))
        if margins:
            out += para(f"Margins per fault (+-{MIN_EFFECT:.0%} of the figure "
                        "/ minor faults; the fitted b): " + "; ".join(
                            f"{m['workload']}/{m['threads']} "
                            f"{m['per_fault']:,.0f}" + (
                                f" ({m['per_fault'] / (m['b'] or m['b_pooled'])[0]:.0%} of b)"
                                if (m["b"] or m["b_pooled"]) and
                                (m["b"] or m["b_pooled"])[0] > 0 else "")
                            for m in margins) + f" {u['raw']} per fault")
        out.append(f"{self.cross}: {cross}")
        if mods:
            out.append(f"Module cost at order {mods[0]['order']} (paired by "
                       f"boot, TOST {AB_CONF:.0%} verdicts, workload/threads):")
            for setup, _ in MOD_SETUPS:
                these = [m for m in mods if m["setup"] == setup]
                if these:
                    out.append(f"  {setup}: " + self.verdict_groups(these))
        if abl:
            out.append(f"A/B {self.label}/{self.sets[1][0]} (Welch on the "
                       f"boots, TOST {AB_CONF:.0%} verdicts, "
                       "workload/threads@order):")
            out.append("  " + self.verdict_groups(abl))
        return out

    @staticmethod
    def verdict_groups(items, most=6):
        """Items by verdict: the commonest one as a count and the range of
        its ratios, the others item by item (at most `most` each)."""
        groups = defaultdict(list)
        orders = {m["order"] for m in items}
        for m in items:
            est = m["boot"].est
            name = f"{m['workload']}/{m['threads']}"
            if len(orders) > 1:
                name += f"@{m['order']}"
            groups[m["verdict"]].append((name, est))
        ranked = sorted(groups.items(), key=lambda g: -len(g[1]))
        said = []
        for i, (v, g) in enumerate(ranked):
            ests = [e for _, e in g]
            if i == 0:
                said.append(f"{v}: {len(g)} of {len(items)} (ratios "
                            f"{min(ests):.4f} to {max(ests):.4f})")
                continue
            names = ", ".join(f"{n} {e:.4f}" for n, e in g[:most])
            more = f", and {len(g) - most} more" if len(g) > most else ""
            said.append(f"{v}: {len(g)}: {names}{more}")
        return "; ".join(said)

    # -- plots --

    def plot(self, w, tables, outdir):
        dat = os.path.join(outdir, f"{w}.dat")
        sc = self.u["scale"]
        ts = self.threads[w]
        # The adaptive policy's cells, (thread index, thread count, cell):
        # a big point after the largest order (two along, for its tic's
        # label), and a line at its level across the orders, in its thread
        # count's colour (png, libgd, draws no dashes).
        marked = [(i, t, tables[(w, t)]["cells"][ADAPTIVE])
                  for i, t in enumerate(ts) if ADAPTIVE in tables[(w, t)]["cells"]]
        xa = self.orders[-1] + 2

        def line(x, c):
            fa = c["fa_mapped"] if c["counters"] else "NaN"
            return (f"{x} {c['minflt']} {c['mapped']} {c['ns'] * sc} "
                    f"{c['ns_ci'][0] * sc} {c['ns_ci'][1] * sc} {fa}\n")

        with open(dat, "w") as f:
            for t in ts:
                tb = tables[(w, t)]
                for o in tb["orders"]:
                    f.write(line(o, tb["cells"][o]))
                f.write("\n\n")
            for _, _, c in marked:	# indices len(ts) on
                f.write(line(xa, c) + "\n\n")
        png = os.path.join(outdir, f"{w}.png")
        cells = [c for t in ts for c in tables[(w, t)]["cells"].values()]
        logy = all(c["minflt"] > 0 for c in cells)
        rss = any(c["mapped"] for c in cells)
        fa = all(c["counters"] for c in cells)

        def curves(using, style, what=""):
            return ", ".join(f"'{dat}' index {i} using {using} with {style} "
                             f"title '{what}{who(w, t)}'" for i, t in enumerate(ts))

        def policy(using, style, field, what="", lt=0):
            """The adaptive cells' points, and lines at their level, for
            the curves that are the plot's (lt + 1)th to (lt + len(ts))th:
            in their colours."""
            return "".join(
                f", '{dat}' index {len(ts) + j} using {using} with {style} "
                f"pt 7 ps 2 lt {lt + i + 1} title '{ADAPTIVE}, {what}{who(w, t)}'"
                f", {c[field] * (sc if field == 'ns' else 1)} with lines "
                f"lt {lt + i + 1} notitle" for j, (i, t, c) in enumerate(marked))

        # exec has no Rss (its children's mappings are gone): fa-mapped.
        # shown: (columns, cell field, title) of each kind of pages.
        shown = ([("1:3", "mapped", "Rss, ")] if rss or not fa else []) + \
            ([("1:7", "fa_mapped", "fa-mapped, ")] if fa else [])
        pages = ", ".join(curves(using, "linespoints", what)
                          for using, _, what in shown)
        pages += "".join(policy(using, "points", field, what, k * len(ts))
                         for k, (using, field, what) in enumerate(shown))

        pages_title = ("pages mapped (Rss)" if rss and not fa else
                       "pages mapped (Rss and fa-mapped)" if rss else
                       "pages mapped ahead (fa-mapped)")
        nb = len(self.st.boots[self.label])
        title = (f"fault-around: {w} (points: medians over all runs of {nb} "
                 f"boot(s); error bars: {CONF:.0%} t interval of the "
                 f"geometric mean of the boots' medians)")
        xtics = "set xtics 1"
        if marked:
            title += (f"\\n{ADAPTIVE}: the adaptive policy (from order "
                      f"{self.policy_from[(w, marked[0][1])]}), "
                      "the big point after the largest order and the "
                      "horizontal line at its level")
            xtics = "set xtics (" + ", ".join(
                [f'"{o}" {o}' for o in range(self.orders[0], xa - 1)]
                + [f'"{ADAPTIVE}" {xa}']) + ")"
        gp = f"""
set terminal png size 1500,{560 if marked else 520}
set output '{png}'
set multiplot layout 1,3 title "{title}" noenhanced
set offsets 0.3, 0.3, 0, 0
set xlabel 'fault-around order'
{xtics}
set key below
{'set logscale y' if logy else ''}
set title 'minor faults{' (log scale)' if logy else ''}'
set ylabel 'minor faults'
plot {curves('1:2', 'linespoints')}{policy('1:2', 'points', 'minflt')}
unset logscale y
set title '{pages_title}'
set ylabel 'pages'
plot {pages}
set title '{self.u['axis']}, median'
set ylabel '{self.u['axis']}'
plot {curves('1:4:5:6', 'yerrorlines')}{policy('1:4:5:6', 'yerrorbars', 'ns')}
unset multiplot
"""
        return self.gnuplot(gp, png)

    def plot_ab(self, abl, outdir):
        dat = os.path.join(outdir, "ab.dat")
        with open(dat, "w") as f:
            for a in abl:
                c, e = a["boot"], a["tost"]
                f.write(f"\"{a['workload']}/{a['threads']}@{a['order']}\" {c.est} "
                        f"{e.lo} {e.hi} {c.est} {c.lo} {c.hi}\n".replace("nan", "NaN"))
        png = os.path.join(outdir, "ab.png")
        other = self.sets[1][0]
        # Show the margin's lines whatever the intervals.
        ends = [x for a in abl for x in (a["tost"].lo, a["tost"].hi,
                                         a["boot"].lo, a["boot"].hi)
                if x == x]
        lo = min(ends + [1 - 1.5 * AB_MARGIN])
        hi = max(ends + [1 + 1.5 * AB_MARGIN])
        title = (f"A/B {self.label}/{other} of {self.u['name']}, per "
                 "workload/threads@order\\nerror bars: Welch t on the boots' "
                 f"median logs, {AB_CONF:.0%} (the equivalence verdict's) and"
                 f"\\n{CONF:.0%} (the mark's, unadjusted); gray lines: 1 +- "
                 f"{AB_MARGIN:.0%}")
        hl, b95 = f"Welch, boots ({AB_CONF:.0%})", f"Welch, boots ({CONF:.0%})"
        gp = f"""
set terminal png size {max(900, 60 * len(abl) + 200)},550
set output '{png}'
set title "{title}" noenhanced
set yrange [{lo - 0.1 * (hi - lo)}:{hi + 0.1 * (hi - lo)}]
set ylabel 'ratio {self.label}/{other}'
set xtics rotate by -45 noenhanced
set offsets 0.5, 0.5, 0, 0
set key outside bottom center horizontal
plot '{dat}' using ($0-0.12):2:3:4:xtic(1) with yerrorbars pt 7 title '{hl}', \\
     '{dat}' using ($0+0.12):5:6:7 with yerrorbars pt 5 title '{b95}', \\
     1 with lines lc 'black' notitle, \\
     {1 - AB_MARGIN} with lines dt 2 lc 'gray' title '1 +- {AB_MARGIN:.0%}', \\
     {1 + AB_MARGIN} with lines dt 2 lc 'gray' notitle
"""
        return self.gnuplot(gp, png)

    @staticmethod
    def gnuplot(script, png):
        try:
            subprocess.run(["gnuplot"], input=script, text=True, check=True,
                           stderr=subprocess.DEVNULL)
        except (OSError, subprocess.CalledProcessError) as e:
            print(f"bench-report: no plot {png}: {e}", file=sys.stderr)
            return None
        return png


def out_row(r, u, timed):
    """A run as results.csv and results.json have it: the figure's
    columns renamed to their unit, fixed/teardown absent (None) where the
    sweep did not record them."""
    d = {"label": r["label"], "boot": r["boot"]}
    for k, v in r.items():
        if k in TIME_FIELDS:
            v = v if k == "ns" or timed[r["label"]] else None
            d[u["fields"][k]] = v
        else:
            d[k] = v
    return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--meta", action="append", default=[])
    ap.add_argument("--aa", action="store_true",
                    help="the two labels are one kernel (make bench AA=1)")
    ap.add_argument("runs", nargs="+")
    args = ap.parse_args()

    sets = []
    for spec in args.runs:
        label, _, path = spec.partition("=")
        if not path:
            sys.exit(f"bench-report: '{spec}' is not LABEL=RUNS.csv[,...]")
        rows, timed = load(label, path)
        sets.append((label, rows, timed))
    if any("=" not in m for m in args.meta):
        sys.exit("bench-report: --meta takes KEY=VALUE")
    meta = dict(m.split("=", 1) for m in args.meta)
    if args.aa and len(sets) != 2:
        sys.exit("bench-report: --aa takes two labels, A=... B=...")
    u = units(meta.get("clock", "native"), meta.get("qemu"))
    rep = Report(sets, meta, u)
    rep.aa = args.aa
    if not rep.sweep:
        sys.exit("bench-report: no runs of setup 'sweep'")

    tables = {(w, t): rep.table(w, t) for w in rep.workloads
              for t in rep.threads[w]}
    fits, pooled = rep.costs()
    recs = [rep.recommend(w) for w in rep.workloads if w != CONTROL]
    ctl = rep.control()
    mods = rep.modcost()
    abl = rep.ab() if len(sets) > 1 else []
    adapt = rep.adaptive(tables)
    allrows = [r for _, rs, _ in sets for r in rs]
    done, bad = crosscheck([r for r in allrows if r["setup"] == "sweep"])
    margins = rep.margins(tables, fits, pooled)
    ncmp = rep.family.holm()
    # After Holm: the control's verdict (which may flag every verdict),
    # then the verdicts' words.
    rep.control_verdict(ctl)
    for x in mods + abl:
        x["verdict"] = verdict(x)
    calib = rep.calibrate(abl, tables) if args.aa else None

    out = rep.header(ncmp, ctl, calib)
    for w in rep.workloads:
        for t in rep.threads[w]:
            rep.render_table(tables[(w, t)], out)
    ptabs = [rep.perf_table(tables[(w, t)]) for w in rep.workloads
             for t in rep.threads[w]] if rep.perf["counted"] else []
    rep.render_perf(tables, ptabs, out)
    rep.render_costs(fits, pooled, out)
    if margins:
        rep.render_margins(margins, out)
    if len(rep.orders) > 1:
        rep.render_recs(recs, out)
    else:
        out += [f"Recommendations: none, only order {rep.orders[0]} was run.", ""]
    out += ["Control: " + rep.control_line(ctl), ""]
    skipped = sorted({r["workload"] for r in rep.sweep} -
                     {r["workload"] for r in done})
    if not done:
        cross = ("not run (no fault_around counters in /proc/vmstat, or no "
                 "run of seq, rand, sparse, mmap-pread-*, exec, dynexec)")
    elif bad:
        cross = f"{len(bad)} of {len(done):,} runs DISAGREE"
    else:
        cross = (f"all {len(done):,} runs of "
                 f"{', '.join(dict.fromkeys(r['workload'] for r in done))} agree")
    out.append(f"{rep.cross}: {cross}"
               + (f" (not checked: {', '.join(skipped)})" if skipped else "")
               + (":" if bad else "."))
    out += ["  " + b for b in bad]
    out.append("")
    if mods:
        rep.render_mod(mods, out)
    if len(sets) > 1:
        if abl:
            rep.render_ab(abl, out)
        else:
            out += ["A/B: no workload, thread count and order that both "
                    "kernels ran.", ""]
    out += rep.render_summary(recs if len(rep.orders) > 1 else [], fits,
                              pooled, ctl, cross, mods, abl, adapt, margins)

    os.makedirs(args.out, exist_ok=True)
    timed = {label: t for label, _, t in sets}
    res_rows = [out_row(r, u, timed) for r in allrows]
    first = ["label", "boot"]
    fields = first + [k for k in res_rows[0] if k not in first]
    for r in res_rows:	# columns only some CSVs have
        fields += [k for k in r if k not in fields]
    with open(os.path.join(args.out, "results.csv"), "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=fields, restval="")
        wr.writeheader()
        wr.writerows({k: ("" if v is None else v) for k, v in r.items()}
                     for r in res_rows)
    pngs = [rep.plot(w, tables, args.out) for w in rep.workloads]
    if abl:
        pngs.append(rep.plot_ab(abl, args.out))
    summary = machine_summary(rep, recs, fits, pooled, ctl, done, bad, mods,
                              abl, adapt, ptabs, margins, calib)
    units_json = {"clock": u["clock"], "figure": u["name"],
                  "printed_as": u["unit"], "printed_scale": u["scale"],
                  "cost_model_unit": u["raw"], "note": u["note"],
                  "fields": {v: f"{u['raw_name']}: " + {
                      "ns": "the timed region (work and teardown)",
                      "fixed_ns": "creating and joining the threads/tasks, "
                      "outside the timed region",
                      "teardown_ns": "munmap of the mapping(s) after the "
                      "work, inside the timed region"}[k]
                      for k, v in u["fields"].items()}}
    for e in rep.perf["events"]:
        units_json["fields"][PERF + e] = (
            f"{e} (perf stat, whole process): " +
            ("ns of CPU time (perf's msec, to 10 us)" if e in PERF_CLOCKS
             else "count") + f" over {PERF_COVERS}; else perf's word "
            f"({NOT_SUPPORTED}: this machine's PMU does not expose it)")
    write_json(os.path.join(args.out, "results.json"), {
        "environment": meta, "units": units_json, "runs": res_rows,
        "report": out, "plots": [p for p in pngs if p], "summary": summary})
    print("\n".join(out))
    if bad:
        sys.exit("bench-report: the fault-around counters disagree with Rss, "
                 "or exec/dynexec/mixed mapped nothing ahead")


def write_json(path, doc):
    """One run or report line per line: readable, and much faster than
    json's indent, which falls back to its pure Python encoder."""
    with open(path, "w") as f:
        f.write("{")
        for i, (k, v) in enumerate(doc.items()):
            f.write(",\n" if i else "\n")
            if isinstance(v, list):
                body = ",\n  ".join(json.dumps(x, default=jsonable) for x in v)
                f.write(f"{json.dumps(k)}: [\n  {body}\n]" if v else
                        f"{json.dumps(k)}: []")
            else:
                f.write(f"{json.dumps(k)}: "
                        + json.dumps(v, indent=1, default=jsonable))
        f.write("\n}\n")


def jsonable(x):
    if isinstance(x, Cmp):
        return x.json()
    if isinstance(x, np.generic):
        return x.item()
    raise TypeError(type(x))


def machine_summary(rep, recs, fits, pooled, ctl, done, bad, mods, abl,
                    adapt, ptabs, margins=(), calib=None):
    """The summary's numbers, for scripts."""
    def nan(x):
        return None if x is None or x != x else x

    def tost(e):
        return {"conf": AB_CONF, "margin": e.margin, "lo": nan(e.lo),
                "hi": nan(e.hi), "p": nan(e.p), "side": e.side}

    out = {"statistics": {"estimator": "scripts/benchstats.py: boots as the "
                          "replicate (a boot's median per cell); paired t on "
                          "per-boot log ratios within a kernel, Welch t on the "
                          "boots' median logs between two",
                          "conf": CONF, "intervals": "unadjusted t",
                          "replicate": rep.st.unit,
                          "comparisons_holm": rep.family.m,
                          "comparisons_without_p": len(rep.family.cmps)
                          - rep.family.m,
                          "alpha": ALPHA, "min_effect": MIN_EFFECT,
                          "equivalence": {"margin": AB_MARGIN, "conf": AB_CONF}},
           "default_order": rep.default, "baseline_order": rep.orders[0],
           "control_moved": Cmp.flag == FLAG,
           "recommendation": {}, "cost_model": [], "ab": [], "module_cost": [],
           "margins_per_fault": [dict(m) for m in margins]}
    for rec in recs:
        r = {k: v for k, v in rec.items() if k != "pages"}
        if "pages" in rec:
            r["pages"] = {str(t): {str(o): {"rss": nan(v[0]), "fa_mapped": nan(v[1]),
                                            "distinct": nan(v[2]), "unread": nan(v[3])}
                                   for o, v in by.items()}
                          for t, by in rec["pages"].items()}
        out["recommendation"][rec["workload"]] = r
    for res in fits + pooled:
        out["cost_model"].append({k: (list(v) if isinstance(v, tuple) else v)
                                  for k, v in res.items() if k != "what"}
                                 | {"unit": rep.u["raw"]})
    if ctl is not None:
        out["control"] = {"workload": CONTROL, "holds": ctl.get("holds"),
                          "verdict": ctl.get("verdict"),
                          "tested": len(ctl["cmps"]),
                          "equivalent": ctl.get("inside"),
                          "holm_rejections": ctl.get("rejected"),
                          "outside_margin": ctl.get("outside"),
                          "margin": AB_MARGIN, "conf": AB_CONF}
        if ctl.get("worst"):
            t, o, c, e = ctl["worst"]
            out["control"]["largest"] = ({"threads": t, "order": o} | c.json()
                                         | {"tost": tost(e)})
    out["crosscheck"] = {"checked": len(done), "disagree": len(bad)}
    for m in mods:
        out["module_cost"].append({
            "workload": m["workload"], "threads": m["threads"],
            "order": m["order"], "setup": m["setup"], "verdict": m["verdict"],
            "ratio": m["boot"], "tost": tost(m["tost"]),
            "minflt": {"setup": m["minflt"][0], "mod-off": m["minflt"][1]}})
    for a in abl:
        out["ab"].append({
            "workload": a["workload"], "threads": a["threads"],
            "order": a["order"], "verdict": a["verdict"],
            "ratio": a["boot"], "tost": tost(a["tost"]),
            "per_boot": a["per_boot"]})
    if calib:
        out["aa_calibration"] = {k: ({kk: nan(vv) for kk, vv in v.items()}
                                     if isinstance(v, dict) and k != "split"
                                     else v) for k, v in calib.items()}
    perf = rep.perf_line()
    if perf:	# absent where no perf stat was asked for (QEMU)
        out["perf_stat"] = {
            "said": perf, "covers": PERF_COVERS,
            "counted": rep.perf["counted"],
            "not_supported": rep.perf["not_supported"],
            "partly_counted": {e: {"runs_counted": n, "runs": m}
                               for e, (n, m) in rep.perf["partly"].items()},
            "cells": [{"workload": pt["workload"], "threads": pt["threads"],
                       "order": o, "event": e} | c[e]
                      for pt in ptabs for o, c in pt["cells"].items()
                      for e in rep.perf["counted"]]}
    if adapt:	# absent without adaptive runs, as results.json was
        out["adaptive"] = []
    # Report.adaptive()'s keys, as named here; the ratios are adaptive /
    # order.
    names = {"workload": "workload", "threads": "threads",
             "from": "default_order", "best": "best_order",
             "to_best": "vs_best", "best_verdict": "vs_best_verdict",
             "to_default": "vs_default", "per_page": "pages_per_touched",
             "pages_kind": "pages_from", "goal": "sparse_goal_met",
             "beats_all": "beats_every_order"}
    for a in adapt:
        d = {names[k]: v for k, v in a.items() if k in names}
        if "to_each" in a:
            d["vs_each_order"] = {str(o): c for o, c in a["to_each"].items()}
        if "equiv" in a:
            d["equivalence"] = {"margin": ADAPT_MARGIN,
                                "verdict": a["equiv_verdict"]} | tost(a["equiv"])
        out["adaptive"].append(d)
    return out


if __name__ == "__main__":
    main()
