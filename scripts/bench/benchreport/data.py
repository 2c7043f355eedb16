# SPDX-License-Identifier: GPL-2.0
"""The runs and what the report knows of them: its constants, the
figure's units per clock, the CSV loader, the workload classes, the
cross-check of the fault-around counters and the runs as results.csv
has them."""
import csv
import json
import re
import sys

from .fmt import who


SEED = 20140227		# the cost model's bootstrap: the same runs, the same report
CONF = 0.95
ALPHA = 0.05
MIN_EFFECT = 0.01	# a change below 1% is never marked '*'
DEFAULT_ORDER = 4	# unless --meta default_order= says otherwise
# The A/B and module cost: a 90% interval, so that "inside the margin" is
# a TOST at 5% per side, and the margin the series must stay within.
AB_CONF = 0.90
AB_MARGIN = 0.01
CONTROL = "anon"	# no order touches anonymous faults
# The page-cache states whose file is dropped before each run, and the
# workloads whose file always is (sparse-1g: a sparse ext4 file).
COLD = ("@ext4-cold", "@ext4-sparse")
COLD_NAMES = ("sparse-1g",)


def is_cold(workload):
    """Its file dropped before each run: faults wait on readahead."""
    return workload.endswith(COLD) or workload in COLD_NAMES
# Where the counters and the mapping's Rss both apply: not anon (no
# fault-around) and not exec/dynexec (the children's mappings are gone).
CHECKED = ("seq", "rand", "sparse", "page_fault4", "mmap-xread-seq-mt",
           "sparse-1g", "seq-interleaved", "hot-reuse", "manymaps-seq",
           "seq-then-sparse", "sparse-then-seq", "stride64k", "streams3",
           "hot-skew", "seq-sparse-seq", "smallfiles")
# The page-cache states made to hold large folios (sweep-states.sh), and
# @shmem-<size>'s prefix: shared anonymous memory in that mTHP size.
LARGE_FOLIOS = ("huge", "huge-within", "ext4-ra")
SHMEM_MTHP = "shmem-"
# will-it-scale's write cases: write faults never fault around, so every
# run must count none (page_fault4, the read case, is checked above).
WRITES = ("page_fault2", "page_fault3")
# Where there is no Rss, and only fa_mapped > 0 at orders above 0 can be
# checked: exec and dynexec (the children's mappings are gone), mixed
# (fa-bench does not measure its two threads' mappings), vmas (each of
# its two-page mappings is gone before the next).  EXECS: those whose
# pages touched are program starts (start-fio: fio --version's).
EXECS = ("exec", "dynexec", "start-fio")
# fio's rows: a program nobody here wrote, measured as exec is, with its
# own count of its jobs' faults beside the children's (prog_minflt), and
# its own I/O time as the figure (the whole of its life is fixed_ns).
FIO = ("fio-read", "fio-randread")
# Debian's gcc in the guest (sweep.sh -B): their pages are the programs
# linked.
BUILDS = ("build", "rebuild")
NO_RSS = EXECS + ("mixed", "vmas") + FIO + BUILDS
# The adaptive policy (the kernel's; the module's in older runs): the
# setup of its runs, and its column; then its two baselines, each a setup
# and a column of its own (mod_faultaround's, sweep.sh -y).
ADAPTIVE = "adaptive"
POLICIES = (ADAPTIVE, "madvise", "ramp")
# The module-cost setups compared with mod-off (sweep.sh -k).
MOD_SETUPS = (("mod-idle", "no override"), ("mod-256", "256 overrides"),
              ("mod-adaptive", "adaptive"))
# The adaptive policy's goals (issue 29), set before any of its
# constants is tuned on the held-out workloads; a miss is reported, the
# goal never moved: at most 1 + ADAPT_BEST times the best fixed order on
# every workload; below the best fixed order where the pattern changes
# within one mapping (CHANGING); where no order applies, equivalent to
# off within +-ADAPT_MARGIN.
ADAPT_BEST = 0.05
ADAPT_MARGIN = 0.01
CHANGING = ("seq-then-sparse", "sparse-then-seq", "seq-sparse-seq")
SPARSE_GOAL = 1.25	# sparse's pages mapped per page touched, at most
INT_FIELDS = ("threads", "order", "rep", "minflt", "majflt", "ns", "pages",
              "mapped")
