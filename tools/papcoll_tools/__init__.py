"""Tools for papcoll: selection rules from benchmark sweeps (papcoll-tune)."""
