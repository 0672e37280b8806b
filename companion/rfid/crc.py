"""CRC-16 of the reader board's frames: the reflected CCITT polynomial 0x8408, exactly what
avr-libc's ``_crc_ccitt_update`` computes on the board, started at 0xFFFF (CRC-16/MCRF4XX, the
same as Klipper's ``crc16_ccitt``). ``crc_ccitt(b"123456789") == 0x6F91``."""
from __future__ import annotations


def _table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_TABLE = _table()


def crc_ccitt_update(crc: int, byte: int) -> int:
    """One step, written as avr-libc documents ``_crc_ccitt_update``."""
    data = (byte ^ crc) & 0xFF
    data = (data ^ (data << 4)) & 0xFF
    return (((data << 8) | (crc >> 8)) ^ (data >> 4) ^ (data << 3)) & 0xFFFF


def crc_ccitt(data: bytes, crc: int = 0xFFFF) -> int:
    for byte in data:
        crc = (crc >> 8) ^ _TABLE[(crc ^ byte) & 0xFF]
    return crc
