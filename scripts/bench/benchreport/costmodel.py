# SPDX-License-Identifier: GPL-2.0
"""The cost model: figure = a + b * minflt + c * fa_mapped (+ d *
majflt where that varies), least squares in each boot on the medians of
its cells, the boots' mean with its t interval; and its text."""
import numpy as np

import benchstats as bs

from .compare import own, varies


def cells(rows):
    """The runs' boot-level summary: a row per (boot, workload, order),
    each field the median of its runs.  A run that a guest event made
    21% dearer (bench v3's runs 1 and 212 of every boot) moves a median
    of 3 not at all, a least-squares fit over runs by as much as it
    weighs."""
    by = {}
    one = len({r["boot"] for r in rows}) == 1	# then its reps are the blocks
    for r in rows:
        b = ("rep", r["rep"]) if one else r["boot"]
        by.setdefault((b, r["workload"], r["order"]), []).append(r)
    return [dict(boot=b, workload=w, order=o,
                 **{k: float(np.median([r[k] for r in rs]))
                    for k in ("ns", "minflt", "fa_mapped", "majflt")})
            for (b, w, o), rs in by.items()]


def cost_model(st, label, rows, what):
    """figure = a_w + b * minflt + c * fa_mapped (+ d * majflt where it
    varies: a cold file's reads), an intercept per workload, fitted by
    least squares in each boot on its cells (cells(): the median of each
    workload and order's runs); the estimate is the mean of the boots'
    coefficients, its 95% interval the t interval over boots
    (benchstats.mean_diff), boots as the replicate as everywhere else (one
    boot: its repetitions; a block whose design is rank-deficient is
    left out).
    When the data cannot separate b and c, fits what they can: only c if
    minflt does not vary, only b if fa_mapped does not, their
    combination if they move together; d only where majflt moves apart
    from them.  c_from: the workloads whose fa_mapped moves apart from
    their minflt (and majflt), which are what tell c from b."""
    res = {"what": what, "runs": len(rows)}
    rows = cells(rows)
    res["cells"] = len(rows)
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
    bi = [r["boot"] for r in rows]
    coefs, fit = [], np.full(len(rows), np.nan)
    for b in dict.fromkeys(bi):
        on = np.array([x == b for x in bi])
        if np.linalg.matrix_rank(x[on]) < x.shape[1]:
            continue	# a lever that does not move in this block: no fit
        beta = np.linalg.lstsq(x[on] / xs, y[on] / ys, rcond=None)[0] * ys / xs
        coefs.append(beta[len(wls):])
        fit[on] = x[on] @ beta
    # Each cell's residual, as a share of its boot's fitted figure, for
    # the plot (not in results.json: a number per cell).
    res["_resid"] = [(r["workload"], r["order"], float((yv - fv) / fv))
                     for r, yv, fv in zip(rows, y, fit) if fv]
    res["boots"] = len(coefs)
    for j, name in enumerate(names):
        mean = bs.mean_diff([c[j] for c in coefs], 0.95)
        res[name] = (mean.est, mean.lo, mean.hi)
    if any(res[n][2] < 0 or (res[n][2] != res[n][2] and res[n][0] < 0)
           for n in names):
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
