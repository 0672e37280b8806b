"""Card catalogs and tag payloads: every game's cards as data, the QR payload codec, printable tag
sheets, custom decks and RFID pairings. Imports nothing from the companion: rules and scanning build on it."""
