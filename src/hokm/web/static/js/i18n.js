// Strings in English and Persian. Every visible word goes through t(); numbers through num(),
// which writes Persian digits in Persian mode. The game's own terms (Hâkem, Hokm, kot) keep
// their Persian names in both languages, transliterated in English.

export const STRINGS = {
  en: {
    appName: "Hokm",
    appAbout: "Hokm (حکم), the Persian trick-taking card game, in your browser: against the computer or with friends.",
    tagline: "The Persian trick-taking game",
    nickname: "Your name",
    nicknamePlaceholder: "Nickname",
    playComputer: "Play the computer",
    players: "Players",
    difficulty: "Difficulty",
    target: "Points to win",
    level_easy: "Easy",
    level_medium: "Medium",
    level_hard: "Hard",
    start: "Start",
    privateRoom: "Private room",
    createRoom: "Create a room",
    joinRoom: "Join with a code",
    roomCode: "Room code",
    join: "Join",
    quickMatch: "Quick public match",
    findMatch: "Find a match",
    searching: "Looking for players…",
    cancel: "Cancel",
    recentGames: "Your recent games",
    myProfile: "Your profile",
    noRecent: "No finished games yet.",
    noLeaders: "Nobody on this list yet: it shows players once they finish a game.",
    leaderboard: "Best players",
    accountOpen: "Account and friends",
    wins: "{n} wins",
    wins_one: "{n} win",
    ratingN: "rating {n}",
    // A friend's request or invitation, shown on any screen (app.js), and the friends panel's answers.
    accept: "Accept",
    decline: "Decline",
    block: "Block",
    unblock: "Unblock",
    invitesYou: "invites you to a room",
    nowFriends: "You are friends now",
    roomFor: "{n} players",
    roomFor_one: "{n} player",
    wantsFriend: "wants to be your friend",
    blocked: "Blocked",
    settings: "Settings",
    rules: "How to play",
    language: "Language",
    theme: "Table",
    faces: "Card faces",
    backs: "Card backs",
    avatar: "Your picture",
    av_shah: "Shah",
    av_banu: "Lady",
    av_pahlevan: "Champion",
    av_darvish: "Dervish",
    av_shaer: "Poet",
    av_golbanu: "Golbanu",
    av_chupan: "Shepherd",
    av_shirin: "Shirin",
    av_mirza: "Mirza",
    av_bibi: "Grandmother",
    av_javan: "Young man",
    av_sarbaz: "Soldier",
    av_khorshid: "Sun",
    av_sarv: "Cypress",
    av_anar: "Pomegranate",
    av_bolbol: "Nightingale",
    speed: "Animation speed",
    speed_slow: "Slow",
    speed_normal: "Normal",
    speed_fast: "Fast",
    speed_off: "Instant",
    sound: "Sound",
    mute: "Mute",
    hints: "Hint button",
    on: "On",
    off: "Off",
    close: "Close",
    back: "Back",
    home: "Home",
    menu: "Menu",
    leave: "Leave table",
    room: "Room",
    shareLink: "Copy invite link",
    copied: "Copied",
    seat: "Seat",
    sitHere: "Sit here",
    emptySeat: "Empty",
    addBot: "Add a bot",
    removeBot: "Remove",
    moveHere: "Move here",
    leaveSeat: "Leave seat",
    startGame: "Start the game",
    waitingHost: "Waiting for the host to start…",
    you: "You",
    partner: "Partner",
    bot: "Computer",
    botPlaying: "Computer is playing for this seat",
    computerSeat: "A computer player",
    botPlayingYou: "The computer is playing for you",
    questionMark: "?",
    takeBack: "Back to the game",
    offline: "Disconnected",
    online: "Connected",
    hakem: "Hâkem",
    dealer: "Dealer",
    hokm: "Hokm",
    trump: "Hokm (trump)",
    kot: "Kot",
    hakemKoti: "Hâkem-koti",
    tricks: "Tricks",
    score: "Score",
    scoreWord: "points",
    us: "Us",
    them: "Them",
    side: "Side",
    yourTurn: "Your turn",
    waitingFor: "Waiting for {name}",
    chooseTrump: "Choose the Hokm",
    chooseTrumpHelp: "Your first five cards. Pick the trump suit.",
    hakemChoosing: "{name} is choosing the Hokm",
    discardTitle: "Discard {n} cards",
    discardHelp: "Pick {n} cards to put face down. Nobody will see them.",
    discardTitle_one: "Discard {n} card",
    discardHelp_one: "Pick {n} card to put face down. Nobody will see it.",
    confirm: "Confirm",
    confirmCount: "Confirm ({a}/{n})",
    teamsLegend: "Seats of one colour play together",
    drawTitle: "The top card of the stock",
    keep: "Keep it",
    pass: "Pass it",
    drawHelp: "Keep it and throw away the next card, or pass it and take the next card.",
    drewKept: "You kept {first}; {second} is burned",
    drewPassed: "You burned {first}; {second} is in your hand",
    stock: "Stock",
    lastTrick: "Last trick",
    noLastTrick: "No trick yet",
    hint: "Hint",
    hintSays: "Suggested: {card}",
    handOver: "Hand over",
    handWonBy: "{side} won the hand",
    handWonByPair: "{side} won the hand",
    handWonWe: "We won the hand",
    handWonThey: "They won the hand",
    handWonYou: "You won the hand",
    tieWon: "{a} and {b} tied for the most tricks, so the hand goes to {side}.",
    tieWonYou: "{a} and {b} tied for the most tricks, so the hand is yours.",
    tieWonWithYou: "You and {b} tied for the most tricks, so the hand goes to {side}.",
    points: "{n} points",
    points_one: "{n} point",
    point1: "1 point",
    gameOver: "Game over",
    gameResult: "Game result",
    gameWonBy: "{side} won the game",
    gameWonByPair: "{side} won the game",
    gameWonWe: "We won the game",
    gameWonThey: "They won the game",
    gameWonYou: "You won the game",
    youWin: "You won!",
    youLose: "You lost",
    weWin: "We won!",
    weLose: "We lost",
    nextHand: "Next hand",
    newGame: "New game",
    replay: "Replay",
    download: "Download record",
    verifyOk: "Hand {n}: the shuffle matches its commitment",
    verifyBad: "Hand {n}: mismatch!",
    verifyNone: "Hand {n}: no commitment",
    fairness: "Fair shuffle",
    sigThis: "Signed by this server",
    sigOther: "Signed by another server, key",
    sigNone: "Not signed: nothing shows which server dealt it",
    sigBad: "The signature does not match: the record was changed after signing",
    noWebCrypto: "this browser cannot hash here (it needs https or localhost)",
    notRevealed: "seed revealed when the hand is over",
    notDealt: "not dealt, the game ended before this hand",
    reconnecting: "Connection lost. Reconnecting…",
    reconnected: "Back at the table",
    connectError: "Cannot reach the server",
    error: "Error",
    // The server's refusals (docs/protocol.md, error codes) in the player's words; errorText() picks them.
    err_generic: "That did not work. Please try again.",
    err_name_empty: "Write a name first",
    err_name_invisible: "The name needs a visible letter or digit",
    err_name_confusable: "Write the name in one alphabet",
    err_name_too_long: "The name is too long",
    err_room_not_found: "No room has this code. Check it and try again.",
    err_not_found: "Not found; it may no longer exist.",
    err_code_required: "This is a private room: joining needs its code.",
    err_rate_limited: "Too many tries; wait a little and try again",
    err_too_many_tables: "You have too many tables open: finish or leave one first.",
    err_busy: "The server is busy; try again in a moment.",
    err_full: "The server is full; try again in a moment.",
    err_seat_taken: "Someone has just taken this seat.",
    err_already_seated: "You already have a seat at this table.",
    err_table_started: "This game has already started.",
    err_table_not_ready: "Every seat needs a player before the game starts.",
    err_table_not_open: "This room has started or closed",
    err_not_host: "Only the room's host can do that.",
    err_not_seated: "You have no seat at this table.",
    err_not_over: "The game is not over yet.",
    err_game_in_progress: "You are already in a game.",
    err_in_game: "You are already in a game.",
    err_unauthorized: "Your session has ended: reload the page.",
    err_forbidden: "That is not allowed here.",
    err_no_such_seat: "There is no such seat.",
    err_spectator: "Spectators cannot do that.",
    err_bad_request: "The server could not read that request.",
    played: "{name} played {card}",
    playedYou: "You played {card}",
    trickTo: "{name} takes the trick",
    trickToYou: "You take the trick",
    trumpIs: "Hokm is {suit}",
    trumpUnknown: "The Hokm is not chosen yet",
    timer: "{n} s left",
    handN: "Hand {n}",
    trickN: "Trick {n}",
    prev: "Previous",
    next: "Next",
    first: "Start",
    last: "End",
    beforeFirstTrick: "The deal, before the first trick",
    skip: "Skip",
    spectator: "Spectator",
    seatName: "Seat {n}",
    cardsLeft: "{n} cards",
    cardsLeft_one: "{n} card",
    rulesShort: "First to {n} points",
    rulesShort_one: "First to {n} point",
    your: "your",
    codeInvalid: "Enter the room code",
    nicknameFirst: "Choose your name, then press Join",
    invitedTitle: "You are invited to a game of Hokm",
    invitedHelp: "Write the name the others will see, then join the room and pick a seat.",
    nicknameNeeded: "Write a name first",
    err_room_gone: "This room no longer exists",
    notNow: "Not now: go to the home page",
    gameInProgress: "Your game is still going on",
    gamesInProgress: "Your unfinished games",
    since: "since {time}",
    roomWaiting: "Your room is waiting",
    withPlayers: "At the table:",
    resume: "Go back to the game",
    backToRoom: "Back to the room",
    firstHakem: "The first ace went to {name}, the Hâkem",
    firstHakemYou: "The first ace went to you: you are the Hâkem",
    scoreOf: "{side}: {n} of {t}",
    handResult: "Tricks {a}",
    tricksN: "{n} tricks",
    tricksN_one: "{n} trick",
    refused_must_follow_suit: "You must follow suit: play a card in {suit}",
    refused_not_your_turn: "Wait for your turn",
    refused_hand_over: "The hand is over",
    refused_game_over: "The game is over",
    refused_wrong_phase: "Not now",
    newVersion: "A new version is ready",
    reloadNow: "Reload",
    offlineTitle: "The server cannot be reached",
    offlineText: "You are offline, or the server is down. Replays you have opened are kept on this device.",
    tryAgain: "Try again",
    onlineAgain: "You are online again.",
    backToApp: "Back to Hokm",
    savedGames: "Kept on this device",
    noSavedGames: "Nothing kept yet: replays you open while online are kept here.",
  },
  fa: {
    appName: "حکم",
    appAbout: "حکم، بازی ورق ایرانی، در مرورگر شما: با رایانه یا با دوستان.",
    tagline: "بازی ورق ایرانی",
    nickname: "نام شما",
    nicknamePlaceholder: "نام مستعار",
    playComputer: "بازی با رایانه",
    players: "تعداد بازیکن",
    difficulty: "سطح",
    target: "امتیاز برد",
    level_easy: "آسان",
    level_medium: "متوسط",
    level_hard: "سخت",
    start: "شروع",
    privateRoom: "اتاق خصوصی",
    createRoom: "ساختن اتاق",
    joinRoom: "ورود با کد",
    roomCode: "کد اتاق",
    join: "ورود",
    quickMatch: "بازی سریع عمومی",
    findMatch: "پیدا کردن بازی",
    searching: "در جست‌وجوی بازیکن…",
    cancel: "لغو",
    recentGames: "بازی‌های اخیر شما",
    myProfile: "نمایهٔ شما",
    noRecent: "هنوز بازی تمام‌شده‌ای ندارید.",
    noLeaders: "هنوز کسی در این فهرست نیست: بازیکنان پس از پایان نخستین بازی‌شان اینجا می‌آیند.",
    leaderboard: "بهترین بازیکنان",
    accountOpen: "حساب و دوستان",
    wins: "{n} برد",
    ratingN: "ریتینگ {n}",
    accept: "پذیرفتن",
    decline: "رد کردن",
    block: "مسدود کردن",
    unblock: "رفع مسدودی",
    invitesYou: "شما را به یک اتاق دعوت کرده است",
    nowFriends: "حالا با هم دوستید",
    roomFor: "{n} نفره",
    wantsFriend: "می‌خواهد با شما دوست شود",
    blocked: "مسدود شد",
    settings: "تنظیمات",
    rules: "قوانین بازی",
    language: "زبان",
    theme: "میز",
    faces: "روی کارت‌ها",
    backs: "پشت کارت‌ها",
    avatar: "تصویر شما",
    av_shah: "شاه",
    av_banu: "بانو",
    av_pahlevan: "پهلوان",
    av_darvish: "درویش",
    av_shaer: "شاعر",
    av_golbanu: "گل‌بانو",
    av_chupan: "چوپان",
    av_shirin: "شیرین",
    av_mirza: "میرزا",
    av_bibi: "مادربزرگ",
    av_javan: "جوان",
    av_sarbaz: "سرباز",
    av_khorshid: "خورشید",
    av_sarv: "سرو",
    av_anar: "انار",
    av_bolbol: "بلبل",
    speed: "سرعت جابه‌جایی",
    speed_slow: "آهسته",
    speed_normal: "معمولی",
    speed_fast: "تند",
    speed_off: "بی‌درنگ",
    sound: "صدا",
    mute: "بی‌صدا",
    hints: "دکمهٔ پیشنهاد",
    on: "روشن",
    off: "خاموش",
    close: "بستن",
    back: "بازگشت",
    home: "خانه",
    menu: "منو",
    leave: "ترک میز",
    room: "اتاق",
    shareLink: "رونوشت پیوند دعوت",
    copied: "رونوشت شد",
    seat: "صندلی",
    sitHere: "اینجا بنشین",
    emptySeat: "خالی",
    addBot: "افزودن رایانه",
    removeBot: "برداشتن",
    moveHere: "جابه‌جا شو",
    leaveSeat: "ترک صندلی",
    startGame: "شروع بازی",
    waitingHost: "در انتظار شروع از سوی میزبان…",
    you: "شما",
    partner: "یار",
    bot: "رایانه",
    botPlaying: "رایانه به جای این بازیکن بازی می‌کند",
    computerSeat: "بازیکن رایانه‌ای",
    botPlayingYou: "رایانه به جای شما بازی می‌کند",
    questionMark: "؟",
    takeBack: "بازگشت به بازی",
    offline: "قطع",
    online: "وصل",
    hakem: "حاکم",
    dealer: "پخش‌کننده",
    hokm: "حکم",
    trump: "حکم",
    kot: "کُت",
    hakemKoti: "حاکم‌کُتی",
    tricks: "دورها",
    score: "امتیاز",
    scoreWord: "امتیاز",
    us: "ما",
    them: "آن‌ها",
    side: "گروه",
    yourTurn: "نوبت شماست",
    waitingFor: "در انتظار {name}",
    chooseTrump: "حکم را انتخاب کنید",
    chooseTrumpHelp: "پنج کارت نخست شما. خال حکم را برگزینید.",
    hakemChoosing: "{name} حکم را انتخاب می‌کند",
    discardTitle: "{n} کارت بسوزانید",
    discardHelp: "{n} کارت را برای کنار گذاشتن برگزینید. کسی آن‌ها را نمی‌بیند.",
    confirm: "تأیید",
    confirmCount: "تأیید ({a} از {n})",
    teamsLegend: "جاهای هم‌رنگ یار یکدیگرند",
    drawTitle: "کارت روی دسته",
    keep: "برمی‌دارم",
    pass: "می‌سوزانم",
    drawHelp: "یا این کارت را بردارید و کارت بعدی را بسوزانید، یا این را بسوزانید و کارت بعدی را بردارید.",
    drewKept: "{first} را برداشتید و {second} سوخت",
    drewPassed: "{first} سوخت و {second} را برداشتید",
    stock: "دسته",
    lastTrick: "دور پیش",
    noLastTrick: "هنوز دوری بازی نشده",
    hint: "پیشنهاد",
    hintSays: "پیشنهاد: {card}",
    handOver: "پایان دست",
    handWonBy: "{side} این دست را برد",
    handWonByPair: "{side} این دست را بردند",
    handWonWe: "این دست را بردیم",
    handWonThey: "آن‌ها این دست را بردند",
    handWonYou: "این دست را بردید",
    tieWon: "{a} و {b} در شمار دورها برابر شدند؛ پس دست به {side} رسید.",
    tieWonYou: "{a} و {b} در شمار دورها برابر شدند؛ پس دست به شما رسید.",
    tieWonWithYou: "شما و {b} در شمار دورها برابر شدید؛ پس دست به {side} رسید.",
    points: "{n} امتیاز",
    point1: "۱ امتیاز",
    gameOver: "پایان بازی",
    gameResult: "نتیجهٔ بازی",
    gameWonBy: "{side} بازی را برد",
    gameWonByPair: "{side} بازی را بردند",
    gameWonWe: "بازی را بردیم",
    gameWonThey: "آن‌ها بازی را بردند",
    gameWonYou: "بازی را بردید",
    youWin: "بردید!",
    youLose: "باختید",
    weWin: "بردیم!",
    weLose: "باختیم",
    nextHand: "دست بعد",
    newGame: "بازی تازه",
    replay: "بازپخش",
    download: "دریافت پرونده",
    verifyOk: "دست {n}: بُر این دست با تعهد اعلام‌شده مطابقت دارد",
    verifyBad: "دست {n}: بُر این دست با تعهد اعلام‌شده مطابقت ندارد!",
    verifyNone: "دست {n}: بی‌تعهد",
    fairness: "بُر منصفانه",
    sigThis: "امضاشده با کلید همین سرور",
    sigOther: "امضاشده با کلید سرور دیگری:",
    sigNone: "بی‌امضا: معلوم نیست کدام سرور ورق داده است",
    sigBad: "امضا نمی‌خواند: پرونده پس از امضا تغییر کرده است",
    noWebCrypto: "این مرورگر اینجا نمی‌تواند درهم‌سازی کند (https یا localhost لازم است)",
    notRevealed: "بذر پس از پایان دست آشکار می‌شود",
    notDealt: "پخش نشد، بازی پیش از این دست تمام شد",
    reconnecting: "اتصال قطع شد. در حال اتصال دوباره…",
    reconnected: "دوباره سر میز",
    connectError: "سرور در دسترس نیست",
    error: "خطا",
    err_generic: "کاری که خواستید انجام نشد؛ دوباره امتحان کنید.",
    err_name_empty: "نخست یک نام بنویسید",
    err_name_invisible: "نام باید حرف یا رقم دیدنی داشته باشد",
    err_name_confusable: "نام را با یک الفبا بنویسید",
    err_name_too_long: "نام بیش از اندازه بلند است",
    err_room_not_found: "اتاقی با این کد نیست؛ کد را بررسی کنید و دوباره امتحان کنید.",
    err_not_found: "پیدا نشد؛ شاید دیگر وجود ندارد.",
    err_code_required: "این اتاق خصوصی است و برای ورود، کدش لازم است.",
    err_rate_limited: "تلاش‌ها زیاد بود؛ کمی صبر کنید و دوباره امتحان کنید",
    err_too_many_tables: "میزهای باز شما زیاد است؛ نخست یکی را تمام کنید یا ترک کنید.",
    err_busy: "سرور سرش شلوغ است؛ کمی بعد دوباره امتحان کنید.",
    err_full: "سرور پر است؛ کمی بعد دوباره امتحان کنید.",
    err_seat_taken: "کسی همین حالا این صندلی را گرفت.",
    err_already_seated: "شما سر این میز صندلی دارید.",
    err_table_started: "این بازی شروع شده است.",
    err_table_not_ready: "پیش از شروع بازی باید همهٔ صندلی‌ها پر باشند.",
    err_table_not_open: "این اتاق شروع شده یا بسته شده است",
    err_not_host: "فقط میزبان اتاق می‌تواند این کار را بکند.",
    err_not_seated: "شما سر این میز صندلی ندارید.",
    err_not_over: "بازی هنوز تمام نشده است.",
    err_game_in_progress: "شما همین حالا در یک بازی هستید.",
    err_in_game: "شما همین حالا در یک بازی هستید.",
    err_unauthorized: "نشست شما تمام شده است؛ صفحه را دوباره بارگذاری کنید.",
    err_forbidden: "این کار اینجا مجاز نیست.",
    err_no_such_seat: "چنین صندلی‌ای نیست.",
    err_spectator: "تماشاگر نمی‌تواند این کار را بکند.",
    err_bad_request: "سرور این درخواست را نفهمید.",
    played: "{card} را {name} بازی کرد",
    playedYou: "{card} را بازی کردید",
    trickTo: "این دور به {name} رسید",
    trickToYou: "این دور به شما رسید",
    trumpIs: "حکم {suit} است",
    trumpUnknown: "حکم هنوز انتخاب نشده است",
    timer: "{n} ثانیه مانده",
    handN: "دست {n}",
    trickN: "دور {n}",
    prev: "قبلی",
    next: "بعدی",
    first: "آغاز",
    last: "پایان",
    beforeFirstTrick: "کارت‌های پخش‌شده، پیش از دور اول",
    skip: "رد شدن",
    spectator: "تماشاگر",
    seatName: "صندلی {n}",
    cardsLeft: "{n} کارت",
    rulesShort: "تا {n} امتیاز",
    your: "شما",
    codeInvalid: "کد اتاق را وارد کنید",
    nicknameFirst: "نام خود را بنویسید و «ورود» را بزنید",
    invitedTitle: "شما به یک بازی حکم دعوت شده‌اید",
    invitedHelp: "نامی را که دیگران می‌بینند بنویسید، سپس وارد اتاق شوید و جای خود را برگزینید.",
    nicknameNeeded: "نخست یک نام بنویسید",
    err_room_gone: "این اتاق دیگر وجود ندارد",
    notNow: "اکنون نه: رفتن به صفحهٔ نخست",
    gameInProgress: "بازی شما هنوز ادامه دارد",
    gamesInProgress: "بازی‌های نیمه‌تمام شما",
    since: "از {time}",
    roomWaiting: "اتاق شما در انتظار است",
    withPlayers: "سر میز:",
    resume: "بازگشت به بازی",
    backToRoom: "بازگشت به اتاق",
    firstHakem: "نخستین آس به {name} رسید؛ حاکم اوست",
    firstHakemYou: "نخستین آس به شما رسید؛ شما حاکم هستید",
    scoreOf: "{side}: {n} از {t}",
    handResult: "دورها {a}",
    tricksN: "{n} دور",
    refused_must_follow_suit: "باید خال زمینه را بازی کنید: یک کارت {suit}",
    refused_not_your_turn: "منتظر نوبت خود بمانید",
    refused_hand_over: "این دست تمام شده است",
    refused_game_over: "بازی تمام شده است",
    refused_wrong_phase: "اکنون نه",
    newVersion: "نسخهٔ تازه‌ای آماده است",
    reloadNow: "بارگذاری دوباره",
    offlineTitle: "به سرور دسترسی نیست",
    offlineText: "اینترنت قطع است یا سرور در دسترس نیست. بازپخش بازی‌هایی که باز کرده‌اید روی این دستگاه نگه داشته می‌شود.",
    tryAgain: "دوباره امتحان کنید",
    onlineAgain: "دوباره به اینترنت وصل شدید.",
    backToApp: "بازگشت به بازی",
    savedGames: "ذخیره‌شده در این دستگاه",
    noSavedGames: "هنوز چیزی نگه داشته نشده است: بازپخش‌هایی که آنلاین باز کنید اینجا می‌مانند.",
  },
};

