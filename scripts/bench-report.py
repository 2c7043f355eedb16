#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn fault-around sweep runs into the report of make bench.

usage: bench-report.py --out DIR [--meta KEY=VALUE]... LABEL=RUNS.csv[,RUNS.csv]...

The first LABEL is the kernel under test ("patched"); a second one
("base") adds the A/B table.  Several CSVs for one label are its boots,
numbered in the order given.  Runs of setup "sweep" make the order
tables; those of setups mod-off, mod-idle and mod-256 (sweep.sh -k) the
module-cost table.  Prints the tables on stdout and writes
DIR/results.csv, DIR/results.json and DIR/<workload>.png.
"""
import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import warnings

from scipy import stats

ALPHA = 0.05
DEFAULT_ORDER = 4
# The A/B: a 90% interval, so that "inside the margin" is a TOST at 5% per
# side, and the margin the series' counters must stay within.
AB_CONF = 0.90
AB_MARGIN = 0.01


def load(label, paths):
    rows = []
    for boot, path in enumerate(paths.split(","), 1):
        with open(path) as f:
            these = list(csv.DictReader(f))
        if not these:
            sys.exit(f"bench-report: no runs in {path}")
        for r in these:
            r["boot"] = boot
        rows += these
    for r in rows:
        for k in ("threads", "order", "rep", "minflt", "majflt", "ns", "pages",
                  "mapped"):
            r[k] = int(r[k])
        # /proc/vmstat's fault-around counters: -1 on a kernel without them.
        for k in ("fa_calls", "fa_mapped"):
            r[k] = int(r.get(k) or -1)
        r["label"] = label
    return rows


def summary(xs):
    mean = statistics.fmean(xs)
    sd = statistics.stdev(xs) if len(xs) > 1 else 0.0
    return mean, sd


def welch(a, b):
    """p-value of Welch's t-test; exact answer when both samples are constant."""
    if len(a) < 2 or len(b) < 2:
        return float("nan")
    if statistics.pvariance(a) == 0 and statistics.pvariance(b) == 0:
        return 0.0 if statistics.fmean(a) != statistics.fmean(b) else 1.0
    with warnings.catch_warnings():
        # Near-identical samples (icount) make scipy warn; the p is still right.
        warnings.simplefilter("ignore", RuntimeWarning)
        return float(stats.ttest_ind(a, b, equal_var=False).pvalue)


def pct(new, base):
    return (new - base) / base * 100 if base else float("nan")


def mark(p):
    return "*" if p < ALPHA else "~"


def fmt_int(x):
    return f"{x:,.0f}"


def table(runs, workload, threads, orders, out):
    sel = [r for r in runs if r["workload"] == workload and r["threads"] == threads]
    by = {o: [r for r in sel if r["order"] == o] for o in orders}
    base = by[orders[0]]
    pages = sel[0]["pages"]
    w = 16
    out.append(f"{workload}, {threads} thread{'s' if threads > 1 else ''} "
               f"({pages:,} {'starts' if workload == 'exec' else 'pages touched'}, "
               f"{len(base)} runs per order)")
    out.append("FAULT_AROUND_ORDER".ljust(22) + "".join(
        (f"{o} (baseline)" if o == orders[0] else str(o)).rjust(w) for o in orders))
    rows = []
    metrics = [("minor-faults", "minflt", 1, "")]
    if all(r["fa_mapped"] >= 0 for r in sel):
        metrics.append(("fa-mapped", "fa_mapped", 1, ""))
    metrics.append(("time", "ns", 1e-6, " ms"))
    for metric, key, scale, unit in metrics:
        means, line, sdl, chg = {}, [], [], []
        for o in orders:
            xs = [r[key] * scale for r in by[o]]
            m, sd = summary(xs)
            means[o] = (m, xs)
            line.append((f"{m:.3f}" if key == "ns" else fmt_int(m)).rjust(w))
            sdl.append(f"(+- {sd / m * 100 if m else 0:.2f}%)".rjust(w))
        out.append(f"{metric}{unit}".ljust(22) + "".join(line))
        out.append("  stddev".ljust(22) + "".join(sdl))
        for o in orders:
            # No %chg from nothing: fa-mapped is 0 at order 0.
            if o == orders[0] or not means[orders[0]][0]:
                chg.append("".rjust(w))
                continue
            p = welch(means[o][1], means[orders[0]][1])
            chg.append(f"{pct(means[o][0], means[orders[0]][0]):+.2f}% {mark(p)}".rjust(w))
            rows.append((metric, o, pct(means[o][0], means[orders[0]][0]), p))
        if any(c.strip() for c in chg):
            out.append(f"  %chg {metric}".ljust(22) + "".join(chg))
    out.append("")
    return rows


