"""GATT and advertising identifiers of the dice and boards we speak to (facts from SMART_DICE.md)."""
from __future__ import annotations

NUS_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"   # Nordic UART service (GoDice, legacy Pixels, Table Bus)
NUS_RX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"        # host writes here
NUS_TX = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"        # host subscribes here

PIXELS_SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"  # current Pixels firmware
PIXELS_NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
PIXELS_WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"

PIXELS_LEGACY_SERVICE = NUS_SERVICE                       # legacy Pixels firmware
PIXELS_LEGACY_NOTIFY = NUS_SERVICE                        # notify on the service's own UUID
PIXELS_LEGACY_WRITE = NUS_RX

PIXELS_COMPANY_ID = 0x0D39                                # manufacturer data in Pixels advertisements

GODICE_NAME_PREFIX = "GoDice_"
