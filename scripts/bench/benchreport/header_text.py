# SPDX-License-Identifier: GPL-2.0
"""The report's header in words, for Text (text.py): what ran and how it
is measured, the statistics, the Holm families and the power."""
from .data import (CONF, ALPHA, MIN_EFFECT, AB_CONF, AB_MARGIN, ADAPTIVE,
                   POLICIES)
from .fmt import para


class HeaderText:
    """Text's header; self.r is the Report."""

    def families(self):
        """The Holm families, in words."""
        sizes = self.r.family.sizes
        if not sizes:
            return "none"
        q, m = max(sizes.items(), key=lambda x: x[1])
        return (f"{len(sizes)} families, {sum(sizes.values())} comparisons; "
                f"the largest, {m}: '{q}'")

    def power_text(self, pw):
        """The power line: what a '~' can mean."""
        if not pw:
            return None
        at = "; ".join(f"{what} (sd {sd:.2%}): " + ", ".join(
            f"{e:.0%} {p:.0%}" for e, p in pw_.items()) for what, sd, pw_ in pw["at"])
        return (f"Power to mark a change of 1%, 2% and 5% in a family of "
                f"{pw['m']} (a workload's orders) with {pw['boots']} boots at "
                f"Holm's first step, at the boot-to-boot sd of the tables' "
                f"paired log ratios: {at}.  A '~' where the power is low "
                "says little; more boots buy power (benchstats.power_paired).")

    def header(self, ncmp, ctl=None, calib=None, power=None):
        u, st = self.r.u, self.r.st
        out = ["Fault-around sweep (bench v4)"]
        out += [f"  {k}: {v}" for k, v in self.r.meta.items()
                if v and k not in ("default_order", "perf")]
        out.append(f"  default_order: {self.r.default}" + (
            "" if self.r.default_given else " (not given; assumed)"))
        perf = self.perf_line()
        if perf:
            out += para(perf, "  ")
        if "clock" not in self.r.meta:
            out.append("  clock: not given; assumed native")
        if ctl and ctl.get("verdict") == "moves":
            out += para(self.moved_line(ctl))
        if calib:
            out += self.render_calib(calib)
        out += para(f"Figure: {u['name']}, printed as '{u['unit']}': {u['note']}")
        for label, rows, _ in self.r.sets:
            sweep = [r for r in rows if r["setup"] == "sweep"]
            policy = sum(r["setup"] == ADAPTIVE for r in rows)
            base = sum(r["setup"] in POLICIES[1:] for r in rows)
            nb = len(st.boots.get(label, []))
            out.append(f"Kernel '{label}': {nb} boot{'s' if nb != 1 else ''}, "
                       f"{len(rows):,} runs ({len(sweep):,} of the order sweep"
                       + (f", {policy:,} of the adaptive policy" if policy else "")
                       + (f", {base:,} of its baselines" if base else "")
                       + ")" + (", the tables' kernel" if label == self.r.label else ""))
        out.append("Statistics (scripts/bench/benchstats.py):")
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
            f"- baseline) / baseline; baseline = order {self.r.orders[0]} "
            "unless stated: negative means fewer faults, fewer pages or a "
            "smaller figure.",
            f"'*' marks a change whose Holm-adjusted p within its question's "
            f"family ({self.families()}) is < {ALPHA} AND whose size "
            f"is at least {MIN_EFFECT:.0%} (the minimum effect that counts); "
            "'~' any other: a '*' always has an interval that excludes 1, "
            "and a '~' may too (not shown after Holm's adjustment).  Fault "
            "and page rows are medians of counts and their %chg is not "
            "tested.",
            f"Equivalence within +-{AB_MARGIN:.0%} (the A/B, the module "
            "cost, the placebo arm or the anon control): two one-sided tests at "
            f"{(1 - AB_CONF) / 2:.0%} from the same t, i.e. the "
            f"{AB_CONF:.0%} interval inside [{1 - AB_MARGIN:g}, "
            f"{1 + AB_MARGIN:g}].",
        ]
        if self.power_text(power):
            text.append(self.power_text(power))
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
            "mappings; sparse: over its passes), per fault = each run's "
            "Rss / its faults, the median over the runs (not the ratio of "
            "the two medians above) and the most: the pages one fault "
            "mapped, above 2^order where a large folio is mapped whole; "
            "teardown = the munmap "
            "after the work, included in the figure; fixed = creating and "
            "joining the threads or tasks, excluded from it; distinct read "
            "(where counted) = the distinct pages the work read, summed "
            "over its passes; unread = pages of the measured mappings "
            "mapped at the end of a pass but never read, summed over the "
            "passes; fio's figure is, with one job, its own I/O time (its "
            "JSON's lat_ns, mean x N), and its 'whole fio' row all of its "
            "life, start-up included; with more jobs, the figure is fio's "
            "whole life and its 'jobs' latency' row their I/O times summed "
            "(under -icount a job's latencies absorb the other vCPUs' "
            "turns, so that sum is no figure); fio's faults and counters "
            "are all of its life either way.")
        if any(t > 1 for ts in self.r.threads.values() for t in ts):
            out += para(
                "Rows of N threads or tasks: "
                + ("under -icount the vCPUs run in turn, so their figure is "
                   "the N workers' instructions summed, not parallel time, "
                   "and shows no contention (atomics count as instructions, "
                   "cache-line transfers not at all); make bench NATIVE=1 on "
                   "hardware measures that."
                   if self.r.u["field"] == "icount_insn" else
                   "the workers run at once on the machine's CPUs (a "
                   "guest's vCPUs, or natively its CPUs), their figure the "
                   "time from the first start to the last finish."), "  ")
        if self.r.policy_from:
            starts = ", ".join(map(str, sorted(set(self.r.policy_from.values()))))
            out += para(
                f"Column {ADAPTIVE}: the runs with the adaptive policy on "
                f"(setup {ADAPTIVE}: the kernel's vm.fault_around_adaptive "
                "since faultaround 6d713d5, capped by the global order; "
                "mod_faultaround's per-VMA policy before), at the kernel's "
                f"default order {starts} (their order column holds "
                "it); one a repetition, shuffled among the orders' runs in "
                "the same boots.  Its ratio, interval, %chg and mark are "
                f"against order {self.r.orders[0]}, as an order's.  The "
                "recommendations, the cost model and the cross-check are of "
                "the fixed orders only; the summary opens with the policy "
                "against them.")
            if any(k[1] in POLICIES[1:] for k in self.r.st.cells):
                out += para(
                    "Columns madvise and ramp: the adaptive policy's two "
                    "simple baselines, mod_faultaround's (its policy file; "
                    "sweep.sh -y), in the same boots and shuffled the same "
                    "way, at the same cap: madvise, each mapping with the "
                    "madvise() hint its reader would give (fa-bench -A: "
                    "MADV_SEQUENTIAL for the readers in order, MADV_RANDOM "
                    "for the random and sparse ones, none where the pattern "
                    "changes and for programs), one page under MADV_RANDOM "
                    "and the cap otherwise (the hint also steers readahead "
                    "on the cold rows); ramp, readahead's ramp per open "
                    "file: 4 pages, then x4 below a sixteenth of the cap "
                    "and x2 above on each fault within two windows of the "
                    "file's last, back to 4 pages on any other.")
        if not all(t for _, _, t in self.r.sets):
            old = [label for label, _, t in self.r.sets if not t]
            out += para(f"The CSVs of {', '.join(old)} predate fixed_ns and "
                        "teardown_ns: not recorded (taken as 0).", "  ")
        out.append("")
        return out
