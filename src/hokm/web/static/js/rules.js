// The rules of the game as the engine plays them (hokm.rules), in words for a player: a sheet opened from the home
// page and from the table's menu. Loaded when first opened.
import { h } from "./dom.js";
import { t, addStrings } from "./i18n.js";

addStrings({
  en: {
    rulesTitle: "How to play Hokm",
    rulesAimH: "The aim",
    rulesAim: "Four players play in two teams of two, partners sitting opposite each other; three or two players each play for themselves. With four or two players a hand is won by the first side to take 7 tricks (three players: below). The game is won by the first side to reach the points to win: 7, or the 3 or 5 chosen when the game is made.",
    rulesHakemH: "The Hâkem and the Hokm",
    rulesHakem: "Before the first hand, cards are turned face up, one to each player in turn, until an ace comes: that player is the first Hâkem. The Hâkem is dealt five cards first and, from those five alone, names the trump suit, the Hokm. Then the rest of the cards are dealt.",
    rulesTrickH: "A trick",
    rulesTrick: "The Hâkem leads the first trick. Everyone must play a card of the suit led if they hold one; a player who holds none may play any card, a trump included. The highest trump wins the trick; with no trump in it, the highest card of the suit led. Whoever wins a trick leads the next one.",
    rulesOrder: "From the highest: ace, king, queen, jack, 10, 9 and so on down to 2.",
    rulesHandH: "Winning a hand",
    rulesHand: "A hand ends as soon as a side has 7 tricks; the cards left are not played. The winners score 1 point. If the other side has not taken a single trick, it is kot: 2 points, or 3 when the side that took none holds the Hâkem (Hâkem-koti).",
    rulesNextH: "The next Hâkem",
    rulesNext: "When the Hâkem's side wins the hand, the Hâkem stays; otherwise the player after the Hâkem, on his right, becomes the Hâkem.",
    rulesThreeH: "Three players",
    rulesThree: "One 2 is left out: 51 cards, 17 each. A hand ends when a player has 7 tricks while neither other player has one (kot: 2 points for the Hâkem, 3 for another player), or when a player has more tricks than either of the others can still reach (1 point). If all 17 tricks are played and two players are tied for the most, the third player wins the hand (1 point).",
    rulesTwoH: "Two players",
    rulesTwo: "The Hâkem and the other player get five cards each, and the rest is a face-down stock. The Hâkem names the Hokm and puts 3 of his five cards aside, face down; then the other player puts 2 aside. Then, in turns, the Hâkem first, each looks at the top card of the stock and either keeps it and burns the next one, or burns it and keeps the next one. When the stock is gone each holds 13 cards; nobody ever sees the cards put aside or burned. The hand is then played as with four: 7 tricks win it.",
    rulesHereH: "At this table",
    rulesHere: "You can only play a legal card: any other is refused, and the table says why. At the table the “?” button in the top bar suggests a card, and “Fair shuffle” in the menu shows that every hand's cards were shuffled fairly.",
  },
  fa: {
    rulesTitle: "قوانین بازی حکم",
    rulesAimH: "هدف بازی",
    rulesAim: "چهار نفر در دو تیم دونفره بازی می‌کنند و یارها روبه‌روی هم می‌نشینند؛ در بازی سه‌نفره و دونفره هر کس برای خودش بازی می‌کند. در بازی چهارنفره و دونفره، هر دست را طرفی می‌برد که زودتر ۷ دور بگیرد (بازی سه‌نفره را پایین‌تر ببینید). بازی را طرفی می‌برد که زودتر به امتیاز برد برسد: ۷، یا ۳ یا ۵ اگر هنگام ساختن بازی همین را گذاشته باشید.",
    rulesHakemH: "حاکم و حکم",
    rulesHakem: "پیش از دست اول، کارت‌ها یکی‌یکی، به رو، به نوبت به بازیکن‌ها داده می‌شود تا آس بیاید: صاحب آس حاکم اول است. حاکم پنج کارت اول را می‌گیرد و فقط از روی همین پنج کارت، خال حکم را انتخاب می‌کند. بعد بقیهٔ کارت‌ها پخش می‌شود.",
    rulesTrickH: "یک دور",
    rulesTrick: "دور اول را حاکم شروع می‌کند. هر کس اگر از خال زمینه کارت دارد باید از همان بازی کند؛ کسی که ندارد هر کارتی می‌تواند بازی کند، حکم هم (بریدن). بالاترین حکم دور را می‌برد؛ اگر حکمی در دور نباشد، بالاترین کارت خال زمینه. برندهٔ هر دور، دور بعد را شروع می‌کند.",
    rulesOrder: "ترتیب کارت‌ها از بالا به پایین: آس، شاه، بی‌بی، سرباز، ۱۰، ۹ و همین‌طور تا ۲ که پایین‌ترین است.",
    rulesHandH: "بردن دست",
    rulesHand: "دست همین که یک طرف ۷ دور بگیرد تمام می‌شود و بقیهٔ کارت‌ها بازی نمی‌شود. برنده ۱ امتیاز می‌گیرد. اگر طرف دیگر حتی یک دور هم نگرفته باشد، کُت است: ۲ امتیاز، و اگر طرفِ کُت‌شده حاکم را داشته باشد (حاکم‌کُتی)، ۳ امتیاز.",
    rulesNextH: "حاکم بعدی",
    rulesNext: "اگر طرف حاکم دست را ببرد، حاکم عوض نمی‌شود؛ وگرنه نفرِ بعد از حاکم (سمت راست او) حاکم می‌شود.",
    rulesThreeH: "بازی سه‌نفره",
    rulesThree: "یک کارتِ ۲ کنار گذاشته می‌شود: ۵۱ کارت، به هر نفر ۱۷ تا. دست وقتی تمام می‌شود که یک نفر ۷ دور بگیرد و دو نفر دیگر هیچ دوری نگرفته باشند (کُت: ۲ امتیاز برای حاکم، ۳ امتیاز برای دیگران)، یا دورهای یک نفر از بیشترین دوری که هر یک از دو نفر دیگر هنوز می‌تواند به آن برسد بیشتر شود (۱ امتیاز). اگر هر ۱۷ دور بازی شود و دو نفر با بیشترین دور برابر باشند، نفر سوم دست را می‌برد (۱ امتیاز).",
    rulesTwoH: "بازی دونفره",
    rulesTwo: "حاکم و بازیکن دیگر هر کدام پنج کارت می‌گیرند و بقیهٔ کارت‌ها به پشت روی هم می‌ماند: دسته. حاکم حکم را انتخاب می‌کند و ۳ کارت از پنج کارتش را به پشت کنار می‌گذارد (می‌سوزاند)؛ بعد بازیکن دیگر ۲ کارت. سپس به نوبت، اول حاکم، هر کس کارت روی دسته را می‌بیند و یا آن را برمی‌دارد و کارت بعدی را می‌سوزاند، یا آن را می‌سوزاند و کارت بعدی را برمی‌دارد. وقتی دسته تمام شود هر کدام ۱۳ کارت دارد و کارت‌های سوخته را هیچ‌کس نمی‌بیند. بعد دست مثل بازی چهارنفره بازی می‌شود: ۷ دور دست را می‌برد.",
    rulesHereH: "سر این میز",
    rulesHere: "فقط کارت مجاز را می‌توانید بازی کنید: کارت دیگر پذیرفته نمی‌شود و میز می‌گوید چرا. سر میز، دکمهٔ «؟» در نوار بالا کارتی پیشنهاد می‌کند، و گزینهٔ «بُر منصفانه» در منو نشان می‌دهد که کارت‌های هر دست منصفانه بُر خورده است.",
  },
});