# Since bench v3 (sweep.sh): the distinct pages read, and the pages of
# the measured mappings mapped but never read; -1 where not measured or
# in older CSVs.
OPT_FIELDS = ("distinct", "unread", "prog_minflt", "prog_majflt")
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


def cross_title(workloads):
    """The cross-check's name: exec and dynexec are always named (the
    report's text before mixed), another workload without Rss where it
    ran."""
    ran = {base_name(w) for w in workloads}
    names = ", ".join(w for w in NO_RSS if w in ("exec", "dynexec") or w in ran)
    fio = ("; fio: its own faults between a fault per window and "
           "getrusage's count" if ran & set(FIO) else "")
    writes = ("; page_fault2, page_fault3: no fault-around at all"
              if ran & set(WRITES) else "")
    shmem = any(w.partition("@")[2].startswith(SHMEM_MTHP) for w in workloads)
    large = ("; no bound by the window in @" + ", @".join(LARGE_FOLIOS) +
             (f" and @{SHMEM_MTHP}<N>k" if shmem else "") +
             ", where a folio is mapped whole"
             if any(base_name(w) in NO_RSS and
                    whole_folios(w)
                    for w in workloads) else "")
    return (f"Cross-check of the counters (against Rss; {names}: "
            "none at order 0, above it fa-mapped > 0, fa-calls <= the "
            "faults (getrusage) and fa-mapped <= fa-calls x (window - 1)"
            f"{fio}{writes}{large})")


def base_name(workload):
    """The workload without its page-cache state: mixed@ext4 is mixed."""
    return workload.partition("@")[0]


def whole_folios(workload):
    """In a state of large folios (LARGE_FOLIOS, or shared memory in
    an mTHP size, @shmem-<N>k), where 7.3 maps a folio whole whatever
    the window."""
    state = workload.partition("@")[2]
    return state in LARGE_FOLIOS or state.startswith(SHMEM_MTHP)


def no_order(workload):
    """Where the order makes no difference: anon and the write faults of
    page_fault2 and 3 (no fault-around) and a @huge file (a fault maps
    its whole PMD-sized folio)."""
    return (base_name(workload) in (CONTROL,) + WRITES
            or workload.endswith("@huge"))


def checked(workload):
    """In the page-cache states but those of large folios
    (whole_folios()): with @huge a
    fault maps its whole PMD-sized folio (do_set_pmd() from
    filemap_map_pages()), which the counters, of PTEs, do not count, and
    with @huge-within and @ext4-ra (and @huge's PTE-mapped folios) 7.3's
    finish_fault() maps a whole folio beside fault-around, uncounted."""
    name = base_name(workload)
    return (not whole_folios(workload)
            and (name in CHECKED or name.startswith("mmap-pread")))


def run_name(r):
    """A run, as the cross-check names the ones that disagree."""
    return (f"{r['label']} boot {r['boot']} {r['workload']} "
            f"{who(r['workload'], r['threads'])} order={r['order']} "
            f"rep={r['rep']}")


