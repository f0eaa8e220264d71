// @ts-check
// What the replay and verify pages share: their labels, their stylesheet,
// and the verdict element ([data-verified="true" | "false"]).

import { register, t } from "./i18n.js";

register({
  zh: {
    "verify.intro": "把牌桌的导出文件（GET /v1/tables/{id}/export 的 JSON Lines）拖到这里，或选择文件。检查全部在浏览器里完成，不联系服务器。",
    "verify.drop": "把导出文件拖到这里",
    "verify.choose": "选择导出文件",
    "verify.reading": "正在检查 {name}…",
    "verify.ok": "已验证",
    "verify.bad": "未通过验证",
    "verify.pending": "正在验证…",
    "verify.summary": "{events} 个事件，{deals} 副牌由种子重新洗牌发牌，{settlements} 次结算平衡。",
    "verify.game": "游戏：{kind}，{stream}",
    "verify.head": "导出时的链头：位置 {position}，哈希 {hash}",
    "verify.noHead": "没有链头行：无法与别处保存的链头比较。",
    "verify.running": "最后一副牌还在进行：种子尚未公开，按记录接受。",
    "verify.faultAt": "第 {event} 个事件（第 {line} 行）：{check}",
    "verify.faultLine": "第 {line} 行：{check}",
    "verify.checksTitle": "检查了什么",
    "verify.check1": "每一行的哈希与它的字段一致，事件编号连续，相邻位置的前一哈希相连，链头行与最后一个事件一致；",
    "verify.check2": "每副牌公开的种子的 SHA-256 等于发牌时公布的承诺；",
    "verify.check3": "用种子重新洗牌、按该游戏的规则发牌，结果与记录的每家手牌、底牌（及打盾的翻牌、首家）一致；",
    "verify.check4": "每次结算各家得失与庄家抽成相加为零，且不超出上限。",
    "verify.hands": "回放这份导出里的牌局",
    "verify.replayHand": "第 {hand} 手",
    "verify.fromFile": "牌桌导出已在上面验证；这手牌的每副牌取自导出文件",
    "verify.notChecked": "浏览器不重新裁决每一步出牌是否合法（这需要规则引擎：请用 paiju verify 文件名）。",
    "check.format": "格式错误",
    "check.hash": "哈希不符：事件在记录后被改动",
    "check.chain": "哈希链断开",
    "check.missing": "缺少事件",
    "check.head": "链头行不符",
    "check.opening": "开桌事件不符",
    "check.sequence": "牌局顺序错误",
    "check.commitment": "种子与承诺不符",
    "check.deal": "发牌与种子不符",
    "check.settlement": "结算不平衡",
    "replay.loading": "正在加载这手牌…",
    "replay.first": "第一步",
    "replay.prev": "上一步",
    "replay.next": "下一步",
    "replay.last": "最后一步",
    "replay.step": "第 {n} / {total} 步",
    "replay.keys": "可用 ← → 键逐步查看，Home / End 到首尾。",
    "replay.seat": "{seat} 号位 · {name}",
    "replay.cardsLeft": "{n} 张",
    "replay.kitty": "底牌",
    "replay.lastPlay": "刚出的牌",
    "replay.title": "第 {hand} 手 · {kind}",
    "replay.stepStart": "开局前（共 {total} 步）",
    "replay.start": "开始：还没有事件。",
    "replay.dealCommit": "第 {deal} 副：SHA-256(种子) 等于承诺",
    "replay.dealCards": "由种子重新洗牌发出的牌与记录一致",
    "replay.dealTurned": "翻出的牌与庄家与种子一致",
    "replay.whyCommit": "第 {deal} 副：种子的 SHA-256 是 {got}，承诺是 {want}",
    "replay.whyCards": "第 {deal} 副：{seat} 号位记录的牌是 {got}，种子发出的是 {want}",
    "replay.whyKitty": "第 {deal} 副：记录的底牌是 {got}，种子发出的是 {want}",
    "replay.whyTurned": "第 {deal} 副：记录翻出 {got}，种子翻出 {want}",
    "replay.whyGame": "不认识的游戏 {game}（{variant}）",
    "replay.seed": "种子",
    "replay.commitment": "承诺",
    "replay.deltas": "结算",
    "replay.exportOk": "牌桌导出已验证（{events} 个事件的哈希链，{settlements} 次结算），其中这手牌的每副牌承诺相同",
    "replay.exportBad": "牌桌导出未通过验证：第 {event} 个事件（第 {line} 行）：{check}：{detail}",
    "replay.exportDiffers": "牌桌导出里第 {hand} 手的牌局承诺与这份记录不同",
    "replay.exportUnavailable": "未能取得牌桌导出（{why}）：只检查了这手牌的种子与发牌",
    "replay.verifyTable": "也可以下载牌桌导出，在“验证”页自己检查。",
    "ev.HandDealt": "发牌（第 {deal} 副），承诺 {commitment}…",
    "ev.DealSecret": "种子被封存，牌局结束时公开",
    "ev.CardsPlayed": "{who} 出 {cards}",
    "ev.PlayPassed": "{who} 不出",
    "ev.BidMade": "{who} 叫 {bid} 分",
    "ev.BidPassed": "{who} 不叫",
    "ev.CallWon": "{who} 叫地主",
    "ev.GrabMade": "{who} 抢地主",
    "ev.GrabDeclined": "{who} 不抢",
    "ev.LandlordChosen": "{who} 当地主，拿走底牌 {cards}",
    "ev.HandOpened": "{who} 明牌",
    "ev.CardsDrawn": "摸牌第 {round} 轮",
    "ev.TrumpDeclared": "{who} 亮主",
    "ev.TrumpReinforced": "{who} 加固",
    "ev.DeclarePassed": "{who} 不亮",
    "ev.DeclarationTaken": "{who} 反主，拿走 {cards}",
    "ev.CardGiven": "{who} 给出 {cards}",
    "ev.KittyFlipped": "翻底牌 {cards}",
    "ev.KittyTaken": "{who} 拿底牌",
    "ev.KittyBuried": "{who} 扣底 {cards}",
    "ev.KittySwapped": "{who} 换底 {cards}",
    "ev.TrumpRevealed": "{who} 亮出主牌 {cards}",
    "ev.TrickWon": "{who} 赢这一墩",
    "ev.TrickEnded": "一墩结束",
    "ev.PlayerOut": "{who} 出完了",
    "ev.CardTurned": "翻出 {card}，{banker} 坐庄",
    "ev.FriendCalled": "{who} 叫朋友牌 {card}",
    "ev.FriendRevealed": "{who} 亮出朋友牌 {card}",
    "ev.AloneDeclared": "{who} 打独",
    "ev.AloneDeclined": "{who} 不打独",
    "ev.HandArranged": "{who} 摆好牌",
    "ev.HandsRevealed": "亮牌",
    "ev.TurnTimedOut": "{who} 超时",
    "ev.SeatDelegated": "{who} 托管",
    "ev.SeatResumed": "{who} 取消托管",
    "ev.SeatReady": "{who} 准备好下一手",
    "ev.PlayerEscaped": "{who} 逃跑",
    "ev.DealVoided": "这副牌作废（{reason}），公开种子",
    "ev.HandSettled": "结算：{deltas}，公开种子",
    "ev.DoubleMade": "{who} 加倍",
    "ev.DoublePassed": "{who} 不加倍",
    "ev.DealsSecret": "种子被封存，牌局结束时公开",
    "ev.KittySwapOpened": "可以换底",
    "ev.RevealCalled": "{who} 要求摊牌",
    "ev.MatchEnded": "比赛结束",
    "ev.other": "{type}",
  },
  en: {
    "verify.intro": "Drop a table's export (the JSON Lines of GET /v1/tables/{id}/export) here, or choose the file. Every check runs in this browser: nothing is sent to the server.",
    "verify.drop": "Drop an export here",
    "verify.choose": "Choose an export file",
    "verify.reading": "Checking {name}…",
    "verify.ok": "Verified",
    "verify.bad": "Not verified",
    "verify.pending": "Verifying…",
    "verify.summary": "{events} events, {deals} deals shuffled and dealt again from their seeds, {settlements} settlements balanced.",
    "verify.game": "Game: {kind}, {stream}",
    "verify.head": "Chain head at export: position {position}, hash {hash}",
    "verify.noHead": "No chain head line: nothing to compare with a chain head held elsewhere.",
    "verify.running": "The last deal is still running: its seed is secret, so it is taken as recorded.",
    "verify.faultAt": "Event {event} (line {line}): {check}",
    "verify.faultLine": "Line {line}: {check}",
    "verify.checksTitle": "What was checked",
    "verify.check1": "each line's hash matches its fields, events are numbered 1, 2, 3… with none missing, consecutive positions are linked by their previous hash, and the chain head line matches the last event;",
    "verify.check2": "the SHA-256 of every revealed seed equals the commitment published with its deal;",
    "verify.check3": "each seed, shuffled again and dealt by the game's rules, gives exactly the recorded hands and kitty (and 打盾's turned card, the first seat);",
    "verify.check4": "every settlement's deltas and the house's share sum to zero, within bounds.",
    "verify.hands": "Replay the hands of this export",
    "verify.replayHand": "Hand {hand}",
    "verify.fromFile": "The table's export is verified above; this hand's deals are read from the file",
    "verify.notChecked": "The browser does not re-decide whether each play was legal (that needs the rules engine: run paiju verify FILE).",
    "check.format": "malformed export",
    "check.hash": "hash mismatch: the event was changed after it was recorded",
    "check.chain": "broken hash chain",
    "check.missing": "an event is missing",
    "check.head": "the chain head line does not match",
    "check.opening": "the table's opening does not hold",
    "check.sequence": "deals out of order",
    "check.commitment": "the seed does not match its commitment",
    "check.deal": "the deal does not match its seed",
    "check.settlement": "the settlement does not balance",
    "replay.loading": "Loading the hand…",
    "replay.first": "First",
    "replay.prev": "Previous",
    "replay.next": "Next",
    "replay.last": "Last",
    "replay.step": "Step {n} of {total}",
    "replay.keys": "Use ← and → to step, Home and End to jump.",
    "replay.seat": "Seat {seat} · {name}",
    "replay.cardsLeft": "{n} cards",
    "replay.kitty": "Kitty",
    "replay.lastPlay": "Last play",
    "replay.title": "Hand {hand} · {kind}",
    "replay.stepStart": "Before the first event ({total} steps)",
    "replay.start": "Start: no event yet.",
    "replay.dealCommit": "Deal {deal}: SHA-256(seed) equals the commitment",
    "replay.dealCards": "the seed, shuffled again, deals the recorded cards",
    "replay.dealTurned": "the turned card and banker follow from the seed",
    "replay.whyCommit": "Deal {deal}: the seed's SHA-256 is {got}, the commitment is {want}",
    "replay.whyCards": "Deal {deal}: seat {seat} is recorded with {got}, the seed deals {want}",
    "replay.whyKitty": "Deal {deal}: the kitty is recorded as {got}, the seed deals {want}",
    "replay.whyTurned": "Deal {deal}: {got} is recorded as turned, the seed turns {want}",
    "replay.whyGame": "Unknown game {game} ({variant})",
    "replay.seed": "Seed",
    "replay.commitment": "Commitment",
    "replay.deltas": "Settlement",
    "replay.exportOk": "The table's export verifies ({events} events on the hash chain, {settlements} settlements balanced) and holds this hand's deals with the same commitments",
    "replay.exportBad": "The table's export does not verify: event {event} (line {line}): {check}: {detail}",
    "replay.exportDiffers": "The table's export holds other deals for hand {hand} than this record",
    "replay.exportUnavailable": "The table's export could not be had ({why}): only this hand's seeds and deals were checked",
    "replay.verifyTable": "You can also download the table's export and check it yourself on the Verify page.",
    "ev.HandDealt": "Cards dealt (deal {deal}), commitment {commitment}…",
    "ev.DealSecret": "The seed is sealed until the deal ends",
    "ev.CardsPlayed": "{who} plays {cards}",
    "ev.PlayPassed": "{who} passes",
    "ev.BidMade": "{who} bids {bid}",
    "ev.BidPassed": "{who} does not bid",
    "ev.CallWon": "{who} calls the landlord",
    "ev.GrabMade": "{who} grabs the landlord",
    "ev.GrabDeclined": "{who} does not grab",
    "ev.LandlordChosen": "{who} is the landlord and takes the kitty {cards}",
    "ev.HandOpened": "{who} shows their hand",
    "ev.CardsDrawn": "Draw, round {round}",
    "ev.TrumpDeclared": "{who} declares trump",
    "ev.TrumpReinforced": "{who} reinforces the declaration",
    "ev.DeclarePassed": "{who} does not declare",
    "ev.DeclarationTaken": "{who} overturns the declaration, taking {cards}",
    "ev.CardGiven": "{who} gives {cards}",
    "ev.KittyFlipped": "The kitty is turned: {cards}",
    "ev.KittyTaken": "{who} takes the kitty",
    "ev.KittyBuried": "{who} buries {cards}",
    "ev.KittySwapped": "{who} swaps with the kitty: {cards}",
    "ev.TrumpRevealed": "{who} reveals the trump {cards}",
    "ev.TrickWon": "{who} wins the trick",
    "ev.TrickEnded": "The trick ends",
    "ev.PlayerOut": "{who} is out of cards",
    "ev.CardTurned": "{card} is turned: {banker} is the banker",
    "ev.FriendCalled": "{who} calls the friend card {card}",
    "ev.FriendRevealed": "{who} shows the friend card {card}",
    "ev.AloneDeclared": "{who} goes alone",
    "ev.AloneDeclined": "{who} does not go alone",
    "ev.HandArranged": "{who} arranges their hand",
    "ev.HandsRevealed": "The hands are revealed",
    "ev.TurnTimedOut": "{who} runs out of time",
    "ev.SeatDelegated": "{who} hands the seat to the bot",
    "ev.SeatResumed": "{who} takes the seat back",
    "ev.SeatReady": "{who} is ready for the next hand",
    "ev.PlayerEscaped": "{who} escapes",
    "ev.DealVoided": "The deal is thrown in ({reason}); its seed is revealed",
    "ev.HandSettled": "Settled: {deltas}; the seed is revealed",
    "ev.DoubleMade": "{who} doubles",
    "ev.DoublePassed": "{who} does not double",
    "ev.DealsSecret": "The seeds are sealed until the deal ends",
    "ev.KittySwapOpened": "The kitty may be swapped",
    "ev.RevealCalled": "{who} calls the reveal",
    "ev.MatchEnded": "The match ends",
    "ev.other": "{type}",
  },
});

