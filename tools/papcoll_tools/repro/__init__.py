# SPDX-License-Identifier: BSD-3-Clause
"""Reproductions of the source papers' experiments (papcoll sim reproduce; the papers: docs/references.md)."""
