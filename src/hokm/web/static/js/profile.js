// Profile pages (#/profile: your own; #/profile/<username>: a player's public page), loaded on
// demand: the avatar, games and wins per kind of game, the rating history drawn as an SVG chart,
// and on your own page your recent games (each opens its replay), head-to-head against each friend
// and whether others may see your stats. A private profile's public page shows the name and the
// avatar only: the server sends nothing more (GET /api/profiles/{username}).

import { h, clear } from "./dom.js";
import { t, num, decimal, sep, dateTime, isRtl, addStrings, seatNames } from "./i18n.js";
import * as settings from "./settings.js";
import { AVATARS, avatarSvg, derivedAvatar } from "./avatars.js";

addStrings({
  en: {
    profileTitle: "Profile",
    overall: "All games",
    mode_computer: "Against the computer",
    mode_private: "Private room",
    mode_public: "Public match",
    nPlayers: "{n} players",
    gameKind: "Game",
    gamesCol: "Games",
    winsCol: "Wins",
    ratingHistory: "Rating",
    ratingAxis: "Rating",
    gamesAxis: "Rated games",
    ratingChartLabel: "Rating over {n} rated games, from {a} to {b}",
    noRated: "No rated games yet: games against people in private rooms and public matches are rated.",
    noGames: "No finished games yet.",
    noGamesTheirs: "No finished games yet.",
    profileRecent: "Recent games",
    wonGame: "Won",
    lostGame: "Lost",
    headToHead: "With your friends",
    noFriendGames: "Add friends to see how you do with and against them.",
    asPartners: "As partners: {g} games, won {w}",
    asOpponents: "Against each other: {g} games, won {w}",
    viewProfile: "Profile",
    makePublic: "Show my stats and rating history on my public page",
    publicHelp: "Until you turn this on, others see only your name and picture.",
    publicPage: "Your public page",
    needUsername: "Claim a username (in the account panel) to have a public page.",
    privateProfile: "This player keeps their profile private.",
    saved: "Saved",
  },
  fa: {
    profileTitle: "نمایه",
    overall: "همهٔ بازی‌ها",
    mode_computer: "با رایانه",
    mode_private: "اتاق خصوصی",
    mode_public: "بازی عمومی",
    nPlayers: "{n} نفره",
    gameKind: "نوع بازی",
    gamesCol: "بازی‌ها",
    winsCol: "بردها",
    ratingHistory: "ریتینگ",
    ratingAxis: "ریتینگ",
    gamesAxis: "بازی‌های رسمی",
    ratingChartLabel: "ریتینگ در {n} بازی رسمی، از {a} تا {b}",
    noRated: "هنوز بازی رسمی ندارید: بازی با بازیکنان دیگر در اتاق خصوصی و بازی عمومی رسمی است و ریتینگ دارد.",
    noGames: "هنوز بازی تمام‌شده‌ای ندارید.",
    noGamesTheirs: "هنوز بازی تمام‌شده‌ای ندارد.",
    profileRecent: "بازی‌های اخیر",
    wonGame: "برد",
    lostGame: "باخت",
    headToHead: "با دوستانتان",
    noFriendGames: "دوست اضافه کنید تا ببینید با آن‌ها و در برابرشان چطور بازی می‌کنید.",
    asPartners: "یار هم: {g} بازی، {w} برد",
    asOpponents: "در برابر هم: {g} بازی، {w} برد",
    viewProfile: "نمایه",
    makePublic: "آمار و تاریخچهٔ ریتینگم در صفحهٔ عمومی‌ام دیده شود",
    publicHelp: "تا این را روشن نکنید، دیگران فقط نام و تصویر شما را می‌بینند.",
    publicPage: "صفحهٔ عمومی شما",
    needUsername: "برای داشتن صفحهٔ عمومی، در بخش حساب یک نام کاربری بگیرید.",
    privateProfile: "این بازیکن نمایه‌اش را خصوصی نگه داشته است.",
    saved: "ذخیره شد",
  },
});

function addStyles() {
  if (document.querySelector("link[data-profile-css]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("../css/profile.css", import.meta.url).href;
  link.dataset.profileCss = "1";
  document.head.append(link);
}

const SVG = "http://www.w3.org/2000/svg";
function s(tag, attrs = {}, text = null) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== null) el.textContent = text;
  return el;
}