def crosscheck(runs):
    """Where the counters and the mapping's Rss both apply (not exec, whose
    children's mappings are gone), they must agree: at order 0 nothing is
    counted; with one thread, every fault in the mapping faults around and
    maps its own page, so Rss = fa_calls + fa_mapped; with more, a thread
    can fault on a page that another's window just mapped, so
    fa_mapped <= Rss <= fa_calls + fa_mapped.  Returns the disagreements."""
    bad = []
    for r in runs:
        if r["workload"] == "exec" or r["fa_calls"] < 0:
            continue
        calls, fa, rss = r["fa_calls"], r["fa_mapped"], r["mapped"]
        if r["order"] == 0:
            ok = calls == 0 and fa == 0
        elif r["threads"] == 1:
            ok = rss == calls + fa
        else:
            ok = fa <= rss <= calls + fa
        if not ok:
            bad.append(f"{r['workload']} threads={r['threads']} order={r['order']} "
                       f"rep={r['rep']}: Rss {rss}, fa_calls {calls}, fa_mapped {fa}")
    return bad


def recommend(workload, results):
    """The order with the largest significant time win over order 0 that is
    not significantly slower with any thread count."""
    faster, slower = {}, set()
    for threads, rows in results:
        for metric, o, chg, p in rows:
            if metric != "time" or not p < ALPHA:
                continue
            if chg > 0:
                slower.add(o)
            elif o not in faster or chg < faster[o][1]:
                faster[o] = (threads, chg, p)
    good = {o: v for o, v in faster.items() if o not in slower}
    if not good:
        worse = (f"; significantly slower: order {', '.join(map(str, sorted(slower)))}"
                 if slower else "")
        return (f"{workload}: keep order 0: no order is faster than the baseline "
                f"beyond noise with every thread count{worse}")
    o = min(good, key=lambda k: good[k][1])
    threads, chg, p = good[o]
    return (f"{workload}: best order {o} ({chg:+.2f}% time vs order 0 with "
            f"{threads} thread{'s' if threads > 1 else ''}, Welch p={p:.3g})")


def plot(runs, workload, orders, outdir):
    dat = os.path.join(outdir, f"{workload}.dat")
    thread_counts = sorted({r["threads"] for r in runs if r["workload"] == workload})
    with open(dat, "w") as f:
        for threads in thread_counts:
            for o in orders:
                sel = [r for r in runs if r["workload"] == workload
                       and r["threads"] == threads and r["order"] == o]
                fm, fsd = summary([r["minflt"] for r in sel])
                tm, tsd = summary([r["ns"] / 1e6 for r in sel])
                f.write(f"{o} {fm} {fsd} {tm} {tsd}\n")
            f.write("\n\n")
    png = os.path.join(outdir, f"{workload}.png")

    def curves(y, err):
        return ", ".join(
            f"'{dat}' index {i} using 1:{y}:{err} with yerrorlines "
            f"title '{t} thread{'s' if t > 1 else ''}'"
            for i, t in enumerate(thread_counts))

    script = f"""
set terminal png size 900,400
set output '{png}'
set multiplot layout 1,2 title 'fault-around: {workload} (mean +- stddev over repetitions)'
set offsets 0.3, 0.3, 0, 0
set xlabel 'fault-around order'
set ylabel 'minor faults'
set logscale y
plot {curves(2, 3)}
unset logscale y
set ylabel 'time (ms)'
plot {curves(4, 5)}
unset multiplot
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True,
                   stderr=subprocess.DEVNULL)
    return png


def ratio(name, a, b):
    """One line: runs @a over runs @b as a Hodges-Lehmann ratio with its
    exact Mann-Whitney interval (as the A/B), and the verdict; "costs at
    most +1%" when the interval's top is within the margin."""
    est, lo, hi, _ = hodges_lehmann(a, b)
    if lo is None:
        return f"  {name}: {est:.4f}, too few runs for a {AB_CONF:.0%} interval"
    said = verdict(lo, hi)
    if hi <= 1 + AB_MARGIN and not said.startswith("equivalent"):
        said += f", costs at most +{AB_MARGIN:.0%}"
    return (f"  {name}: {est:.4f} [{lo:.4f}, {hi:.4f}] "
            f"({(est - 1) * 100:+.2f}%, {said})")


