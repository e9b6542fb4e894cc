// The social layer of the home page, loaded on demand by app.js: the account panel, the friends
// panel and pending invitations (with their live updates), their stylesheet, and the links that
// sign a device in (?link=CODE) or send a friend request (?friend=CODE).

import { t } from "./i18n.js";
import { accountPanel, holdLink, redeemCode, refusal } from "./account.js";
import { friendsPanel } from "./friends.js";

function addStyles() {
  if (document.querySelector("link[data-social-css]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("../css/social.css", import.meta.url).href;
  link.dataset.socialCss = "1";
  document.head.append(link);
}

/** Put the panels on the home page (in place of ``slot`` when given); returns what stops them. */
export function mountSocial(api, main, slot, app) {
  addStyles();
  const ctx = {
    ...app,
    redraw: () => { app.route(); },
    joinRoom: async (tableId, code) => {
      if (code) sessionStorage.setItem(app.roomCodeKey(tableId), code);
      location.hash = `#/room/${tableId}`;
    },
  };
  const friends = friendsPanel(api, ctx);
  const [invitations, friendsBox] = friends.panels;
  main.insertBefore(invitations, main.querySelector(".panel-name"));
  const panels = [friendsBox, accountPanel(api, ctx)];
  if (slot) slot.replaceWith(...panels);
  else main.append(...panels);
  return friends.stop;
}

/** A device link signs this device in; a friend link sends a friend request. */
export async function socialLink(api, ctx, link, friend) {
  try {
    // Where a guest plays, the account panel asks first: signing in would lose the guest for good.
    if (link && api.auth && !api.auth.username) holdLink(link);
    else if (link) { await redeemCode(api, link); ctx.toast(t("signedIn")); }
    if (friend) {
      await ctx.ensureAuth();
      const res = await api.post("/api/friends", { code: friend });
      ctx.toast(res.state === "friends" ? t("nowFriends") : t("requestSent"));
    }
  } catch (err) {
    ctx.toast(refusal(err, ctx.errorText), "error");
  }
}
