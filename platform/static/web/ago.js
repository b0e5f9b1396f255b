// UNO Arena: <time class="ago" datetime="..."> elements say how long ago they were ("3 minutes ago"),
// kept current every 30 s. The page itself holds the date and time (UTC), which stays true however long
// the page is cached (web/page_cache.py); the date and time stay in the tooltip. No inline script: CSP.
(function () {
  const UNITS = [
    ["year", 365 * 86400],
    ["month", 30 * 86400],
    ["week", 7 * 86400],
    ["day", 86400],
    ["hour", 3600],
    ["minute", 60],
    ["second", 1],
  ];

  // The words of Django's naturaltime for the largest unit: "now", "a minute ago", "3 hours ago".
  function ago(seconds) {
    if (seconds < 1) return "now";
    for (const [unit, size] of UNITS) {
      const count = Math.floor(seconds / size);
      if (count >= 1) {
        if (count > 1) return `${count} ${unit}s ago`;
        return `${unit === "hour" ? "an" : "a"} ${unit} ago`;
      }
    }
    return "now";
  }

  function update() {
    const now = Date.now();
    for (const element of document.querySelectorAll("time.ago[datetime]")) {
      const moment = Date.parse(element.getAttribute("datetime"));
      if (Number.isNaN(moment)) continue;
      if (!element.title) element.title = element.textContent;
      element.textContent = ago(Math.max(0, (now - moment) / 1000));
    }
  }

  update();
  setInterval(update, 30000);
})();
