// The account page's "Open data" block: whether my finished games go into the server's open
// data set under my username (GET/PUT /api/account/public-games; off by default: my seats are a
// pseudonym there, docs/data.md).
import { h, clear, toast } from "./dom.js";
import { t } from "./i18n.js";
import { api, get } from "./api.js";
import { currentUser } from "./account.js";

export function publicGamesBlock() {
  const box = h("section.settings-public-games", { "aria-labelledby": "public-games-h" });
  let on = null;
  function render() {
    clear(box).append(h("h2#public-games-h", null, t("opendata.title")), h("p.muted", null, t("opendata.help")));
    if (on === null) return;
    const input = h("input.public-games", { type: "checkbox", name: "public_games", checked: on, onchange: (e) => save(e.currentTarget) });
    box.append(h("label.check", null, input, h("span", null, t("opendata.label"))));
  }
  async function load() {
    try { on = (await get("/api/account/public-games")).public_games; } catch (e) { on = null; }
    render();
  }
  async function save(input) {
    input.disabled = true;
    try {
      on = (await api("PUT", "/api/account/public-games", { public_games: input.checked })).public_games;
      toast(t(on ? "opendata.saved_on" : "opendata.saved_off"));
    } catch (e) { toast(e.message, "error", 6000); }
    render();
  }
  render();
  if (currentUser()) load();
  return { el: box, relabel: render };  // relabel: the page's language changed
}