def ratios(title, pairs, runs, other, sel_a, sel_b, out):
    """A table of ratio() lines for each workload and thread count."""
    out += ["", title]
    for workload in dict.fromkeys(r["workload"] for r in runs):
        for threads in sorted({r["threads"] for r in runs if r["workload"] == workload}):
            def pick(rs, sel):
                return [r["ns"] for r in rs if r["workload"] == workload
                        and r["threads"] == threads and sel(r)]
            for name, a_val in pairs:
                a = pick(runs, lambda r: sel_a(r, a_val))
                b = pick(other, sel_b)
                if a and b:
                    out.append(ratio(f"{workload:7} {threads} thread(s){name}", a, b))


def mw_null(n, m):
    """How many orderings give each Mann-Whitney U = 0..n*m under the null:
    the coefficients of the Gaussian binomial [n+m choose n] in q."""
    c = [1] + [0] * (n * m)
    for i in range(1, n + 1):
        for u in range(n * m, m + i - 1, -1):	# times (1 - q^(m+i))
            c[u] -= c[u - m - i]
        for u in range(i, n * m + 1):		# over (1 - q^i)
            c[u] += c[u - i]
    return c


def hodges_lehmann(a, b, conf=AB_CONF):
    """The ratio a/b as the Hodges-Lehmann shift between log(a) and log(b)
    (the median of all pairwise differences), with the interval that
    inverts the exact Mann-Whitney test: the C-th smallest and largest
    differences, for the largest C with P(U < C) <= (1 - conf) / 2.  Valid
    for a pure shift on the log scale.  Returns (ratio, low, high,
    coverage), with no interval (None) when too few values reach conf."""
    d = sorted(math.log(x) - math.log(y) for x in a for y in b)
    n, m = len(a), len(b)
    counts, total = mw_null(n, m), math.comb(n + m, n)
    tail, c = 0, 0
    # 1e-9: (1 - 0.9) / 2 is a hair under 0.05 in floating point.
    while tail + counts[c] <= (1 - conf) / 2 * total + 1e-9:
        tail += counts[c]
        c += 1
    est = math.exp(statistics.median(d))
    if c == 0:
        return est, None, None, None
    return est, math.exp(d[c - 1]), math.exp(d[n * m - c]), 1 - 2 * tail / total


def verdict(lo, hi):
    """Both answers: inside the margin (two one-sided tests at (1 - conf)/2
    each), and whether the interval excludes 1."""
    said = []
    if lo >= 1 - AB_MARGIN and hi <= 1 + AB_MARGIN:
        said.append(f"equivalent within +-{AB_MARGIN:.0%}")
    if lo > 1 or hi < 1:
        said.append("differs from 1")
    return ", ".join(said) or "inconclusive"


