"""Bluetooth LE smart dice and boards: pure protocol codecs, bleak transports, and a virtual radio.

    godice_protocol / pixels_protocol   bytes <-> messages, pure functions, never raise on bad input
    transport                           one BLE connection through bleak (any backend), errors -> DeviceError
    godice / pixels                     Device classes for ble://ADDRESS?kind=godice|pixels
    scan                                discover(): what is advertising nearby, kind guessed
    virtual                             VirtualRadio: a real BLE stack (bumble) on a virtual link, as a bleak backend
    models                              what the simulated dice do (shared by the virtual radio and the scripted fake)

Nothing here imports Kivy or companion.games.
"""