const SECTIONS = [
  ["rulesAimH", ["rulesAim"]],
  ["rulesHakemH", ["rulesHakem"]],
  ["rulesTrickH", ["rulesTrick", "rulesOrder"]],
  ["rulesHandH", ["rulesHand"]],
  ["rulesNextH", ["rulesNext"]],
  ["rulesThreeH", ["rulesThree"]],
  ["rulesTwoH", ["rulesTwo"]],
  ["rulesHereH", ["rulesHere"]],
];

/** Open the rules in a sheet over the page (the table goes on under it); closed by ✕, a tap outside it or Escape
 *  (the page's own key handler removes the topmost sheet). */
export function openRules() {
  const close = () => panel.remove();
  const sheet = h("div.sheet.rules", { role: "dialog", "aria-modal": "true", "aria-label": t("rulesTitle"), dataset: { testid: "rules" } },
    h("div.sheet-head", {}, h("h2", {}, t("rulesTitle")),
      h("button.icon-btn", { type: "button", onclick: close, "aria-label": t("close") }, "✕")),
    ...SECTIONS.map(([head, paras]) => h("section.rules-part", {}, h("h3", {}, t(head)), ...paras.map((p) => h("p", {}, t(p))))));
  const panel = h("div.sheet-backdrop", { onclick: (ev) => { if (ev.target === panel) close(); } }, sheet);
  document.body.append(panel);
  panel.querySelector("button").focus();
}
