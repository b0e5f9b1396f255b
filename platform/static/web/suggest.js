// UNO Arena: bot-name suggestions for text inputs marked data-suggest="<datalist id>".
// As the visitor types, fetches up to 20 names starting with the text from the URL in this script tag's
// data-url (web.views.bot_names) and fills the datalist; the browser shows them. No inline script.
(function () {
  const url = document.currentScript && document.currentScript.dataset.url;
  if (!url) return;
  for (const input of document.querySelectorAll("input[data-suggest]")) {
    const list = document.getElementById(input.dataset.suggest);
    if (!list) continue;
    let timer = 0;
    let asked = null;
    const refresh = async () => {
      const q = input.value.trim();
      if (q === asked) return;
      asked = q;
      try {
        const response = await fetch(`${url}?q=${encodeURIComponent(q)}`, { headers: { Accept: "application/json" } });
        if (!response.ok || input.value.trim() !== q) return;
        const { names } = await response.json();
        list.replaceChildren(...names.map((name) => Object.assign(document.createElement("option"), { value: name })));
      } catch (error) {
        asked = null; // try again on the next keystroke
      }
    };
    input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(refresh, 120);
    });
    input.addEventListener("focus", refresh, { once: true });
  }
})();
