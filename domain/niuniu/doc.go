// Package niuniu is 牛牛 (Niuniu, "bull") as a table.Game: the rules of
// rules/niuniu.md in the design documents (seed 004). This version plays the
// variant "classic" under rules version "niuniu/classic/2".
//
// # Rules versions
//
// A table replays under the rules version it was opened with (Game.RulesAt;
// docs/OPERATIONS.md, Rules versions):
//
//   - niuniu/classic/2: a player's escape forfeits its own bout only
//     (BoutForfeited) and the others play on to the reveal (niuniu.md,
//     Escape, revised Decision); see Comparing and settling.
//   - niuniu/classic/1 (Rules.escapeCancelsBouts): a player's escape ends
//     the hand at once with PlayerEscaped and HandSettled; the escaper, 没牛,
//     pays the banker stake × the banker's multiplier, and the other
//     players' bouts are not played (delta 0). A banker's escape is the same
//     under both.
//
// # Table options
//
//	{"seats": 2..4, "banker": 0..seats-1, "arrange_seconds": 0..3600,
//	 "banker_mode": "fixed"|"rotate"|"random",
//	 "multipliers": {"bull_7","bull_8","bull_9","bull_bull": 1..20},
//	 "special_hands": {"five_small","bomb","five_face": 1..50},
//	 "jokers": true|false}
//	defaults {"seats":4,"banker":0} (arrange_seconds 0: no deadline;
//	banker_mode fixed; multipliers the seed's; no special hands; jokers true)
//
// The banker (庄家) is by default the seat the table names when it is opened
// (seed: "庄位由房间指定位置") and stays the banker for every hand of the
// table; the other seats are players (闲家), each playing against the
// banker only. arrange_seconds is the table's deadline: how long after the
// deal the seats have to arrange (see Reveal). The house rules of
// niuniu.md, Table options:
//
//   - banker_mode rotate: hand h's banker is (banker + h − 1) mod seats;
//     random: the seed draws each hand's banker (see Dealing), and the key
//     banker is refused with it. The banker is HandDealt.first_seat, public
//     before anyone arranges.
//   - multipliers: what 牛7, 牛8, 牛9 and 牛牛 pay; a missing key keeps the
//     seed's value (2, 3, 4, 5), and the four must not decrease. 牛1–牛6 and
//     没牛 pay ×1. Escapes pay by the same table.
//   - special_hands: the special classes the table plays and what each
//     pays, at least the 牛牛 multiplier: five_small (五小牛: every card A–4,
//     values summing to at most 10) > bomb (炸弹牛: four of a rank) >
//     five_face (五花牛: every card J, Q or K; a joker is none) > 牛牛. A
//     hand takes its highest special class at the reveal from its five
//     cards, whatever it arranged (a seat that escaped stays 没牛); escapes
//     value the seats the same way. Two equal special classes compare, with
//     no banker's edge, bombs by the four's rank (A low, K high; by
//     "bomb_rank"), the others by the highest card then suit.
//   - jokers false: 52 cards, BJ and RJ left out (see Dealing).
//
// The recorded options (TableOpened.options) hold seats, banker (unless
// banker_mode is random) and every other key only when it is not its
// default, so a table opened without the new keys records what it did
// before them; multipliers, when recorded, hold all four classes. Unknown
// keys, values out of range and refused combinations are invalid_option,
// naming the key.
//
// # Dealing (auditors re-implement this)
//
// A hand h from the 32-byte seed, at a table of n seats:
//
//  1. deck, stream := cards.Shuffled(seed, 1): the 54 cards in canonical
//     order (♠2..♠A, ♥2..♥A, ♣2..♣A, ♦2..♦A, BJ, RJ) shuffled by Fisher–Yates
//     driven by the seed's SHA-256 counter stream (see package cards). Under
//     jokers false the deck is the first 52 of that order (no BJ, RJ),
//     shuffled by the same Fisher–Yates from a fresh stream of the seed.
//  2. Card i of the shuffled deck, for i = 0..5n-1, goes to seat i mod n;
//     the other cards are not used and not recorded (the kitty is empty).
//  3. The banker: the option banker under banker_mode fixed; under rotate
//     (banker + h − 1) mod n; under random stream.Below(n), the next draw
//     from the stream after the shuffle. Nothing else is drawn.
//  4. HandDealt records the commitment SHA-256(seed) and each seat's five
//     cards in display order (Sort: A, 2, …, 10, J, Q, K, BJ, RJ; within a
//     rank ♠ ♥ ♣ ♦), and the banker as FirstSeat. Hands are never re-dealt,
//     so Deal is always 1.
//
// # Actions
//
//	{"type":"arrange","cards":["S3","H7","DK"]}   name the bull: three of your cards summing to a multiple of 10
//	{"type":"no_bull"}                            declare 没牛
//	{"type":"reveal"}                             call the reveal, once the deadline has passed
//	{"type":"escape"}                             handled by the table, settled by the game
//
// Every seat, the banker included, arranges at once (View.Turn is null) and
// may arrange again, replacing its arrangement, until the reveal. An
// arrangement that is not three distinct cards of the hand summing to a
// multiple of 10 is rejected (not_a_bull, card_not_in_hand, invalid_action)
// and changes nothing. Declaring no bull is always allowed, even with a bull
// in hand. Every bull of a hand makes the same class (the other two cards
// sum, mod 10, to the whole hand's sum mod 10), so the only choice that
// matters is bull or no bull; Legal lists every bull nonetheless.
//
// # Reveal
//
// The reveal (摊牌) happens in the batch of the arrangement that leaves no
// seat unarranged, or "when the table's clock runs out": at a table with
// arrange_seconds = d, any seat may post reveal from d seconds after the
// deal on, and every seat that has not arranged by then is 没牛, bull or
// not (seed: "不拼牌,按无牛处理"). The time is the service's: the deal is
// dated in HandDealt.at (table.DealClock) and the reveal carries the
// service's clock reading (table.Action.At), recorded in RevealCalled.at, so
// an auditor re-decides the reveal from the record alone. A deal with no
// date (the service did not date it) has no deadline. Legal lists reveal
// only through LegalAt (table.Timed), given the time; the view's "deadline"
// says when it becomes legal. Before it, reveal is refused with
// deadline_not_reached (a conflict) and changes nothing.
//
// # Hidden information
//
// Until the hand ends each seat sees only its own five cards (the table
// redacts HandDealt) and its own arrangement: Redact shows another seat's
// HandArranged as {"seat":n,"hidden":true}. The reveal ends the hand, so from
// then on every event, HandDealt and the arrangements included, is shown.
//
// # Events
//
// Besides the table's events (HandDealt, DealSecret, HandSettled,
// PlayerEscaped) the game emits these, JSON as shown; cards use the card
// notation, classes are written by name ("no_bull", "bull_1".."bull_9",
// "bull_bull"; at the reveal, with special_hands, also "five_face", "bomb",
// "five_small"):
//
//	HandArranged  {"seat":1,"cards":["S3","H7","DK"],"reading":"bull_6"}
//	HandArranged  {"seat":2,"reading":"no_bull"}
//	RevealCalled  {"seat":2,"at":"2026-11-29T12:00:30Z"}
//	HandsRevealed {"hand":1,"hands":[{"seat":0,"cards":["S3","H7","C9","DK","RJ"],"bull":["S3","H7","DK"],"reading":"bull_9","high":"RJ"}, …]}
//	BoutForfeited {"seat":2,"multiplier":3,"delta":-6}   follows a player's PlayerEscaped; others see {"seat":2,"hidden":true} until the hand ends
//	BoutForfeited {"seat":2,"multiplier":3,"delta":-6,"banker":1}   the same under banker_mode rotate or random, naming the hand's banker
//
// RevealCalled is always followed by HandsRevealed; HandsRevealed is always
// followed by the HandSettled of the hand, whose result is a Result:
// {"end":"revealed"|"deadline"|"escape","banker","readings","high",
// "bouts":[{"seat","winner":"banker"|"player","by":"class"|"high_card"|
// "banker_edge"|"escape"|"bomb_rank","multiplier","delta"}], for an escape that ended
// the hand "escaper", and "escaped": the players who escaped during the hand
// (omitted when none)}. It reveals the seed.
//
// # Comparing and settling
//
// Values: A = 1, 2–10 face value, J/Q/K and both jokers 10 (Decision). Each
// player's bout against the banker: the higher class wins (牛牛 > 牛9 > … >
// 牛1 > 没牛); within a class, if both highest cards are Q or lower the
// banker wins (the banker's edge, for bulls by the seed and for two no-bull
// hands by the file's Decision), else the higher highest card wins, ranks RJ
// > BJ > K > Q > … > A, then ♠ > ♥ > ♣ > ♦. The loser pays stake × the
// winner's multiplier (牛牛 ×5, 牛9 ×4, 牛8 ×3, 牛7 ×2, else ×1, or the
// table's multipliers and special_hands) to the winner; the banker's delta
// is minus the sum of the players'.
//
// Escape (niuniu.md, Escape, revised Decision): one seat's escape never
// cancels another seat's bout. A player who escapes is 没牛 and loses its
// bout at once: BoutForfeited records stake × the banker's multiplier, and
// the seat leaves the hand (no action, never awaited, no cards in its view,
// even for a player who takes the empty seat before the hand ends; that
// player's own escape only empties the seat again). Everyone else plays on to
// the reveal (or the deadline) and settles as usual; the HandSettled that
// ends the hand pays the forfeited bouts with the others. An escape that
// leaves no unarranged seat brings the reveal in the same batch; the escape
// of the last player still in the hand ends it with the settlement alone
// (end "escape"). A banker who escapes ends the hand: it pays every player
// still in it stake × that player's multiplier, and the forfeited bouts
// stand. Our Decision for the side that stays: a seat is valued at its
// arrangement if it made one, else at the best bull of its hand, since the
// escape took away its time to arrange (and an escape must not pay less
// because the other side was slow). The forfeit is decided at the escape
// (a banker who arranges later changes nothing), and its multiplier tells
// the banker's class, so only the banker sees it before the hand ends.
//
// # Turn clock, timeouts and the bot (table.Autoplay)
//
// Awaited: while a hand is arranged, every seat that has neither arranged
// nor declared no bull, in seat order, but never a seat whose player
// escaped; nobody between hands. A seat that
// has arranged is not awaited although its Legal is not empty: it may
// arrange again until the reveal, and call the reveal once the deadline has
// passed, but the hand ends without either (the reveal comes with the last
// arrangement, or from any seat after arrange_seconds), so it is no seat's
// obligation.
//
// Timeout: an awaited seat whose time runs out declares no bull (没牛), the
// seed's rule for a seat that does not arrange ("不拼牌,按无牛处理"),
// even with a bull in hand. A seat's time runs out at the earlier of its
// turn clock and arrange_seconds (Rules.GameDeadline, table.GameDeadline),
// so the server reveals the hand at the deadline by itself: each unarranged
// seat times out (TurnTimedOut, no_bull) and the last one's no_bull is the
// reveal, with or without a turn clock. No client has to call the reveal;
// one may, from the deadline on, and its RevealCalled ends the hand first.
//
// Bot: arranges the bull that reads highest (every bull of a hand reads the
// same class, so the first one listed), else declares no bull; once its
// arrangement stands it calls the reveal when that is legal, else arranges
// again as before. Random legal play declares no bull with a bull in hand
// now and then; the bot never does.
package niuniu
