"""A Table Bus board on a serial port (USB CDC, a UART adapter, a pty): serial:///dev/ttyACM0?baud=115200.

pyserial is blocking, so one reader thread per port hands bytes to the asyncio loop with call_soon_threadsafe and
writes go through asyncio.to_thread: the loop never waits on the port. Everything the bytes mean is TableBusDevice's.
"""
from __future__ import annotations

import asyncio
import errno
import threading

from firmware_bridge.device import DeviceURL
from firmware_bridge.errors import BadDeviceURL, DeviceBusy, DeviceError, DeviceNotFound
from firmware_bridge.tablebus.link import TableBusDevice

BAUD_RATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1000000)
READ_TIMEOUT = 0.05    # seconds a blocking read waits, so the reader thread notices close() promptly


class SerialTableBus(TableBusDevice):
    def __init__(self, url: DeviceURL):
        super().__init__(url)
        raw = url.params.get("baud", "115200")
        if not raw.isdigit() or int(raw) not in BAUD_RATES:
            raise BadDeviceURL(f"{url}: baud must be one of {', '.join(map(str, BAUD_RATES))}")
        self.baud = int(raw)
        self._port = None
        self._reader: threading.Thread | None = None
        self._stop = threading.Event()

    async def _connect(self) -> None:
        try:
            import serial
        except ImportError as err:
            raise DeviceError(f"{self.url}: serial ports need the package 'pyserial', which is not installed") \
                from err
        try:
            self._port = await asyncio.to_thread(serial.serial_for_url, self.url.address, baudrate=self.baud,
                                                 timeout=READ_TIMEOUT, write_timeout=1.0, exclusive=True)
        except (serial.SerialException, OSError, ValueError) as err:
            code = getattr(err, "errno", None)
            text = str(err).splitlines()[0] if str(err) else type(err).__name__
            if code == errno.EBUSY or "exclusive" in text.lower() or "lock" in text.lower():
                raise DeviceBusy(f"{self.url.address} is held by another program; close it there") from err
            raise DeviceNotFound(f"{self.url.address}: cannot open the serial port ({text})") from err
        loop = asyncio.get_running_loop()
        self._stop.clear()
        self._reader = threading.Thread(target=self._read_forever, args=(self._port, loop),
                                        name=f"tablebus-serial {self.url.address}", daemon=True)
        self._reader.start()

    def _read_forever(self, port, loop: asyncio.AbstractEventLoop) -> None:
        try:
            while not self._stop.is_set():
                data = port.read(max(1, port.in_waiting))
                if data:
                    loop.call_soon_threadsafe(self._bytes_received, data)
        except Exception as err:  # noqa: BLE001 — whatever ends the port ends the link
            if not self._stop.is_set():
                reason = OSError(f"the serial port went away, unplugged? ({type(err).__name__})")
                try:
                    loop.call_soon_threadsafe(self._link_lost, reason)
                except RuntimeError:   # the loop is already closed: nobody is listening
                    pass

    async def _send(self, data: bytes) -> None:
        port = self._port
        if port is None:
            raise OSError("the port is closed")
        await asyncio.to_thread(port.write, data)

    async def _disconnect(self) -> None:
        self._stop.set()
        reader, self._reader = self._reader, None
        if reader is not None and reader is not threading.current_thread():
            await asyncio.to_thread(reader.join, 2.0)
        port, self._port = self._port, None
        if port is not None:
            await asyncio.to_thread(port.close)
