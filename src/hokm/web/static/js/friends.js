// The friends panel of the home page: the friend list with who is online or at a table, requests,
// adding by username or friend code, blocking, recent opponents and partners, pending invitations,
// and a one-tap invite (a new private room, the friend invited to it). A WebSocket kept open while
// the home page shows brings presence changes, requests and invitations live.

import { h, clear } from "./dom.js";
import { t, addStrings, typedCode } from "./i18n.js";
import { socialSocket } from "./net.js";
import { refusal } from "./account.js";

addStrings({
  en: {
    friends: "Friends",
    friendCode: "Your friend code",
    friendLink: "Copy friend link",
    addFriend: "Add a friend",
    friendWho: "Username or friend code",
    add: "Add",
    online: "Online",
    atTable: "At a table",
    offline: "Offline",
    invite: "Invite",
    profile: "Profile",
    remove: "Remove",
    requests: "Friend requests",
    sentRequests: "Waiting for an answer",
    blockedPlayers: "Blocked",
    recentPlayers: "Played with you recently",
    invitations: "Invitations",
    noFriends: "No friends yet. Share your friend code, or add someone you played with.",
    requestSent: "Friend request sent",
    inviteSent: "Invitation sent",
    err_not_found: "Nobody has this username or code",
    err_not_friends: "Only friends can be invited",
    err_blocked: "You blocked this player",
    err_table_not_open: "This room has started or closed",
  },
  fa: {
    friends: "دوستان",
    friendCode: "کد دوستی شما",
    friendLink: "رونوشت پیوند دوستی",
    addFriend: "افزودن دوست",
    friendWho: "نام کاربری یا کد دوستی",
    add: "افزودن",
    online: "آنلاین",
    atTable: "سر میز",
    offline: "آفلاین",
    invite: "دعوت",
    profile: "نمایه",
    remove: "حذف",
    requests: "درخواست‌های دوستی",
    sentRequests: "در انتظار پاسخ",
    blockedPlayers: "مسدودشده‌ها",
    recentPlayers: "هم‌بازی‌های اخیر",
    invitations: "دعوت‌ها",
    noFriends: "هنوز دوستی ندارید. کد دوستی‌تان را بفرستید یا هم‌بازی‌هایتان را اضافه کنید.",
    requestSent: "درخواست دوستی فرستاده شد",
    inviteSent: "دعوت فرستاده شد",
    err_not_found: "کسی این نام کاربری یا کد را ندارد",
    err_not_friends: "فقط دوستان را می‌توان دعوت کرد",
    err_blocked: "این بازیکن را مسدود کرده‌اید",
    err_table_not_open: "این اتاق شروع شده یا بسته شده است",
  },
});

const FRIEND_CODE = /^[2-9A-HJ-NP-Z]{4}-?[2-9A-HJ-NP-Z]{4}$/i;

/** A name a player typed: isolated, its direction from its own letters, always text. */
const nameEl = (person) => h("bdi.person-name", { dir: "auto" }, person.nickname);

