// Package doudizhu is 斗地主 (Dou Dizhu) as a table.Game: the rules of
// rules/doudizhu.md in the design documents (seeds 002 and 004). This version
// plays the variant "classic" (three players, one deck, 叫分 bidding); the
// variant config in game.go is where "hubei" and "fourplayer" will differ.
//
// # Dealing (auditors re-implement this)
//
// A deal of hand h, deal d (d > 1 after a thrown-in deal) from the 32-byte
// seed:
//
//  1. deck, stream := cards.Shuffled(seed, 1): the 54 cards in canonical order
//     (♠2..♠A, ♥2..♥A, ♣2..♣A, ♦2..♦A, BJ, RJ) shuffled by Fisher–Yates driven
//     by the seed's SHA-256 counter stream (see package cards).
//  2. Card i of the shuffled deck, for i = 0..50, goes to seat i mod 3. Cards
//     51, 52 and 53 are the kitty (底牌).
//  3. The first bidder: for the first deal of the table (hand 1, deal 1) it is
//     stream.Below(3), the next draw from the same stream after the shuffle.
//     A re-deal keeps the first bidder of the deal it replaces; the first deal
//     of every later hand moves it to the next seat, (previous + 1) mod 3.
//     Nothing else is ever drawn from the stream.
//  4. HandDealt records the commitment SHA-256(seed), each seat's 17 cards
//     and the kitty, each sorted in display order (Sort: 斗地主 rank from 3
//     up to RJ, then ♠ ♥ ♣ ♦), and the first bidder as FirstSeat.
//
// # Events
//
// Besides the table's events (HandDealt, DealVoided, HandSettled,
// PlayerEscaped) the game emits these, JSON as shown; cards use the card
// notation, ranks and card types are written by name:
//
//	DealSecret     {"hand":1,"deal":1,"seed":"<64 hex>"}   follows HandDealt; (the table's event) hidden from all but the auditor until the deal ends
//	BidMade        {"seat":0,"bid":2}
//	BidPassed      {"seat":1}
//	LandlordChosen {"seat":0,"bid":2,"kitty":["S3","HQ","RJ"]}   the kitty, shown to all, joins the landlord's hand
//	CardsPlayed    {"seat":0,"cards":["S3","H3","C3","D9"],"reading":{"type":"trio_single","main":"3","length":1}}
//	PlayPassed     {"seat":1}
//
// A deal ends with DealVoided{reason "all_passed"} when all three pass the
// bidding, or with HandSettled whose result is a Result: {"end":
// "played_out"|"escape", "landlord", "winner": "landlord"|"farmers",
// "bid", "multiplier", "spring", "anti_spring", "cards_left", and for an
// escape "escaper" and "penalty"}. Both reveal the seed.
//
// # Actions
//
//	{"type":"bid","bid":1|2|3}   bidding, in turn from the first bidder; each seat speaks once
//	{"type":"pass"}              不叫 in the bidding, 不出 in the play (not when leading)
//	{"type":"play","cards":["S3","H3"],"as":"pair"}   "as" optional
//	{"type":"escape"}            handled by the table, settled by the game
//
// # Reading a play
//
// Classify lists every reading of a multiset of cards: a type (single, pair,
// trio, trio_single, trio_pair, straight, pair_straight, airplane,
// airplane_singles, airplane_pairs, four_two_singles, four_two_pairs, bomb,
// rocket), a main rank and a chain length. Kickers follow the rules file's
// Decision: never of a body rank, singles may pair, never the rocket, never
// four of a rank, kicker pairs are real pairs. A play with several readings
// is read as the client's "as" names, else as the reading that outranks the
// others among those that may be played now (that beat the play on the
// table, or all of them when leading); see Reading.Outranks. The reading is
// recorded in CardsPlayed, so replays never re-derive it.
//
// Legal lists each legal play once per multiset of cards (suits matter: S3
// and H3 are two plays). When a multiset may be played now under readings of
// more than one type (only the airplane family can be: 333444555666 leads as
// an airplane or as an airplane with kickers), it is listed once per type
// with "as" set; Decide also accepts it without "as", read as above.
//
// # Settling
//
// Played out: each farmer pays (landlord won) or receives stake × bid, ×2 for
// a spring (the farmers never played) or an anti-spring (the landlord made
// only the opening play and a farmer went out); the landlord's delta balances.
// Escape: the escaper pays stake × current multiplier (the bid, 1 before the
// landlord is known) × 16 as landlord or × 8 as farmer; an escape before the
// landlord is known is a farmer's. The penalty is split equally among the
// other seats, any remainder to the lowest of them.
package doudizhu
