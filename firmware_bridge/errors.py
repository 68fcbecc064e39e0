"""The one error family devices raise (docs/architecture.md, convention 3): transports translate their own errors (bleak's,
pyserial's, OSError) into these at the boundary with `raise … from err`, so the UI and the CLI catch DeviceError
alone. Messages are one line a player understands ("GoDice_A is held by another app; close it there")."""
from __future__ import annotations


class DeviceError(Exception):
    """Base of every device failure."""


class BadDeviceURL(DeviceError):
    """A device URL that cannot be parsed or names a scheme/kind this app does not know."""


class DeviceNotFound(DeviceError):
    """Nothing answers at that address (out of range, switched off, unplugged)."""


class DeviceBusy(DeviceError):
    """The device is held by another app or another central (a phone app still connected to the die)."""


class ConnectionLost(DeviceError):
    """The link dropped while in use; the device manager reconnects."""


class DeviceTimeout(DeviceError):
    """The device did not answer in time."""


class ProtocolError(DeviceError):
    """The device sent something the protocol does not allow, or refused a command."""


class RadioBusy(DeviceError):
    """This computer's Bluetooth adapter is busy with another connection (BlueZ's InProgress when several dice
    reconnect at once): transient, tried again like any other; never the die's fault."""
