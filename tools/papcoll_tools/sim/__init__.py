"""papcoll sim: SimGrid SMPI simulations of papcoll-bench (platforms, runs)."""
