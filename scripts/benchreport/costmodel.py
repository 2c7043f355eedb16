# SPDX-License-Identifier: GPL-2.0
"""The cost model: figure = a + b * minflt + c * fa_mapped (+ d *
majflt where that varies), least squares within each workload, its
intervals from a case bootstrap; and its text."""
import numpy as np

from .data import COST_B
from .compare import own, varies


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
    # Each run's residual, as a share of its fitted figure, for the plot
    # (not in results.json: a number per run).
    fit = x @ point
    res["_resid"] = [(r["workload"], r["order"], float((yv - fv) / fv))
                     for r, yv, fv in zip(rows, y, fit) if fv]

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
