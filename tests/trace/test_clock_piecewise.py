#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Unit test of the trace reader's clock correction (tools/papcoll_tools/trace/reader.py, trace/format.h):
piecewise-linear interpolation of the offsets between consecutive synchronizations, the end segments extended,
and the per-synchronization residual (the previous segment's prediction error), on a synthetic header whose clock
drifts non-linearly.  Fails if the correction is linear end to end (the mid-run error is then far larger).

    test_clock_piecewise.py [--tools DIR]
"""
import argparse
import os
import sys

import numpy as np


def header(syncs):
    return {"clock": {"sync": [{"when": w, "t_local": t, "offset": o, "error": e} for w, t, o, e in syncs]}}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tools", default=os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
    args = ap.parse_args()
    sys.path.insert(0, os.path.abspath(args.tools))
    from papcoll_tools.trace import reader

    # Rank 1's true offset o(t) = -(100 us + 50 ppm t + A t^2), A = 1000 ppm/s / 2, over 1 s; rank 0 the reference.
    accel = 1000e-15 / 2

    def true_offset(t):
        return -(100e3 + 50e-6 * t + accel * t * t)

    knots = np.linspace(0, 1e9, 11)  # init, 9 periodic, finalize: every 100 ms
    syncs = [("init" if k == 0 else "finalize" if k == len(knots) - 1 else "periodic", [t, t], [0, true_offset(t)],
              [500, 800]) for k, t in enumerate(knots)]
    clock = reader.Clock(header(syncs))
    t = np.linspace(-5e7, 1.05e9, 2001)  # also before the first and after the last synchronization
    err = np.abs(clock.to_global(1, t) - (t + true_offset(t)))
    inside = (t >= 0) & (t <= 1e9)
    # chord error of a parabola over a segment L: A (L/2)^2 = 1.25 us here; extended by 50 ms outside: A 2 L' h
    bound = accel * (1e8 / 2) ** 2
    assert err[inside].max() <= bound * 1.001 + 1, f"inside: {err[inside].max():.1f} ns > {bound:.1f} ns"
    assert err[~inside].max() <= accel * 5e7 * (1e8 + 5e7) * 1.001 + 1, f"outside: {err[~inside].max():.1f} ns"
    assert np.all(clock.to_global(0, t) == t), "rank 0 (offset 0) moved"
    # the knots themselves are exact
    assert np.allclose(clock.to_global(1, knots), knots + true_offset(knots), atol=1e-3), "knots not exact"
    # linear end to end (the first and last synchronization only) is much worse: the test can fail
    linear = reader.Clock(header([syncs[0], syncs[-1]]))
    lin_err = np.abs(linear.to_global(1, t[inside]) - (t[inside] + true_offset(t[inside]))).max()
    assert lin_err > 50 * bound, f"the linear correction's error {lin_err:.0f} ns is not much larger"
    # residuals: at knot k >= 2, extrapolating segment (k-2, k-1) by L misses a parabola by 2 A L^2
    seg = clock.segment_residuals()
    assert seg.shape == (len(knots) - 2, 2), seg.shape
    assert np.allclose(seg[:, 1], 2 * accel * 1e8 ** 2, rtol=1e-6), seg[:, 1]
    assert np.all(seg[:, 0] == 0), "rank 0's residuals"
    assert np.allclose(clock.stated_residual(), [500, 800 + 2 * accel * 1e8 ** 2]), clock.stated_residual()
    assert np.allclose(clock.residual(), [500, 800])
    # one synchronization (a run that did not finalize): the offset alone; two: linear
    one = reader.Clock(header(syncs[:1]))
    assert np.allclose(one.to_global(1, t), t + true_offset(0)) and one.segment_residuals().shape[0] == 0
    two = reader.Clock(header([syncs[0], syncs[5]]))
    mid = 2.5e8
    assert abs(two.to_global(1, mid) - (mid + (true_offset(0) + true_offset(5e8)) / 2)) < 1e-3
    # a rank whose two synchronizations have the same local time: no division by zero, the first offset
    same = reader.Clock(header([("init", [0, 7], [0, 3], [1, 1]), ("finalize", [10, 7], [0, 9], [1, 1])]))
    assert np.isfinite(same.to_global(1, [0.0, 7.0, 20.0])).all()
    print(f"piecewise correction: max error {err[inside].max():.0f} ns inside (bound {bound:.0f}), linear "
          f"{lin_err:.0f} ns; residuals {seg[0, 1]:.0f} ns per sync")
    print("PASS")


if __name__ == "__main__":
    main()
