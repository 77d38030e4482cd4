// The service worker for the scoring pages (scope /games/), served by scoring.offline's view,
// which writes PRECACHE (the static files a scoring page needs) and VERSION above this line.
//
// Static files: from the cache first. Pages: from the network, each kept as it comes, so that a
// scoring link opened once loads without a connection after a reload or a restart of the browser.
/* global PRECACHE, VERSION */
const STATIC = `allfours-static-${VERSION}`;
const PAGES = "allfours-pages";
const LINKS = "allfours-links";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(STATIC)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith("allfours-static-") && name !== STATIC)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

// A page loaded while this worker was being installed asks to be taken in hand.
self.addEventListener("message", (event) => {
  if (event.data === "claim") event.waitUntil(self.clients.claim());
});

function isPage(request, url) {
  return (
    url.pathname.startsWith("/games/") &&
    !url.pathname.endsWith(".json") &&
    !request.headers.has("HX-Request") &&
    // A page asking whether its game changed (page.mjs): its answer is not the page to keep.
    !request.headers.has("X-Game-Version") &&
    (request.mode === "navigate" || (request.headers.get("Accept") || "").includes("text/html") || request.destination === "")
  );
}

async function fromNetworkKeeping(request) {
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    const copy = response.clone();
    const url = new URL(request.url);
    const final = new URL(response.url || request.url);
    const pages = await caches.open(PAGES);
    if (final.pathname !== url.pathname) {
      // A scoring link redirects to its game: remember where, and keep the game's page.
      await (await caches.open(LINKS)).put(url.pathname, new Response(final.pathname));
      await pages.put(final.pathname, new Response(await copy.text(), { headers: { "Content-Type": "text/html; charset=utf-8" } }));
    } else {
      await pages.put(url.pathname, copy);
    }
  }
  return response;
}

async function fromCache(request) {
  const url = new URL(request.url);
  const link = await (await caches.open(LINKS)).match(url.pathname);
  if (link) {
    const target = await link.text();
    if (request.mode === "navigate") return Response.redirect(target, 302);
    return (await caches.open(PAGES)).match(target, { ignoreVary: true });
  }
  return (await caches.open(PAGES)).match(url.pathname, { ignoreVary: true, ignoreSearch: true });
}

// The installed app's start URL (the manifest's start_url): with no connection it lists the games
// kept on this phone, with how many of each game's hands wait to be sent, and why, when the server
// refused this phone (the words its page shows).
const START = "/games/";

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A kept page's text as written in its HTML (its title: "Smith &amp; Jones") as it reads. */
function unescapeHtml(text) {
  const named = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name) => {
    if (name[0] !== "#") return named[name.toLowerCase()] ?? entity;
    const code = name[1].toLowerCase() === "x" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    return String.fromCodePoint(code);
  });
}

function unsentByGame() {
  // The page's store (store.mjs): the "ops" not yet accepted by the server, by game: how many,
  // and why the server refused them when it did (the first waiting one's words, as the game's
  // page shows them).
  return new Promise((resolve) => {
    const request = indexedDB.open("allfours-offline");
    request.onupgradeneeded = () => request.transaction.abort();
    request.onerror = () => resolve({});
    request.onsuccess = () => {
      const db = request.result;
      // Let go once read: a page opening a newer version of the store waits for every other.
      db.onversionchange = () => db.close();
      if (!db.objectStoreNames.contains("ops")) {
        db.close();
        return resolve({});
      }
      const all = db.transaction("ops", "readonly").objectStore("ops").getAll();
      all.transaction.oncomplete = () => db.close();
      all.onerror = () => resolve({});
      all.onsuccess = () => {
        const games = {};
        for (const op of all.result.sort((a, b) => a.seq - b.seq)) {
          const game = games[op.game] || (games[op.game] = { count: 0, refused: "" });
          game.count += 1;
          if (!game.refused && op.state !== "conflict" && op.refused) game.refused = op.refused;
        }
        resolve(games);
      };
    };
  });
}

