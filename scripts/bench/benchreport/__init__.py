# SPDX-License-Identifier: GPL-2.0
"""bench-report.py's parts, one module per role (scripts/bench/benchreport/)."""
