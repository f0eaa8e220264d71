// Package shengji is the 升级 family as a table.Game: the rules of
// rules/shengji.md in the design documents (seeds 000, 002 and 003). It
// plays three variants on one engine: "ningyang" (宁阳刮风, seed 000),
// "guafeng" (刮风 / Windy, seed 003) and "qiangbao" (抢报, seed 002's team
// match). Every difference between them is a field of the variant config
// (game.go) or of the Order (order.go) that the shared deal, trick and
// settlement machinery switches on; the sections "guafeng" and "qiangbao"
// below list them.
//
// # Dealing (auditors re-implement this)
//
// A deal of hand h, deal d (d > 1 after a re-deal) from the 32-byte seed:
//
//  1. deck, stream := cards.Shuffled(seed, 2): the 108 cards of two decks in
//     canonical order shuffled by Fisher–Yates driven by the seed's SHA-256
//     counter stream (see package cards).
//  2. Draw order: card i of the shuffled deck, for i = 0..103, is the
//     (i/4 + 1)-th card drawn by seat i mod 4, in draw round i/4 + 1. Cards
//     104..107 are the kitty (底牌), in that order, which is also the order
//     the kitty is turned over when nobody declares.
//  3. HandDealt records the commitment SHA-256(seed), each seat's 26 cards in
//     draw order (so a seat's cards after r rounds are the first r of its
//     list) and the kitty in deck order. FirstSeat is the hand's dealer when
//     the match has fixed it; in a first hand (no hand played out yet) it is
//     stream.Below(4), the next draw after the shuffle, and it deals only if
//     nobody declares (see Decisions). Nothing else is drawn from the stream.
//
// # The hand
//
// Phases, as View's phase: "drawing" (26 rounds: any seat posts draw; any
// seat may declare with the cards it has drawn), "declaring" (the final
// window: each seat passes once, or declares before it passes; the window
// closes when all four have passed), "burying" (the dealer holds 30 cards
// and buries 4), "playing" (tricks until the hands are empty, at most 26; the dealer leads the first), and
// "waiting" between hands.
//
// Declarations (亮主): one joker and a pair of one suit, or one joker and a
// tractor of that suit (its pairs consecutive with the level rank left out;
// a tractor takes no level card). Strength is the number of pairs; another
// seat overrides only with strictly more. When the window closes the
// standing declaration's suit is trump; with none, the kitty is flipped
// (KittyFlipped) and, if all four kitty cards are jokers, the deal is voided
// (DealVoided reason "kitty_all_jokers") and dealt again.
//
// # Events
//
// Besides the table's events the game emits these; cards use the card
// notation. "hidden" fields are cut by Redact for the seats named, until the
// deal ends:
//
//	CardsDrawn    {"seat":2,"round":7,"cards":[["S3"],["HK"],["BJ"],["D10"]]}   each seat sees only its own entry
//	TrumpDeclared {"seat":1,"cards":["BJ","H9","H9"],"suit":"H","jokers":1,"pairs":1}   cards, suit hidden from other seats
//	DeclarePassed {"seat":3}
//	KittyFlipped  {"cards":["RJ","C8"],"suit":"C"}
//	KittyTaken    {"seat":3,"declarer":1,"level":"A","cards":[…4]}   cards only to the dealer
//	KittyBuried   {"seat":3,"cards":[…4]}                            cards only to the dealer
//	TrumpRevealed {"seat":1,"cards":["BJ","H9","H9"],"suit":"H"}   follows KittyBuried when declared
//	CardsPlayed   {"seat":0,"cards":["S9","S9","S8","S8"],"shape":"tractor2"}   shape: single, pair, tractorN, or mixed (a follow of no shape)
//	TrickWon      {"trick":1,"seat":2,"points":25,"defenders":25}
//
// HandDealt, after the table's redaction to the seat's own hand, loses that
// hand too (table.Redact passes it on to Rules.Redact): a seat never sees a
// card it has not drawn; CardsDrawn shows it each card as it is drawn. A deal ends with
// HandSettled whose result is a Result (see events.go), and, when the match
// is over (a side passed K) or the table plays a single hand, TableClosed.
//
// # Actions
//
//	{"type":"draw"}                          drawing: any seat
//	{"type":"declare","cards":["BJ","H9","H9"]}   drawing or the final window
//	{"type":"pass"}                          the final window, once per seat
//	{"type":"bury","cards":[…4]}             the dealer
//	{"type":"play","cards":[…]}              in turn
//	{"type":"escape"}                        handled by the table, settled here
//
// # Trump order and plays
//
// Order: RJ > BJ > the trump suit's level card > the other level cards
// (equal) > the trump suit A … 2 without the level rank. Side suits A … 2
// without the level rank. A lead is a single, a pair of identical cards, or a
// tractor: 2+ pairs at consecutive positions of one suit-class (so with
// level 7, trump ♠: ♠6 6 ♠8 8; ♠A A with ♥7 7; ♥7 7 with ♠7 7; BJ BJ RJ RJ).
// Following: see Order.checkFollow. The trick goes to the first of the
// highest plays that has the lead's shape and is of the led class or trumps.
//
// # Settling
//
// X = the defenders' trick points, plus the kitty's points × the kitty
// multiplier when a defender won the last trick. The scoring table of
// shengji.md gives the winning side and the multiple k; each seat of the
// winning side gets k × stake and each seat of the other side pays it
// (deltas sum to zero; an escape's do not, see Decisions). Dealer side wins: its level +k, the dealer's partner
// deals next. Defenders win: they go on stage at their own level + (k − 1),
// the dealer's next seat deals. A side passing K wins the match.
//
// # Options
//
//	{"match": true, "kitty_multiplier": "by_shape"}   the defaults as recorded
//
// match false plays one hand and closes the table. kitty_multiplier (with n
// cards and p pairs in the last trick's winning play): "by_shape" 2^(p+1),
// "double" 2 whatever the shape, "linear" 2n, "cards" n (Result.kitty_rule
// names a mode other than the variant's default when the kitty counted).
// The options of shengji.md's Table options, turn 3, recorded only when not
// at their default (so a table opened without them records what it always
// did), and shown by ShownOptions with every default filled in:
//
//	step         40 (default), 30, 20: points per level step; X < 80, the
//	             dealer side wins 1 + ⌊(80 − X)/step⌋ (guafeng ⌈(80 − X)/step⌉,
//	             +1 at X ≤ 0); X ≥ 80, the defenders 1 + ⌊(X − 80)/step⌋
//	             (guafeng: one level less). Result.step when not 40.
//	start_level  "A" (default) or "2": levels run 2 … K, A (level numbers
//	             2 … 14) and passing A wins; 悶牌 drops no lower than 2.
//	must_defend  "none" (default), "last" or "points": gates at the last
//	             level (and 5, 10, K): a side stops at the first gate above
//	             it, and rises from a gate only by a dealer-side win
//	             (Result.steps_lost: the steps cut off).
//	show_points  true (default) or false: view-only, GameView.defender_points
//	             and the sides' points are null for the players and watchers
//	             until the hand is over (the auditor sees them).
//
// step, start_level and must_defend are refused in qiangbao. duplicate true
// (any variant; a duplicate tournament's tables) plays every hand as a
// match's first hand: the levels stay where they start, the settlement
// names no next dealer (the first-hand rule chooses each hand's), qiangbao
// keeps no match points, and only the table's max_hands ends it.
//
// # guafeng (刮风, seed 003; rules version "shengji/guafeng/3"; see Rules versions)
//
// The deal, draw order, phases and events above hold, with these rules:
//
// Trumps and order: jokers, every 2, 3 and 5 (常主), the level cards and the
// trump suit. RJ > BJ > the trump suit's level card > the other level cards
// (equal) > the trump suit's 5 > 3 > 2 > the other suits' 5 > 3 > 2 (equal
// by rank) > the trump suit A … 4 > side suits A … 4. With level 2, 3 or 5
// those cards are level cards, not fixed trumps.
//
// Declarations: "declare" takes one joker or more (any mix) and one pair
// or more of one suit whose ranks are consecutive on the cycle 2 … K A 2
// (level cards or not). Over a standing declaration, "declare" is 沖主:
// only over one joker, with two jokers or more (TrumpDeclared kind
// "override"). "stick" (粘牌) needs as many jokers and one pair more than the
// standing declaration (kind "stick"; stuck: the standing seat and, when
// that was a stick, the seats it had stuck, never the sticker). "reinforce"
// (續牌, TrumpReinforced) adds the twin of the standing declarer's single
// joker, or a pair of its suit extending its pairs, while no other seat has
// declared. Nobody acts on their own standing declaration. The final
// declaration's suit is trump; in a first hand its declarer deals.
//
// Kitty: when the dealer is the final declarer, its partner takes and buries
// (KittyTaken.burier). The burier buries every joker it holds (at most 4),
// and none of its declaration cards a stick takes. Nobody declaring in a
// first hand deals again (DealVoided "no_declaration"); in a later hand it is
// 悶牌: LevelDropped (the dealer side one level down, not below A), then the
// kitty is flipped as in ningyang.
//
// Exchange (粘牌): after the bury, phase "exchanging": the sticker trades
// with each stuck seat in the order of TrumpDeclared.stuck. It takes that
// seat's declaration cards (reinforcements included) in one
// DeclarationTaken, public, which follows the bury's events (KittyBuried,
// TrumpRevealed) for the first stuck seat and the last CardGiven to the
// previous seat for the next: the cards move as that seat's exchange
// begins, so the sticker may give back any of them. It then posts one
// "exchange" per card given back (CardGiven, the card seen by the two seats
// only until the hand ends), as many as it took. For every card taken that
// is a trump under the final trump (a joker, level card, 2, 3, 5 or a card
// of the trump suit; DeclarationTaken.trumps counts them) it gives back a
// joker, level card, 2, 3 or 5 (shengji.md, 粘牌 Decision; seed 003's
// example: BJ H5 H5 H6 H6 taken under ♣ owes three trumps and two any
// cards): a card is accepted while the gives left outnumber the trumps
// still owed, and when they are equal only such a trump; giving one early
// meets the obligation. Only when the stuck seat declared in the final
// trump suit can the sticker hold fewer jokers, level cards, 2s, 3s and 5s
// than it owes: while it does, a card of the trump suit pays a trump too,
// so the exchange can always be completed. Legal lists one action per
// distinct card that may be given (at most the distinct cards of one hand).
//
// Kitty swap (粘牌, seed 003: "粘牌者換底牌的時候，只能用同點數的副牌去換主牌"):
// the last give to the last stuck seat is followed by KittySwapOpened, after
// every stick, a swap possible or not: the phase stays "exchanging", with
// nobody owed and swapper set, and the sticker, now shown the buried kitty,
// is awaited. Each "swap" takes one plain trump-suit card out of the kitty
// (never a joker, 2, 3, 5, level card or side card) for a side card of the
// same rank from its hand: cards [kitty card, hand card] (KittySwapped). It
// ends only by the sticker's "pass" (KittySwapClosed); then the dealer
// leads. That the step always opens and never closes by itself keeps its
// course from telling the other seats what the kitty or the sticker holds;
// how many swaps were made is public, as at a real table. A swap keeps the
// kitty's points (same rank).
//
//	TrumpReinforced  {"seat":1,"cards":["H6","H6"],"jokers":1,"pairs":2}   cards hidden from other seats
//	LevelDropped     {"side":1,"level":"4"}
//	DeclarationTaken {"seat":0,"from":1,"cards":["BJ","H5","H5"],"trumps":1}   public
//	CardGiven        {"seat":0,"to":1,"cards":["S5"],"left":2}   cards only to seat and to; left: gives still owed to seat to
//	KittySwapOpened  {"seat":0,"kitty":["RJ","H9","H8","H7"]}   kitty only to the sticker
//	KittySwapped     {"seat":0,"cards":["H7","S7"]}   cards only to the sticker: [taken from the kitty, given]
//	KittySwapClosed  {"seat":0}
//
// Actions besides ningyang's: {"type":"stick","cards":[…]},
// {"type":"reinforce","cards":["BJ"]}, {"type":"exchange","cards":["S5"]}
// (exactly one card), {"type":"swap","cards":["H7","S7"]} (the kitty's
// card, then the hand's) and, to end the kitty swap, {"type":"pass"}.
//
// Combinations (no throws): single; 风, a pair, or a tractor of 2+ pairs of
// one suit at consecutive link keys; 雨, 5+ cards of one suit at 5+
// consecutive link keys, some of them pairs (shape "rainN_P": N cards, P
// pairs); 雷, one rank of 2, 3, 5 or the level in four suits ("thunder").
// Link keys run 2 … A in the trump suit (its 2, 3, 5 included) and 4 … A in a
// side suit, both without the level rank, the gaps closed; jokers, level
// cards and side suits' 2, 3, 5 link with nothing. Winds compare by pairs,
// rains by card count and pairs, then trump over side, then the top card;
// thunders by their top card (the single-card order of their rank).
// Following: as ningyang, pairs first for rains too (a rain of singles: any
// cards of its class); a thunder is answered with a thunder when the
// follower holds one, else with the four highest trumps.
//
// Settling: the kitty is worth RJ 100, BJ 50, a level card 20, other 10/K
// 10, other 5 5 (Result.kitty_points). When the last trick's winning play is
// trumps, its card count multiplies the kitty: added to the defenders' X
// when they won it, taken off X when the dealer side did (option
// kitty_deduction, default true; Result.kitty_deducted). Seed 003's table,
// continued every 40 both ways: X −40…−5 dealer +4 (levels and stakes),
// 0 +3, 5–35 +2, 40–75 +1; 80–115 defenders +1 stake, no level, on stage;
// 120–155 +2 and one level; … Not on stage: the dealer's partner deals
// next; on stage: the dealer's next seat.
//
//	{"match": true, "kitty_deduction": true}   guafeng's options, the defaults as recorded
//
// guafeng's kitty_multiplier is "cards" (the default, left out of the
// recorded options), "linear" or "double"; the trump-only condition stays,
// and the deduction uses the same factor. step, start_level, must_defend and
// show_points as ningyang's.
//
// # qiangbao (抢报, seed 002's team match; rules version "shengji/qiangbao/2")
//
// ningyang's engine (follow rules, tractors, tricks, points, the kitty
// multiplier and its option, escapes) with these rules (qiangbao.go):
//
// Deal: cards 0..99 of the shuffled deck are drawn as above, 25 rounds (25
// cards a seat); cards 100..107 are the 8-card kitty in deck order.
// Level: 3 in every hand; Result.levels stay ["3","3"] and level_steps 0.
// Trumps: the four jokers, the level cards, the trump suit.
//
// Declarations: "declare" shows one level card, or a pair of the same level
// card, drawn already; jokers never declare. A show is public at once
// (TrumpDeclared is not redacted, the trump suit is in every view from
// then on). First hand (抢报): the first show stands, nothing may follow
// it, and its seat deals. Later hands: a pair overrides a standing single,
// from any seat, but from the single's own seat only in the single's suit
// (a reinforcement; another suit is already_declared, shengji.md, qiangbao,
// turn 3 Decision); nothing overrides a pair; the dealer does not change.
// The final window is ningyang's.
//
// Nobody shows: a first hand is dealt again (DealVoided "no_declaration");
// a later hand flips the kitty's first three cards, KittyFlipped
// {"cards":[3 cards],"suit":"C"}, the third card's suit being trump, or
// "suit":"" when it is a joker: no trump suit (无主), where trumps are the
// jokers and the level cards, all level cards equal and right under BJ.
//
// Bury: the dealer takes the kitty (33 cards) and buries 8, one card per
// action ({"type":"bury","cards":["S4"]}, one KittyBuried each: the 8-card
// buries of 33 cards are millions, too many to list); the dealer leads
// once the eighth is down. No TrumpRevealed: the show was public.
//
// Settling: X as ningyang's (kitty × 2/4/2^(pairs+1), or the option). The
// side that wins scores match points, which are also its stakes: dealer
// side 1 for X < 80, 2 for X < 30, 3 for X = 0; defenders 1 for 80–115, 2
// for 120–155, 3 from 160. Next dealer as ningyang's (the partner when the
// dealer side wins, else the dealer's next seat). Result.match_points holds
// each side's points after the hand; with the match option (default) the
// table closes, Result.match_winner the side ahead, once 5 hands or more
// are played out and the points are untied (escaped hands do not count).
//
//	{"match": true, "kitty_multiplier": "by_shape"}   qiangbao's options, the defaults
//
// # Rules versions
//
// A table replays under the rules version it was opened with (Game.RulesAt;
// docs/OPERATIONS.md, Rules versions). ningyang has only /1.
// shengji/qiangbao/1 (ownPairAnySuit) let a seat's own pair of any suit
// override its own standing single; /2 takes only the single's suit
// (shengji.md, qiangbao, turn 3 Decision).
// shengji/guafeng/1 is the current guafeng with two behaviours switched
// back on by fields of its variant, set only for /1; shengji/guafeng/2
// changed them (shengji.md, 粘牌, revised Decision, and 粘牌 kitty swap):
//
//   - In /2 the sticker owes a trump (joker, level card, 2, 3 or 5) back
//     for every card taken that is a trump under the final trump, and any
//     card for the rest (DeclarationTaken.trumps counts them); short of
//     those trumps it may give a trump-suit card. In /1
//     (stickOwesJokersOnly) it owed one per joker taken.
//   - In /2 the last card given back opens the sticker's kitty swap
//     (KittySwapOpened, swap, pass: KittySwapClosed). In /1 (noKittySwap) it
//     ended the exchange and the dealer led; "swap" is no action of /1.
//
// # Decisions (beyond shengji.md's own)
//
//   - Nobody declares in a first hand: the seed-drawn FirstSeat deals (the
//     rules file names no dealer for this case).
//   - The standing declarer may not override their own declaration (seed
//     000: "其他玩家可以…反主"); their partner may.
//   - A seat passes once in the final window and may not declare after
//     passing, so the window always closes.
//   - Following a trump pair or tractor with fewer pairs than the lead:
//     every pair held, then the highest trumps left; on a side lead the rest
//     is free. No obligation to follow a tractor with a tractor.
//   - The buried cards may be any 4 (扣底无限制), declared cards included.
//   - The final declaration (cards and suit) is revealed with the bury; the
//     overridden ones stay hidden until the deal ends.
//   - guafeng: 沖主, 續牌 and 粘牌 are open while declarations are (the draw
//     and the final window); 續牌 ends once any other seat declares, stuck
//     or not. A stick may follow a stick; a 沖主 may override a one-joker
//     stick, which then takes nothing.
//   - guafeng: side-suit winds and rains close the gaps of the left-out
//     ranks (♦4 4 ♦6 6 is a wind), as ningyang's tractors close the level's;
//     a rain needs 5 distinct ranks and a single among them (all pairs read
//     as a wind).
//   - guafeng: the dealer leads the first trick when its partner buried.
//   - guafeng: stuck declarations other than the final one stay hidden in
//     views until the deal ends; DeclarationTaken shows what the sticker took.
//   - guafeng: with several stuck seats the sticker takes one seat's
//     declaration only once the previous seat has all its cards back, so
//     each seat's trump obligation is met from the cards taken from it (the
//     sticker can always give back the very trumps it took). An escape
//     during the exchange or the kitty swap counts the cards each seat
//     holds at that moment.
//   - guafeng: the kitty swap comes after the exchange (the sticker knows
//     its hand); the sticker sees the kitty from KittySwapOpened on, and its
//     own swaps; the burier keeps seeing the kitty as it buried it (the
//     swaps are the sticker's, as the sticker's hand is); other seats see
//     neither. The sticker is never the burier (the burier is the dealer,
//     or the dealer's partner when the dealer declared).
//   - Escape: cards left count the escaper's dealt cards not yet played,
//     drawn or not (the dealer's kitty while held); levels and the next
//     dealer stay as they were: a 悶牌 drop of the escaped deal is undone
//     (Result.levels are the levels standing, Result.level the one the
//     hand was played at), and the replayed deal, if nobody declares
//     again, drops from the level before it.
//   - Until the trump is public, the order a seat is shown its cards in
//     (its hand, its legal actions) must not give the hidden suit away:
//     trumps sort first. Between KittyTaken, which fixes the trump, and
//     the bury, every seat but the final declarer (the only one who knows
//     the suit) sees the order with no trump suit: jokers and level cards
//     (guafeng: and 2, 3, 5) first, then ♠ ♥ ♣ ♦. KittyBuried's cards,
//     which only the burier sees, arrive with TrumpRevealed and are in the
//     trump's order.
//   - The view (view.go) gives a client what it plays from without
//     anything hidden: trump and trump_order (the trump classes, highest
//     first) are null until the viewer may know the trump: the final
//     declarer from KittyTaken on (it chose the suit), everyone once it is
//     public (TrumpRevealed, KittyFlipped, qiangbao's show) or the hand is
//     over; "none" is qiangbao's 无主. level and side_order are null before
//     the first deal; side_order depends on the level alone. sides label
//     each side's level, role (dealer or defenders) and trick points;
//     trick_winner is the seat winning the running trick, which exists only
//     after the reveal.
//   - qiangbao: a pair may override a single shown by the same seat (the
//     rules file names no seat); 无主 ranks every level card right under
//     BJ, so a level pair and a BJ pair form a tractor; the bury goes one
//     card per action; an escape pays ningyang's 16 × stake and does not
//     count as one of the match's hands; a timed-out seat in a first
//     hand's final window shows its lowest level card rather than void
//     the deal, and the bot does the same.
//   - guafeng: owed_cards is public (CardGiven.left) but owed_trumps, which
//     drops only when the hidden card given pays a trump, is shown to the
//     sticker and the stuck seat it is giving to only.
//
// # Turn clock, timeouts and the bot (table.Autoplay)
//
// Awaited, per phase: "drawing", the seat round mod 4 (any seat may draw,
// and one draw deals a card to every seat, so the clock waits for one seat,
// a different one each round; the other seats may draw or declare, but the
// draw goes on without them, so they are not awaited); "declaring", every
// seat that has not passed (the window closes only when all four have);
// "burying", the burier; "exchanging", the sticker, in the kitty swap too
// (until it passes); "playing", the seat in turn. Nobody between hands.
//
// Timeout, per phase (the cards sorted as Legal lists them for the seat):
//
//   - drawing: draw.
//   - declaring: pass, never a declaration (rules README, Clocks, timeouts
//     and absent players), in guafeng's and qiangbao's first hand too, where
//     a window closing without a declaration deals again (DealVoided
//     "no_declaration", seed 003 第一局無人亮主，則須重新發牌). A table whose
//     every seat is absent (each timed out or delegated, none acted) through
//     3 such deals in a row closes with reason "abandoned", nothing settled
//     (table.Abandoning; guafeng and qiangbao, not ningyang, whose timeouts
//     always play a hand out). The versions before (guafeng/1, guafeng/2,
//     qiangbao/1: timeoutDeclares) had the seat make its declaration with
//     the fewest cards there, if it had one, and never abandoned a table.
//   - burying: the 4 lowest cards; in guafeng every joker the burier holds
//     first (at most 4, the rule), then its lowest cards no stick takes.
//   - exchanging: give back the lowest card the exchange allows; in the
//     kitty swap, pass (the swap is an option: the kitty stays as it is).
//   - playing: lead the lowest single; follow with the lowest legal follow:
//     the led class first, its lowest pairs when the lead has pairs, then
//     the lowest cards (on a trump lead out of pairs, the highest trumps, as
//     the rule demands); a thunder lead, the legal follow of lowest cards.
//
// "Lowest": side-suit cards before trumps, then by position in the class
// (order.go), then ♦ ♣ ♥ ♠.
//
// Bot: it reads only its seat's view (the trump suit once the seat knows
// it, its hand, the trick) and its legal actions, and scores each legal
// action once, taking the first of the best (linear in the legal list).
// Draw and window: it declares (or sticks, or 沖主) in a suit holding at
// least a third of its cards, with 6 drawn or more, preferring the longest
// suit and more pairs; it always reinforces; in guafeng's first hand it
// declares its longest suit in the window rather than let the deal void.
// Bury: low cards of short side suits, no points, no trumps, emptying a
// suit if it can. Exchange: its lowest card without points; kitty swap:
// every swap it may (a trump for a side card of its rank), then pass. Lead: a side
// suit's top cards (pairs and tractors first), else a low side card
// without points; trumps when they are half its hand or form a high pair.
// Follow: with its partner winning, it feeds points when that is safe (the
// last play, or the partner's play is a suit's top or a high trump), else
// plays low; with an opponent winning it follows or ruffs to win as
// cheaply as the trick's points make worthwhile, else plays its cheapest
// cards without points.
package shengji
