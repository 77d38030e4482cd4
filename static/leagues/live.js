// Pages that follow a league night (a fixture's, the league night's): every ten seconds, while
// the page is shown, ask for its live fragment with the ETag last seen. "304 Not Modified"
// (nothing changed) costs nothing; otherwise each [data-live-region] of the page is swapped for
// the fresh one. Without JavaScript the page is the same and a reload shows what changed.
(() => {
  const EVERY = 10_000;

  function follow(root) {
    const url = root.dataset.liveUrl;
    let tag = root.dataset.liveTag || "";
    let busy = false;

    async function poll() {
      if (busy || document.hidden) return;
      busy = true;
      try {
        const response = await fetch(url, {
          headers: tag ? { "If-None-Match": tag } : {},
          cache: "no-store",
          credentials: "same-origin",
        });
        if (response.status !== 200) return; // 304: nothing new; an error: try again later
        tag = response.headers.get("ETag") || "";
        const fresh = document.createElement("template");
        fresh.innerHTML = await response.text();
        for (const region of fresh.content.querySelectorAll("[data-live-region]")) {
          const name = region.dataset.liveRegion;
          const shown = root.querySelector(`[data-live-region="${CSS.escape(name)}"]`);
          if (shown) shown.replaceWith(region);
        }
      } catch (error) {
        // No connection just now: the next tick tries again.
      } finally {
        busy = false;
      }
    }

    setInterval(poll, EVERY);
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) poll();
    });
  }

  document.querySelectorAll("[data-live-url]").forEach(follow);
})();
