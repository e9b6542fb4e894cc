// Choosing a card before your turn: a tap while others play marks it; when your turn comes it is
// played if the view's legal list has it, otherwise the mark is dropped with a short note. A
// second tap takes the mark away. No rule is worked out here: only view.legal decides.

import { t, cardName, addStrings } from "./i18n.js";

addStrings({
  en: {
    preselected: "{card} will be played on your turn",
    preselectCancelled: "{card} unmarked",
    preselectDropped: "{card} cannot be played now: choose again",
  },
  fa: {
    preselected: "{card} در نوبت شما بازی می‌شود",
    preselectCancelled: "انتخاب {card} برداشته شد",
    preselectDropped: "{card} را حالا نمی‌شود بازی کرد؛ دوباره انتخاب کنید",
  },
});

export class Preselect {
  constructor(table) {
    this.table = table;
    this.card = null;
  }

  /** A card may be marked while the hand is being played and it is someone else's turn. */
  open(v) {
    return !!v && v.phase === "play" && v.seat !== null && v.seat !== undefined && !v.legal.length && v.hand.length > 0;
  }

  toggle(card) {
    const cancel = this.card === card;
    this.card = cancel ? null : card;
    this.hand = this.table.view.hand_index;
    this.table.say(t(cancel ? "preselectCancelled" : "preselected", { card: cardName(card) }));
    this.table.renderHand();
  }

  /** Mark the card element of a rendered hand. */
  decorate(el, card) {
    const on = this.card === card;
    el.classList.toggle("preselected", on);
    if (on) el.setAttribute("aria-pressed", "true");
  }

  /** After the queued updates are drawn: play the marked card if it is now legal, or drop it. */
  settle() {
    const v = this.table.view;
    const card = this.card;
    if (!card || !v) return;
    if (!v.hand.includes(card) || v.hand_index !== this.hand || v.phase !== "play") { this.card = null; this.table.renderHand(); return; }
    if (!v.legal.length || v.legal[0].type !== "play") return;
    this.card = null;
    const act = v.legal.find((a) => a.type === "play" && a.card === card);
    if (act) { this.table.send(act); return; }
    this.table.renderHand();
    this.flash(t("preselectDropped", { card: cardName(card) }));
  }

  /** The note takes the action line's place for a moment (Table.note), covering nothing else. */
  flash(text) { this.table.note(text); }
}