def crosscheck(runs):
    """page_fault2 and 3 write: they must count no fault-around.  Where
    the counters and the mappings' Rss both apply (seq, rand, sparse,
    mmap-pread-*, page_fault4), they must agree: at order 0 nothing is counted;
    with one thread every fault in the mapping faults around and maps its
    own page, so Rss = fa_calls + fa_mapped (sparse sums Rss over its
    passes, which the counters span too); with more, a thread can fault on
    a page that another's window just mapped, and with N mmap-pread tasks
    Rss is summed over their mappings, so fa_mapped <= Rss <= fa_calls +
    fa_mapped.  The same bounds hold cold (@ext4-cold, @ext4-sparse's
    dropped holes): a fault on a page
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
            if not around_agrees(r):
                bad.append(f"{run_name(r)}: fa_calls {calls}, fa_mapped "
                           f"{fa}, faults {r['minflt']} + {r['majflt']}"
                           + (": nothing mapped ahead"
                              if r["order"] > 0 and fa <= 0 else ""))
            if base_name(r["workload"]) in FIO and not fio_agrees(r):
                bad.append(f"{run_name(r)}: fio's own "
                           f"faults {r['prog_minflt']} + {r['prog_majflt']}, "
                           f"the children's {r['minflt']} + {r['majflt']}, "
                           f"{r['pages']} pages read")
            continue
        if base_name(r["workload"]) in WRITES:
            done.append(r)
            if calls or fa:
                bad.append(f"{run_name(r)}: fa_calls "
                           f"{calls}, fa_mapped {fa}: a write fault faulted "
                           "around")
            continue
        if not checked(r["workload"]):
            continue
        done.append(r)
        if r["order"] == 0:
            ok = calls == 0 and fa == 0
        elif r["threads"] == 1 and not is_cold(r["workload"]):
            ok = rss == calls + fa
        else:
            ok = fa <= rss <= calls + fa
        if not ok:
            bad.append(f"{run_name(r)}: Rss {rss}, fa_calls {calls}, "
                       f"fa_mapped {fa}")
    return done, bad


def around_agrees(r):
    """Where there is no Rss, the counters against getrusage's faults:
    none at order 0; above it some pages mapped ahead (a program starts
    on cached text), every fault-around call a fault of the measured
    processes (getrusage's minor + major; the guest runs nothing else;
    not cold, where a retried fault faults around twice), and at most a
    window less the faulting page mapped ahead a call, but in the states
    of large folios, where 7.3 maps a folio whole whatever the window."""
    calls, fa, order = r["fa_calls"], r["fa_mapped"], r["order"]
    if order == 0:
        return calls == 0 and fa == 0
    # A fault retried (VM_FAULT_RETRY: waiting on a folio readahead is
    # reading) faults around again but counts once: cold, no calls bound.
    cold = is_cold(r["workload"])
    whole = whole_folios(r["workload"])
    return (0 < calls and (cold or calls <= r["minflt"] + r["majflt"])
            and 0 < fa and (whole or fa <= calls * ((1 << order) - 1)))


FIO_OWN = 64	# a fio job's own faults besides its reads', at most


def fio_agrees(r):
    """fio's own count of its jobs' faults against getrusage's of all of
    fio (its start-up too): no more than that, and at least one fault per
    fault-around window of the pages its jobs read (each job maps the
    file itself, and a window is mapped by one fault at most), but in the
    states of large folios, where a fault maps a folio whole.  Warm, a
    fault maps its whole window, so at most a fault per window and
    FIO_OWN a job: fault-around that stopped shows there."""
    own = r["prog_minflt"] + r["prog_majflt"]
    if r["prog_minflt"] < 0 or r["order"] < 0:
        return r["prog_minflt"] >= 0
    windows = r["pages"] >> r["order"]
    top = (r["minflt"] + r["majflt"] if is_cold(r["workload"])
           else min(r["minflt"] + r["majflt"],
                    windows + FIO_OWN * r["threads"]))
    low = 0 if whole_folios(r["workload"]) else windows
    return low <= own <= top


def folio_order(meta, w):
    """The largest folio order of @w's file, from bench.sh's --meta
    "folios <w>" (order:pages pairs); None without one."""
    v = meta.get(f"folios {w}")
    orders = [int(o) for o in re.findall(r"(\d+):\d+", v or "")]
    return max(orders) if orders else None


def per_fault(r):
    """What one fault of run r mapped: its Rss / its faults (large folios:
    more than the window); None without either."""
    f = r["minflt"] + r["majflt"]
    return r["mapped"] / f if f > 0 and r["mapped"] > 0 else None


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


def load_results(path):
    """A results.json's runs and header, as load() and --meta give them:
    a committed run rendered again with today's statistics.  Returns
    ([(label, rows, timed)], meta)."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"bench-report: cannot read {path}: {e}")
    meta = {k: str(v) for k, v in doc["environment"].items()}
    fields = units(meta.get("clock", "native"), meta.get("qemu"))["fields"]
    back = {v: k for k, v in fields.items()}
    sets = {}
    for run in doc["runs"]:
        r = {back.get(k, k): v for k, v in run.items()}
        sets.setdefault(r["label"], []).append(r)
    out = []
    for label, rows in sets.items():
        timed = all(r.get("fixed_ns") is not None for r in rows)
        for r in rows:
            for k in ("fixed_ns", "teardown_ns"):
                r[k] = r.get(k) or 0
        out.append((label, rows, timed))
    return out, meta


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
