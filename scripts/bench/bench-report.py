#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn fault-around sweep runs into the report of make bench (bench v4).

usage: bench-report.py --out DIR [--meta KEY=VALUE]... [--aa] LABEL=RUNS.csv[,RUNS.csv]...
       bench-report.py --out DIR --from RESULTS_DIR [--meta KEY=VALUE]... [--aa]

--from: the runs and header of a results directory's results.json (a
committed run), rendered again with today's statistics (make
bench-report FROM=): the header's commit becomes the code's that rendered
it, its "runs" line still names the commit the boots ran at; --meta
overrides.

The first LABEL is the kernel under test ("patched"); a second one
("base") adds the A/B table.  Several CSVs for one label are its boots,
numbered in the order given.  --aa: the two labels are the same kernel
(make bench AA=1, labels A and B): the header then gives the
false-positive rate of every verdict type, a true null throughout.  Runs
of setup "sweep" make the order tables; those of setups mod-off, mod-idle,
mod-256 (and mod-adaptive, in runs before 270af06) (sweep.sh -k) the
module-cost lines; those of setup "adaptive" (sweep.sh -a: the kernel's
vm.fault_around_adaptive, mod_faultaround's policy before 6d713d5; their
order column the default order, the kernel policy's cap, not an order) a column
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
from one estimator, scripts/bench/benchstats.py, with the boot as the
replicate: each boot is summarised by the median of its runs of a cell.
One kernel's orders and setups ran interleaved in the same boots, so a
comparison new/ref is paired by boot: d_b = log(new's median in boot b)
- log(ref's), ratio exp(mean d), a t interval on B - 1 degrees of
freedom and p from the same t (benchstats.paired_ratio); over several
thread counts each boot's logs are averaged first (a geometric mean).
Two kernels' boots differ (the A/B): Welch's t on the boots' median logs
(benchstats.welch_ratio).  With one boot only, its repetitions take the
boots' place (within-boot precision; the report says so).  A mark: '*'
when the Holm-adjusted p within the family of its question (a
workload's orders; its recommendation, Bonferroni over the orders it was
picked from; the A/B...) is below 0.05 and the change is at least 1%, '~' otherwise; the printed 95%
intervals are unadjusted, so a '*' always has an interval that excludes
1, and a '~' may too (not shown after Holm).  Equivalence within +-1%
(the A/B, the module cost, the placebo arm, the adaptive policy where
no order applies): two one-sided tests from the same t (the 90%
interval inside [0.99, 1.01], benchstats.tost).

The report has a table per workload and thread count (with major faults
where there are any), a least-squares cost model (figure = a + b *
minflt + c * fa_mapped, + d * majflt where that varies, fitted in each
boot on its cells' medians; the boots' mean and t interval, not a
verdict), the equivalence margin per
fault (+-1% of the figure over the minor faults, beside the fitted cost
of a fault), a best and recommended order per workload (best = the
smallest boot-level geometric mean; recommended = the smallest order
whose ratio to the best has its 95% interval's top below 1.01), each
marked unstable when more than benchstats.FLIP_MAX of simulated reruns
would pick another order, the placebo arm (setup "placebo": the default
order run twice in every repetition, one paired test over all cells; it
fails on p < 0.05 or a ratio shown outside +-1%, and then every verdict
of the report is flagged '!'; runs without one fall back to bench v3's
anon control, every order against order 0), the
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

The parts, a module per role, are in scripts/bench/benchreport/ (data,
compare, costmodel, analysis, the text in text.py with verdicts_text.py
and modes_text.py, plots, results), each tested on its own by
scripts/bench/tests/test_bench_report_parts.py; this script reads the
arguments and ties them together.

The report opens with an overview ("At a glance": every workload's
ratio to the baseline order at each order, and its best and recommended
order), and its summary's lines fit in 100 columns.  Prints the report
on stdout and writes DIR/results.csv, DIR/results.json,
DIR/overview.png (the overview as a heatmap), DIR/strips.png (every
run, coloured by boot), DIR/residuals.png (the cost model's residuals),
DIR/<workload>.png and, for an A/B, DIR/ab.png.
Exits 1 if the counters disagree with Rss or, where there is none (the
program starts, fio, the builds, mixed, vmas), with getrusage's faults.
"""
import argparse
import os
import subprocess
import sys

from benchreport.analysis import Report
from benchreport.data import load, load_results, units
from benchreport.plots import Plots
from benchreport.results import write_results
from benchreport.text import Text


def this_commit():
    """The commit of this code (-dirty with changes), as bench.sh names it."""
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    git = ["git", "-C", top]
    try:
        c = subprocess.run(git + ["rev-parse", "--short=12", "HEAD"], check=True,
                           capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    dirty = subprocess.run(git + ["diff", "--quiet", "HEAD"]).returncode
    return c + ("-dirty" if dirty else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--meta", action="append", default=[])
    ap.add_argument("--aa", action="store_true",
                    help="the two labels are one kernel (make bench AA=1)")
    ap.add_argument("--pool", action="append", default=[],
                    help="--aa: an earlier A/A's results directory, pooled")
    ap.add_argument("--from", dest="src",
                    help="a results directory: its results.json's runs")
    ap.add_argument("runs", nargs="*")
    args = ap.parse_args()

    sets, meta = [], {}
    if bool(args.src) == bool(args.runs):
        sys.exit("bench-report: give LABEL=RUNS.csv... or --from DIR, one of them")
    if args.src:
        sets, meta = load_results(os.path.join(args.src, "results.json"))
        meta.setdefault("runs", f"the boots ran at {meta.get('commit', 'unknown')}")
        meta["commit"] = this_commit()
    for spec in args.runs:
        label, _, path = spec.partition("=")
        if not path:
            sys.exit(f"bench-report: '{spec}' is not LABEL=RUNS.csv[,...]")
        rows, timed = load(label, path)
        sets.append((label, rows, timed))
    if any("=" not in m for m in args.meta):
        sys.exit("bench-report: --meta takes KEY=VALUE")
    meta.update(m.split("=", 1) for m in args.meta)
    if args.aa and len(sets) != 2:
        sys.exit("bench-report: --aa takes two labels, A=... B=...")
    u = units(meta.get("clock", "native"), meta.get("qemu"))
    rep = Report(sets, meta, u)
    rep.aa = args.aa
    rep.pool_paths = args.pool
    if not rep.sweep:
        sys.exit("bench-report: no runs of setup 'sweep'")

    n = rep.analyse()
    txt = Text(rep)
    out = txt.report(n)
    os.makedirs(args.out, exist_ok=True)
    plots = Plots(rep)
    pngs = [plots.heatmap(n["tables"], args.out), plots.strips(args.out),
            plots.residuals(n["fits"], n["pooled"], args.out)]
    pngs += [plots.plot(w, n["tables"], args.out) for w in rep.workloads]
    if n["abl"]:
        pngs.append(plots.plot_ab(n["abl"], args.out))
    write_results(args.out, rep, n, out, [p for p in pngs if p],
                  txt.perf_line())
    print("\n".join(out))
    if n["bad"]:
        sys.exit("bench-report: the fault-around counters disagree with Rss "
                 "or with getrusage's faults (the cross-check above)")


if __name__ == "__main__":
    main()
