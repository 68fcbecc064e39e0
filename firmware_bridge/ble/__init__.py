"""Bluetooth LE smart dice and boards: pure protocol codecs, bleak transports, and a virtual radio.

    godice_protocol / pixels_protocol   bytes <-> messages, pure functions, never raise on bad input
    transport                           one BLE connection through bleak (any backend), errors -> DeviceError
    godice_reader / pixels_reader       what a die's messages mean, as observations (pure; the devices and `replay`)
    base / godice / pixels              Device classes for ble://ADDRESS?kind=godice|pixels
    scan                                discover(): what is advertising nearby, kind guessed
    virtual                             VirtualRadio: a real BLE stack (bumble) on a virtual link, as a bleak backend
                                        (advertising, peripheral, dice, bleak_backend, radio)
    models                              what the simulated dice send (shared by the virtual radio and the scripted fake)
    gestures                            what a hand does to a simulated die (roll, tilt, pick up, put back …), once
    testing                             FakeRadio: the same dice without a BLE stack, for tests in virtual time

Nothing here imports Kivy or companion.games.
"""
