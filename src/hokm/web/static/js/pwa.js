// The installable app: registers the service worker (/sw.js), offers a reload when the server has
// shipped a new version, and points the page at the manifest in the page's language (the app's
// name on the home screen is "حکم" in Persian and "Hokm" in English).

import { t } from "./i18n.js";

const MANIFESTS = { fa: "/manifest.webmanifest", en: "/manifest.en.webmanifest" };
let accepted = false; // the player asked for the new version: reload once it controls the page
// The build this page's files come from (/assets/<build>/js/pwa.js); null when served unversioned.
const PAGE_BUILD = (new URL(import.meta.url).pathname.match(/^\/assets\/([^/]+)\//) || [])[1] || null;

/** The build a service worker was made for (it answers a "version" message). */
function buildOf(worker) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (ev) => resolve(ev.data);
    worker.postMessage({ type: "version" }, [channel.port2]);
    setTimeout(() => resolve(null), 3000);
  });
}

function followLanguage() {
  const link = document.querySelector('link[rel="manifest"]');
  if (!link) return;
  const pick = () => {
    const href = MANIFESTS[document.documentElement.lang] || MANIFESTS.fa;
    if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  };
  pick();
  new MutationObserver(pick).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
}

/** A small bar at the bottom: "A new version is ready [Reload] [×]". It blocks nothing. */
function offerReload(onReload) {
  if (document.querySelector(".update-banner")) return;
  const bar = document.createElement("div");
  bar.className = "update-banner";
  bar.setAttribute("role", "status");
  Object.assign(bar.style, {
    position: "fixed", insetInline: "12px", bottom: "calc(12px + env(safe-area-inset-bottom))", zIndex: "1000",
    display: "flex", alignItems: "center", gap: "12px", justifyContent: "space-between", margin: "0 auto",
    maxWidth: "28rem", padding: "8px 8px 8px 16px", borderRadius: "12px", background: "#0b2a1c", color: "#f4f1e6",
    boxShadow: "0 4px 18px rgba(0, 0, 0, 0.35)", font: "inherit",
  });
  const text = document.createElement("span");
  text.textContent = t("newVersion");
  const reload = document.createElement("button");
  reload.type = "button";
  reload.className = "btn small update-reload";
  reload.textContent = t("reloadNow");
  reload.style.minHeight = "44px";
  const close = document.createElement("button");
  close.type = "button";
  close.className = "icon-btn update-close";
  close.textContent = "✕";
  close.setAttribute("aria-label", t("close"));
  close.style.minWidth = close.style.minHeight = "44px";
  reload.addEventListener("click", () => {
    reload.disabled = true;
    onReload();
  });
  close.addEventListener("click", () => bar.remove());
  const actions = document.createElement("span");
  actions.style.display = "flex";
  actions.append(reload, close);
  bar.append(text, actions);
  document.body.append(bar);
}

async function register() {
  const sw = navigator.serviceWorker;
  let registration;
  try {
    registration = await sw.register("/sw.js", { scope: "/", updateViaCache: "none" });
  } catch {
    return; // not allowed here (a private window, an insecure origin): the page works as a plain site
  }
  const installed = async (worker) => {
    if (!sw.controller) return; // the first worker: it takes control by itself
    if (PAGE_BUILD && await buildOf(worker) === PAGE_BUILD) {
      // This page already runs the new build (it was loaded from the server after the update):
      // nothing to reload, the new worker may take over at once.
      worker.postMessage({ type: "activate-now" });
      return;
    }
    offerReload(() => {
      accepted = true;
      // Already in charge (another tab let it take over): only this page is left to reload.
      if (worker.state === "activating" || worker.state === "activated") { location.reload(); return; }
      // The waiting worker takes over; the page reloads when it controls it (controllerchange).
      worker.postMessage({ type: "activate-now" });
    });
  };
  const watch = (worker) => {
    if (!worker) return;
    let seen = false;
    const check = () => { if (worker.state === "installed" && !seen) { seen = true; installed(worker); } };
    worker.addEventListener("statechange", check);
    check();
  };
  watch(registration.waiting);
  watch(registration.installing);
  registration.addEventListener("updatefound", () => watch(registration.installing));
  // The first worker takes control without a reload; a new version the player accepted reloads.
  let reloading = false;
  sw.addEventListener("controllerchange", async () => {
    if (reloading) return;
    if (accepted) {
      reloading = true;
      location.reload();
      return;
    }
    // Another tab took the new version: say so here too, if this page runs an older build.
    if (PAGE_BUILD && sw.controller && await buildOf(sw.controller) !== PAGE_BUILD) offerReload(() => location.reload());
  });
  // A table left open for hours still learns about new versions.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") registration.update().catch(() => {});
  });
}

followLanguage();
if ("serviceWorker" in navigator) register();
