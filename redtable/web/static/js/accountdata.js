// The account page's last two blocks: "Export my data" (GET /api/account/export, saved as a
// JSON file) and "Delete my account" (a dialog that warns what goes and asks for the password,
// then DELETE /api/account). What is deleted and what is kept: docs/security.md.
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { api, get } from "./api.js";
import { loadSession } from "./account.js";

const PASSWORD_MAX = 256;

// the export as a file download (a blob URL: the page's own origin, within the CSP)
async function exportData(status) {
  status.textContent = t("selfserve.export_working");
  try {
    const data = await get("/api/account/export");
    const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = h("a", { href: url, download: `redtable-${data.profile.username}.json`, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
    status.textContent = t("selfserve.export_done");
  } catch (err) {
    status.textContent = err.message;
  }
}

function deleteDialog() {
  const before = document.activeElement;
  const password = h("input#delete-password", { type: "password", name: "password", autocomplete: "current-password", maxlength: PASSWORD_MAX, required: true });
  const error = h("p.error.small.delete-error", { role: "alert", hidden: true });
  const confirm = h("button.btn.danger.delete-confirm", { type: "submit" }, t("selfserve.delete_confirm"));
  const cancel = h("button.btn.ghost.delete-cancel", { type: "button" }, t("selfserve.cancel"));
  const form = h("form.delete-form", { novalidate: true },
    h("div.dialog-head", null, h("h1#delete-h", null, t("selfserve.delete_title"))),
    h("p.delete-warning", null, t("selfserve.delete_warning")),
    h("ul.delete-list", null,
      h("li", null, t("selfserve.delete_goes")),
      h("li", null, t("selfserve.delete_stays")),
      h("li", null, t("selfserve.delete_running"))),
    h("label.field", { for: "delete-password" }, h("span", null, t("settings.current_password")), password),
    error,
    h("div.actions", null, cancel, confirm));
  const el = h("div.overlay.delete-overlay", { role: "dialog", "aria-modal": "true", "aria-labelledby": "delete-h" },
    h("div.dialog.delete-dialog", null, form));
  const close = () => {
    document.removeEventListener("keydown", onKey, true);
    el.remove();
    if (before && before.isConnected && before.focus) before.focus({ preventScroll: true });
  };
  const onKey = (e) => { if (e.key === "Escape") { e.stopPropagation(); close(); } };
  document.addEventListener("keydown", onKey, true);
  el.addEventListener("click", (e) => { if (e.target === el) close(); });
  cancel.addEventListener("click", close);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!password.value) { error.hidden = false; error.textContent = t("selfserve.password_needed"); password.focus(); return; }
    confirm.disabled = true;
    try {
      await api("DELETE", "/api/account", { password: password.value });
      close();
      toast(t("selfserve.deleted"), "info", 6000);
      await loadSession();
      location.hash = "#/";
    } catch (err) {
      error.hidden = false;
      error.textContent = err.message;
      confirm.disabled = false;
      password.focus();
    }
  });
  document.body.append(el);
  password.focus();
  return el;
}

export function selfServiceBlocks() {
  const status = h("p.muted.export-status", { role: "status" });
  return [
    h("div.settings-export", null,
      h("h2", null, t("selfserve.export_title")),
      h("p.muted", null, t("selfserve.export_help")),
      status,
      h("div.actions", null, h("button.btn.export-data", { type: "button", onclick: () => exportData(status) }, t("selfserve.export")))),
    h("div.settings-delete", null,
      h("h2", null, t("selfserve.delete_title")),
      h("p.muted", null, t("selfserve.delete_help")),
      h("div.actions", null, h("button.btn.danger.delete-account", { type: "button", "aria-haspopup": "dialog", onclick: deleteDialog }, t("selfserve.delete")))),
  ];
}
