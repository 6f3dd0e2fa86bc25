// Browser notifications of "your turn", only with the person's permission (asked from a click).
// Nothing is sent anywhere: the page shows the notification itself while it is open.

export function notifySupported() { return typeof window.Notification === "function"; }

export function notifyAllowed() { return notifySupported() && window.Notification.permission === "granted"; }

// Ask for permission (call it from a click); answers whether notifications are on now.
export async function askNotify() {
  if (!notifySupported()) return false;
  if (window.Notification.permission === "granted") return true;
  try {
    return (await window.Notification.requestPermission()) === "granted";
  } catch (e) {
    return false;
  }
}

// One notification (tag: one per game, a newer one replaces it); a click brings the page to `hash`.
export function notify(title, body, tag, hash) {
  if (!notifyAllowed()) return null;
  try {
    const n = new window.Notification(title, { body, tag, lang: document.documentElement.lang || "en" });
    n.onclick = () => {
      window.focus();
      if (hash && location.hash !== hash) location.hash = hash;
      if (n.close) n.close();
    };
    return n;
  } catch (e) {
    return null;  // (Android Chrome allows them only from a service worker: the tab title and notice remain)
  }
}
