"""The web: the Flask dashboard, the server it runs on, the PIN and request checks, and the
pages built from the public and seat views."""
