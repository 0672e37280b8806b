"""The devices panel as everyone may see it (/api/state, /api/devices, the event stream).

The camera and the readers know more than the table shows: the camera reads the card in the
covered scan tray and the tags of Stratego pieces that face their owner; a reader knows the UID and
the card lying on it. So the public panel keeps the devices' health (state, errors, rates,
counts) and names a card only where the game's referee would name it in the public history
(``Ruleset.redact``); it never shows a UID, except those of tags paired with no card (which name
no card, and which the panel offers to pair). The camera's last error is shown as the camera says
it may be (``last_error_public``: a source's failure as it is; an error about a frame or an event,
whose text may carry a card it read, as a wording naming none); the whole error is in the journal
and, with the PIN, on the calibration page.
"""
from __future__ import annotations

from typing import Any

from companion.pi.doctor import FAIL, MIN_PX_PER_MODULE, camera_check, small_tag_advice

HIDDEN = "hidden"
ERROR_WITHHELD = ("an error about a card it read (the whole error, which may name a hidden card, is in the journal "
                  "and on the calibration page with the PIN)")


def public_devices(devices: dict[str, Any], ruleset) -> dict[str, Any]:
    public = dict(devices)
    public["camera_alerts"] = []
    if devices.get("camera"):
        public["camera"] = _camera(devices["camera"], ruleset)
        public["health"] = [camera_check(public["camera"]).as_dict(), *devices.get("health", [])]
        public["camera_alerts"] = camera_alerts(public["camera"])
    if devices.get("readers"):
        public["readers"] = _readers(devices["readers"], ruleset)
    return public


def camera_alerts(camera: dict[str, Any]) -> list[str]:
    """What the Table page puts in a banner: a camera delivering no frames, tags too small to read well."""
    alerts = []
    check = camera_check(camera)
    if check.status == FAIL:
        alerts.append(f"Camera: {check.says}.")
    px = camera.get("smallest_tag_px_per_module")
    if px is not None and px < MIN_PX_PER_MODULE:
        advice = small_tag_advice(px, camera.get("resolution"))
        alerts.append(f"Tags too small for the camera: {advice[0].upper()}{advice[1:]}.")
    return alerts


def _named(card: Any, zone: Any, ruleset) -> Any:
    """The card key where the public history would show it, else HIDDEN."""
    if ruleset is None or not isinstance(card, str):
        return card
    shown = ruleset.redact("card_seen", {"zone": zone, "card": card})
    return card if shown.get("card") == card else HIDDEN


def _camera(camera: dict[str, Any], ruleset) -> dict[str, Any]:
    cards = [{**c, "card": _named(c.get("card"), c.get("zone"), ruleset)} for c in camera.get("cards") or []]
    # A damaged tag of ours may be one character off a hidden card's key: its reason only.
    ignored = [r if r.get("kind") != "damaged" else {**r, "text": HIDDEN} for r in camera.get("recent_ignored") or []]
    public = {k: v for k, v in camera.items() if k != "last_error_public"}
    return {**public, "cards": cards, "recent_ignored": ignored, "last_error": _public_error(camera)}


def _public_error(camera: dict[str, Any]) -> str:
    """The camera's last error as anyone may read it: only what the camera marked public."""
    if not camera.get("last_error"):
        return ""
    said = camera.get("last_error_public")
    return said if isinstance(said, str) and said else ERROR_WITHHELD


def _readers(readers: dict[str, Any], ruleset) -> dict[str, Any]:
    public = {"readers": [{k: ({seat: HIDDEN for seat in v} if k == "present" else v) for k, v in r.items()}
                          for r in readers.get("readers", [])],
              "seats": {seat: HIDDEN for seat in readers.get("seats", {})},
              "recent": [{**r, "uid": HIDDEN} for r in readers.get("recent", [])]}
    for name in ("unpaired", "pairing_errors"):  # UIDs paired with no card: they name nothing
        if name in readers:
            public[name] = readers[name]
    if "on_readers" in readers:
        public["on_readers"] = {seat: _named(card, f"reader:{seat}", ruleset) for seat, card in readers["on_readers"].items()}
    if "refusals" in readers:
        public["refusals"] = [{**r, "card": _named(r.get("card"), f"reader:{r.get('seat')}", ruleset)}
                              for r in readers["refusals"]]
    return public
