# SPDX-License-Identifier: BSD-3-Clause
"""papcoll trace: reading the run directories of libpapcoll_trace.so (reader), naming call sites (sites), the
imbalance metrics of one call (metrics) and the Markdown report (report).  Format: trace/format.h, docs/trace.md."""
