"""The Pi at a real table: health checks, the systemd unit and its watchdog, the mDNS name."""
