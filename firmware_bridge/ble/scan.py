"""What is advertising nearby: `await discover(timeout=5.0)` → [Found(address, name, kind, rssi, url)].

The kind is guessed from what a device advertises: Pixels manufacturer data (company 0x0D39) or the current Pixels
service → "pixels"; a name starting "GoDice_" → "godice"; a name starting "TableBus" → "tablebus"; otherwise None.
`url` is the device URL to open it with (GoDice still needs its shell: the die cannot tell which one it wears).

`backend`: None (the platform's Bluetooth), a BleBackend, a bleak scanner backend class, or anything with a
`scanner_backend` (a VirtualRadio). Errors come back as DeviceError (e.g. Bluetooth switched off).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from firmware_bridge.ble import pixels_protocol as pp
from firmware_bridge.ble import uuids
from firmware_bridge.ble.transport import BleBackend, default_backend, translate

TABLEBUS_NAME_PREFIX = "TableBus"


@dataclass(frozen=True)
class Found:
    address: str
    name: str | None
    kind: str | None                 # "godice", "pixels", "tablebus" or None
    rssi: int | None
    detail: str = ""                 # what else the advertisement says (a Pixels die's type and battery)

    @property
    def url(self) -> str | None:
        """The URL to open it with; its advertised name travels along (`name=`), so it is called by its name even
        before it answers. A GoDice gets shell=d6 until the group picks its shell (the die cannot tell)."""
        if not self.kind:
            return None
        extra = f"&name={quote(self.name, safe='')}" if self.name else ""
        if self.kind == "godice":
            return f"ble://{self.address}?kind=godice&shell=d6{extra}"
        return f"ble://{self.address}?kind={self.kind}{extra}"


def guess_kind(name: str | None, service_uuids: list[str], manufacturer_data: dict[int, bytes]) -> str | None:
    services = {u.lower() for u in service_uuids}
    if uuids.PIXELS_COMPANY_ID in manufacturer_data or uuids.PIXELS_SERVICE in services:
        return "pixels"
    if name and name.startswith(uuids.GODICE_NAME_PREFIX):
        return "godice"
    if name and name.startswith(TABLEBUS_NAME_PREFIX):
        return "tablebus"
    return None


def _detail(kind: str | None, manufacturer_data: dict[int, bytes], service_data: dict[str, bytes]) -> str:
    if kind != "pixels" or uuids.PIXELS_COMPANY_ID not in manufacturer_data:
        return ""
    extra = next((bytes(v) for v in service_data.values() if len(v) >= 8), None)
    advert = pp.decode_advert(manufacturer_data[uuids.PIXELS_COMPANY_ID], extra)
    if isinstance(advert, pp.Garbled):
        return ""
    return (f"{advert.model}, face {pp.face_value(advert.model, advert.face_index, advert.build_timestamp)}, "
            f"battery {advert.battery}%" + (" (charging)" if advert.charging else ""))


def _scanner_class(backend: Any):
    if backend is None:
        return default_backend().scanner
    if isinstance(backend, BleBackend):
        return backend.scanner
    if hasattr(backend, "scanner_backend"):
        return backend.scanner_backend
    return backend


async def discover(timeout: float = 5.0, backend: Any = None) -> list[Found]:
    """Scan for `timeout` seconds; every device heard, strongest signal first."""
    import bleak

    try:
        found = await bleak.BleakScanner.discover(timeout=timeout, return_adv=True, backend=_scanner_class(backend))
    except Exception as err:
        raise translate(err, "the Bluetooth scan") from err
    out = []
    for address, (device, adv) in found.items():
        name = adv.local_name or device.name
        kind = guess_kind(name, list(adv.service_uuids), dict(adv.manufacturer_data))
        out.append(Found(address.upper(), name, kind, adv.rssi, _detail(kind, dict(adv.manufacturer_data),
                                                                         dict(adv.service_data))))
    return sorted(out, key=lambda f: (-(f.rssi if f.rssi is not None else -999), f.address))
