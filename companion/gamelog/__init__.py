"""The game log: every input appended to SQLite before anything happens, and the fold that
derives every state from it (snapshots cache the fold; undo is an event)."""