const SUIT_NAMES = {
  en: { S: "spades", H: "hearts", D: "diamonds", C: "clubs" },
  fa: { S: "پیک", H: "دل", D: "خشت", C: "گشنیز" },
};
const RANK_NAMES = {
  en: { A: "ace", K: "king", Q: "queen", J: "jack", T: "10" },
  fa: { A: "آس", K: "شاه", Q: "بی‌بی", J: "سرباز", T: "۱۰" },
};

let lang = "en";

export function setLang(l) { lang = STRINGS[l] ? l : "en"; }
export function getLang() { return lang; }
export function isRtl() { return lang === "fa"; }

/** The language the browser prefers, among the two we speak. */
export function browserLang() {
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const l of langs) {
    const base = String(l).toLowerCase().slice(0, 2);
    if (base === "fa" || base === "en") return base;
  }
  return "en";
}

/** Digits in the current language. */
export function num(n) {
  const s = String(n);
  if (lang !== "fa") return s;
  return s.replace(/[0-9]/g, (d) => "۰۱۲۳۴۵۶۷۸۹"[d]);
}

/** A name as a line shows it: a number in it ("Computer 4", «رایانه ۳») kept on the line of the word before it, the
 *  space between them a no-break one (a narrow seat wrapped "Computer" from its "4"). For display only: labels,
 *  titles and what is sent keep the name as it is. */
