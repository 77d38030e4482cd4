// Pages that follow a league night (a fixture's, the league night's): every so many seconds
// (data-live-every, the LIVE_POLL_SECONDS setting; ten unless set), while
// the page is shown, ask for its live fragment with the ETag last seen. "304 Not Modified"
// (nothing changed) costs nothing; otherwise each [data-live-region] of the page is swapped for
// the fresh one. 286 (htmx's "stop polling": the match decided, or its night over with nothing
// in play) is swapped in the same way and is the last: the page stops asking, and no longer
// says it follows the tables. Without JavaScript the page is the same and a reload shows what
// changed.
(() => {
  const STOP = 286;

  function follow(root) {
    const url = root.dataset.liveUrl;
    let tag = root.dataset.liveTag || "";
    let busy = false;
    let stopped = false;
    let timer = 0;

    function stop() {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
      for (const note of root.querySelectorAll(".live-note")) note.remove();
    }

    async function poll() {
      if (busy || stopped || document.hidden) return;
      busy = true;
      try {
        const response = await fetch(url, {
          headers: tag ? { "If-None-Match": tag } : {},
          cache: "no-store",
          credentials: "same-origin",
        });
        // 304: nothing new; an error: try again later.
        if (response.status !== 200 && response.status !== STOP) return;
        tag = response.headers.get("ETag") || "";
        const fresh = document.createElement("template");
        fresh.innerHTML = await response.text();
        for (const region of fresh.content.querySelectorAll("[data-live-region]")) {
          const name = region.dataset.liveRegion;
          const shown = root.querySelector(`[data-live-region="${CSS.escape(name)}"]`);
          if (shown) shown.replaceWith(region);
        }
        if (response.status === STOP) stop();
      } catch (error) {
        // No connection just now: the next tick tries again.
      } finally {
        busy = false;
      }
    }

    function onVisible() {
      if (!document.hidden) poll();
    }

    timer = setInterval(poll, (Number(root.dataset.liveEvery) || 10) * 1000);
    document.addEventListener("visibilitychange", onVisible);
  }

  document.querySelectorAll("[data-live-url]").forEach(follow);
})();
