"""RFID at the seats: serial reader drivers, the reader service, and the bridge into a game.

Where to look:
    config.py    which reader is at which seat (--reader options, JSON/TOML files)
    framing.py   cutting frames out of a byte stream; counting and dropping the bad ones
    board.py     our reader board's protocol (firmware/, docs/serial-protocol.md)
    em4100.py    RDM6300 and ID-12LA / ID-20LA (125 kHz)
    pn532.py     PN532 over HSU UART
    presence.py  sightings -> taps and removals (a held card is one tap)
    runner.py    one reader's thread: its port, unplug / reopen
    service.py   ReaderService: all readers, stats() for the dashboard
    bridge.py    tap -> card_seen / card_gone through the pairing lookup
    discovery.py finding serial devices (/dev/serial/by-id)
    commands.py  `companion readers list|watch|fake`
    fake.py      pure-Python fake readers on ptys; sim.py the real firmware under simavr
    (the parsers' fuzzer is companion/bench/rfid_fuzz.py: every parser against 100 000 inputs)
"""