export function unbroken(name) { return String(name).replace(/ (?=[0-9\u06f0-\u06f9]+(?:$| ))/g, "\u00a0"); }

/** A number with a fraction in the page's digits and separators (Persian: ۱٫۵ and its minus sign). */
export function decimal(n, digits = 1) {
  return new Intl.NumberFormat(lang === "fa" ? "fa-IR" : "en-GB", { maximumFractionDigits: digits }).format(n);
}

/**
 * What separates items of a list in running text: a comma in English, the Persian comma in Persian.
 * Never a dot: a dot beside a Persian digit reads as a zero ("۱ · امتیاز" looks like "۱۰ امتیاز").
 */
export function sep() { return lang === "fa" ? "، " : ", "; }

/** A moment in the page's language: the time alone when it is today ("۱۸:۲۷"), else as dateTime(). */
export function shortWhen(when) {
  const loc = lang === "fa" ? "fa-IR" : "en-GB";
  const today = new Date().toDateString() === when.toDateString();
  return today ? when.toLocaleTimeString(loc, { timeStyle: "short" }) : dateTime(when);
}

/** A date and time in the page's language, the two joined by sep(): "۱۴۰۵/۹/۵، ۱۸:۲۷" (not the Latin comma
 *  toLocaleString puts there), "05/12/2026, 18:27". */
