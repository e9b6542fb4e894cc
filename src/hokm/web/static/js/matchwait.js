// What the public-match sheet shows while waiting: how many players wait for this table size,
// and a countdown to the moment bots take the seats still empty (QueueStatus.queued, .fill_in).

import { h } from "./dom.js";
import { t, addStrings } from "./i18n.js";

addStrings({
  en: {
    queueWaiting: "Players waiting: {n}",
    queueFillIn: "Bots take the empty seats in {n} s",
    queueFilling: "Seating the table…",
  },
  fa: {
    queueWaiting: "بازیکنان در انتظار: {n}",
    queueFillIn: "ربات‌ها تا {n} ثانیهٔ دیگر جاهای خالی را پر می‌کنند",
    queueFilling: "در حال چیدن میز…",
  },
});

export class QueueWait {
  constructor() {
    this.count = h("p.queue-count", { "aria-live": "polite" });
    this.fill = h("p.queue-fill", { "aria-live": "off" });
    this.el = h("div.queue-wait", {}, this.count, this.fill);
    this.until = null;
    this.timer = setInterval(() => this.tick(), 250);
  }

  /** A QueueStatus from the server. */
  update(st) {
    if (!st || st.status !== "queued") return;
    if (typeof st.queued === "number") this.count.textContent = t("queueWaiting", { n: st.queued });
    // Seconds from now, so the countdown does not depend on the two clocks agreeing.
    this.until = typeof st.fill_in === "number" ? performance.now() + st.fill_in * 1000 : null;
    this.tick();
  }

  tick() {
    if (this.until === null) { this.fill.textContent = ""; return; }
    const left = Math.ceil((this.until - performance.now()) / 1000);
    this.fill.textContent = left > 0 ? t("queueFillIn", { n: left }) : t("queueFilling");
    this.fill.dataset.left = String(Math.max(0, left));
  }

  stop() { clearInterval(this.timer); }
}
