// Installable and offline (docs/web.md, "Installable and offline"): registers the service
// worker (sw.js), which keeps the app shell for a visit with no connection.
export function startOffline() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register('/sw.js').catch(() => {
    // No service worker (a private window, a browser that refuses it): the page works online.
  });
}