export function dateTime(when) {
  const loc = lang === "fa" ? "fa-IR" : "en-GB";
  return `${when.toLocaleDateString(loc, { dateStyle: "short" })}${sep()}${when.toLocaleTimeString(loc, { timeStyle: "short" })}`;
}

/**
 * Translate a key, filling {name} slots; numeric slot values get local digits. With n = 1 a "<key>_one"
 * string is used where the language has one ("1 trick"; Persian needs none: "۱ دور", "۲ دور").
 */
export function t(key, vars = {}) {
  const table = STRINGS[lang];
  const one = vars.n === 1 ? table[key + "_one"] ?? (table[key] === undefined ? STRINGS.en[key + "_one"] : undefined) : undefined;
  let s = one ?? table[key] ?? STRINGS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => {
    const v = vars[k];
    if (v === undefined) return "";
    return typeof v === "number" ? num(v) : String(v);
  });
}

export function suitName(s) { return SUIT_NAMES[lang][s] || s; }

/** "ace of spades" / "آس پیک"; card is the two-character notation ("AS", "TD"). */
export function cardName(card) {
  const r = card[0], s = card[1];
  const rn = RANK_NAMES[lang][r] ?? (lang === "fa" ? num(r) : r);
  if (lang === "fa") return `${rn} ${SUIT_NAMES.fa[s]}`;
  return `${rn} of ${SUIT_NAMES.en[s]}`;
}

