// What the expert's preferred option would have done (the review's and the hint's `why`:
// redtable/review/consequences.py), in the page's words (review.why.*). The same rules as the
// terminal's (redtable/review/words.py): a token held in at least 3 of 4 plays after the
// preferred option and at most 1 of 4 after the other is "kept" (held at the decision) or
// "taken", else "more often" with both shares; a count is the rounded difference of the means;
// the first two facts are said.
import { t } from "./i18n.js";

const TOKENS = ["sovereign", "champion"];
const SAID = 2;
const pct = (p) => `${Math.round(100 * p)}%`;

export function consequence(c) {
  if (TOKENS.includes(c.fact)) {
    if (c.preferred >= 0.75 && c.taken <= 0.25) return t(`review.why.${c.fact}_${c.now >= 0.5 ? "kept" : "taken"}`);
    return t(`review.why.${c.fact}_more`, { p: pct(c.preferred), q: pct(c.taken) });
  }
  return t(`review.why.${c.fact}`, { n: Math.max(1, Math.floor(c.preferred - c.taken + 0.5)) });
}

// The phrase for the first facts of `why`, or null when there is none.
export function whyWords(why) {
  const said = (why || []).slice(0, SAID).map(consequence);
  if (!said.length) return null;
  return said.length === 1 ? said[0] : t("review.why.and", { a: said[0], b: said[1] });
}
