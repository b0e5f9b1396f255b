// Live progress of a version test: polls its JSON endpoint and updates the figures (no build step).
(function () {
  "use strict";
  const root = document.getElementById("vtest");
  if (!root) return;
  const url = root.dataset.progressUrl;
  const $ = (id) => document.getElementById(id);
  const inf = (x, sign) => (x === null ? sign + "∞" : x);

  function render(p) {
    const status = $("vt-status");
    status.textContent = p.status_label;
    status.className = "status " + p.status;
    $("vt-games").textContent = p.games;
    $("vt-pairs").textContent = p.pairs;
    $("vt-failures").textContent = p.failures;
    $("vt-penta").textContent = p.pentanomial.join(", ");
    $("vt-elo").textContent = p.elo === null ? "—" : p.elo + " (95%: " + inf(p.elo_low, "−") + " to " + inf(p.elo_high, "+") + ")";
    $("vt-llr").textContent = p.llr;
    if ($("vt-meaning")) $("vt-meaning").textContent = p.meaning;
    const share = Math.max(0, Math.min(1, (p.llr - p.lower) / (p.upper - p.lower)));
    $("vt-llr-mark").style.left = "calc(" + (share * 100).toFixed(1) + "% - 2px)";
    return p.running;
  }

  async function poll() {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (response.ok && !render(await response.json())) return; // final: stop polling
    } catch (e) {
      /* network hiccup: try again */
    }
    setTimeout(poll, 3000);
  }
  poll();
})();
