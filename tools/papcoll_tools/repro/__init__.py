"""Reproductions of the seed papers' experiments (papcoll sim reproduce)."""
