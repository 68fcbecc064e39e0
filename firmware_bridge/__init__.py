"""Devices → typed observations: smart dice over BLE, sensor boards over serial or BLE, simulators; opened by URL.

Nothing here knows a game: a die reports a face, never a move (docs/architecture.md, "Data flow"). The session
turns observations into proposed actions. Never imports companion.games or the UI (tests/test_layers.py).
"""
