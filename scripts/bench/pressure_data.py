# SPDX-License-Identifier: GPL-2.0
"""make bench PRESSURE=1's runs for pressure-report.py: loaded per cell
and boot, a boot's value of a field, and the numbers' formats."""
import csv
import math
import statistics
from collections import defaultdict

import numpy as np

import benchstats as bs

CONF = 0.95
ALPHA = 0.05
# The setups beside the orders' ("sweep"): the kernel's adaptive policy,
# vm.fault_around_bound=1 (sweep.sh -c) and the default order run a
# second time in each repetition (sweep.sh), a true null for the goals'
# tests, its own A/A in the same boots.
ADAPTIVE = "adaptive"
BOUND = "bound"
PLACEBO = "placebo"
# The columns where fa-bench writes -1 for "not measured" (a kernel
# without the counters, a cgroup file missing, frames hidden).
MAYBE = {"fa_calls", "fa_mapped", "distinct", "unread", "hits", "reclaimed_read",
         "pgscan", "pgsteal", "pgactivate", "pgdeactivate",
         "workingset_refault_file", "workingset_activate_file", "slabs_scanned",
         "allocstall", "pgmajfault", "pgunmap_file_old", "memcg_pgscan",
         "memcg_pgsteal",
         "memcg_pgactivate", "memcg_pgdeactivate", "memcg_workingset_refault_file",
         "memcg_workingset_activate_file", "memcg_max", "memcg_oom",
         "psi_some_us", "psi_full_us"}


def load(paths):
    """{(workload, order): [per-boot list of run dicts]}, boots in order,
    the same of the adaptive policy's runs, {workload: [...]}, and of the
    bound's and the placebo's, {setup: {(workload, order): [...]}}."""
    cells = defaultdict(lambda: [[] for _ in paths])
    adapt = defaultdict(lambda: [[] for _ in paths])
    other = {s: defaultdict(lambda: [[] for _ in paths]) for s in (BOUND, PLACEBO)}
    for b, path in enumerate(paths):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r["setup"] not in ("sweep", ADAPTIVE, BOUND, PLACEBO):
                    continue
                row = {k: (v if k in ("workload", "setup") else
                           math.nan if v == "-1" and k in MAYBE else float(v))
                       for k, v in r.items()}
                # Runs from before a column was recorded: not measured.
                for k in MAYBE:
                    row.setdefault(k, math.nan)
                fa, hits, unread = row["fa_mapped"], row["hits"], row["unread"]
                # nan where one is not measured: nan propagates.
                row["never_used"] = fa - hits
                row["ahead_reclaimed"] = fa - hits - unread
                row["faults"] = row["minflt"] + row["majflt"]
                key = (row["workload"], int(row["order"]))
                if r["setup"] == ADAPTIVE:
                    adapt[row["workload"]][b].append(row)
                elif r["setup"] in other:
                    other[r["setup"]][key][b].append(row)
                else:
                    cells[key][b].append(row)
    return cells, adapt, other


def per_boot(cell, field):
    """The boots' values of a field: the median of a boot's runs for the
    figure, the mean for a count (a median would hide what happens in
    one run of three, such as the first after the boot); None if a boot
    has no runs or the field is not measured (nan)."""
    vals = []
    for runs in cell:
        xs = [r[field] for r in runs if field in r]
        if not xs or any(x != x for x in xs):
            return None
        vals.append(statistics.median(xs) if field == "ns" else statistics.fmean(xs))
    return np.array(vals)


def mean_t(x, conf=CONF):
    """benchstats.mean_diff as a tuple: (mean, lo, hi, p)."""
    r = bs.mean_diff(x, conf)
    return r.est, r.lo, r.hi, r.p


def fmt(x, digits=0):
    if x != x:
        return "-"
    if digits:
        return f"{x:,.{digits}f}"
    return f"{x:,.0f}"


def fmt_ci(m, lo, hi, digits=0):
    return f"{fmt(m, digits)} [{fmt(lo, digits)}, {fmt(hi, digits)}]"


def null_nan(x):
    """JSON has no NaN: an undefined number is null."""
    if isinstance(x, dict):
        return {str(k): null_nan(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [null_nan(v) for v in x]
    if isinstance(x, (float, np.floating)):
        return None if x != x else float(x)
    return x
