// The account panel of the home page: keep a guest's account with a username and password, sign
// in on this device, link another device with a one-time code (and its QR code), sign out
// everywhere. The server does the work (docs/server.md, "Accounts"); this only asks and shows.

import { h, clear } from "./dom.js";
import { t, addStrings } from "./i18n.js";
import { AUTH_KEY, saveAuth } from "./net.js";
import * as settings from "./settings.js";

addStrings({
  en: {
    account: "Your account",
    accountGuest: "You play as a guest on this device. Keep your games, rating and friends with a username and a password, then sign in on any device.",
    signedInAs: "Signed in as",
    username: "Username",
    password: "Password",
    keepAccount: "Keep my account",
    signIn: "Sign in",
    signInHere: "Already have an account? Sign in on this device",
    linkDevice: "Sign in on another device",
    linkHelp: "On the other device, open this link or scan the code. It works once, for {n} minutes.",
    linkHelp_one: "On the other device, open this link or scan the code. It works once, for {n} minute.",
    deviceCode: "Device code",
    useCode: "Have a code from your other device?",
    useCodeBtn: "Use the code",
    signOutAll: "Sign out on every device",
    signedOutAll: "Signed out everywhere",
    signOutAllSure: "Every device, this one too, will be signed out. You will need your username and password to come back.",
    signOutAllYes: "Sign out on every device",
    signedOutHere: "You were signed out; sign in again.",
    replaceGuest: "You play as a guest on this device. Signing in puts another account here, and this guest's games, rating and friends will be out of reach for good. To keep them, give the guest a username first (“Keep my account”).",
    replaceGuestYes: "Sign in anyway",
    accountSaved: "Your account is kept",
    signedIn: "Signed in",
    err_bad_credentials: "Wrong username or password",
    err_username_taken: "This username is taken",
    err_username_invalid: "A username has 3 to 24 letters or digits, and _ . - only",
    err_account_name_confusable: "Write the username in one alphabet",
    err_account_name_invisible: "The username needs a visible letter or digit",
    err_password_invalid: "The password needs at least 8 characters",
    err_bad_link: "This code is unknown, used or expired",
    err_rate_limited: "Too many tries; wait a little and try again",
  },
  fa: {
    account: "حساب شما",
    accountGuest: "در این دستگاه مهمان بازی می‌کنید. با نام کاربری و رمز، بازی‌ها و ریتینگ و دوستانتان را نگه دارید و در هر دستگاهی وارد شوید.",
    signedInAs: "وارد شده با نام",
    username: "نام کاربری",
    password: "رمز",
    keepAccount: "نگه داشتن حساب",
    signIn: "ورود",
    signInHere: "حساب دارید؟ در این دستگاه وارد شوید",
    linkDevice: "ورود در دستگاه دیگر",
    linkHelp: "در دستگاه دیگر این پیوند را باز کنید یا کد را اسکن کنید. یک بار و تا {n} دقیقه کار می‌کند.",
    deviceCode: "کد دستگاه",
    useCode: "از دستگاه دیگرتان کد دارید؟",
    useCodeBtn: "وارد کردن کد",
    signOutAll: "خروج از همهٔ دستگاه‌ها",
    signedOutAll: "از همهٔ دستگاه‌ها خارج شدید",
    signOutAllSure: "از حساب در همهٔ دستگاه‌ها، از جمله همین دستگاه، خارج می‌شوید. برای ورود دوباره به نام کاربری و رمزتان نیاز دارید.",
    signOutAllYes: "خروج از همهٔ دستگاه‌ها",
    signedOutHere: "از حساب خارج شده‌اید؛ دوباره وارد شوید.",
    replaceGuest: "در این دستگاه مهمان بازی می‌کنید. با ورود، حساب دیگری جای مهمان را می‌گیرد و بازی‌ها و ریتینگ و دوستان این مهمان برای همیشه از دست می‌روند. برای نگه داشتنشان، نخست با «نگه داشتن حساب» برای مهمان نام کاربری بگذارید.",
    replaceGuestYes: "با این حال وارد شوید",
    accountSaved: "حسابتان نگه داشته شد",
    signedIn: "وارد شدید",
    err_bad_credentials: "نام کاربری یا رمز نادرست است",
    err_username_taken: "این نام کاربری گرفته شده است",
    err_username_invalid: "نام کاربری ۳ تا ۲۴ حرف یا رقم است و فقط _ . - دارد",
    err_account_name_confusable: "نام کاربری را با یک الفبا بنویسید",
    err_account_name_invisible: "نام کاربری باید حرف یا رقم دیدنی داشته باشد",
    err_password_invalid: "رمز دست‌کم ۸ نویسه می‌خواهد",
    err_bad_link: "این کد ناشناخته، به‌کاررفته یا منقضی است",
    err_rate_limited: "تلاش‌ها زیاد بود؛ کمی صبر کنید و دوباره امتحان کنید",
  },
});

