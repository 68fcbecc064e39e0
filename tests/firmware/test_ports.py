"""Which serial ports look like Table Bus boards (what `scan` prints and the devices screen offers). A USB board cannot
be plugged in here, so pyserial's port listing is replaced by ports as pyserial describes them (ListPortInfo)."""
from __future__ import annotations

from serial.tools import list_ports, list_ports_common

from firmware_bridge.tablebus.ports import looks_like_board, serial_boards


def port(device, vid=None, pid=None, description="n/a"):
    p = list_ports_common.ListPortInfo(device, skip_link_detection=True)
    p.vid, p.pid, p.description = vid, pid, description
    return p


PORTS = [port("/dev/ttyS0"), port("/dev/ttyUSB0", 0x10C4, 0xEA60, "CP2102 USB to UART Bridge Controller"),
         port("/dev/ttyACM0", 0x303A, 0x1001, "USB JTAG/serial debug unit"),
         port("/dev/ttyACM1", 0x2341, 0x0043, "Arduino Uno"), port("/dev/ttyACM2", description="Table Bus stand")]


def test_boards_are_the_bridges_espressif_and_ports_that_say_table_bus(monkeypatch):
    monkeypatch.setattr(list_ports, "comports", lambda: list(PORTS))
    boards, problem = serial_boards()
    assert problem == ""
    assert [(b.url, b.ids) for b in boards] == [("serial:///dev/ttyACM0", "303a:1001"), ("serial:///dev/ttyACM2", ""),
                                                ("serial:///dev/ttyUSB0", "10c4:ea60")]
    assert len(serial_boards(every=True)[0]) == 5 and not looks_like_board(PORTS[3])


def test_no_port_listing_is_an_empty_list_and_a_reason_never_an_error(monkeypatch):
    def broken():
        raise OSError("no /sys here")

    monkeypatch.setattr(list_ports, "comports", broken)
    assert serial_boards() == ([], "serial ports not listed (OSError: no /sys here)")
