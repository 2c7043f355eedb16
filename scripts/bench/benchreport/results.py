# SPDX-License-Identifier: GPL-2.0
"""results.json: the runs, the report and the summary's numbers, for
scripts."""
import csv
import json
import os

import numpy as np

from .data import (CONF, ALPHA, MIN_EFFECT, AB_CONF, AB_MARGIN, CONTROL,
                   ADAPT_MARGIN, FLAG, NOT_SUPPORTED, PERF, PERF_CLOCKS,
                   PERF_COVERS, out_row)
from .compare import Cmp


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


def machine_summary(rep, perf, recs, fits, pooled, ctl, done, bad, mods,
                    abl, adapt, ptabs, margins=(), calib=None):
    """The summary's numbers, for scripts; perf: the text's perf stat
    line (Text.perf_line())."""
    def nan(x):
        return None if x is None or x != x else x

    def tost(e):
        return {"conf": AB_CONF, "margin": e.margin, "lo": nan(e.lo),
                "hi": nan(e.hi), "p": nan(e.p), "side": e.side}

    out = {"statistics": {"estimator": "scripts/bench/benchstats.py: boots as the "
                          "replicate (a boot's median per cell); paired t on "
                          "per-boot log ratios within a kernel, Welch t on the "
                          "boots' median logs between two",
                          "conf": CONF, "intervals": "unadjusted t",
                          "replicate": rep.st.unit,
                          "comparisons_holm": rep.family.m,
                          "comparisons_without_p": len(rep.family.cmps)
                          - rep.family.m,
                          "holm_families": dict(rep.family.sizes),
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
                                  for k, v in res.items()
                                  if k not in ("what", "_resid")}
                                 | {"unit": rep.u["raw"]})
    if ctl is not None and ctl.get("kind") == "placebo":
        c, e = ctl["overall"]
        out["control"] = {"kind": "placebo", "order": ctl["order"],
                          "verdict": ctl["verdict"], "holds": ctl["holds"],
                          "cells": len(ctl["cells"]), "bad_cells": ctl["bad_cells"],
                          "boots": ctl["boots"], "margin": AB_MARGIN,
                          "conf": AB_CONF, "overall": c.json() | {"tost": tost(e)},
                          "per_cell": [{"workload": w, "threads": t} | x.json()
                                       for w, t, x in ctl["cells"]]}
    elif ctl is not None:
        out["control"] = {"kind": "anon", "workload": CONTROL, "holds": ctl.get("holds"),
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
            "per_boot": a["per_boot"],
            "phases": {k: v.json() for k, v in a.get("phases", {}).items()}})
    if calib:
        out["aa_calibration"] = {k: ({kk: nan(vv) for kk, vv in v.items()}
                                     if isinstance(v, dict) and k not in ("split", "pooled")
                                     else v) for k, v in calib.items()}
        if "pooled" in calib:
            out["aa_calibration"]["pooled"] = {
                t: {kk: nan(vv) for kk, vv in x.items()}
                for t, x in calib["pooled"].items()}
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
    names = {"workload": "workload", "threads": "threads", "policy": "policy",
             "from": "default_order", "best": "best_order",
             "to_best": "vs_best", "best_verdict": "vs_best_verdict",
             "to_default": "vs_default", "to_order4": "vs_order_4",
             "per_page": "pages_per_touched",
             "pages_kind": "pages_from", "goal": "sparse_goal_met",
             "beats_all": "beats_every_order",
             "below_best": "below_every_order_goal_met"}
    for a in adapt:
        d = {names[k]: v for k, v in a.items() if k in names}
        if "to_each" in a:
            d["vs_each_order"] = {str(o): c for o, c in a["to_each"].items()}
        if "equiv" in a:
            d["equivalence"] = {"margin": ADAPT_MARGIN,
                                "verdict": a["equiv_verdict"]} | tost(a["equiv"])
        out["adaptive"].append(d)
    return out


def units_json(u, events):
    """What results.json's units say: the figure, its fields, and each
    perf stat event's column."""
    doc = {"clock": u["clock"], "figure": u["name"], "printed_as": u["unit"],
           "printed_scale": u["scale"], "cost_model_unit": u["raw"],
           "note": u["note"],
           "fields": {v: f"{u['raw_name']}: " + {
               "ns": "the timed region (work and teardown); fio's rows: "
               "with one job fio's own I/O time (its JSON's lat_ns, mean "
               "x N), with more its whole life",
               "fixed_ns": "creating and joining the threads/tasks, "
               "outside the timed region; fio's rows: the other of its "
               "I/O time (summed over the jobs) and its whole life",
               "teardown_ns": "munmap of the mapping(s) after the "
               "work, inside the timed region"}[k]
               for k, v in u["fields"].items()}}
    for e in events:
        doc["fields"][PERF + e] = (
            f"{e} (perf stat, whole process): " +
            ("ns of CPU time (perf's msec, to 10 us)" if e in PERF_CLOCKS
             else "count") + f" over {PERF_COVERS}; else perf's word "
            f"({NOT_SUPPORTED}: this machine's PMU does not expose it)")
    return doc


def write_results(outdir, rep, n, out, pngs, perf):
    """outdir/results.csv (every run, the figure's columns named by their
    unit) and outdir/results.json (those runs, the environment, the
    report's lines, the plots and the summary's numbers)."""
    timed = {label: t for label, _, t in rep.sets}
    rows = [out_row(r, rep.u, timed) for _, rs, _ in rep.sets for r in rs]
    first = ["label", "boot"]
    fields = first + [k for k in rows[0] if k not in first]
    for r in rows:	# columns only some CSVs have
        fields += [k for k in r if k not in fields]
    with open(os.path.join(outdir, "results.csv"), "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=fields, restval="")
        wr.writeheader()
        wr.writerows({k: ("" if v is None else v) for k, v in r.items()}
                     for r in rows)
    summary = machine_summary(rep, perf, n["recs"], n["fits"], n["pooled"],
                              n["ctl"], n["done"], n["bad"], n["mods"],
                              n["abl"], n["adapt"], n["ptabs"], n["margins"],
                              n["calib"])
    write_json(os.path.join(outdir, "results.json"), {
        "environment": rep.meta, "units": units_json(rep.u,
                                                      rep.perf["events"]),
        "runs": rows, "report": out, "plots": pngs, "summary": summary})