/** Take the identity a sign-in or a device link gave (POST /api/signin, /api/links/redeem). */
function adoptAuth(api, signed) {
  api.auth = { token: signed.token, player_id: signed.player_id, nickname: signed.nickname, username: signed.username || null };
  saveAuth(api.auth);
  return api.auth;
}

/** Forget this device's identity (after signing out everywhere). */
function dropAuth(api) {
  api.auth = null;
  try { localStorage.removeItem(AUTH_KEY); } catch { /* nothing stored */ }
}

/** Ask before what cannot be undone: ``text`` and two buttons after ``after`` (the row of ``anchor``), ``anchor``
 *  hidden meanwhile; true when the player goes on. */
function ask(anchor, text, yes, after = anchor) {
  return new Promise((resolve) => {
    const done = (go) => { row.remove(); anchor.hidden = false; resolve(go); };
    const row = h("div.confirm-row", { role: "alertdialog", "aria-label": text, dataset: { testid: "confirm" } },
      h("p.small", {}, text),
      h("div.row", {},
        h("button.btn.small.primary", { type: "button", dataset: { testid: "confirm-yes" }, onclick: () => done(true) }, yes),
        h("button.btn.small", { type: "button", dataset: { testid: "confirm-no" }, onclick: () => done(false) }, t("cancel"))));
    anchor.hidden = true;
    after.after(row);
    row.querySelector("[data-testid=confirm-no]").focus();
  });
}

/** A server refusal in the player's words where we have them, else the server's own message. */
export function refusal(err, fallback) {
  // The panel's own words first (a username's, where the general ones speak of a player's name).
  for (const key of err && err.code ? [`err_account_${err.code}`, `err_${err.code}`] : []) {
    const said = t(key);
    if (said !== key) return said;
  }
  return fallback(err);
}

function field(id, label, attrs) {
  return [h("label.field-label", { for: id }, label), h(`input#${id}.input`, { dir: "auto", ...attrs })];
}

let heldLink = null;

/** A device link (?link=CODE) opened where a guest plays: kept for the account panel, which asks first. */
export function holdLink(code) { heldLink = code; }

/** Sign in with a device code (from a link ?link=CODE or typed); returns true when it worked. */
export async function redeemCode(api, code) {
  const signed = await api.post("/api/links/redeem", { code });
  adoptAuth(api, signed);
  settings.set("nickname", signed.nickname);
  return true;
}