/** Adds the pages' stylesheet once (the CSP allows the app's own files only). */
export function useStyles() {
  if (document.querySelector('link[data-verify-css]')) return;
  const l = document.createElement("link");
  l.rel = "stylesheet";
  l.href = "/static/verify.css";
  l.dataset.verifyCss = "";
  document.head.append(l);
}

/**
 * @typedef {Object} Verdict
 * @property {boolean | null} ok null while pending
 * @property {string} title
 * @property {string[]} lines
 * @property {number} [faultEvent] the first fault's event number
 */

/**
 * Fills el as the verdict: data-verified "true", "false" or "pending", a
 * mark, a heading and lines. The mark is text as well as colour.
 * @param {HTMLElement} el
 * @param {Verdict} v
 */
export function showVerdict(el, v) {
  el.className = "verdict";
  el.dataset.verified = v.ok === null ? "pending" : String(v.ok);
  if (v.faultEvent !== undefined) el.dataset.faultEvent = String(v.faultEvent);
  else delete el.dataset.faultEvent;
  delete el.dataset.faultLine;
  delete el.dataset.faultCheck;
  el.setAttribute("role", "status");
  const mark = document.createElement("span");
  mark.className = "mark";
  mark.setAttribute("aria-hidden", "true");
  mark.textContent = v.ok === null ? "…" : v.ok ? "✓" : "✗";
  const body = document.createElement("div");
  const h = document.createElement("h2");
  h.textContent = v.title;
  body.append(h);
  for (const line of v.lines) {
    const p = document.createElement("p");
    p.textContent = line;
    body.append(p);
  }
  el.replaceChildren(mark, body);
}

/**
 * The label of a check name of the verify modules.
 * @param {string} check
 */
export function checkLabel(check) {
  return t("check." + check);
}
