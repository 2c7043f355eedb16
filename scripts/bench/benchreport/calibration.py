# SPDX-License-Identifier: GPL-2.0
"""How far the report's verdicts can be trusted, for Report (analysis.py):
the margins, the A/A calibration and its pool, the cost fits and the
power of the design."""
import json
import math
import os
import sys

import numpy as np

import benchstats as bs

from .data import (ALPHA, MIN_EFFECT, AB_CONF, AB_MARGIN, CONTROL, FIO,
                   is_cold, base_name, no_order, checked)
from .compare import varies
from .costmodel import cost_model
from .fmt import who


class Calibration:
    """Report's checks of its own verdicts; see Report."""

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
        # The placebo arm, in both labels: its cells' paired tests (the
        # design of every order verdict) and its one overall test.
        pls = [x for x in (self.placebo(lb) for lb in (self.label, other)) if x]
        cells = [c for x in pls for _, _, c in x["cells"] if c.p == c.p]
        res["placebo_cells_unadjusted"] = rate(sum(c.p < ALPHA for c in cells),
                                               len(cells), ALPHA)
        res["placebo_overall"] = rate(sum(x["verdict"] == "moves" for x in pls),
                                      len(pls), ALPHA)
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
                fk = "best_flip" if what == "best" else "rec_flip"
                split[what].append({"workload": w, "A": ra[what], "B": rb[what],
                                    "stable": (ra[st_key], rb[st_key]),
                                    "flip": (ra[fk], rb[fk])})
        res["split"] = split
        return res

    @staticmethod
    def pool(cal, paths):
        """Each verdict type's false positives pooled over this A/A and
        the earlier ones' results.json (paths; bench.sh AA=1 gives
        Documentation/results/aa-*/): {type: {k, n, rate, lo, hi,
        nominal, status, runs}}, for the types each run has."""
        runs = [cal]
        for p in paths:
            try:
                with open(os.path.join(p, "results.json")) as f:
                    runs.append(json.load(f)["summary"]["aa_calibration"])
            except (OSError, ValueError, KeyError) as e:
                sys.exit(f"bench-report: --pool {p}: no A/A calibration ({e})")
        out = {}
        for name, x in cal.items():
            if not (isinstance(x, dict) and "nominal" in x):
                continue
            got = [r[name] for r in runs if isinstance(r.get(name), dict)
                   and r[name].get("n")]
            k, n = sum(g["k"] for g in got), sum(g["n"] for g in got)
            lo, hi = bs.clopper_pearson(k, n) if n else (float("nan"),) * 2
            out[name] = {"k": k, "n": n, "rate": k / n if n else float("nan"),
                         "lo": lo, "hi": hi, "nominal": x["nominal"],
                         "runs": len(got),
                         "status": ("EXCEEDS" if n and lo > x["nominal"] else
                                    "above, not significantly"
                                    if n and k / n > x["nominal"] else "at or below")}
        return out

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
                if base_name(w) in FIO and t == 1:
                    # Its figure is its I/O, its faults all of its life.
                    fits.append({"what": f"{w:26} {who(w, t):9}", "workload": w,
                                 "threads": t, "note": "not modelled: the "
                                 "figure is fio's I/O, the faults all of fio"})
                    continue
                res = cost_model(self.st, self.label, rows, (w, t))
                res.update(workload=w, threads=t, what=f"{w:26} {who(w, t):9}")
                fits.append(res)
        for t in sorted({t for ts in self.threads.values() for t in ts}):
            # Warm files only: a cold run's figure is mostly its I/O.
            rows = [r for r in self.sweep if checked(r["workload"])
                    and not is_cold(r["workload"])
                    and r["threads"] == t and r["fa_mapped"] >= 0]
            wls = list(dict.fromkeys(r["workload"] for r in rows))
            if len(wls) < 2:
                continue
            res = cost_model(self.st, self.label, rows, ("pooled", t))
            res.update(workloads=wls, threads=t,
                       what=f"pooled, {t} thread(s)/task(s)")
            pooled.append(res)
        return fits, pooled

    def power(self, tables, effects=(0.01, 0.02, 0.05)):
        """The power to mark each effect in the largest family of a
        workload's orders, at the boot-to-boot sd of the tables' paired
        log ratios: the median workload's and the noisiest one's (each a
        workload's median over its orders).  {"boots", "m", "at":
        [(what, sd, {effect: power})]}."""
        by = {}
        for (w, _), tb in tables.items():
            for c in tb["cells"].values():
                r = c["ratio"].r if c.get("ratio") else None
                if r is not None and isinstance(r.n, int) and r.se == r.se and r.se > 0:
                    by.setdefault(w, []).append(r.se * math.sqrt(r.n))
        fams = [m for q, m in self.family.sizes.items()
                if q.endswith(f"against {self.orders[0]}")]
        nb = len(self.st.boots.get(self.label, []))
        if not by or not fams or nb < 2:
            return None
        sd = {w: float(np.median(v)) for w, v in by.items()}
        mid = float(np.median(list(sd.values())))
        worst = max(sd, key=sd.get)
        m = max(fams)
        return {"boots": nb, "m": m,
                "at": [(what, s, {e: bs.power_paired(e, s, nb, m, ALPHA, MIN_EFFECT)
                                  for e in effects})
                       for what, s in (("the median workload", mid),
                                       (f"the noisiest, {worst}", sd[worst]))]}