/** A seat the computer plays, named as the table names it ("Computer 2", «رایانه ۲»), whatever the server calls it. */
export function botName(seat) { return `${t("bot")} ${num(seat + 1)}`; }

/** The names of a game's seats for display: the computer's seats (`bots[i]` true, or a null player id) by the
 *  page's own name for them, the others by the name the player chose. */
export function seatNames(names, bots) {
  return (names || []).map((n, i) => (bots && bots[i] ? botName(i) : n || t("seatName", { n: i + 1 })));
}

/** The digits a Persian or Arabic keyboard types, as the Latin ones codes are written with. */
const TYPED_DIGITS = { "۰": "0", "۱": "1", "۲": "2", "۳": "3", "۴": "4", "۵": "5", "۶": "6", "۷": "7", "۸": "8", "۹": "9",
  "٠": "0", "١": "1", "٢": "2", "٣": "3", "٤": "4", "٥": "5", "٦": "6", "٧": "7", "٨": "8", "٩": "9" };

/** A code as people type it (a room, device or friend code), the way codes are written: NFKC (full-width letters),
 *  Latin digits, upper case, without spaces or dashes: what the server compares (hokm.server.codes.typed_code). */
export function typedCode(text) {
  return String(text || "").normalize("NFKC").replace(/[۰-۹٠-٩]/g, (d) => TYPED_DIGITS[d]).toUpperCase()
    .replace(/[\s\-‐‑–—]/g, "");
}