/** The friends panel; ctx: {toast, errorText, ensureAuth, joinRoom(tableId, code), players()}. */
export function friendsPanel(api, ctx) {
  const box = h("section.card-panel.panel-friends", { dataset: { testid: "friends" } }, h("h2", {}, t("friends")));
  const invites = h("section.card-panel.panel-invitations", { dataset: { testid: "invitations" }, hidden: true });
  const problem = h("p.form-error", { role: "alert", hidden: true });
  const act = (fn, done) => async (ev) => {
    const btn = ev && ev.currentTarget;
    if (btn) btn.disabled = true;
    problem.hidden = true;
    try {
      await fn();
      if (done) ctx.toast(done);
      await reload();
    } catch (err) {
      problem.textContent = refusal(err, ctx.errorText);
      problem.hidden = false;
    } finally {
      if (btn) btn.disabled = false;
    }
  };
  const inviteTo = (friend) => act(async () => {
    await ctx.ensureAuth();
    const room = await api.post("/api/tables", { mode: "private", players: ctx.players() });
    await api.post("/api/invitations", { friend: friend.player_id, table: room.table_id });
    ctx.toast(t("inviteSent"));
    location.hash = `#/room/${room.table_id}`;
  });

  const drawInvites = (list) => {
    clear(invites).append(h("h2", {}, t("invitations")));
    invites.hidden = !list.length;
    for (const inv of list) {
      invites.append(h("div.invite-item", { dataset: { testid: "invitation", table: inv.table_id } },
        h("span", {}, nameEl(inv.sender), " ", t("invitesYou"), " ", h("span.muted.small", {}, `(${t("roomFor", { n: inv.players })})`)),
        h("span.row", {},
          h("button.btn.small.primary.accept-invite", { type: "button", onclick: act(async () => {
            const res = await api.post(`/api/invitations/${inv.id}/accept`, {});
            await ctx.joinRoom(res.invitation.table_id, res.invitation.code);
          }) }, t("join")),
          h("button.btn.small.decline-invite", { type: "button", onclick: act(() => api.post(`/api/invitations/${inv.id}/decline`, {})) }, t("decline")))));
    }
  };

  const personRow = (p, ...buttons) => h("div.friend-row", { dataset: { player: p.player_id } },
    // The space between the name and @username outside the username's isolate: inside it, a Latin username took it
    // to its far side, away from a Persian name («سارا@sara_fa»).
    h("span.friend-who", {}, nameEl(p), p.username ? [" ", h("bdi.muted.small.friend-username", { dir: "auto" }, `@${p.username}`)] : null), ...buttons);

  // The add field outlives redrawing (a live update must not wipe what the player is typing).
  const who = h("input#friend-who.input", { type: "text", maxlength: "64", dir: "auto", placeholder: t("friendWho"), "aria-label": t("friendWho") });
  const addBtn = h("button.btn#add-friend", { type: "button" }, t("add"));
  addBtn.onclick = act(async () => {
    const v = who.value.trim();
    if (!v) return;
    // A friend code as a Persian keyboard types it (۵, lower case) is the code, as in the room and device boxes.
    const code = typedCode(v);
    const res = await api.post("/api/friends", FRIEND_CODE.test(code) ? { code } : { username: v });
    who.value = "";
    ctx.toast(res.state === "friends" ? t("nowFriends") : t("requestSent"));
  });

  const draw = (data) => {
    const link = `${location.origin}/?friend=${data.code}`;
    clear(box).append(h("h2", {}, t("friends")),
      h("p.code-box", {}, h("span.muted", {}, t("friendCode")), " ",
        h("bdi.room-code.ltr-code", { dir: "ltr", dataset: { testid: "friend-code" } }, data.code)),
      h("button.btn.small#copy-friend-link", { type: "button", onclick: async () => {
        try { await navigator.clipboard.writeText(link); ctx.toast(t("copied")); } catch { prompt(t("friendLink"), link); }
      } }, t("friendLink")),
      h("label.field-label", { for: "friend-who" }, t("addFriend")), h("div.row.join-row", {}, who, addBtn), problem);
    if (!data.friends.length) box.append(h("p.muted.small", {}, t("noFriends")));
    for (const f of data.friends) {
      const state = f.table ? "table" : f.online ? "online" : "offline";
      box.append(personRow(f,
        h("span.presence", { dataset: { state } }, t(state === "table" ? "atTable" : state)),
        h("button.btn.small.primary.invite-friend", { type: "button", onclick: inviteTo(f) }, t("invite")),
        f.username ? h("a.btn.small.friend-profile", { href: `#/profile/${encodeURIComponent(f.username)}` }, t("profile")) : null,
        h("button.btn.small.remove-friend", { type: "button", onclick: act(() => api.del(`/api/friends/${f.player_id}`)) }, t("remove")),
        // Blocking ends the friendship too; the player is listed under Blocked, to unblock (they are not told).
        h("button.btn.small.block-player", { type: "button", onclick: act(() => api.post(`/api/blocks/${f.player_id}`, {}), t("blocked")) }, t("block"))));
    }
    const group = (title, people, ...make) => {
      if (!people.length) return;
      box.append(h("h3", {}, title));
      for (const p of people) box.append(personRow(p, ...make.map((m) => m(p))));
    };
    group(t("requests"), data.incoming,
      (p) => h("button.btn.small.primary.accept-friend", { type: "button", onclick: act(() => api.post(`/api/friends/${p.player_id}/accept`, {}), t("nowFriends")) }, t("accept")),
      (p) => h("button.btn.small.decline-friend", { type: "button", onclick: act(() => api.post(`/api/friends/${p.player_id}/decline`, {})) }, t("decline")),
      (p) => h("button.btn.small.block-player", { type: "button", onclick: act(() => api.post(`/api/blocks/${p.player_id}`, {})) }, t("block")));
    group(t("sentRequests"), data.outgoing,
      (p) => h("button.btn.small", { type: "button", onclick: act(() => api.del(`/api/friends/${p.player_id}`)) }, t("cancel")));
    group(t("recentPlayers"), data.recent,
      (p) => h("button.btn.small.befriend", { type: "button", onclick: act(() => api.post("/api/friends", { player_id: p.player_id }), t("requestSent")) }, t("add")));
    group(t("blockedPlayers"), data.blocked,
      (p) => h("button.btn.small", { type: "button", onclick: act(() => api.del(`/api/blocks/${p.player_id}`)) }, t("unblock")));
  };

  const reload = async () => {
    if (!api.auth) { box.hidden = true; return; }
    box.hidden = false;
    const [data, pending] = await Promise.all([api.get("/api/friends"), api.get("/api/invitations")]);
    draw(data);
    drawInvites(pending.invitations);
  };
  reload().catch(() => { box.hidden = true; });
  const stop = socialSocket(api, (msg) => {
    // The name isolated (FSI ... PDI): a name in either script keeps its own direction in the sentence.
    if (msg.type === "invitation") ctx.toast(`\u2068${msg.invitation.sender.nickname}\u2069 ${t("invitesYou")}`);
    if (["friend_presence", "friend_request", "friend_accepted", "invitation"].includes(msg.type)) reload().catch(() => {});
  });
  return { panels: [invites, box], stop };
}
