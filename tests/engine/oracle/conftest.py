"""The oracle's modules are imported by the tests next to this folder (as a package of
that folder's path); pytest is not to collect them on their own (their doctests are the
old code's, and alone they cannot find their sibling modules)."""

collect_ignore_glob = ["old_*.py"]
