# SPDX-License-Identifier: GPL-2.0
"""The report's formatting: prose wrapped to 100 columns, numbers
as the tables print them, and the names of thread and task counts."""
import textwrap


def para(text, indent="", width=100):
    """Prose of the report, wrapped; data lines stay one per item."""
    return textwrap.wrap(text, width, initial_indent=indent,
                         subsequent_indent=indent + "  ",
                         break_on_hyphens=False)


def who(workload, n):
    """mmap-pread's, fio's and page_fault's workers are processes, the
    others' threads."""
    word = ("task" if workload.startswith(("mmap-pread", "fio-",
                                           "page_fault")) else "thread")
    return f"{n} {word}{'s' if n != 1 else ''}"


def fmt_int(x):
    return "-" if x is None or x != x else f"{x:,.0f}"


def fmt_fig(x):
    if x is None or x != x:
        return "-"
    return f"{x:,.3f}" if abs(x) >= 1 else f"{x:.4g}"


def fmt_ratio(x):
    if x is None or x != x:
        return "-"
    return f"{x:.4f}" if x < 10 else f"{x:.2f}" if x < 1000 else f"{x:.0f}"


def table(out, rows, lw=26, cw=17, width=100):
    """A table of (name, a value per order) rows, in blocks of as many
    orders as fit width, each block under all the row names: a 10-order
    table is three blocks of 4, 4 and 2 that a terminal shows unwrapped."""
    n = max(len(v) for _, v in rows)
    k = max(1, (width - lw) // cw)
    for i in range(0, n, k):
        if i:
            out.append("")
        for name, vals in rows:
            out.append((name.ljust(lw) + "".join(
                v.rjust(cw) for v in vals[i:i + k])).rstrip())


def fit(line, width=100):
    """A data line that runs past width, wrapped under its own indent
    (continuations 4 deeper): the summary's lines fit a terminal."""
    if len(line) <= width:
        return [line]
    lead = line[:len(line) - len(line.lstrip())]
    return textwrap.wrap(line.strip(), width, initial_indent=lead,
                         subsequent_indent=lead + "    ",
                         break_on_hyphens=False, break_long_words=False)


def fmt_short(x):
    """A ratio in five characters at most, for the overview's cells."""
    if x is None or x != x:
        return "-"
    return (f"{x:.3f}" if x < 10 else f"{x:.2f}" if x < 100 else
            f"{x:.1f}" if x < 1000 else f"{x:.0f}")