def ab_table(runs, base, out):
    """patched/base at the default order, per workload and thread count.
    The verdict is boot-level: each boot's median, so that a boot effect
    widens the interval instead of hiding in 30 pooled runs; the pooled
    interval beside it is within-boot precision only."""
    boots = sorted({r["boot"] for r in runs} | {r["boot"] for r in base})
    out += ["", f"A/B at the default order {DEFAULT_ORDER}, patched/base of the "
            "time column (CLOCK=icount: virtual ns, i.e. guest instructions plus "
            "idle time skipped to the next timer).",
            f"boots: Hodges-Lehmann ratio of the boots' medians with its exact "
            f"Mann-Whitney interval ({AB_CONF:.0%}, {len(boots)} boot(s) per kernel, "
            "booted alternately); the verdict comes from it.",
            f"'equivalent within +-{AB_MARGIN:.0%}': that interval lies in "
            f"[{1 - AB_MARGIN:.2f}, {1 + AB_MARGIN:.2f}] (two one-sided tests at "
            f"{(1 - AB_CONF) / 2:.0%}); 'differs from 1': it excludes 1 (two-sided, "
            f"{1 - AB_CONF:.0%}); neither: inconclusive.",
            "runs: the same over all runs pooled, which ignores boot-to-boot "
            "variation: within-boot precision only."]
    for workload in dict.fromkeys(r["workload"] for r in runs):
        for threads in sorted({r["threads"] for r in runs if r["workload"] == workload}):
            def pick(rs, boot=None):
                return [r["ns"] for r in rs if r["workload"] == workload
                        and r["threads"] == threads and r["order"] == DEFAULT_ORDER
                        and boot in (None, r["boot"])]
            a, b = pick(runs), pick(base)
            if not a or not b:
                out.append(f"  {workload:7} {threads} thread(s): no runs at order "
                           f"{DEFAULT_ORDER} on both kernels")
                continue
            ma = [statistics.median(pick(runs, k)) for k in boots if pick(runs, k)]
            mb = [statistics.median(pick(base, k)) for k in boots if pick(base, k)]
            est, lo, hi, cov = hodges_lehmann(ma, mb)
            if lo is None:
                said = f"{est:.4f}, no {AB_CONF:.0%} interval from {len(ma)}/{len(mb)} boots"
            else:
                said = (f"{est:.4f} [{lo:.4f}, {hi:.4f}] {verdict(lo, hi)}")
            pest, plo, phi, _ = hodges_lehmann(a, b)
            pooled = (f"{pest:.4f} [{plo:.4f}, {phi:.4f}]" if plo is not None
                      else f"{pest:.4f}")
            per_boot = " ".join(f"{x / y:.4f}" for x, y in zip(ma, mb))
            out.append(f"  {workload:7} {threads} thread(s): boots {said}; runs "
                       f"{pooled} n={len(a)}/{len(b)}; per boot {per_boot}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--meta", action="append", default=[])
    ap.add_argument("runs", nargs="+")
    args = ap.parse_args()

    sets = []
    for spec in args.runs:
        label, _, path = spec.partition("=")
        sets.append((label, load(label, path)))
    label, allrows = sets[0]
    runs = [r for r in allrows if r["setup"] == "sweep"]
    modruns = [r for r in allrows if r["setup"].startswith("mod-")]
    orders = sorted({r["order"] for r in runs})
    meta = dict(m.split("=", 1) for m in args.meta)

    out = [
        "Fault-around sweep: " + ", ".join(f"{k}={v}" for k, v in meta.items()),
        "%chg = (new - baseline) / baseline, baseline = order 0: negative means "
        "fewer faults or less time.",
        f"'*' marks a change significant at 95% (Welch's t-test, p < {ALPHA}), "
        "'~' a change within noise.",
        "fa-mapped: the pages fault-around mapped besides the faulting ones, "
        "from /proc/vmstat's fault_around_mapped (its delta over the run).",
        "",
    ]
    recs = []
    for workload in dict.fromkeys(r["workload"] for r in runs):
        results = []
        for threads in sorted({r["threads"] for r in runs if r["workload"] == workload}):
            results.append((threads, table(runs, workload, threads, orders, out)))
        recs.append(recommend(workload, results))
    if len(orders) > 1:
        out.append("Recommendations:")
        out += ["  " + r for r in recs]
    else:
        out.append(f"Recommendations: none, only order {orders[0]} was run.")

    checked = [r for r in runs if r["workload"] != "exec" and r["fa_calls"] >= 0]
    bad = crosscheck(runs)
    out.append("")
    if not checked:
        out.append("Cross-check of the counters against Rss: not run (no "
                   "fault_around counters in /proc/vmstat).")
    elif bad:
        out.append(f"Cross-check of the counters against Rss: {len(bad)} of "
                   f"{len(checked)} runs DISAGREE:")
        out += ["  " + b for b in bad]
    else:
        wls = ", ".join(dict.fromkeys(r["workload"] for r in checked))
        out.append(f"Cross-check of the counters against Rss ({len(checked)} "
                   f"runs of {wls}): all agree.")

    if modruns:
        ratios(f"Module cost at the default order {modruns[0]['order']}: time with "
               "mod_faultaround loaded / not loaded, Hodges-Lehmann ratio with its "
               f"exact Mann-Whitney {AB_CONF:.0%} interval over this boot's "
               "interleaved runs (within one boot: no boot-to-boot variation)",
               [(", no override   ", "mod-idle"), (", 256 overrides ", "mod-256")],
               modruns, modruns, lambda r, s: r["setup"] == s,
               lambda r: r["setup"] == "mod-off", out)
    if len(sets) > 1:
        ab_table(runs, [r for r in sets[1][1] if r["setup"] == "sweep"], out)

    os.makedirs(args.out, exist_ok=True)
    allruns = [r for _, rs in sets for r in rs]	# with their label
    with open(os.path.join(args.out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(allruns[0].keys()))
        w.writeheader()
        w.writerows(allruns)
    pngs = [plot(runs, wl, orders, args.out) for wl in dict.fromkeys(r["workload"] for r in runs)]
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"environment": meta, "runs": allruns, "report": out,
                   "plots": pngs}, f, indent=1)
    print("\n".join(out))
    if checked and bad:
        sys.exit("bench-report: the fault-around counters disagree with Rss")


if __name__ == "__main__":
    main()