/** The sides of a kept game's page as the online list of games gives them beside its name,
 * "Red Lion v Old Hall": from the game as the phone scores it (its `#offline-state`, which the
 * page carries as JSON); "" when the page has none. */
function sidesOf(html) {
  const state = /<script id="offline-state" type="application\/json">([^<]*)<\/script>/.exec(html);
  if (!state) return "";
  try {
    return (JSON.parse(state[1]).sides || []).map((side) => side.name).filter(Boolean).join(" v ");
  } catch {
    return "";
  }
}

async function keptGamesPage() {
  const pages = await caches.open(PAGES);
  const unsent = await unsentByGame();
  const games = [];
  for (const request of await pages.keys()) {
    const path = new URL(request.url).pathname;
    const match = /^\/games\/(\d+)\/$/.exec(path);
    if (!match) continue;
    const html = await (await pages.match(request)).text();
    const title = (/<title>([^<]*)<\/title>/.exec(html) || [, `Game ${match[1]}`])[1];
    games.push({ path, number: Number(match[1]), title: unescapeHtml(title.replace(/ · All Fours$/, "")), sides: sidesOf(html) });
  }
  games.sort((a, b) => b.number - a.number);
  const css = PRECACHE.find((name) => name.includes("site/site") && name.endsWith(".css"));
  const items = games
    .map((game) => {
      const { count, refused } = unsent[game.number] || { count: 0, refused: "" };
      // Its sides, as the online list gives them beside its name, unless its title says them.
      const sides = game.sides && !game.title.includes(game.sides) ? ` · <span data-testid="kept-sides">${escapeHtml(game.sides)}</span>` : "";
      const note = count ? ` · <span data-testid="kept-unsent">${count} ${count === 1 ? "hand" : "hands"} not sent yet</span>` : "";
      const why = refused ? `<p data-testid="kept-refused">${escapeHtml(refused)}</p>` : "";
      return `<li><a href="${game.path}">${escapeHtml(game.title)}</a>${sides}${note}${why}</li>`;
    })
    .join("");
  const body = games.length
    ? `<p>No connection: these are the games kept on this phone. Hands entered now are sent when the connection is back.</p><ul data-testid="kept-games">${items}</ul>`
    : "<p>No connection, and no game is kept on this phone yet: a game opened once (its scoring link) can be scored here without a connection.</p>";
  const html =
    '<!doctype html><html lang="en-GB"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    (css ? `<link rel="stylesheet" href="${css}">` : "") +
    `<title>Games on this phone · All Fours</title><main id="main"><h1>Games on this phone</h1>${body}</main></html>`;
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function offlinePage() {
  const html =
    '<!doctype html><html lang="en-GB"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    "<title>No connection · All Fours</title><main><h1>No connection</h1>" +
    "<p>This page was not opened on this phone before, so it cannot be shown without a connection. " +
    "A scoring link opened once works offline: go back to the game.</p></main></html>";
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (PRECACHE.includes(url.pathname) || url.pathname.startsWith("/static/")) {
    event.respondWith(
      caches.match(request, { ignoreSearch: true }).then(
        (cached) =>
          cached ||
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              caches.open(STATIC).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
    return;
  }
  if (!isPage(request, url)) return;
  // The server up but its database not (a 503): the page as kept, as without a connection.
  if (url.pathname === START && request.mode === "navigate") {
    event.respondWith(
      fromNetworkKeeping(request)
        .then((response) => (response.status === 503 ? keptGamesPage() : response))
        .catch(() => keptGamesPage()),
    );
    return;
  }
  event.respondWith(
    fromNetworkKeeping(request)
      .then(async (response) => (response.status === 503 && (await fromCache(request))) || response)
      .catch(async () => (await fromCache(request)) || offlinePage()),
  );
});
