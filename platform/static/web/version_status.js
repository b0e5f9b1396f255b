// UNO Arena: the version page follows its smoke test until it is over, without a reload.
// Polls data-status-url (web.views.version_status) every 1.5 s while the status is pending or running,
// then updates the status badge and, for the owner, the log. No inline script: CSP-friendly.
(function () {
  const facts = document.getElementById("version-facts");
  if (!facts) return;
  const url = facts.dataset.statusUrl;
  const badge = document.getElementById("smoke-status");
  const when = document.getElementById("smoke-when");
  const log = document.getElementById("smoke-log");
  const settled = (status) => status === "passed" || status === "failed";
  if (settled(facts.dataset.status)) return;
  let delay = 1500;
  async function poll() {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" });
      if (response.ok) {
        const data = await response.json();
        badge.className = `status ${data.status}`;
        badge.textContent = data.label;
        facts.dataset.status = data.status;
        if (when && data.checked_at) when.textContent = `(${new Date(data.checked_at).toLocaleTimeString()})`;
        if (log && typeof data.log === "string" && data.log) log.textContent = data.log;
        if (data.done) return;
      }
    } catch (error) {
      delay = Math.min(delay * 2, 15000); // the server is away: back off
    }
    setTimeout(poll, delay);
  }
  setTimeout(poll, delay);
})();
