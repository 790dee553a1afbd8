# SPDX-License-Identifier: BSD-3-Clause
"""Tools for papcoll: selection rules from benchmark sweeps (papcoll-tune)."""


def _version():
    """The repository's VERSION (the one version number; CMake reads it too), or the installed package's."""
    import os
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "VERSION")
    try:
        with open(here) as f:
            return f.readline().strip()
    except OSError:
        from importlib.metadata import version
        return version("papcoll-tools")


__version__ = _version()
