// Package doudizhu is 斗地主 (Dou Dizhu) as a table.Game: the rules of
// rules/doudizhu.md in the design documents (seeds 002 and 004), in three
// variants, each with its own rules version:
//
//	classic     doudizhu/classic/2     3 players, one deck, 叫分 bidding (002)
//	hubei       doudizhu/hubei/3       3 players, one deck, 叫分 then 抢地主, 明牌, multipliers (004)
//	fourplayer  doudizhu/fourplayer/3  4 players, two decks, bidding and scoring as hubei (004)
//
// # Rules versions
//
// A table replays under the rules version it was opened with (Game.RulesAt;
// docs/OPERATIONS.md, Rules versions). Each older version is the current
// variant with its old behaviour switched back on by a field of the
// variant, set only for that version:
//
//   - doudizhu/hubei/2 and doudizhu/fourplayer/2: a seat that passed (不叫)
//     the call has given up its grab; when both (or all three) other seats
//     passed, LandlordChosen follows CallWon at once (doudizhu.md, Bidding,
//     hubei, revised Decision). doudizhu/hubei/1 and doudizhu/fourplayer/1
//     (grabAfterPass) let every seat after the caller grab, a seat that
//     passed the call too.
//   - doudizhu/classic/2, doudizhu/hubei/3 and doudizhu/fourplayer/3: a
//     timeout passes wherever passing is legal, the last bidder after every
//     other seat passed too, so the deal is thrown in and dealt again; a
//     table whose every seat is absent through 3 such deals in a row closes
//     with reason "abandoned" (rules README, Clocks, timeouts and absent
//     players; Turn clock below). doudizhu/classic/1, doudizhu/hubei/2 and
//     doudizhu/fourplayer/2 (and the /1s before them; timeoutBids) had that
//     last bidder bid 1 and never abandoned a table.
//
// # Options
//
// Every variant takes {"hands": N}, an integer from 1 to 1,000,000, for a
// match of N hands (002's tournament plays 5); without it the table plays
// hands without end. The house rules of doudizhu.md, Table options, are
// fields of the variant the rules read: "cap" (3..1,000,000), "bomb_double"
// (classic only), "spring" (1..4), "double" (the doubling phase below) and
// "show_counts" (view only). Any other key, a key the variant does not take,
// and a bad value are invalid_option naming the key. The normalized
// (recorded) options leave every key at its default out, so {} and
// {"hands":N} are as before; ShownOptions fills the defaults in.
//
// Scoring under the options: M is the multiplier as below, × 2 per bomb and
// rocket in classic with bomb_double, × the spring factor for a spring
// (classic: also for an anti-spring). Farmer f settles at S_f = min(M × its
// double factor, cap); the landlord at minus the sum. Result.multiplier stays
// M; "settled" (per seat), "factors" and "cap" say what changed it. An
// escape pays min(current multiplier, cap) × 16 or × 8, factors ignored.
//
// # Dealing (auditors re-implement this)
//
// A deal of hand h, deal d (d > 1 after a thrown-in deal) from the 32-byte
// seed, with n seats (3, or 4 in fourplayer), k decks (1, or 2) and a kitty
// of K cards (3, or 8):
//
//  1. deck, stream := cards.Shuffled(seed, k): the k×54 cards in canonical
//     order (♠2..♠A, ♥2..♥A, ♣2..♣A, ♦2..♦A, BJ, RJ, then the second deck
//     likewise) shuffled by Fisher–Yates driven by the seed's SHA-256
//     counter stream (see package cards).
//  2. Card i of the shuffled deck, for i below k×54 − K, goes to seat i mod n
//     (17 cards each with one deck, 25 with two). The last K cards are the
//     kitty (底牌).
//  3. The first bidder: for the first deal of the table (hand 1, deal 1) it is
//     stream.Below(n), the next draw from the same stream after the shuffle.
//     A re-deal keeps the first bidder of the deal it replaces; the first deal
//     of every later hand moves it to the next seat, (previous + 1) mod n.
//     Nothing else is ever drawn from the stream.
//  4. HandDealt records the commitment SHA-256(seed), each seat's cards
//     and the kitty, each sorted in display order (climb.Sort: 斗地主 rank from 3
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
// hubei and fourplayer add (and their LandlordChosen carries "multiplier",
// the bidding's multiplier; classic's never does):
//
//	CallWon        {"seat":2,"bid":3}                          the call phase's winner; the grab phase follows
//	GrabMade       {"seat":0,"multiplier":6}                   抢地主; {"seat":2,"back":true,"multiplier":24} is the caller's grab-back
//	GrabDeclined   {"seat":1}                                  不抢
//	HandOpened     {"seat":2,"cards":["S3",…],"multiplier":48} 明牌: the landlord's whole hand, shown to everyone
//
// The option "double" adds, in the doubling phase between LandlordChosen and
// the first play (the farmers in turn from the landlord's next seat, then
// the landlord if a farmer doubled):
//
//	DoubleMade     {"seat":1}                                  加倍; {"seat":0,"back":true} is the landlord's double-back
//	DoublePassed   {"seat":2}
//
// A fourplayer bomb or rocket reading carries its number of cards:
// {"type":"bomb","main":"7","length":1,"count":6}. A match adds, in the batch
// of the HandSettled that ends it:
//
//	MatchEnded     {"hands":5,"standings":[{"place":1,"seat":2,"player_id":"P3","players":["P3"],"total":12},…]}
//	TableClosed    {"reason":"match_over","totals":[-4,-8,12]}   (the table's event)
//
// A deal ends with DealVoided{reason "all_passed"} when every seat passes the
// bidding, or with HandSettled whose result is a Result: {"end":
// "played_out"|"escape", "landlord", "winner": "landlord"|"farmers",
// "bid", "multiplier", "spring", "anti_spring", "cards_left", and for an
// escape "escaper" and "penalty"; hubei and fourplayer add
// "bid_multiplier", "grabs", "grab_back", "open", "bombs", "rockets" (each
// omitted when zero or false)}. Both reveal the seed.
//
// # Actions
//
//	{"type":"bid","bid":1|2|3}   bidding (the call phase), in turn from the first bidder; each seat speaks once
//	{"type":"grab"}              hubei, fourplayer: 抢地主 in the grab phase
//	{"type":"pass"}              不叫 in the bidding, 不抢 in the grab phase, 不出 in the play (not when leading)
//	{"type":"open"}              hubei, fourplayer: 明牌, the landlord before their first play
//	{"type":"double"}            option double: 加倍 in the doubling phase (the landlord's is its double-back); pass declines
//	{"type":"play","cards":["S3","H3"],"as":"pair"}   "as" optional
//	{"type":"escape"}            handled by the table, settled by the game
//
// # The grab phase and 明牌 (hubei, fourplayer)
//
// The call phase is classic's bidding; when it has a winner (CallWon) each
// other seat in turn from the caller's left may grab once or decline, except
// a seat that passed (不叫) when it was its turn to call: it has given up its
// grab (doudizhu.md, revised Decision; 004: 叫分不叫视放弃; rules /2, see
// Rules versions). A seat that called
// and was outbid may grab, and so may one that never spoke because a call of
// 3 ended the call phase. When no seat may grab (both others passed the
// call), LandlordChosen follows CallWon at once. Every
// grab doubles the multiplier and makes the grabber the provisional landlord.
// Then, if anyone grabbed, the caller may grab back once. The bidding's
// multiplier, bid × 2 per grab, never exceeds 24 (004: 该轮最大基础分为
// 本次对局分的24倍): in hubei 3 × 2 × 2 × 2 reaches it exactly; in
// fourplayer, with three others to grab, a fourth doubling stops at 24
// (our reading of "bidding as hubei"). Grabbing is allowed after any winning
// call (doudizhu.md Decision). The landlord leads and, before their first
// play, may play open: HandOpened shows their hand, and every view shows the
// landlord's current hand (GameView.open_hand) from then on.
//
// # Matches
//
// With {"hands": N}, after the N-th settled hand (escapes count) the match
// ends when exactly one seat has the highest total; otherwise extra hands are
// dealt until one does. Standings are per seat, as the table's totals are: a
// seat an escaper left and another player took keeps one total, and its
// standing names every player who held it in a dealt hand ("players") and
// the last of them ("player_id"). The game view shows the match (hands,
// played, over, standings) throughout; after MatchEnded no deal follows.
//
// # Reading a play
//
// Classify lists every reading of a multiset of cards: a type (single, pair,
// trio, trio_single, trio_pair, straight, pair_straight, airplane,
// airplane_singles, airplane_pairs, four_two_singles, four_two_pairs, bomb,
// rocket), a main rank and a chain length. Kickers follow the rules file's
// Decision: never of a body rank, singles may pair, never the rocket, never
// four of a rank, kicker pairs are real pairs; three kicker singles may
// share one rank (333444555 + 777 is an airplane with singles). A play with
// several readings is read as the client's "as" names, else as the reading
// that outranks the others among those that may be played now (that beat
// the play on the table, or all of them when leading): the highest main
// rank, then the longer chain (doudizhu.md, Card types Decision); see
// Reading.Outranks. The reading is
// recorded in CardsPlayed, so replays never re-derive it.
//
// Legal lists each legal play once per multiset of cards (suits matter: S3
// and H3 are two plays; with two decks the two copies of S3 are one card
// twice, so S3 is one play). When a multiset may be played now under
// readings of more than one type (only the airplane family can be:
// 333444555666 leads as an airplane or as an airplane with kickers), it is
// listed once per type with "as" set; Decide also accepts it without "as",
// read as above.
//
// fourplayer reads two decks (doudizhu.md, fourplayer Decision): bombs are 4
// to 8 cards of a rank and beat each other by their number of cards, then by
// rank; the four jokers are the rocket; BJ BJ and RJ RJ are pairs and BJ + RJ
// is nothing. Kickers may not be the rocket (the four jokers there), so
// 4444 + BJ + RJ is a four + two singles in fourplayer but not in the
// one-deck variants.
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
//
// hubei and fourplayer: the multiplier is the bidding's (bid × 2 per grab,
// at most 24), × 2 if open, × 2 per bomb and × 4 per rocket played by
// anyone, × 4 for a spring, × 2 when a farmer went out and the landlord had
// played only once (004; the result's "anti_spring"). Each farmer pays or
// receives stake × multiplier; the landlord the opposite sum. An escape is
// charged at the current multiplier: 1 in the call phase, the bidding's in
// the grab phase (where the provisional landlord counts as landlord), and
// in the play the bidding's × open × bombs × rockets so far. The current
// multiplier is public in every view (GameView.multiplier).
//
// # Turn clock and bot (table.Autoplay)
//
// Awaited is the seat on turn in every phase (bidding, grabbing, playing);
// no other seat ever has a legal action. A seat whose time runs out: in the
// bidding passes (不叫), the last seat to speak after every other seat
// passed too, so the deal is thrown in and dealt again (002: 如果都不叫，則
// 重新發牌); in the grab phase declines (不抢); in the play passes (不出)
// when following, and when leading plays its lowest card (climb.Sort's
// order) as a single. It never bids, grabs or plays open (rules README,
// Clocks, timeouts and absent players). A table whose every seat is absent
// (each timed out or delegated, none acted) through 3 deals in a row thrown
// in closes with reason "abandoned" (table.Abandoning), settling nothing for
// them; a server bot's seat is never absent. Before (timeoutBids) the last
// bidder after passes bid 1.
//
// The bot reads only its view and legal list. It bids by hand strength
// (jokers, 2s, aces and bombs against the plays the hand needs): 3, 2 or 1
// as strength allows and the bids so far permit, else pass; grabs only a
// hand worth 3; never plays open. In the play it shares the climbing games'
// policy (climb.Shapes.Choose): shed the hand in the fewest plays
// (straights of 5, pair straights of 3, airplanes, trios with a kicker),
// lowest first, keeping bombs and the rocket; a farmer lets the other
// farmer's play win; any play, bombs included, stops the landlord (or a
// farmer, for the landlord) holding 2 cards or fewer.
package doudizhu
