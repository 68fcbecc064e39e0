"""A Table Bus board over Bluetooth LE: ble://ADDRESS?kind=tablebus, through bleak's BleakClient.

The board offers the Nordic UART service (6e400001-b5a3-f393-e0a9-e50e24dcca9e): the host writes frames to RX
(…0002…) and gets the board's bytes as notifications on TX (…0003…). The byte stream is the serial one: a frame
may arrive split over several notifications (each at most MTU-3 bytes) and the decoder does not care where.
Writes are split the same way. Everything the bytes mean is TableBusDevice's.

`backend=` takes bleak backend classes (the virtual radio's `radio.backend`, or a client backend class); without
it, the default of firmware_bridge.ble.transport (the platform's Bluetooth unless a test set the virtual radio).
"""
from __future__ import annotations

from firmware_bridge.device import DeviceURL
from firmware_bridge.errors import ConnectionLost, DeviceError, DeviceNotFound, DeviceTimeout
from firmware_bridge.tablebus.link import TableBusDevice

NUS_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
NUS_RX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"   # host -> board (write)
NUS_TX = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"   # board -> host (notify)
CONNECT_TIMEOUT = 10.0


def _client_backend(backend):
    if backend is None:
        try:
            from firmware_bridge.ble.transport import default_backend
        except ImportError:
            return None
        backend = default_backend()
    return getattr(backend, "client", backend)


def _translate(err: BaseException, name: str) -> DeviceError:
    try:
        from firmware_bridge.ble.transport import translate
    except ImportError:
        translate = None
    if translate is not None:
        return translate(err, name)
    if isinstance(err, DeviceError):
        return err
    if isinstance(err, TimeoutError):
        return DeviceTimeout(f"{name} did not answer in time")
    if "not found" in str(err).lower():
        return DeviceNotFound(f"{name} was not found: is it switched on and in range?")
    return DeviceError(f"{name}: Bluetooth error: {err}")


class BleTableBus(TableBusDevice):
    def __init__(self, url: DeviceURL, backend=None):
        super().__init__(url)
        self._backend = backend
        self._client = None
        self._closing = False
        self._chunk = 20
        self._respond = False

    async def _connect(self) -> None:
        try:
            import bleak
        except ImportError as err:
            raise DeviceError(f"{self.url}: Bluetooth needs the package 'bleak', which is not installed") from err
        self._closing = False
        client = bleak.BleakClient(self.url.address, disconnected_callback=self._disconnected,
                                   timeout=CONNECT_TIMEOUT, backend=_client_backend(self._backend))
        try:
            await client.connect()
            self._client = client
            rx = client.services.get_characteristic(NUS_RX)
            tx = client.services.get_characteristic(NUS_TX)
            if rx is None or tx is None:
                raise DeviceError(f"{self.url.address} has no Nordic UART service: is it a Table Bus board?")
            self._respond = "write-without-response" not in rx.properties
            self._chunk = max(20, getattr(rx, "max_write_without_response_size", 20) or 20)
            await client.start_notify(tx, self._notified)
        except Exception as err:
            self._client = None
            try:
                await client.disconnect()
            except Exception:  # noqa: BLE001 — it never got far enough to need closing
                pass
            raise _translate(err, self.url.address) from err

    def _notified(self, _characteristic, data: bytearray) -> None:
        self._bytes_received(bytes(data))

    def _disconnected(self, _client) -> None:
        if not self._closing:
            self._link_lost(ConnectionResetError("the Bluetooth link dropped"))

    async def _send(self, data: bytes) -> None:
        client = self._client
        if client is None:
            raise ConnectionLost(f"{self.name}: not connected")
        try:
            for i in range(0, len(data), self._chunk):
                await client.write_gatt_char(NUS_RX, data[i:i + self._chunk], response=self._respond)
        except Exception as err:
            raise _translate(err, self.name) from err

    async def _disconnect(self) -> None:
        self._closing = True
        client, self._client = self._client, None
        if client is not None:
            await client.disconnect()
