"""Pure rules engines, one package per game. No I/O, no clock, no global random (tests/test_purity.py)."""