/** The account panel; ctx: {toast, errorText, redraw}. */
export function accountPanel(api, ctx) {
  const box = h("section.card-panel.panel-account", { dataset: { testid: "account" } }, h("h2", {}, t("account")));
  const problem = h("p.form-error", { role: "alert", hidden: true });
  const fail = (err) => { problem.textContent = refusal(err, ctx.errorText); problem.hidden = false; };
  const busy = (btn, fn) => async (ev) => {
    if (ev) ev.preventDefault();
    problem.hidden = true;
    btn.disabled = true;
    try { await fn(); } catch (err) { fail(err); } finally { btn.disabled = false; }
  };

  const draw = (acc) => {
    clear(box).append(h("h2", {}, t("account")));
    // A guest's identity lives on this device only: signing in with another account loses it for good.
    const guestHere = !!api.auth && !(acc && acc.username);
    if (acc && acc.username) {
      box.append(h("p", {}, t("signedInAs"), " ", h("bdi.account-username", { dir: "auto", dataset: { testid: "username" } }, acc.username)));
    } else {
      const [ul, u] = field("claim-username", t("username"), { type: "text", maxlength: "24", autocomplete: "username" });
      const [pl, p] = field("claim-password", t("password"), { type: "password", maxlength: "256", autocomplete: "new-password", dir: "ltr" });
      const save = h("button.btn.primary#claim-account", { type: "submit" }, t("keepAccount"));
      const form = h("form.account-form", {}, h("p.muted.small", {}, t("accountGuest")), ul, u, pl, p, save);
      form.addEventListener("submit", busy(save, async () => {
        // Said here in the player's words, not by the server's English validation message.
        if (u.value.trim().length < 3) throw { code: "username_invalid" };
        if (p.value.length < 8) throw { code: "password_invalid" };
        await ensure();
        const done = await api.post("/api/account", { username: u.value, password: p.value });
        api.auth.username = done.username;
        adoptAuth(api, { ...api.auth });
        ctx.toast(t("accountSaved"));
        ctx.redraw(); // the home page again, now with the friends panel and its live updates
      }));
      const [sl, su] = field("signin-username", t("username"), { type: "text", maxlength: "64", autocomplete: "username" });
      const [spl, sp] = field("signin-password", t("password"), { type: "password", maxlength: "256", autocomplete: "current-password", dir: "ltr" });
      const go = h("button.btn#sign-in", { type: "submit" }, t("signIn"));
      const signForm = h("form.account-form.signin-form", {}, sl, su, spl, sp, go);
      signForm.addEventListener("submit", busy(go, async () => {
        if (!su.value.trim() || !sp.value) throw { code: "bad_credentials" };
        if (guestHere && !(await ask(go, t("replaceGuest"), t("replaceGuestYes")))) return;
        const signed = await api.post("/api/signin", { username: su.value, password: sp.value });
        adoptAuth(api, signed);
        settings.set("nickname", signed.nickname);
        ctx.toast(t("signedIn"));
        ctx.redraw();
      }));
      box.append(form, h("details.signin", {}, h("summary", {}, t("signInHere")), signForm));
    }
    // Another device: a one-time code, its link and QR code.
    const linkOut = h("div.link-out", { "aria-live": "polite" });
    const linkBtn = h("button.btn#link-device", { type: "button" }, t("linkDevice"));
    linkBtn.onclick = busy(linkBtn, async () => {
      await ensure();
      const link = await api.post("/api/links", {});
      const minutes = Math.max(1, Math.round((link.expires_at * 1000 - Date.now()) / 60000));
      const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(link.qr_svg)}`;
      clear(linkOut).append(
        h("p.small", {}, t("linkHelp", { n: minutes })),
        h("p.code-box", {}, h("span.muted", {}, t("deviceCode")), " ",
          h("bdi.room-code.ltr-code", { dir: "ltr", dataset: { testid: "device-code" } }, link.code)),
        h("img.qr", { src: qr, alt: link.url, width: "160", height: "160" }),
        h("p.muted.small.invite-link", {}, h("bdi.ltr-code", { dir: "ltr" }, link.url)));
    });
    const codeIn = h("input#device-code.input.code", { type: "text", maxlength: "12", autocapitalize: "characters", "aria-label": t("deviceCode"), placeholder: "ABCD-EFGH", dir: "ltr" });
    const useBtn = h("button.btn#use-device-code", { type: "button" }, t("useCodeBtn"));
    useBtn.onclick = busy(useBtn, async () => {
      if (!codeIn.value.trim()) throw { code: "bad_link" };
      const go = !guestHere || await ask(useBtn, t("replaceGuest"), t("replaceGuestYes"), useBtn.parentElement);
      heldLink = null;
      if (!go) return;
      await redeemCode(api, codeIn.value.trim());
      ctx.toast(t("signedIn"));
      ctx.redraw();
    });
    const outBtn = h("button.btn.small#sign-out-all", { type: "button" }, t("signOutAll"));
    outBtn.onclick = busy(outBtn, async () => {
      if (!(await ask(outBtn, t("signOutAllSure"), t("signOutAllYes")))) return;
      await api.post("/api/signout", { everywhere: true });
      dropAuth(api);
      ctx.toast(t("signedOutAll"));
      ctx.redraw();
    });
    box.append(...[linkBtn, linkOut,
      acc && acc.username ? null : h("p.small.muted", {}, t("useCode")),
      acc && acc.username ? null : h("div.row.join-row", {}, codeIn, useBtn),
      problem,
      // A guest has no password to come back with: signing out everywhere would lose the account.
      acc && acc.username ? outBtn : null].filter(Boolean));
    if (heldLink && box.isConnected) {
      const code = heldLink;
      if (guestHere) { // the code in its box, and the question of what the guest loses (answered, it is let go)
        codeIn.value = code;
        box.scrollIntoView({ block: "center" });
        useBtn.click();
      } else {
        heldLink = null;
        redeemCode(api, code).then(() => { ctx.toast(t("signedIn")); ctx.redraw(); }, fail);
      }
    }
  };
  const ensure = ctx.ensureAuth;
  // Drawn once: with an identity, when the server has said whether it has a username (a second
  // drawing would wipe what the player is typing). An identity the server no longer knows (signed out
  // everywhere from another device) is forgotten here too, and the panel says so: not a guest to warn about.
  if (api.auth) {
    api.get("/api/account").then(draw, (err) => {
      if (err && err.status === 401) {
        const wasAccount = !!api.auth.username;
        dropAuth(api);
        draw(null);
        if (wasAccount) { problem.textContent = t("signedOutHere"); problem.hidden = false; }
      } else {
        draw(null);
      }
    });
  } else {
    draw(null);
  }
  return box;
}
