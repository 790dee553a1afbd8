# SPDX-License-Identifier: BSD-3-Clause
"""papcoll sim: SimGrid SMPI simulations of papcoll-bench (platforms, runs)."""