/**
 * A refusal from the server in the page's language: the words for its error code (`err_<where>_<code>` first, for
 * a code that means something particular there, then `err_<code>`). A code without words is said in English with
 * the server's message, and in Persian by a general line: never the server's English in a Persian page.
 */
export function errorText(err, where = "") {
  if (!err) return t("err_generic");
  if (err.code === "network") return t("connectError");
  const code = err.code || "";
  for (const key of [where && code ? `err_${where}_${code}` : "", code ? `err_${code}` : ""]) {
    if (key && STRINGS[lang][key] !== undefined) return t(key);
  }
  if (err.status === 429) return t("err_rate_limited");
  if (err.status === 503) return t("err_busy"); // a node full or stopping answers in plain words
  return lang === "en" && (err.message || code) ? `${t("error")}: ${err.message || code}` : t("err_generic");
}

/** Show a rank on the card corner: T is written 10. */
export function rankLabel(r) { return r === "T" ? "10" : r; }

export const LANGS = [
  { id: "fa", label: "فارسی" },
  { id: "en", label: "English" },
];

/** Add a feature module's own strings ({en: {...}, fa: {...}}) to the tables t() reads. */
export function addStrings(more) {
  for (const [l, table] of Object.entries(more)) Object.assign(STRINGS[l] || (STRINGS[l] = {}), table);
}

/**
 * What goes between a side's name and its score: a space ("ما ۳"), or a colon where the name itself ends
 * in a digit ("رایانه ۲: ۳"), which would otherwise read as one number or as the score.
 */
export function scoreGap(name) { return /[0-9\u06f0-\u06f9]$/.test(String(name)) ? ": " : " "; }