/** Round steps (1, 2, 5 times a power of ten) spanning lo..hi in about ``count`` parts. */
function ticks(lo, hi, count = 4) {
  const raw = (hi - lo) / count || 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((x) => x >= raw);
  const out = [];
  for (let v = Math.floor(lo / step) * step; v < hi + step - step * 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

/**
 * The rating history as an inline SVG line chart: the rating before the first rated game, then one
 * point per rated game. Time runs in the reading direction: right to left in Persian.
 */
export function ratingChart(start, history) {
  const values = [start, ...history.map((p) => p.rating)];
  const W = 360, H = 200, padY = 34, padX = 44, top = 12, bottom = 40;
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 1) { lo -= 0.5; hi += 0.5; }
  const ys = ticks(lo, hi);
  lo = Math.min(lo, ys[0]); hi = Math.max(hi, ys[ys.length - 1]);
  const rtl = isRtl();
  const plotL = rtl ? 10 : padX, plotR = rtl ? W - padX : W - 10;
  const x = (i) => {
    const f = values.length > 1 ? i / (values.length - 1) : 0.5;
    return rtl ? plotR - f * (plotR - plotL) : plotL + f * (plotR - plotL);
  };
  const y = (v) => top + (1 - (v - lo) / (hi - lo)) * (H - top - bottom);
  const n = history.length;
  const label = t("ratingChartLabel", { n, a: decimal(values[0]), b: decimal(values[values.length - 1]) });
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-label": label, "data-testid": "rating-chart" });
  svg.append(s("title", {}, label));
  const axisX = rtl ? plotR : plotL;
  for (const v of ys) {
    svg.append(s("line", { x1: plotL, x2: plotR, y1: y(v), y2: y(v), class: v === 0 ? "grid zero" : "grid" }));
    // Numbers are laid out left to right (the minus sign before the digits, as Persian writes it),
    // and in an RTL page "start" would otherwise mean the right end: the label would sit on the axis.
    svg.append(s("text", { x: rtl ? plotR + 6 : plotL - 6, y: y(v), class: "tick y-tick", direction: "ltr", "text-anchor": rtl ? "start" : "end", "dominant-baseline": "middle" }, decimal(v)));
  }
  svg.append(s("line", { x1: axisX, x2: axisX, y1: top, y2: H - bottom, class: "axis" }));
  svg.append(s("line", { x1: plotL, x2: plotR, y1: H - bottom, y2: H - bottom, class: "axis" }));
  // Game numbers along the bottom: the first, the last, and one between when there is room.
  const marks = [...new Set([0, Math.round(n / 2), n])].filter((i) => i >= 0 && i <= n && (i === 0 || i === n || n >= 4));
  for (const i of marks) {
    svg.append(s("text", { x: x(i), y: H - bottom + 16, class: "tick x-tick", direction: "ltr", "text-anchor": "middle" }, num(i)));
  }
  svg.append(s("text", { x: (plotL + plotR) / 2, y: H - 6, class: "axis-title", "text-anchor": "middle" }, t("gamesAxis")));
  svg.append(s("text", { x: 0, y: 0, class: "axis-title", "text-anchor": "middle",
    transform: `translate(${rtl ? W - 8 : 10} ${(top + H - bottom) / 2}) rotate(${rtl ? 90 : -90})` }, t("ratingAxis")));
  svg.append(s("polyline", { points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "), class: "line" }));
  if (values.length <= 40) {
    values.forEach((v, i) => svg.append(s("circle", { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: i === values.length - 1 ? 4 : 2.5, class: i ? "dot" : "dot start" })));
  }
  return svg;
}

const nameEl = (text) => h("bdi", { dir: "auto" }, text);

function header(data, avatar) {
  return h("section.card-panel.profile-head", { dataset: { testid: "profile-head" } },
    h("span.profile-avatar", { html: avatarSvg(avatar), dataset: { avatar } }),
    h("div.profile-names", {},
      h("h1.profile-name", {}, nameEl(data.nickname)),
      // A username may be Latin or Persian: its own direction, isolated ("@sara_12", «@سارا_۱۲»).
      data.username ? h("bdi.muted.profile-username", { dir: "auto" }, `@${data.username}`) : null));
}

/** Games and wins by kind of game; ``own``: the caller's own page (with none, it says "you have none"). */
function modesTable(shown, own) {
  const table = h("table.modes-table", { dataset: { testid: "modes" } },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("gameKind")), h("th", { scope: "col" }, t("gamesCol")), h("th", { scope: "col" }, t("winsCol")))));
  const body = h("tbody", {});
  for (const m of shown.modes) {
    body.append(h("tr", { dataset: { mode: m.mode, players: m.players } },
      h("th", { scope: "row" }, t(`mode_${m.mode}`), h("span.muted.small", {}, ` (${t("nPlayers", { n: m.players })})`)),
      h("td", {}, num(m.games)), h("td", {}, num(m.wins))));
  }
  body.append(h("tr.overall", {}, h("th", { scope: "row" }, t("overall")), h("td", {}, num(shown.stats.games)), h("td", {}, num(shown.stats.wins))));
  table.append(body);
  return h("section.card-panel.panel-modes", {}, h("h2", {}, t("gamesCol")),
    shown.modes.length ? table : h("p.muted", {}, t(own ? "noGames" : "noGamesTheirs")));
}

function ratingPanel(shown) {
  // No number before the first rated game: a lone starting value (a small Persian zero) reads as a stray dot.
  const rated = shown.rating_history.length > 0;
  const head = h("h2", {}, t("ratingHistory"), rated ? " " : "", rated ? h("span.rating-now", { dataset: { testid: "rating-now" } }, decimal(shown.stats.rating)) : "");
  return h("section.card-panel.panel-rating", {}, head,
    shown.rating_history.length ? ratingChart(shown.rating_start, shown.rating_history) : h("p.muted", {}, t("noRated")));
}

function recentPanel(data) {
  const box = h("section.card-panel.panel-profile-recent", {}, h("h2", {}, t("profileRecent")));
  if (!data.recent.length) box.append(h("p.muted", {}, t("noGames")));
  for (const g of data.recent) {
    const when = dateTime(new Date(g.ended_at * 1000));
    box.append(h("div.recent-item.profile-game", { dataset: { testid: "profile-game", game: g.game_id } },
      h("span.game-result", { dataset: { won: g.won ? "1" : "0" } }, g.won ? t("wonGame") : t("lostGame")),
      // The computer's seats (no player id) by the table's name for them, not the server's English label.
      h("span.recent-names", {}, seatNames(g.names, (g.player_ids || []).map((p) => !p)).map((n) => nameEl(n)).flatMap((b, i) => (i ? [sep(), b] : [b]))),
      h("span.muted.small", {}, `${t(`mode_${g.mode}`)}${sep()}${when}`),
      h("a.btn.small.open-replay", { href: `#/replay/${encodeURIComponent(g.game_id)}` }, t("replay"))));
  }
  return box;
}

function headToHeadPanel(data) {
  const box = h("section.card-panel.panel-h2h", { dataset: { testid: "head-to-head" } }, h("h2", {}, t("headToHead")));
  if (!data.head_to_head.length) box.append(h("p.muted", {}, t("noFriendGames")));
  for (const r of data.head_to_head) {
    box.append(h("div.h2h-row", { dataset: { player: r.friend.player_id } },
      h("span.h2h-who", {}, nameEl(r.friend.nickname)),
      h("span.h2h-tally", {},
        h("span", {}, t("asPartners", { g: r.partners.games, w: r.partners.wins })),
        h("span", {}, t("asOpponents", { g: r.opponents.games, w: r.opponents.wins }))),
      r.friend.username ? h("a.btn.small", { href: `#/profile/${encodeURIComponent(r.friend.username)}` }, t("viewProfile")) : null));
  }
  return box;
}

function privacyPanel(api, ctx, data) {
  const box = h("input#profile-public", { type: "checkbox" });
  box.checked = data.public;
  box.onchange = async () => {
    box.disabled = true;
    try {
      await api.request("PUT", "/api/me/profile", { public: box.checked });
      ctx.toast(t("saved"));
    } catch (err) {
      box.checked = !box.checked;
      ctx.toast(ctx.errorText(err), "error");
    } finally {
      box.disabled = !data.username;
    }
  };
  // A public page is found by its username: without one there is nothing to make public yet.
  if (!data.username) box.disabled = true;
  return h("section.card-panel.panel-privacy", {},
    h("label.check-row", { for: "profile-public" }, box, h("span", {}, t("makePublic"))),
    h("p.muted.small", {}, t("publicHelp")),
    data.username
      ? h("a.btn.small#public-page", { href: `#/profile/${encodeURIComponent(data.username)}` }, t("publicPage"))
      : h("p.muted.small", {}, t("needUsername")));
}

/** The profile page; ``username`` null: the caller's own. Returns what stops it (nothing). */
export async function showProfile(app, api, ctx, username) {
  addStyles();
  const main = h("main.home.profile-page", {}, h("p.muted", {}, "…"));
  app.append(main);
  try {
    await ctx.ensureAuth();
    if (username) {
      const data = await api.get(`/api/profiles/${encodeURIComponent(username)}`);
      const avatar = data.avatar || derivedAvatar(data.player_id);
      clear(main).append(header(data, avatar));
      if (data.shown) main.append(modesTable(data.shown, false), ratingPanel(data.shown));
      else main.append(h("section.card-panel", {}, h("p.muted", { dataset: { testid: "private" } }, t("privateProfile"))));
      // Opened from a friends list or a link: the way back to the home page, private or not.
      main.append(h("p.profile-back", {}, h("a.btn", { href: "#/", dataset: { testid: "profile-home" } }, t("home"))));
      return null;
    }
    let data = await api.get("/api/me/profile");
    // The avatar chosen in settings is the one others see: tell the server when it differs.
    const chosen = settings.get("avatar");
    if (chosen in AVATARS && chosen !== data.avatar) data = await api.request("PUT", "/api/me/profile", { avatar: chosen }).catch(() => data);
    const avatar = (chosen in AVATARS && chosen) || data.avatar || derivedAvatar(data.player_id);
    // No game yet: the games panel says so, once (the recent games' panel would say it again).
    clear(main).append(...[header(data, avatar), modesTable(data.shown, true), ratingPanel(data.shown),
      data.recent.length || data.shown.modes.length ? recentPanel(data) : null,
      headToHeadPanel(data), privacyPanel(api, ctx, data)].filter(Boolean));
  } catch (err) {
    clear(main).append(h("section.card-panel", {}, h("p", {}, ctx.errorText(err)), h("a.btn", { href: "#/" }, t("home"))));
  }
  return null;
}
