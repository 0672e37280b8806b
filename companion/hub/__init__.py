"""Many tables: each table publishes its public view and results to an MQTT broker (Mosquitto), and
a hub subscribes, keeps its own SQLite copy, and shows every table and the standings across them.

Topics (``<table>`` is the table's name, a DNS label such as ``club-table-3``)::

    companion/tables/<table>/online    retained  "1", or "0" (the broker's last will when a table drops)
    companion/tables/<table>/view      retained  the table's public view, QoS 1
    companion/tables/<table>/result    QoS 1     one link per message, in the log's order (see chain.py)
    companion/tables/<table>/health    retained  the table's devices and health checks
    companion/hub/ack/<table>          retained  from the hub, per game: the last link it holds, its latest undo

Only public data crosses the broker: the view is the session's public view and every result is a
public history entry (secret cards redacted by the game's view), exactly what any watcher of the
table's dashboard may read. Delivery is end to end: a table keeps its results in its own game log
and publishes everything the hub has not acknowledged, so a broker restart or a network outage
loses nothing, and the hub stores each result once (table, game, seq). An undo at the table is
published as a retraction, and the hub then shows what the table shows.
"""
