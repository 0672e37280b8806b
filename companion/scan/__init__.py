"""Scanning: frame sources and their watchdog, QR decoders and second looks, the tracker that turns
sightings into cards laid and lifted in zones, mat calibration, and the virtual table for demos and tests."""
