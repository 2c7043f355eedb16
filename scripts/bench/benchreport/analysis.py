# SPDX-License-Identifier: GPL-2.0
"""The report's numbers: tables per workload and thread count, the
best and recommended orders, and analyse(), which computes them all with
the arms' (arms.py) and the checks of the verdicts (calibration.py), its
mixins.  No text."""
import statistics
import zlib
from dataclasses import replace

import benchstats as bs

from .data import (CONF, MIN_EFFECT, DEFAULT_ORDER, CONTROL, EXECS, BUILDS,
                   POLICIES, PERF, PERF_CLOCKS, cross_title, base_name,
                   per_fault, perf_status, crosscheck)
from .compare import Cmp, Family, Stats, verdict
from .arms import Arms
from .calibration import Calibration


class Report(Arms, Calibration):
    """One report's runs (sets: (label, rows, timed) per kernel) and its
    numbers; analyse() computes them all."""

    def __init__(self, sets, meta, u):
        Cmp.flag = ""	# a new report's marks start unflagged
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
        self.pool_paths = []	# and --pool: the earlier A/A runs
        self.cross = cross_title(self.workloads)
        # The adaptive policy's runs: their order column is the order the
        # policy starts from (the kernel's default; one per sweep).
        self.policy_from = {}
        for r in sets[0][1]:
            if r["setup"] in POLICIES:
                self.policy_from.setdefault((r["workload"], r["threads"]),
                                            r["order"])
        self.perf = perf_status(sets[0][1])

    def key(self, w, t, o, setup="sweep", label=None):
        """A cell's key; an order of POLICIES is that policy's runs."""
        if o in POLICIES:
            return (label or self.label, o, w, t,
                    self.policy_from.get((w, t)))
        return (label or self.label, setup, w, t, o)

    @staticmethod
    def touched(w):
        """What a workload's pages column counts."""
        return ("program starts" if base_name(w) in EXECS else
                "programs linked" if w in BUILDS else "pages touched")

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

    def table(self, w, t):
        st, base = self.st, self.orders[0]
        cols = [o for o in self.orders if st.has(self.key(w, t, o))]
        # orders: the fixed ones; cols: the table's, the adaptive policy's
        # after the largest order, with the same statistics.
        tb = {"workload": w, "threads": t, "orders": cols, "cells": {},
              "cols": cols + [p for p in POLICIES
                              if st.has(self.key(w, t, p))]}
        for o in tb["cols"]:
            k = self.key(w, t, o)
            c = {f: st.median(k, f) for f in
                 ("minflt", "majflt", "fa_mapped", "mapped", "ns", "fixed_ns",
                  "teardown_ns", "pages", "distinct", "unread")}
            # A program's own count (fio's), minor and major together.
            c["prog_faults"] = statistics.median(
                r["prog_minflt"] + r["prog_majflt"]
                if r["prog_minflt"] >= 0 else -1 for r in st.runs(k))
            # The median of the sums, not the sum of the medians.
            c["faults"] = statistics.median(r["minflt"] + r["majflt"]
                                            for r in st.runs(k))
            # The pages mapped where there is no Rss: each fault's own
            # page and those mapped around it.
            c["maps"] = statistics.median(r["minflt"] + r["majflt"]
                                          + r["fa_mapped"] for r in st.runs(k))
            # What one fault maps (large folios: more than the window):
            # each run's Rss / faults, their median and the most.
            per = [x for x in map(per_fault, st.runs(k)) if x is not None]
            c["per_fault"] = (statistics.median(per), max(per)) if per else None
            c["major"] = any(r["majflt"] > 0 for r in st.runs(k))
            c["shape"] = st.shape(k)
            c["counters"] = all(r["fa_mapped"] >= 0 for r in st.runs(k))
            c["ns_ci"] = st.level(k)
            if o != base and base in cols:
                c["ratio"] = self.family.add(st.ratio(k, self.key(w, t, base)),
                                             f"{w}: its orders against {base}")
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
        is.  Each is marked stable when at most benchstats.FLIP_MAX of
        reruns simulated from the boots pick another order.  The comparisons of the
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
        # A seed of its own: the reruns' errors not shared by workloads.
        pick = bs.stable_pick(per, MIN_EFFECT, CONF,
                              seed=zlib.crc32(f"{w} {label}".encode()))
        best, rec = pick["best"], pick["recommended"]

        def vs(o, ref):
            # The order was picked from these runs among len(cols):
            # Bonferroni over them before Holm over the two references.
            r = bs.paired_ratio(per[o], per[ref], CONF)
            c = Cmp(replace(r, p=min(1.0, r.p * len(cols))) if r.p == r.p else r)
            return (self.family.add(c, f"{w}: its recommendation")
                    if label == self.label else c)

        res = {"workload": w, "threads": ts, "best": best, "recommended": rec,
               "to_best": Cmp(pick["to_best"][rec]), "near_best": pick["near_best"],
               "boots": pick["boots"], "unit": st.unit[label],
               "best_stable": pick["best_stable"], "rec_stable": pick["rec_stable"],
               "best_moves": pick["best_moves"], "rec_moves": pick["rec_moves"],
               "best_flip": pick["best_flip"], "rec_flip": pick["rec_flip"]}
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

    def analyse(self):
        """Every number of the report, in the order the statistics need:
        Holm over the whole family before the control's verdict (which
        may flag every verdict) and the verdicts' words."""
        n = {"tables": {(w, t): self.table(w, t) for w in self.workloads
                        for t in self.threads[w]}}
        tables = n["tables"]
        n["fits"], n["pooled"] = self.costs()
        n["recs"] = [self.recommend(w) for w in self.workloads
                     if w != CONTROL]
        n["ctl"] = self.control()
        n["mods"] = self.modcost()
        n["abl"] = self.ab() if len(self.sets) > 1 else []
        n["adapt"] = self.adaptive(tables)
        n["done"], n["bad"] = crosscheck([r for _, rs, _ in self.sets
                                          for r in rs if r["setup"] == "sweep"])
        n["margins"] = self.margins(tables, n["fits"], n["pooled"])
        n["ncmp"] = self.family.holm()
        n["power"] = self.power(tables)
        self.control_verdict(n["ctl"])
        for x in n["mods"] + n["abl"]:
            x["verdict"] = verdict(x)
        n["calib"] = self.calibrate(n["abl"], tables) if self.aa else None
        if n["calib"] and self.pool_paths:
            n["calib"]["pooled"] = self.pool(n["calib"], self.pool_paths)
        n["ptabs"] = ([self.perf_table(tables[(w, t)]) for w in self.workloads
                       for t in self.threads[w]]
                      if self.perf["counted"] else [])
        return n
