// The calibration page: a preview image refreshed about once a second (the server encodes at
// most two a second, shared by every viewer) and the calibration state next to it.
"use strict";

(function calibrationPage() {
  const img = document.getElementById("preview");
  let busy = false;

  // The camera sees hidden cards (the covered tray), so its preview and codes need the PIN.
  const withPin = () => ({ cache: "no-store" });

  async function refreshImage() {
    if (busy || document.hidden) return;
    busy = true;
    try {
      const response = await pinnedFetch("/api/camera/preview.jpg", withPin());
      if (response.ok) {
        const old = img.src;
        img.src = URL.createObjectURL(await response.blob());
        if (old.startsWith("blob:")) URL.revokeObjectURL(old);
      }
    } catch (_) { /* the next tick tries again */ } finally { busy = false; }
  }

  function show(state) {
    const status = document.getElementById("cal-status");
    const detail = document.getElementById("cal-detail");
    if (!state.ok) {
      status.textContent = state.error;
      status.className = "status waiting";
      return;
    }
    const cal = state.calibration;
    status.textContent = `${cal.status} - ${cal.markers_seen} of 4 markers in view`;
    status.className = `status ${cal.status.split(" ")[0]}`;
    detail.textContent = cal.detail + (state.camera.holding ? ` (zones on hold: ${state.camera.holding})` : "");
    const camera = state.camera;
    document.getElementById("cal-camera").replaceChildren(
      ...Object.entries({ source: camera.source, state: camera.state, "frames/s": camera.fps,
        decoder: camera.decoder, "ms/frame": camera.ms_per_frame, "cards tracked": camera.cards_tracked,
        "last error": camera.last_error || "none" })
        .flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: v === null ? "-" : String(v) })]));
    document.getElementById("cal-codes").replaceChildren(
      ...(state.codes.length ? state.codes.map((c) => el("li", {
        text: c.kind === "card" ? `${c.card} in ${c.zone || "no zone"}` : `${c.kind}: ${c.text} (${c.reason})`,
      })) : [el("li", { text: "none" })]));
  }

  async function refreshState() {
    if (document.hidden) return;
    try {
      const response = await pinnedFetch("/api/camera/calibration", withPin());
      show(await response.json());
    } catch (_) { /* the next tick tries again */ }
  }

  document.getElementById("recalibrate").addEventListener("click", async () => {
    const reply = await post("/api/camera/recalibrate");
    if (reply.ok) notice(reply.detail, "ok");
    refreshState();
  });

  refreshImage();
  refreshState();
  setInterval(refreshImage, 1000);
  setInterval(refreshState, 1000);
})();
