# SPDX-License-Identifier: BSD-3-Clause
"""Reproductions of the seed papers' experiments (papcoll sim reproduce)."""
