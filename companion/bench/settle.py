"""`companion bench latency`'s second figure: the last card still -> its result on the event stream.

A battle resolves on its own once the table has been still. With a camera watching, that is
``--still-frames`` frames in a row showing nothing moved and every card where it lay (5), for every
play (companion/scan/stillness.py); without one, 0.5 s (``--quick-settle``) when every play is
complete by the rules, 1.5 s (``--settle``) while a play may still grow. Measured on a Gather
Together battle through the virtual camera, the real pipeline and the dashboard's event stream,
alternating: a single fight card that is the player's last card (complete) and a single fight card
from a hand of five (a pair may follow: the long settle without a camera). The
hand is set with ``confirm_count`` before each play, and no rank is played a sixth time (all six
copies on the pile would make the play complete too).
"""
from __future__ import annotations

import time

from card_tags.payload import CardRef

from companion.scan.stillness import STILL_FRAMES

IDENTITIES = ["HERO#1", "VILLAIN#1", "HERO#2", "VILLAIN#2"]
SETTLE, QUICK = 1.5, 0.5


def measure(service, table, pipeline, client, plays: int) -> dict[str, list[float]]:
    """Milliseconds from a card laid (it lies still from then on) to the ``resolve`` entry on the
    stream, for complete plays (``quick``) and plays that may grow (``long``)."""
    session = service.start_game("gt-battle", [{"seat": n, "name": f"P{n}"} for n in range(1, 5)])
    for seat, key in enumerate(IDENTITIES, 1):
        session.submit("card_seen", {"zone": f"reader:{seat}", "card": key}, "rfid")
    session.submit("card_seen", {"zone": "center", "card": "BATTLE#1"}, "rfid")  # flipped first: the battle
    keys = [f"F{rank}#{copy}" for rank in range(1, 13) for copy in range(1, 6)]
    found: dict[str, list[float]] = {"quick": [], "long": []}
    lying = None
    for n in range(min(plays, len(keys))):
        quick = n % 2 == 0
        session.submit("confirm_count", {"seat": session.state.turn, "cards": 1 if quick else 5})
        ref = CardRef.from_key("gt-battle", keys[n])
        table.place(ref, pipeline.zones.slot("center", n % 2), angle_deg=0.0)
        placed = time.perf_counter()
        arrived = client.wait_for(lambda e: e["kind"] == "resolve", timeout=SETTLE * 4)
        if arrived is not None:
            found["quick" if quick else "long"].append((arrived - placed) * 1000)
        if lying is not None:  # the card before it leaves the pile; wait until the table is told
            table.remove(lying)
            client.wait_for(lambda e, key=lying.key: e["kind"] == "card_gone" and e["data"].get("card") == key)
        lying = ref
    return found


def report(found: dict[str, list[float]], percentile) -> dict:
    def figures(values: list[float]) -> dict:
        if not values:
            return {"p50": None, "p95": None, "n": 0}
        return {"p50": round(percentile(values, 50), 1), "p95": round(percentile(values, 95), 1), "n": len(values)}

    quick, long = figures(found["quick"]), figures(found["long"])
    return {"last_card_still_to_result_ms": {
        "quick_settle_every_play_complete": quick, "long_settle_a_play_may_grow": long,
        "settle_seconds": {"quick": QUICK, "long": SETTLE}, "still_frames": STILL_FRAMES,
        "ratio_p50_quick_to_long": round(quick["p50"] / long["p50"], 2) if quick["n"] and long["n"] else None}}
